"""Round scoring: Glory of the ranch, Hour Glass bonuses, minus penalties in hand.

Pure functions over card indices (ranches as lists of card indices, hands as
count lists), shared by the rules, the bots and the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ranchhand.games.glory_ranch.cards import Bonus, Deck


@dataclass(frozen=True)
class Tables:
    """Per-card numbers looked up on hot paths, precomputed from a deck."""

    glory: tuple[int, ...]
    penalty: tuple[int, ...]
    family: tuple[str, ...]
    bonus: tuple[Bonus | None, ...]
    bonuses: dict[tuple[tuple[int, ...], bool], int] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Memo of :func:`bonus_points` by ranch and empty hand, for ranches whose bonuses
    look at no other ranch (bots score every card they might play, at every decision)."""
    points: dict[tuple[tuple[int, ...], bool], int] = field(
        default_factory=dict, compare=False, repr=False
    )
    """The same memo for :func:`ranch_points` (Glory and bonuses together)."""

    @classmethod
    def of(cls, deck: Deck) -> Tables:
        return cls(
            tuple(c.glory for c in deck.cards),
            tuple(c.penalty for c in deck.cards),
            tuple(c.family for c in deck.cards),
            tuple(c.bonus for c in deck.cards),
        )


def _count(tables: Tables, ranch: Sequence[int], of: str) -> int:
    if of in ("cards", "any"):
        return len(ranch)
    family = tables.family
    return sum(1 for k in ranch if family[k] == of)


def bonus_points(
    tables: Tables, ranches: Sequence[Sequence[int]], player: int, hand_size: int
) -> int:
    """The Hour Glass Glory of ``player``'s ranch at round end."""
    key = (tuple(ranches[player]), hand_size == 0)
    known = tables.bonuses.get(key)
    if known is None:
        known, alone = _bonus(tables, ranches, player, hand_size)
        if alone:
            _remember(tables.bonuses, key, known)
    return known


def ranch_points(
    tables: Tables, ranches: Sequence[Sequence[int]], player: int, hand_size: int
) -> int:
    """Glory of the ranch's cards plus Hour Glass bonuses."""
    key = (tuple(ranches[player]), hand_size == 0)
    known = tables.points.get(key)
    if known is None:
        bonus, alone = _bonus(tables, ranches, player, hand_size)
        glory = tables.glory
        known = sum(glory[k] for k in ranches[player]) + bonus
        if alone:
            _remember(tables.points, key, known)
    return known


Memo = dict[tuple[tuple[int, ...], bool], int]
"""Points by (ranch, empty hand): see :attr:`Tables.bonuses`."""


def _remember(memo: Memo, key: tuple[tuple[int, ...], bool], points: int) -> None:
    """Keep ``points`` for ``key``, forgetting everything past 100,000 ranches."""
    if len(memo) > 100_000:
        memo.clear()
    memo[key] = points


def _bonus(
    tables: Tables, ranches: Sequence[Sequence[int]], player: int, hand_size: int
) -> tuple[int, bool]:
    """The Hour Glass Glory, and whether it depends on this ranch and hand alone (no
    "most" bonus compares it with the other ranches): then it may be remembered."""
    ranch = ranches[player]
    total = 0
    alone = True
    for slot, k in enumerate(ranch):
        bonus = tables.bonus[k]
        if bonus is None:
            continue
        kind = bonus.kind
        if kind == "family":
            total += bonus.glory * _count(tables, ranch, bonus.family)
        elif kind == "neighbour":
            near = [ranch[i] for i in (slot - 1, slot + 1) if 0 <= i < len(ranch)]
            total += bonus.glory * _count(tables, near, bonus.family)
        elif kind == "position":
            end = 0 if bonus.at == "left" else len(ranch) - 1
            total += bonus.glory if slot == end else 0
        elif kind == "most":
            alone = False
            mine = _count(tables, ranch, bonus.of)
            best = max(_count(tables, r, bonus.of) for r in ranches)
            total += bonus.glory if mine >= 1 and mine >= best else 0
        elif kind == "empty-hand":
            total += bonus.glory if hand_size == 0 else 0
        else:  # variety
            total += bonus.glory * len({tables.family[c] for c in ranch})
    return total, alone


def hand_penalty(tables: Tables, hand: Sequence[int]) -> int:
    """The penalties of the cards left in a hand (``hand`` counts copies per card)."""
    penalty = tables.penalty
    return sum(penalty[k] * n for k, n in enumerate(hand) if n)


def round_points(
    tables: Tables, ranches: Sequence[Sequence[int]], hands: Sequence[Sequence[int]]
) -> list[int]:
    """Every player's points for the round (may be negative)."""
    return [
        ranch_points(tables, ranches, p, sum(hands[p])) - hand_penalty(tables, hands[p])
        for p in range(len(ranches))
    ]


@dataclass(frozen=True)
class Breakdown:
    """Every player's round score in parts: points = glory + bonus - penalty.

    >>> parts = Breakdown((5, 0), (2, 0), (0, 3))
    >>> parts.points
    [7, -3]
    """

    glory: tuple[int, ...]
    """The Glory printed on the cards in each ranch."""
    bonus: tuple[int, ...]
    """The Hour Glass bonuses of each ranch."""
    penalty: tuple[int, ...]
    """The penalties of the cards left in each hand (a positive number, subtracted)."""

    @property
    def points(self) -> list[int]:
        return [g + b - p for g, b, p in zip(self.glory, self.bonus, self.penalty, strict=True)]


def round_breakdown(
    tables: Tables, ranches: Sequence[Sequence[int]], hands: Sequence[Sequence[int]]
) -> Breakdown:
    """The parts of every player's round score (their sum is :func:`round_points`)."""
    glory = tables.glory
    players = range(len(ranches))
    return Breakdown(
        tuple(sum(glory[k] for k in ranches[p]) for p in players),
        tuple(bonus_points(tables, ranches, p, sum(hands[p])) for p in players),
        tuple(hand_penalty(tables, hands[p]) for p in players),
    )


def add_round(totals: Sequence[int], points: Sequence[int]) -> list[int]:
    """New running totals: a total never goes below 0.

    >>> add_round([3, 10], [-5, 4])
    [0, 14]
    """
    return [max(0, t + p) for t, p in zip(totals, points, strict=True)]
