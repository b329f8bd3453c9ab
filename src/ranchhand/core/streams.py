"""Common random numbers: chance draws keyed by (stream, turn, draw in the turn).

A search that compares two moves by playing each on with random dice sees mostly the
dice: in Rancho one rollout's result varies by about half a win, while the moves differ
by a few hundredths. Played with the *same* dice, the two rollouts differ only where the
moves do, and the noise of the comparison shrinks several times (the statistician's
common random numbers). The dice must stay paired when the moves change how many draws
come before them, so a draw is keyed by its turn and its place in that turn, never by
how many draws came before.

:func:`point` is the whole scheme, a pure function of four integers (a SplitMix64
hash), so a compiled engine can draw exactly the same numbers (Rancho's fast engine
does). :class:`ChanceStream` is the same draws behind ``random.Random``'s
``randrange``, which is how every game's :meth:`State.sample_chance` draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ranchhand.core.game import CHANCE

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB


def mix(x: int) -> int:
    """SplitMix64's step on a 64-bit integer: every input bit moves every output bit."""
    x = (x + GOLDEN) & MASK
    x = ((x ^ (x >> 30)) * MIX_1) & MASK
    x = ((x ^ (x >> 27)) * MIX_2) & MASK
    return x ^ (x >> 31)


def point(stream: int, turn: int, k: int, total: int) -> int:
    """The ``k``-th draw of ``turn`` in ``stream``: a whole number in ``[0, total)``.

    ``stream``, ``turn`` and ``k`` are at least 0 and below 2**63. The remainder's bias is
    below ``total / 2**64``, nothing for any chance node of these games.
    """
    return mix(mix(mix(stream) ^ turn) ^ k) % total


class ChanceStream(random.Random):
    """A ``random.Random`` whose ``randrange(n)`` draws :func:`point` for the current turn.

    Call :meth:`at` with the state's turn before each chance draw (:func:`sample`
    does). Everything else ``random.Random`` offers (shuffles, choices) comes from the
    ordinary generator seeded with ``stream``, so a determinization made from it is the
    same for the same stream too.
    """

    def __init__(self, stream: int) -> None:
        super().__init__(stream)
        self.stream = stream
        self.turn = -1
        self.k = 0

    def fork(self) -> ChanceStream:
        """The same stream where this one stands (its turn and draws so far); drawing from
        the fork leaves this one as it is. Only :meth:`randrange`'s place is copied."""
        twin = ChanceStream(self.stream)
        twin.turn, twin.k = self.turn, self.k
        return twin

    def at(self, turn: int) -> None:
        """Draws from now on belong to ``turn`` (the count restarts when the turn changes)."""
        if turn != self.turn:
            self.turn, self.k = turn, 0

    def randrange(self, start: int, stop: Any = None, step: int = 1) -> int:  # type: ignore[override]
        if stop is not None or step != 1:
            return super().randrange(start, stop, step)
        drawn = point(self.stream, self.turn if self.turn >= 0 else 0, self.k, start)
        self.k += 1
        return drawn


def sample(state: Any, stream: ChanceStream) -> Any:
    """``state.sample_chance`` drawn from ``stream`` at the state's turn."""
    stream.at(state.turn)
    return state.sample_chance(stream)


def playout(
    state: Any,
    make_bot: Callable[[], Any],
    stream: ChanceStream,
    max_steps: int,
    rng: random.Random,
) -> tuple[list[float] | None, int, bool]:
    """The reference rollout: a bot from ``make_bot`` in every seat plays on ``state``
    (changed in place) for at most ``max_steps`` steps, chance drawn by :func:`sample` from
    ``stream``, the bots' own choices from ``rng``.

    Returns (each player's ``returns()`` if the game ended, else ``evaluate()`` where it
    stopped; the steps played; whether the game ended). The search rolls out with it, and
    a compiled playout (``Game.compiled_playout``) must give exactly what it gives.
    """
    bots = [make_bot() for _ in range(state.game.players)]
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            return state.evaluate(), steps, False
        if state.current_player() == CHANCE:
            state.apply(sample(state, stream), CHANCE)
        else:
            for player in state.acting_players():
                legal = state.legal_actions(player)
                state.apply(bots[player].act(state.observe(player), legal, rng), player)
        steps += 1
    return state.returns(), steps, True
