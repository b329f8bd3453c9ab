"""Glory Ranch: build a ranch of fantasy creatures, score Glory each round.

Exposes ``GAME``, ``BOTS`` and ``VIEW`` for the ranchhand registry.
"""

from ranchhand.games.glory_ranch.bots import BOTS
from ranchhand.games.glory_ranch.game import GloryRanch
from ranchhand.games.glory_ranch.state import GloryState
from ranchhand.games.glory_ranch.view import VIEW

GAME = GloryRanch

__all__ = ["BOTS", "GAME", "VIEW", "GloryRanch", "GloryState"]
