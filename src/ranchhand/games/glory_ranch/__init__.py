"""Glory Ranch: build a ranch of fantasy creatures, score Glory each round.

Exposes ``GAME``, ``BOTS`` and ``VIEW`` for the ranchhand registry.
"""

from ranchhand.games.glory_ranch.game import GloryRanch
from ranchhand.games.glory_ranch.state import GloryState

GAME = GloryRanch
BOTS: dict[str, type] = {}

__all__ = ["BOTS", "GAME", "GloryRanch", "GloryState"]
