"""What ``simulate`` and ``bench`` need of Rocket Ranchers' compiled engine
(``ranchhand.sim.fast`` runs and times it as it does every game's): the engine, the bots
it plays and a game's result row as the summary the reference engine's workers send.
"""

from __future__ import annotations

import numpy as np

from ranchhand.core.game import GameSummary
from ranchhand.games.rocket_ranchers.fast import kernel
from ranchhand.games.rocket_ranchers.fast.engine import FastRocket, policy_of

engine = FastRocket
__all__ = ["engine", "policy_of", "summary_of"]


def summary_of(index: int, row: np.ndarray) -> GameSummary:
    """A kernel result row as the summary the reference engine's workers send (the
    details ``RocketState.details`` gives: each seat's score parts, Space Cats, corrals)."""
    winner, turns = int(row[kernel.R_WINNER]), int(row[kernel.R_TURNS])
    players = int(row[kernel.R_PLAYERS])
    parts = len(kernel.PARTS)
    seats = row[4 : 4 + players * parts].reshape(players, parts).T.tolist()
    details: dict[str, object] = dict(zip(kernel.PARTS, seats, strict=True))
    details["winner"] = winner if winner >= 0 else None
    winners = (winner,) if winner >= 0 else ()
    # A game cut at max_turns has no outcome's scores, as the reference's TRUNCATED.
    totals = seats[kernel.PARTS.index("score")]
    scores = tuple(float(t) for t in totals) if winner >= 0 else None
    return GameSummary(index, winners, winner < 0, turns, scores, details)
