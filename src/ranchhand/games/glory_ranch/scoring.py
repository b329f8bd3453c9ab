"""Round scoring: Glory of the ranch, Hour Glass bonuses, minus penalties in hand.

Pure functions over card indices (ranches as lists of card indices, hands as
count lists), shared by the rules, the bots and the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import mul

from ranchhand.games.glory_ranch.cards import Bonus, Deck


@dataclass(frozen=True)
class Tables:
    """Per-card numbers looked up on hot paths, precomputed from a deck."""

    glory: tuple[int, ...]
    penalty: tuple[int, ...]
    family: tuple[str, ...]
    bonus: tuple[Bonus | None, ...]
    rules: tuple[Rule | None, ...] = field(compare=False, repr=False)
    """Each card's bonus as a :data:`Rule` (None without one), read by :func:`_parts`."""
    parts: dict[tuple[tuple[int, ...], bool], Parts] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Memo of a ranch's :data:`Parts` by (ranch, empty hand): bots score every card they
    might play, at every decision, mostly ranches seen before."""

    @classmethod
    def of(cls, deck: Deck) -> Tables:
        """The deck's tables, made once per deck: the rules and the bots share one memo of
        ranches (the ranches scored at a round's end are mostly ones a bot weighed)."""
        known = _TABLES.get(id(deck))
        if known is not None and known[0] is deck:
            return known[1]
        bonuses = tuple(c.bonus for c in deck.cards)
        tables = cls(
            tuple(c.glory for c in deck.cards),
            tuple(c.penalty for c in deck.cards),
            tuple(c.family for c in deck.cards),
            bonuses,
            tuple(None if b is None else _rule(b) for b in bonuses),
        )
        _TABLES[id(deck)] = (deck, tables)
        return tables


_TABLES: dict[int, tuple[Deck, Tables]] = {}
"""The tables of each deck seen, by the deck's id (kept with the deck, so an id reused by
another deck is told apart)."""


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


Parts = tuple[int, int, tuple[Most, ...]]
"""What a ranch scores by itself and its "most" bonuses, which are weighed against the other
ranches at every scoring: the part worth remembering, and the part that is not. In order:
the printed Glory plus the Hour Glass Glory of the bonuses that look at no other ranch; that
Hour Glass Glory alone; the "most" bonuses. A plain tuple, made at every new ranch weighed and
unpacked at every look-up."""

FAMILY, NEIGHBOUR, LEFT_END, RIGHT_END, MOST, EMPTY_HAND, VARIETY = range(7)
"""The kinds of bonus as :func:`_parts` tells them apart (a position bonus by its end)."""

Rule = tuple[int, int, str]
"""A bonus as :func:`_parts` reads it: its kind (above), its Glory and the family it counts
("" where it counts none)."""


def _rule(bonus: Bonus) -> Rule:
    """The :data:`Rule` of ``bonus``, worked out once per deck."""
    kind = bonus.kind
    if kind == "family":
        return (FAMILY, bonus.glory, bonus.family)
    if kind == "neighbour":
        return (NEIGHBOUR, bonus.glory, bonus.family)
    if kind == "position":
        return (LEFT_END if bonus.at == "left" else RIGHT_END, bonus.glory, "")
    if kind == "most":
        return (MOST, bonus.glory, bonus.of)
    if kind == "empty-hand":
        return (EMPTY_HAND, bonus.glory, "")
    return (VARIETY, bonus.glory, "")


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
    """Work out and keep the :data:`Parts` of (ranch, empty hand), forgetting everything
    past 100,000 ranches."""
    memo = tables.parts
    if len(memo) > 100_000:
        memo.clear()
    parts = memo[key] = _parts(tables, *key)
    return parts


def _most(tables: Tables, ranches: Sequence[Sequence[int]], most: tuple[Most, ...]) -> int:
    """The Glory of "most" bonuses: the ranch has at least one, and no other has more."""
    total = 0
    family = tables.family.__getitem__
    for glory, of, mine in most:
        if mine < 1:
            continue
        if of in EVERY:
            if mine >= max(map(len, ranches)):
                total += glory
            continue
        for ranch in ranches:  # the first ranch with more ends the look (no count of the rest)
            if list(map(family, ranch)).count(of) > mine:
                break
        else:
            total += glory
    return total


def _parts(tables: Tables, ranch: tuple[int, ...], empty_hand: bool) -> Parts:
    """Work out a ranch's :data:`Parts` (see :func:`_remember`): each bonus card's
    :data:`Rule` read from the tables, families listed once."""
    total = 0
    most: list[Most] = []
    rules = tables.rules
    families = list(map(tables.family.__getitem__, ranch))
    last = len(ranch) - 1
    for slot, k in enumerate(ranch):
        rule = rules[k]
        if rule is None:
            continue
        kind, glory, of = rule
        if kind == FAMILY:
            total += glory * (len(ranch) if of in EVERY else families.count(of))
        elif kind == NEIGHBOUR:
            near = families[max(0, slot - 1) : slot] + families[slot + 1 : slot + 2]
            total += glory * (len(near) if of in EVERY else near.count(of))
        elif kind == LEFT_END:
            total += glory if slot == 0 else 0
        elif kind == RIGHT_END:
            total += glory if slot == last else 0
        elif kind == MOST:
            most.append((glory, of, _count(tables, ranch, of)))
        elif kind == EMPTY_HAND:
            total += glory if empty_hand else 0
        else:
            total += glory * len(set(families))
    return (sum(map(tables.glory.__getitem__, ranch)) + total, total, tuple(most))


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
