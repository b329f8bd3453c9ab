"""Chance nodes: the outcomes of dice and draws, with exact probabilities.

Outcomes carry integer weights, so probabilities are exact fractions while
sampling stays a single integer draw from the injected generator.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from itertools import accumulate


class ChanceOutcomes:
    """The outcomes of one chance node, each with an integer weight.

    >>> dice = ChanceOutcomes(["heads", "tails"], [1, 1])
    >>> dice.probability("heads")
    Fraction(1, 2)
    >>> dice.sample(random.Random(0)) in dice
    True
    """

    __slots__ = ("_cumulative", "_index", "actions", "total", "weights")

    def __init__(self, actions: Sequence[Hashable], weights: Sequence[int]) -> None:
        if len(actions) != len(weights) or not actions:
            raise ValueError("a chance node needs one positive weight per outcome, and outcomes")
        if min(weights) <= 0:
            raise ValueError("chance weights must be positive")
        self.actions = tuple(actions)
        self.weights = tuple(weights)
        self._cumulative = tuple(accumulate(self.weights))
        self.total = self._cumulative[-1]
        self._index: dict[Hashable, int] | None = None

    @classmethod
    def uniform(cls, actions: Sequence[Hashable]) -> ChanceOutcomes:
        return cls(actions, [1] * len(actions))

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self) -> Iterator[tuple[Hashable, Fraction]]:
        return iter(self.probabilities())

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Hashable) and action in self._lookup()

    def _lookup(self) -> dict[Hashable, int]:
        if self._index is None:
            self._index = {a: i for i, a in enumerate(self.actions)}
        return self._index

    def probabilities(self) -> list[tuple[Hashable, Fraction]]:
        """Every outcome with its exact probability; they sum to 1."""
        return [
            (a, Fraction(w, self.total)) for a, w in zip(self.actions, self.weights, strict=True)
        ]

    def probability(self, action: Hashable) -> Fraction:
        index = self._lookup().get(action)
        return Fraction(0) if index is None else Fraction(self.weights[index], self.total)

    def sample(self, rng: random.Random) -> Hashable:
        """Draw one outcome with its probability from ``rng``."""
        point = rng.randrange(self.total)
        low, high = 0, len(self._cumulative) - 1
        while low < high:
            middle = (low + high) // 2
            if self._cumulative[middle] > point:
                high = middle
            else:
                low = middle + 1
        return self.actions[low]

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{a}: {w}/{self.total}" for a, w in zip(self.actions, self.weights, strict=True)
        )
        return f"<ChanceOutcomes {shown}>"


def draw_weighted(rng: random.Random, weights: Iterable[int], total: int) -> int:
    """The index :meth:`ChanceOutcomes.sample` picks among ``weights``, without building it.

    The same one ``rng.randrange(total)`` and the same outcome, so a game drawing from its
    counts this way plays a seeded game exactly as one listing its outcomes. ``weights``
    may hold zeros (never picked); if they stop short of ``total``, their number is returned
    for the rest (an outcome kept apart, like a deck's Space Cats).
    """
    return bisect_right(list(accumulate(weights)), rng.randrange(total))
