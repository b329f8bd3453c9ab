"""Whole games in the compiled kernel: each seat random or greedy, chance from a seed.

A game's generator is numba's ``np.random`` seeded with the game's seed, so a game is
the same for the same seed whatever else runs. Random seats choose uniformly among
the legal actions (as ``RandomBot``: one index in the list), chance outcomes are
drawn with their exact integer weights (as ``ChanceOutcomes.sample``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba import njit
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

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


def _borrowed(typingctx: Any, array: Any) -> Any:
    """The same array, its memory not reference-counted: for the arrays a run of games
    reads and writes all along, which its caller keeps alive. Every compiled call
    otherwise counts a reference to each array it is passed, atomically: a profile of
    random games (perf) put 31% of the samples in that counting, with twenty-odd arrays
    a call; with borrowed arrays it is gone from the profile."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        view = make_array(array)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


borrowed = cast(Callable[[np.ndarray], np.ndarray], intrinsic(_borrowed))


@njit(cache=True)
def borrow(g: Geometry, memo: Memo, t: Table) -> tuple[Geometry, Memo, Table]:
    """``g``, ``memo`` and ``t`` with every array :func:`borrowed`."""
    geometry = Geometry(
        g.players,
        g.pastures,
        g.per_space,
        g.max_pastures,
        g.deal_limit,
        borrowed(g.neighbours),
        borrowed(g.spaces),
        borrowed(g.ring),
        borrowed(g.shapes),
        borrowed(g.shape_counts),
        borrowed(g.kinds),
        borrowed(g.ladder),
        borrowed(g.rolls),
        borrowed(g.strikes),
    )
    answers = Memo(
        borrowed(memo.cells),
        borrowed(memo.used),
        borrowed(memo.regions),
        borrowed(memo.shapes),
        borrowed(memo.shape_counts),
    )
    table = Table(
        borrowed(t.scalars),
        borrowed(t.herd),
        borrowed(t.animals),
        borrowed(t.land),
        borrowed(t.owner),
        borrowed(t.pieces),
        borrowed(t.seats),
        borrowed(t.dogs),
        borrowed(t.bot_done),
    )
    return geometry, answers, table


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
    owned_actions = np.zeros((MAX_ACTIONS, ROW), np.int64)
    owned_choice = np.zeros(ROW, np.int64)
    actions, choice = borrowed(owned_actions), borrowed(owned_choice)
    policies = borrowed(policies)
    g, memo, t = borrow(g, memo, t)
    for i in range(seeds.shape[0]):
        steps = play_game(g, memo, t, seeds[i], policies, max_turns, actions, choice)
        winner = t.scalars[WINNER]
        results[i, 0] = winner
        results[i, 1] = t.scalars[TURN]
        results[i, 2] = steps
        results[i, 3] = t.scalars[EATEN]
        results[i, 4] = t.scalars[DOGS_GIVEN]
        results[i, 5] = popcount(t.land[winner]) if winner >= 0 else 0
    # used here so they live until now: their borrowed views hold no reference
    owned_actions[0, 0] = actions[0, 0]
    owned_choice[0] = choice[0]
