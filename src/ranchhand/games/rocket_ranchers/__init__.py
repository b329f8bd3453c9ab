"""Rocket Ranchers: Herding Cats in Space! (game id ``rocket-ranchers``)."""

from ranchhand.games.rocket_ranchers.game import RocketGame

GAME = RocketGame
BOTS: dict[str, type] = {}
