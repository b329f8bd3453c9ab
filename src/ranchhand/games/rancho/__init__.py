"""Rancho: breed rabbits, sheep, cows and horses on a hex board of pastures.

The package exposes ``GAME`` (the rules), ``BOTS`` (the greedy bot; "random" is
shared by every game) and ``VIEW`` (the terminal view).
"""

from ranchhand.games.rancho.bots import GreedyBot
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.view import VIEW

GAME = RanchoGame
BOTS: dict[str, type] = {"greedy": GreedyBot}
__all__ = ["BOTS", "GAME", "VIEW"]
