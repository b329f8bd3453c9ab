"""What ``simulate`` and ``bench`` need of Super Farmer's compiled engine
(``ranchhand.sim.fast`` runs and times it as it does every game's): the engine, the bots
it plays and a game's result row as the summary the reference engine's workers send.
"""

from __future__ import annotations

import numpy as np

from ranchhand.core.game import GameSummary
from ranchhand.games.super_farmer.fast.engine import RESULT_COLUMNS, FastSuperFarmer, policy_of

engine = FastSuperFarmer
__all__ = ["engine", "policy_of", "summary_of"]


def summary_of(index: int, row: np.ndarray) -> GameSummary:
    """A kernel result row as the summary the reference engine's workers send (the
    details ``SuperFarmerState.details`` gives)."""
    values = dict(zip(RESULT_COLUMNS, (int(n) for n in row), strict=True))
    winner, turns = values.pop("winner"), values["turns"]
    values.pop("steps")
    details = {"winner": winner if winner >= 0 else None, **values}
    winners = (winner,) if winner >= 0 else ()
    return GameSummary(index, winners, winner < 0, turns, None, details)
