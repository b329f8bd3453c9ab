"""What ``simulate`` and ``bench`` need of Rancho's compiled engine (``ranchhand.sim.fast``
runs and times it as it does every game's): the engine, the bots it plays and a game's
result row as the summary the reference engine's workers send.
"""

from __future__ import annotations

import numpy as np

from ranchhand.core.game import GameSummary
from ranchhand.games.rancho.fast.engine import FastRancho, policy_of

engine = FastRancho
__all__ = ["engine", "policy_of", "summary_of"]


def summary_of(index: int, row: np.ndarray) -> GameSummary:
    """A kernel result row as the summary the reference engine's workers send."""
    winner, turns, _steps, eaten, dogs, pastures = (int(n) for n in row)
    details = {
        "winner": winner if winner >= 0 else None,
        "turns": turns,
        "eaten_value": eaten,
        "dogs_given": dogs,
        "winner_pastures": pastures,
    }
    winners = (winner,) if winner >= 0 else ()
    return GameSummary(index, winners, winner < 0, turns, None, details)
