"""Exchanges with the herd: which are offered, and why one is refused.

An exchange gives one animal for several cheaper ones of the same total value in
rabbits, or several cheaper animals for one (``trade=mixed``, the published rules'
reading: "a cow, 2 pigs and 2 sheep for a horse"); ``trade=one-kind`` allows only
one species on the "several" side. The table's equal-value swaps (a sheep for a
small dog, a cow for a big dog, both ways) are exchanges too. The herd must hold
what the farmer takes.

The offer depends only on the farmer's animals, the herd and the options, so it is
remembered per game for the (animals, herd) pairs met; a pair not met before is put
together from each species' exchanges, remembered per the few counts that decide them
(:class:`Offers`), so listing a new offer costs a few lookups, not a pass over every mix.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from ranchhand.games.super_farmer.actions import Trade, animals_text
from ranchhand.games.super_farmer.tables import SPECIES, Counts

if TYPE_CHECKING:
    from ranchhand.games.super_farmer.game import SuperFarmerGame
    from ranchhand.games.super_farmer.state import SuperFarmerState

MEMO_SIZE = 50_000
"""Offers remembered per game before the memo starts afresh."""


def unit(kind: int) -> Counts:
    """One animal of ``kind`` as a count tuple."""
    counts = [0] * len(SPECIES)
    counts[kind] = 1
    return tuple(counts)  # type: ignore[return-value]


def _within(have: tuple[int, ...], bundles: tuple[Counts, ...]) -> list[Counts]:
    """The bundles of which ``have`` holds every animal (the hot loop: written out flat)."""
    r, s, p, c, h, d, b = have
    return [
        x
        for x in bundles
        if x[0] <= r
        and x[1] <= s
        and x[2] <= p
        and x[3] <= c
        and x[4] <= h
        and x[5] <= d
        and x[6] <= b
    ]


def offered(state: SuperFarmerState, player: int) -> tuple[Trade, ...]:
    """Every exchange ``player`` may make with the herd now (the step is not checked here)."""
    mine, herd = tuple(state.animals[player]), tuple(state.herd)
    game = state.game
    key = (mine, herd)
    trades = game.offers.get(key)
    if trades is None:
        trades = _offered(game, mine, herd)
        if len(game.offers) >= MEMO_SIZE:
            game.offers.clear()
        game.offers[key] = trades
    return trades


def _offered(
    game: SuperFarmerGame, mine: tuple[int, ...], herd: tuple[int, ...]
) -> tuple[Trade, ...]:
    """The offer, species by species: which mixes worth one ``kind`` a side holds depends
    only on its counts capped at the most any such mix needs (``Offers.caps``), so the
    exchanges of each species are remembered per capped counts, which repeat far more
    often than whole (farm, herd) pairs."""
    parts = game.offer_parts
    trades: list[Trade] = []
    worth = sum(map(operator.mul, mine, game.values))
    for kind, value in enumerate(game.values):
        if herd[kind] and worth >= value:  # a farm worth less than one cannot pay for it
            trades.extend(parts.get(kind, True, mine))
        if mine[kind]:
            trades.extend(parts.get(kind, False, herd))
    trades.extend(t for a, b, t in parts.swaps if mine[a] and herd[b])
    return tuple(trades)


class Offers:
    """The exchanges of each species on offer, remembered per capped counts of the side
    that pays in several animals (the farmer's when it buys one ``kind``, the herd's when
    it sells one)."""

    def __init__(
        self, bundles: tuple[tuple[Counts, ...], ...], swaps: frozenset[tuple[int, int]]
    ) -> None:
        self.bundles = bundles
        self.caps = tuple(
            tuple(max((b[k] for b in mixes), default=0) for k in range(len(SPECIES)))
            for mixes in bundles
        )
        self.swaps = tuple((a, b, Trade(unit(a), unit(b))) for a, b in sorted(swaps))
        self.memo: dict[tuple[int, bool, tuple[int, ...]], tuple[Trade, ...]] = {}

    def get(self, kind: int, buying: bool, have: tuple[int, ...]) -> tuple[Trade, ...]:
        """Buying one ``kind`` with mixes the farmer holds (``have``: the farm), or
        selling one for mixes the herd holds (``have``: the herd), in bundle order."""
        capped = tuple(map(min, have, self.caps[kind]))
        key = (kind, buying, capped)
        trades = self.memo.get(key)
        if trades is None:
            one = unit(kind)
            mixes = _within(capped, self.bundles[kind])
            if buying:
                trades = tuple(Trade(b, one) for b in mixes)
            else:
                trades = tuple(Trade(one, b) for b in mixes)
            if len(self.memo) >= MEMO_SIZE:
                self.memo.clear()
            self.memo[key] = trades
        return trades


def trade_problem(state: SuperFarmerState, player: int, trade: Trade) -> str:
    """Why ``trade`` is no exchange ``player`` may make now (it is not on offer)."""
    game = state.game
    give, take = trade.give, trade.take
    if not any(give) or not any(take):
        return "an exchange gives animals and takes animals"
    shape = _shape_problem(game.values, game.swaps, game.options["trade"], give, take)
    if shape:
        return shape
    mine, herd = state.animals[player], state.herd
    for kind, n in enumerate(give):
        if n > mine[kind]:
            return f"you give {animals_text(give)} but have {mine[kind]} {SPECIES[kind]}"
    for kind, n in enumerate(take):
        if n > herd[kind]:
            return f"the herd has {herd[kind]} {SPECIES[kind]}, you ask for {n}"
    return f"{trade} is not an exchange on offer"


def _shape_problem(
    values: Counts, swaps: frozenset[tuple[int, int]], trade: str, give: Counts, take: Counts
) -> str | None:
    """What is wrong with the form of an exchange, whatever anyone holds; None if nothing."""
    worth_given = sum(n * v for n, v in zip(give, values, strict=True))
    worth_taken = sum(n * v for n, v in zip(take, values, strict=True))
    if worth_given != worth_taken:
        return (
            f"the values differ: {animals_text(give)} is worth {worth_given} rabbits, "
            f"{animals_text(take)} {worth_taken}"
        )
    single = [side for side in (give, take) if sum(side) == 1]
    if not single:
        return "one side of an exchange is a single animal"
    if sum(give) == 1 and sum(take) == 1:
        pair = (give.index(1), take.index(1))
        if pair in swaps:
            return None
        pairs = sorted({(min(a, b), max(a, b)) for a, b in swaps})
        named = " or ".join(f"a {SPECIES[a]} and a {SPECIES[b]}" for a, b in pairs)
        return f"only {named or 'no two animals'} swap one for one"
    one = single[0]
    several = take if one is give else give
    kind = one.index(1)
    if any(n and values[k] >= values[kind] for k, n in enumerate(several)):
        return f"a {SPECIES[kind]} is exchanged for cheaper animals only"
    if trade == "one-kind" and sum(1 for n in several if n) > 1:
        return "with trade=one-kind, the several animals are all of one species"
    return None
