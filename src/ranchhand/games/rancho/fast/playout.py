"""The search's playouts in the compiled kernel: greedy bots play on from any position.

A search (``ismcts``) spends almost all its time in rollouts: from a position it has
imagined, every seat plays the greedy bot to the end, or for a number of steps. Here
that rollout runs in the kernel and gives exactly what the reference rollout gives
(``Game.compiled_playout``): the same moves, because the kernel's greedy bot decides as
``GreedyBot`` (fresh bots, as the search makes them), and the same dice, because every
chance node draws :func:`point`, the compiled twin of ``core.streams.point``, keyed by
the kernel's turn and the draw's place in that turn, as ``streams.sample`` keys it,
going on from where the search's ``ChanceStream`` stands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ranchhand.core.game import TRUNCATED, Outcome, State
from ranchhand.core.streams import GOLDEN, MIX_1, MIX_2, ChanceStream
from ranchhand.games.rancho.fast import greedy
from ranchhand.games.rancho.fast.engine import FastRancho
from ranchhand.games.rancho.fast.geometry import Geometry
from ranchhand.games.rancho.fast.kernel import (
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
    legal,
    new_table,
    over,
)
from ranchhand.games.rancho.fast.play import borrow, borrowed
from ranchhand.games.rancho.state import RanchoState, chances

# numba types a plain int above 2**63 as a float in mixed arithmetic: every number of
# the hash is an unsigned 64-bit integer, so its products wrap as SplitMix64's must.
_GOLDEN = np.uint64(GOLDEN)
_MIX_1 = np.uint64(MIX_1)
_MIX_2 = np.uint64(MIX_2)
_SHIFT_1 = np.uint64(30)
_SHIFT_2 = np.uint64(27)
_SHIFT_3 = np.uint64(31)


@njit(cache=True, inline="always")
def mix(x: np.uint64) -> np.uint64:
    """``streams.mix``: SplitMix64's step, wrapping at 64 bits."""
    x = x + _GOLDEN
    x = (x ^ (x >> _SHIFT_1)) * _MIX_1
    x = (x ^ (x >> _SHIFT_2)) * _MIX_2
    return x ^ (x >> _SHIFT_3)  # type: ignore[no-any-return]


@njit(cache=True)
def point(stream: int, turn: int, k: int, total: int) -> int:
    """``streams.point``: the ``k``-th draw of ``turn`` in ``stream``, in ``[0, total)``."""
    x = mix(mix(mix(np.uint64(stream)) ^ np.uint64(turn)) ^ np.uint64(k))
    return np.int64(x % np.uint64(total))  # type: ignore[return-value]


@njit(cache=True)
def play_on(
    g: Geometry,
    memo: Memo,
    t: Table,
    stream: int,
    turn: int,
    k: int,
    max_steps: int,
    max_turns: int,
    actions: np.ndarray,
    choice: np.ndarray,
) -> tuple[int, bool]:
    """Greedy bots in every seat play on from ``t`` until the game ends or ``max_steps``
    steps (decisions and chance outcomes) are played: (the steps played, whether the
    game ended). Chance goes on from ``stream`` where a ``ChanceStream`` stands: at draw
    ``k`` of ``turn``.

    The arrays are borrowed (``play.borrowed``): the caller keeps them alive.
    """
    g, memo, t = borrow(g, memo, t)
    actions, choice = borrowed(actions), borrowed(choice)
    steps = 0
    while steps < max_steps and not over(t, max_turns):
        phase = t.scalars[PHASE]
        if phase in (ROLL, STRIKE):
            if t.scalars[TURN] != turn:  # streams.ChanceStream.at: a new turn counts from 0
                turn = t.scalars[TURN]
                k = 0
            chance(g, memo, t, point(stream, turn, k, chance_total(g, t)))
            k += 1
        else:
            count = legal(g, memo, t, actions)
            greedy.choose(g, memo, t, actions, count, choice)
            apply(g, memo, t, choice)
        steps += 1
    return steps, over(t, max_turns)


class FastPlayout:
    """``Game.compiled_playout("greedy")`` for one loaded Rancho game (a ``Playout``).

    It keeps one kernel table and its action buffers, filled afresh at each call, so a
    call allocates nothing but its answer (and one call at a time: a search's rollouts
    follow one another); the engine's memo of fitting answers is shared by every call,
    as the reference engine's memo is by every state of a game.
    """

    def __init__(self, engine: FastRancho) -> None:
        self.engine = engine
        self.players = engine.game.players
        self.values = engine.game.tables.values
        self.table = new_table(engine.geometry)
        self._actions = np.zeros((MAX_ACTIONS, ROW), dtype=np.int64)
        self._choice = np.zeros(ROW, dtype=np.int64)

    def __call__(
        self, state: State, stream: ChanceStream, max_steps: int
    ) -> tuple[list[float], int, bool]:
        """Play on from ``state`` for at most ``max_steps`` steps, chance drawn as
        ``streams.sample`` would go on drawing from ``stream`` (neither is changed): (each
        player's returns if the game ended, else ``evaluate()`` where it stopped; the
        steps played; whether it ended)."""
        engine, t = self.engine, self.table
        if not isinstance(state, RanchoState) or state.game is not engine.game:
            # the tables were built for one game's options and player count
            raise ValueError(f"this playout plays positions of {engine.game!r} only")
        engine.load(state, t)
        steps, ended = play_on(
            engine.geometry,
            engine.memo,
            t,
            stream.stream,
            stream.turn,
            stream.k,
            max_steps,
            engine.max_turns,
            self._actions,
            self._choice,
        )
        if not ended:
            return chances(t.animals.tolist(), self.values), int(steps), False
        winner = int(t.scalars[WINNER])
        outcome = Outcome((winner,)) if winner >= 0 else TRUNCATED
        return outcome.returns(self.players), int(steps), True
