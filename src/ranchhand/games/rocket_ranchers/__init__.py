"""Rocket Ranchers: Herding Cats in Space! (game id ``rocket-ranchers``)."""

from ranchhand.games.rocket_ranchers.bots import BOTS
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.view import VIEW

GAME = RocketGame
__all__ = ["BOTS", "GAME", "VIEW"]
