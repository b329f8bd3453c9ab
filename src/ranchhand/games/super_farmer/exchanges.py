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
    it sells one).

    A count tuple not met before is answered from bit masks: for each species and each
    count of it, the mixes (bits, in bundle order) that need no more of it; the mixes a
    side holds are the AND of its species' masks, and the exchanges of a mask are made
    once (every ``Trade`` is built when the game is loaded), so a new count tuple costs
    a few integer operations, not a pass over up to 276 mixes."""

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
        self.trades = tuple(
            (
                tuple(Trade(one, b) for b in mixes),  # selling one of the kind
                tuple(Trade(b, one) for b in mixes),  # buying one
            )
            for one, mixes in ((unit(kind), mixes) for kind, mixes in enumerate(bundles))
        )
        """Per species, its exchanges (sold, bought) in bundle order, made once."""
        self.masks = tuple(
            tuple(
                (k, tuple(_mask(mixes, k, n) for n in range(cap + 1)))
                for k, cap in enumerate(caps)
                if cap
            )
            for mixes, caps in zip(bundles, self.caps, strict=True)
        )
        """Per species, for each species some mix needs: the mask of the mixes needing
        at most ``n`` of it, for ``n`` from 0 to the most any mix needs."""
        self.by_mask: dict[tuple[int, bool, int], tuple[Trade, ...]] = {}

    def get(self, kind: int, buying: bool, have: tuple[int, ...]) -> tuple[Trade, ...]:
        """Buying one ``kind`` with mixes the farmer holds (``have``: the farm), or
        selling one for mixes the herd holds (``have``: the herd), in bundle order."""
        capped = tuple(map(min, have, self.caps[kind]))
        key = (kind, buying, capped)
        trades = self.memo.get(key)
        if trades is None:
            fits = (1 << len(self.bundles[kind])) - 1
            for k, masks in self.masks[kind]:
                fits &= masks[capped[k]]
            made = (kind, buying, fits)
            trades = self.by_mask.get(made)
            if trades is None:
                every = self.trades[kind][buying]
                trades = tuple(every[i] for i in range(fits.bit_length()) if fits >> i & 1)
                self.by_mask[made] = trades  # at most the mixes' subsets met: a few thousand
            if len(self.memo) >= MEMO_SIZE:
                self.memo.clear()
            self.memo[key] = trades
        return trades


def _mask(mixes: tuple[Counts, ...], kind: int, most: int) -> int:
    """The bits of the ``mixes`` that need at most ``most`` animals of ``kind``."""
    return sum(1 << i for i, mix in enumerate(mixes) if mix[kind] <= most)


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
