"""What ``simulate`` and ``bench`` need of Glory Ranch's compiled engine
(``ranchhand.sim.fast`` runs and times it as it does every game's): the engine, the bots
it plays and a game's result row as the summary the reference engine's workers send.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ranchhand.core.game import GameSummary
from ranchhand.games.glory_ranch.fast import kernel
from ranchhand.games.glory_ranch.fast.engine import FastGloryRanch, policy_of

engine = FastGloryRanch
__all__ = ["engine", "policy_of", "summary_of"]


def summary_of(index: int, row: np.ndarray) -> GameSummary:
    """A kernel result row as the summary the reference engine's workers send: winners,
    whether cut, turns, the final totals as scores, and the round counts
    :class:`~ranchhand.games.glory_ranch.summary.GlorySummary` adds up (per card by its
    index in the deck)."""
    values = [int(n) for n in row]
    players = values[kernel.R_PLAYERS]
    mask, turns = values[kernel.R_WINNERS], values[kernel.R_TURNS]
    winners = tuple(p for p in range(players) if mask >> p & 1)
    totals = values[kernel.R_TOTALS : kernel.R_TOTALS + players]
    per_card = values[kernel.R_TOTALS + players :]
    kinds = len(per_card) // 2
    counted: dict[str, Any] = {
        "rounds": values[kernel.R_ROUNDS],
        "turns": values[kernel.R_ROUND_TURNS],
        "player_rounds": values[kernel.R_PLAYER_ROUNDS],
        "round_wins": values[kernel.R_ROUND_WINS],
        "seen": per_card[:kinds],
        "won": per_card[kinds:],
    }
    details = {"winners": list(winners), "turns": turns, "totals": totals, "counted": counted}
    scores = tuple(float(t) for t in totals) if winners else None
    return GameSummary(index, winners, not winners, turns, scores, details)
