"""ranchhand: play, study and simulate Rancho, Rocket Ranchers, Glory Ranch and Super Farmer.

>>> import ranchhand
>>> game = ranchhand.load("rancho", players=2)
>>> game.players
2
"""

__version__ = "0.1.0"

from ranchhand.core.registry import bot_factory, games, load

__all__ = ["__version__", "bot_factory", "games", "load"]
