"""Rancho: breed rabbits, sheep, cows and horses on a hex board of pastures."""

from ranchhand.games.rancho.game import RanchoGame

GAME = RanchoGame
BOTS: dict[str, type] = {}
