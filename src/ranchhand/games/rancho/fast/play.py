"""Whole games in the compiled kernel: each seat random or greedy, chance from a seed.

A game's generator is numba's ``np.random`` seeded with the game's seed, so a game is
the same for the same seed whatever else runs. Random seats choose uniformly among
the legal actions (as ``RandomBot``: one index in the list), chance outcomes are
drawn with their exact integer weights (as ``ChanceOutcomes.sample``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ranchhand.games.rancho.fast import greedy
from ranchhand.games.rancho.fast.geometry import Geometry
from ranchhand.games.rancho.fast.kernel import (
    DOGS_GIVEN,
    EATEN,
    MAX_ACTIONS,
    PHASE,
    ROLL,
    ROW,
    STRIKE,
    TURN,
    WINNER,
    Memo,
    Table,
    apply,
    chance,
    chance_total,
    current,
    legal,
    over,
    popcount,
    setup,
)

RANDOM, GREEDY = 0, 1
"""Policies by seat, as the ``policies`` array gives them."""
RESULT_COLUMNS = ("winner", "turns", "steps", "eaten_value", "dogs_given", "winner_pastures")
"""The columns of :func:`play_many`'s result rows."""


@njit(cache=True)
def play_game(
    g: Geometry,
    memo: Memo,
    t: Table,
    seed: int,
    policies: np.ndarray,
    max_turns: int,
    actions: np.ndarray,
    choice: np.ndarray,
) -> int:
    """One game from the start; the steps played (decisions and chance outcomes)."""
    np.random.seed(seed)
    setup(g, memo, t)
    steps = 0
    while not over(t, max_turns):
        phase = t.scalars[PHASE]
        if phase in (ROLL, STRIKE):
            chance(g, memo, t, np.random.randint(0, chance_total(g, t)))
        else:
            count = legal(g, memo, t, actions)
            if policies[current(t)] == GREEDY:
                greedy.choose(g, memo, t, actions, count, choice)
                apply(g, memo, t, choice)
            else:
                apply(g, memo, t, actions[np.random.randint(0, count)])
        steps += 1
    return steps


@njit(cache=True)
def play_many(
    g: Geometry,
    memo: Memo,
    t: Table,
    seeds: np.ndarray,
    policies: np.ndarray,
    max_turns: int,
    results: np.ndarray,
) -> None:
    """Play one game per seed; a row of :data:`RESULT_COLUMNS` each."""
    actions = np.zeros((MAX_ACTIONS, ROW), np.int64)
    choice = np.zeros(ROW, np.int64)
    for i in range(seeds.shape[0]):
        steps = play_game(g, memo, t, seeds[i], policies, max_turns, actions, choice)
        winner = t.scalars[WINNER]
        results[i, 0] = winner
        results[i, 1] = t.scalars[TURN]
        results[i, 2] = steps
        results[i, 3] = t.scalars[EATEN]
        results[i, 4] = t.scalars[DOGS_GIVEN]
        results[i, 5] = popcount(t.land[winner]) if winner >= 0 else 0
