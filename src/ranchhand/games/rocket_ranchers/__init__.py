"""Rocket Ranchers: Herding Cats in Space! (game id ``rocket-ranchers``)."""

from ranchhand.games.rocket_ranchers.bots import BOTS
from ranchhand.games.rocket_ranchers.game import RocketGame

GAME = RocketGame
__all__ = ["BOTS", "GAME"]
