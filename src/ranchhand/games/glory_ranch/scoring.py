"""Round scoring: Glory of the ranch, Hour Glass bonuses, minus penalties in hand.

Pure functions over card indices (ranches as lists of card indices, hands as
count lists), shared by the rules, the bots and the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import mul
from typing import NamedTuple

from ranchhand.games.glory_ranch.cards import Bonus, Deck


@dataclass(frozen=True)
class Tables:
    """Per-card numbers looked up on hot paths, precomputed from a deck."""

    glory: tuple[int, ...]
    penalty: tuple[int, ...]
    family: tuple[str, ...]
    bonus: tuple[Bonus | None, ...]
    parts: dict[tuple[tuple[int, ...], bool], Parts] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Memo of a ranch's :class:`Parts` by (ranch, empty hand): bots score every card they
    might play, at every decision, mostly ranches seen before."""

    @classmethod
    def of(cls, deck: Deck) -> Tables:
        return cls(
            tuple(c.glory for c in deck.cards),
            tuple(c.penalty for c in deck.cards),
            tuple(c.family for c in deck.cards),
            tuple(c.bonus for c in deck.cards),
        )


EVERY = ("cards", "any")
"""What a bonus counts when it counts every card, whatever its family."""


def _count(tables: Tables, ranch: Sequence[int], of: str) -> int:
    """How many of the ranch's cards are of family ``of`` (all of them for "cards" or
    "any"): counted in C, since the "most" bonuses count every ranch at every scoring."""
    if of in EVERY:
        return len(ranch)
    return list(map(tables.family.__getitem__, ranch)).count(of)


Most = tuple[int, str, int]
"""A "most" bonus in a ranch: its Glory, what it counts and how many the ranch has."""


class Parts(NamedTuple):
    """What a ranch scores by itself and its "most" bonuses, which are weighed against the
    other ranches at every scoring: the part worth remembering, and the part that is not.
    A tuple, unpacked at every look-up."""

    points: int
    """The printed Glory plus the Hour Glass Glory of the bonuses that look at no other
    ranch."""
    bonus: int
    """That Hour Glass Glory alone."""
    most: tuple[Most, ...]


def bonus_points(
    tables: Tables, ranches: Sequence[Sequence[int]], player: int, hand_size: int
) -> int:
    """The Hour Glass Glory of ``player``'s ranch at round end."""
    key = (tuple(ranches[player]), hand_size == 0)
    _, bonus, most = tables.parts.get(key) or _remember(tables, key)
    return bonus + _most(tables, ranches, most) if most else bonus


def ranch_points(
    tables: Tables, ranches: Sequence[Sequence[int]], player: int, hand_size: int
) -> int:
    """Glory of the ranch's cards plus Hour Glass bonuses."""
    key = (tuple(ranches[player]), hand_size == 0)
    points, _, most = tables.parts.get(key) or _remember(tables, key)
    return points + _most(tables, ranches, most) if most else points


def points_as(
    tables: Tables,
    ranches: Sequence[Sequence[int]],
    player: int,
    ranch: tuple[int, ...],
    hand_size: int,
) -> int:
    """:func:`ranch_points` of ``player`` were their ranch ``ranch`` (the others as in
    ``ranches``): a bot weighing a card copies the ranches only when a "most" bonus must
    compare them."""
    key = (ranch, hand_size == 0)
    points, _, most = tables.parts.get(key) or _remember(tables, key)
    if not most:
        return points
    changed = list(ranches)
    changed[player] = ranch
    return points + _most(tables, changed, most)


def _remember(tables: Tables, key: tuple[tuple[int, ...], bool]) -> Parts:
    """Work out and keep the :class:`Parts` of (ranch, empty hand), forgetting everything
    past 100,000 ranches."""
    memo = tables.parts
    if len(memo) > 100_000:
        memo.clear()
    parts = memo[key] = _parts(tables, *key)
    return parts


def _most(tables: Tables, ranches: Sequence[Sequence[int]], most: tuple[Most, ...]) -> int:
    """The Glory of "most" bonuses: the ranch has at least one, and no other has more."""
    total = 0
    for glory, of, mine in most:
        if mine >= 1 and mine >= max(_count(tables, r, of) for r in ranches):
            total += glory
    return total


def _parts(tables: Tables, ranch: tuple[int, ...], empty_hand: bool) -> Parts:
    """Work out a ranch's :class:`Parts` (see :func:`_remember`)."""
    total = 0
    most: list[Most] = []
    bonuses = tables.bonus
    families = list(map(tables.family.__getitem__, ranch))
    last = len(ranch) - 1
    for slot, k in enumerate(ranch):
        bonus = bonuses[k]
        if bonus is None:
            continue
        kind = bonus.kind
        if kind == "family":
            of = bonus.family
            total += bonus.glory * (len(ranch) if of in EVERY else families.count(of))
        elif kind == "neighbour":
            near = families[max(0, slot - 1) : slot] + families[slot + 1 : slot + 2]
            of = bonus.family
            total += bonus.glory * (len(near) if of in EVERY else near.count(of))
        elif kind == "position":
            end = 0 if bonus.at == "left" else last
            total += bonus.glory if slot == end else 0
        elif kind == "most":
            most.append((bonus.glory, bonus.of, _count(tables, ranch, bonus.of)))
        elif kind == "empty-hand":
            total += bonus.glory if empty_hand else 0
        else:  # variety
            total += bonus.glory * len(set(families))
    return Parts(sum(map(tables.glory.__getitem__, ranch)) + total, total, tuple(most))


def hand_penalty(tables: Tables, hand: Sequence[int]) -> int:
    """The penalties of the cards left in a hand (``hand`` counts copies per card)."""
    return sum(map(mul, tables.penalty, hand))


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
