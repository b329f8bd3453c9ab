"""Rancho's rules compiled with numba: the same turn as ``state.py``, on arrays.

Each function mirrors a piece of the reference engine (named in its docstring) and
must give the same answers: the differential test plays thousands of games in both
engines step by step and compares every legal action list and the final table.

A table is a :class:`Table` of small integer arrays; masks of spaces are in the
seat's frame (see ``geometry.py``). The engine's answers about fitting animals are
memoised in a :class:`Memo`, an open-addressing hash table, as the reference engine
memoises them in dictionaries.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ranchhand.games.rancho.fast.geometry import (
    BY_RISK,
    PRICE,
    ROLL_A,
    ROLL_B,
    ROLL_UP_TO,
    START,
    START_HERD,
    STRIKE_PRICE_OF,
    STRIKE_UP_TO,
    VALUE,
    Geometry,
)

# Table.scalars slots
PLAYER, PHASE, TURN, WINNER, SETTLED, DIE_A, DIE_B = range(7)
PREDATORS, PREDATOR_A, PREDATOR_B, STRIKE_BY, STRIKE_PRICE = range(7, 12)
DOGS_ASKED, DOGS_HEAD, TAKEN, EATEN, DOGS_GIVEN = range(12, 17)
DEALS, STRIKES_MADE, FIRST_BY, FIRST_PRICE, SECOND_BY, SECOND_PRICE = range(17, 23)
"""Deals made this expand step (``deals_per_turn`` bounds them); the strikes of this roll
(``RanchoState.strikes``: how many, then each one's predator and price)."""
SCALARS = 23

# phases, as in state.PHASES
EXPAND, ROLL, ORDER, STRIKE, DOG, RETURN, SETTLE = range(7)
RABBIT, SHEEP, COW, HORSE, SMALL_DOG, LARGE_DOG = range(6)
FOX, WOLF = 4, 5

# action rows: column 0 is the kind
A_ROLL, A_ROLL_END, A_SAFEST, A_DEAL, A_END_TURN, A_FIRST, A_DOG, A_RETURN, A_TRADE = range(9)
# A_DEAL: 1 kind given, 2 count, 3 kind taken (-1 none), 4 count, 5 pasture (-1), 6 route
# length, 7.. the route; A_FIRST: 1 predator; A_DOG: 1 give (1) or keep (0), 2 dog;
# A_RETURN: 1..4 rabbits, sheep, cows, horses sent back; A_TRADE (the greedy bot's winning
# deal, never in a legal list): 1..6 given, 7..12 taken, each of the six kinds.
ROUTE = 7
ROW = 72
MAX_ACTIONS = 2048
MAX_ROUTES = 64
"""Cheapest routes kept per target at most, as ``deals._paths`` caps them."""

MEMO_BITS = 18


# columns of Table.pieces and Table.seats
KIND, COUNT, MASK = range(3)
SAFE, BOT_TURN, BOT_DEALS = range(3)
# columns of Memo.cells
KEY, SEAT_ANSWER = range(2)


class Table(NamedTuple):
    """One game's whole table (``RanchoState``'s fields), in few arrays: every compiled
    call passes them all."""

    scalars: np.ndarray
    """The slots named above: whose turn, the phase, the dice, the strike, counts."""
    herd: np.ndarray
    animals: np.ndarray
    land: np.ndarray
    owner: np.ndarray
    pieces: np.ndarray
    """(seat, space, KIND | COUNT | MASK) of the piece whose first space this is: 1 + its
    kind (0 for no piece there), its rabbits (1 for the others), its spaces."""
    seats: np.ndarray
    """(seat, SAFE | BOT_TURN | BOT_DEALS): 1 when the pieces are the engine's safest
    arrangement; the greedy bot's memory: the turn it last played in (-1 none) and the
    expand actions it took in it ..."""
    dogs: np.ndarray
    """The players still to decide on a dog, in order (``dog_queue``)."""
    bot_done: np.ndarray
    """... and (seat, ladder step) the ladder steps it took then."""


class Memo(NamedTuple):
    """Answers of :func:`packable` by (seat, region, horses, cows), and each seat's
    shapes inside its last region asked about (a region changes only with a purchase)."""

    cells: np.ndarray
    """(slot, KEY | SEAT_ANSWER): region | horses << 56 | cows << 59, and seat << 2 | 1
    (no room) or 2 (room); 0 for an empty slot."""
    used: np.ndarray
    regions: np.ndarray
    """(seat,): the region whose shapes ``shapes`` holds (-1: none yet)."""
    shapes: np.ndarray
    """(seat, triples | pairs, i): the triples and pairs inside that region, in order."""
    shape_counts: np.ndarray


def new_memo(geometry: Geometry) -> Memo:
    players = geometry.players
    return Memo(
        np.zeros((1 << MEMO_BITS, 2), np.int64),
        np.zeros(1, np.int64),
        np.full(players, -1, np.int64),
        np.zeros((players, 2, geometry.shapes.shape[2]), np.int64),
        np.zeros((players, 2), np.int64),
    )


def new_table(geometry: Geometry) -> Table:
    players, size = geometry.players, geometry.pastures + 2
    return Table(
        np.zeros(SCALARS, np.int64),
        np.zeros(6, np.int64),
        np.zeros((players, 6), np.int64),
        np.zeros(players, np.int64),
        np.full(geometry.pastures, -1, np.int64),
        np.zeros((players, size, 3), np.int64),
        np.zeros((players, 3), np.int64),
        np.zeros(players, np.int64),
        np.zeros((players, geometry.ladder.shape[0]), np.int64),
    )


# ------------------------------------------------------------------ bits
@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def low_bit(x: int) -> int:
    """The index of the lowest set bit of a non-zero mask."""
    return popcount((x & -x) - 1)


# ------------------------------------------------------------- grazing
@njit(cache=True, inline="always")
def slot(cells: np.ndarray, seat: int, key: int) -> int:
    """Where (seat, key) is in the memo, or the empty slot where it would go."""
    size = cells.shape[0]
    at = ((key * 0x5851F42D4C957F2D + seat * 0x14057B7EF767814F) >> (64 - MEMO_BITS)) & (size - 1)
    while cells[at, SEAT_ANSWER] != 0 and (
        cells[at, KEY] != key or cells[at, SEAT_ANSWER] >> 2 != seat
    ):
        at = (at + 1) & (size - 1)
    return at  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def known(cells: np.ndarray, seat: int, region: int, horses: int, cows: int) -> int:
    """1 or 0 when ``packable`` is decided without a search (base cases, memo), else -1."""
    if horses == 0 and cows == 0:
        return 1
    if horses < 0 or cows < 0 or 3 * horses + 2 * cows > popcount(region):
        return 0
    if horses > 7 or cows > 15:
        return -1
    at = slot(cells, seat, region | (horses << 56) | (cows << 59))
    return (cells[at, SEAT_ANSWER] & 3) - 1  # type: ignore[no-any-return]


@njit(cache=True)
def remember(memo: Memo, seat: int, region: int, horses: int, cows: int, answer: bool) -> None:
    if horses > 7 or cows > 15:  # beyond any herd, and beyond the key's bits
        return
    cells = memo.cells
    if memo.used[0] > cells.shape[0] // 2:
        cells[:, SEAT_ANSWER] = 0
        memo.used[0] = 0
    key = region | (horses << 56) | (cows << 59)
    at = slot(cells, seat, key)
    if cells[at, SEAT_ANSWER] == 0:
        memo.used[0] += 1
    cells[at, KEY] = key
    cells[at, SEAT_ANSWER] = seat << 2 | (2 if answer else 1)


@njit(cache=True)
def shapes_for(g: Geometry, memo: Memo, seat: int, region: int) -> tuple[int, int]:
    """Keep the seat's triples and pairs inside ``region`` (in order) in ``memo.shapes``;
    their counts. Scanning every shape of the board is the costly part of a search."""
    if memo.regions[seat] != region:
        out = memo.shapes[seat]
        for which in range(2):
            n = 0
            for i in range(g.shape_counts[seat, which]):
                shape = g.shapes[seat, which, i]
                if shape & region == shape:
                    out[which, n] = shape
                    n += 1
            memo.shape_counts[seat, which] = n
        memo.regions[seat] = region
    return memo.shape_counts[seat, 0], memo.shape_counts[seat, 1]


@njit(cache=True)
def packable(
    memo: Memo,
    seat: int,
    region: int,
    horses: int,
    cows: int,
    shapes: np.ndarray,
    triples: int,
    pairs: int,
) -> bool:
    """``Grazing.packable``: disjoint connected triples and adjacent pairs in ``region``.

    Depth first, as the reference: place one horse (or, with none left, one cow)
    every possible way and go on with the rest; an explicit stack instead of
    recursion, which numba's cache does not keep. ``shapes`` holds (at least) every
    triple and pair inside ``region`` (:func:`shapes_for`). Answers are memoised.
    """
    answer = known(memo.cells, seat, region, horses, cows)
    if answer >= 0:
        return answer == 1
    depth = horses + cows + 1
    regions = np.empty(depth, np.int64)
    left_h = np.empty(depth, np.int64)
    left_c = np.empty(depth, np.int64)
    tried = np.empty(depth, np.int64)
    regions[0], left_h[0], left_c[0], tried[0] = region, horses, cows, 0
    top = 0
    result = False
    while top >= 0:
        r, h, c = regions[top], left_h[top], left_c[top]
        row = 0 if h else 1
        count = triples if h else pairs
        pushed = False
        result = False
        while tried[top] < count:
            shape = shapes[row, tried[top]]
            tried[top] += 1
            if shape & r != shape:
                continue
            nh, nc = (h - 1, c) if h else (0, c - 1)
            child = known(memo.cells, seat, r ^ shape, nh, nc)
            if child == 1:
                result = True
                break
            if child < 0:
                top += 1
                regions[top], left_h[top], left_c[top], tried[top] = r ^ shape, nh, nc, 0
                pushed = True
                break
        if pushed:
            continue
        # this frame is decided: ``result``; a True decides every frame below it too
        remember(memo, seat, r, h, c, result)
        top -= 1
        while result and top >= 0:
            remember(memo, seat, regions[top], left_h[top], left_c[top], True)
            top -= 1
    return result


@njit(cache=True)
def fits(
    g: Geometry,
    memo: Memo,
    seat: int,
    region: int,
    rabbits: int,
    sheep: int,
    cows: int,
    horses: int,
) -> bool:
    """``Grazing.fits``: room for every farm animal at once."""
    need = -(-rabbits // g.per_space) + sheep + 2 * cows + 3 * horses
    if need > popcount(region):
        return False
    answer = known(memo.cells, seat, region, horses, cows)
    if answer >= 0:
        return answer == 1
    triples, pairs = shapes_for(g, memo, seat, region)
    return packable(memo, seat, region, horses, cows, memo.shapes[seat], triples, pairs)


@njit(cache=True, inline="always")
def put(pieces: np.ndarray, kind: int, n: int, mask: int) -> None:
    """Stand a piece: ``pieces`` is one seat's (space, KIND | COUNT | MASK) rows."""
    at = low_bit(mask)
    pieces[at, KIND] = kind + 1
    pieces[at, COUNT] = n
    pieces[at, MASK] = mask


@njit(cache=True)
def safest(
    g: Geometry, memo: Memo, seat: int, region: int, animals: np.ndarray, pieces: np.ndarray
) -> None:
    """``Grazing._place``: the engine's safest arrangement (the animals must fit)."""
    pieces[:, KIND] = 0
    free = region
    horses, cows = animals[HORSE], animals[COW]
    shapes = memo.shapes[seat]
    triples, pairs = shapes_for(g, memo, seat, region) if horses or cows else (0, 0)
    for left in range(horses - 1, -1, -1):
        for i in range(triples):
            triple = shapes[0, i]
            if triple & free == triple and packable(
                memo, seat, free ^ triple, left, cows, shapes, triples, pairs
            ):
                put(pieces, HORSE, 1, triple)
                free ^= triple
                break
    for left in range(cows - 1, -1, -1):
        for i in range(pairs):
            pair = shapes[1, i]
            if pair & free == pair and packable(memo, seat, free ^ pair, 0, left, shapes, 0, pairs):
                put(pieces, COW, 1, pair)
                free ^= pair
                break
    sheep, rabbits = animals[SHEEP], animals[RABBIT]
    for space in g.spaces[BY_RISK]:
        if not free >> space & 1:
            continue
        if sheep:
            put(pieces, SHEEP, 1, 1 << space)
            sheep -= 1
        elif rabbits:
            stack = min(rabbits, g.per_space)
            put(pieces, RABBIT, stack, 1 << space)
            rabbits -= stack
        else:
            break


@njit(cache=True, inline="always")
def region_of(g: Geometry, t: Table, seat: int) -> int:
    """The seat's pen and pastures, in its frame."""
    return t.land[seat] | (3 << g.pastures)  # type: ignore[no-any-return]


@njit(cache=True)
def place(g: Geometry, memo: Memo, t: Table, seat: int) -> None:
    """``RanchoState.place``: the seat's animals in the safest arrangement."""
    safest(g, memo, seat, region_of(g, t, seat), t.animals[seat], t.pieces[seat])
    t.seats[seat, SAFE] = 1


@njit(cache=True)
def recheck_safe(g: Geometry, memo: Memo, t: Table, seat: int) -> None:
    """After a predator or a toll moved pieces: are they still the safest arrangement?"""
    size = g.pastures + 2
    best = np.empty((size, 3), np.int64)
    safest(g, memo, seat, region_of(g, t, seat), t.animals[seat], best)
    same = 1
    for i in range(size):
        kind = best[i, KIND]
        if kind != t.pieces[seat, i, KIND] or (
            kind
            and (
                best[i, COUNT] != t.pieces[seat, i, COUNT]
                or best[i, MASK] != t.pieces[seat, i, MASK]
            )
        ):
            same = 0
            break
    t.seats[seat, SAFE] = same


@njit(cache=True)
def add_rabbits(g: Geometry, t: Table, seat: int, rabbits: int) -> int:
    """``Grazing.add_rabbits``: top up stacks, then new stacks on the least struck spaces."""
    placed = 0
    used = 0
    size = g.pastures + 2
    for i in range(size):
        if t.pieces[seat, i, KIND]:
            used |= t.pieces[seat, i, MASK]
            if (
                t.pieces[seat, i, KIND] == RABBIT + 1
                and t.pieces[seat, i, COUNT] < g.per_space
                and rabbits > placed
            ):
                more = min(g.per_space - t.pieces[seat, i, COUNT], rabbits - placed)
                t.pieces[seat, i, COUNT] += more
                placed += more
    free = region_of(g, t, seat) & ~used
    for space in g.spaces[BY_RISK]:
        if placed == rabbits:
            break
        if free >> space & 1:
            more = min(g.per_space, rabbits - placed)
            put(t.pieces[seat], RABBIT, more, 1 << space)
            placed += more
    return placed


@njit(cache=True)
def struck_value(g: Geometry, t: Table, seat: int, predator: int, price: int) -> int:
    """The value a strike would take from the seat (``Grazing.struck``), -1 for nothing."""
    ring = g.ring[price]
    lost = -1
    for i in range(g.pastures + 2):
        kind = t.pieces[seat, i, KIND] - 1
        if kind >= 0 and t.pieces[seat, i, MASK] & ring and (kind == RABBIT) == (predator == FOX):
            lost = max(lost, 0) + g.kinds[VALUE, kind] * t.pieces[seat, i, COUNT]
    return lost


# ------------------------------------------------------------- the turn
@njit(cache=True)
def setup(g: Geometry, memo: Memo, t: Table) -> None:
    """``RanchoState.setup``: each seat takes the start animals into its pen."""
    t.scalars[:] = 0
    t.scalars[WINNER] = -1
    t.scalars[DIE_A] = t.scalars[DIE_B] = -1  # no roll yet (``state.dice`` None)
    t.herd[:] = g.kinds[START_HERD]
    t.land[:] = 0
    t.owner[:] = -1
    t.seats[:, BOT_TURN] = -1
    for seat in range(g.players):
        t.animals[seat, :] = 0
        for kind in range(4):
            t.animals[seat, kind] = g.kinds[START, kind]
            t.herd[kind] -= g.kinds[START, kind]
        place(g, memo, t, seat)


@njit(cache=True)
def loaded(g: Geometry, memo: Memo, t: Table) -> None:
    """Finish a table copied from a reference position (``FastRancho.load``): whether
    each seat's pieces are the safest arrangement, and every seat's greedy bot new.

    A player sending newborns back (``return``) has animals that do not fit, so no
    safest arrangement: that seat is left marked unsafe, which nothing reads until the
    return places its animals. The bots remember nothing, as a new ``GreedyBot``.
    """
    for seat in range(g.players):
        if t.scalars[PHASE] == RETURN and seat == t.scalars[PLAYER]:
            t.seats[seat, SAFE] = 0
        else:
            recheck_safe(g, memo, t, seat)
    t.seats[:, BOT_TURN] = -1
    t.seats[:, BOT_DEALS] = 0
    t.bot_done[:, :] = 0


@njit(cache=True, inline="always")
def full_herd(t: Table, seat: int) -> bool:
    a = t.animals[seat]
    return a[0] > 0 and a[1] > 0 and a[2] > 0 and a[3] > 0


@njit(cache=True, inline="always")
def current(t: Table) -> int:
    """The seat to act, or -1 at a chance node."""
    phase = t.scalars[PHASE]
    if phase in (ROLL, STRIKE):
        return -1
    if phase == DOG:
        return t.dogs[t.scalars[DOGS_HEAD]]
    return t.scalars[PLAYER]


@njit(cache=True, inline="always")
def limit_reached(g: Geometry, t: Table) -> bool:
    """``deals_per_turn`` deals were made this expand step: no more (``deals.deal_problem``)."""
    return g.deal_limit > 0 and t.scalars[DEALS] >= g.deal_limit


@njit(cache=True, inline="always")
def over(t: Table, max_turns: int) -> bool:
    return t.scalars[WINNER] >= 0 or (max_turns > 0 and t.scalars[TURN] >= max_turns)


@njit(cache=True)
def next_turn(g: Geometry, t: Table) -> None:
    t.scalars[PLAYER] = (t.scalars[PLAYER] + 1) % g.players
    t.scalars[PHASE] = EXPAND
    t.scalars[SETTLED] = 0
    t.scalars[DEALS] = 0
    t.scalars[TURN] += 1


@njit(cache=True)
def settle(g: Geometry, t: Table, seat: int) -> None:
    """``RanchoState._settle``: a full herd wins; else the settle step or the next turn."""
    if full_herd(t, seat):
        t.scalars[WINNER] = seat
        t.scalars[PHASE] = SETTLE
    elif t.scalars[SETTLED]:
        next_turn(g, t)
    else:
        t.scalars[PHASE] = SETTLE


@njit(cache=True)
def breed(g: Geometry, memo: Memo, t: Table) -> None:
    """``RanchoState._breed``: (owned + dice showing it) // 2 of a species, as the herd allows."""
    seat = t.scalars[PLAYER]
    mine = t.animals[seat]
    for kind in range(4):
        shown = (t.scalars[DIE_A] == kind) + (t.scalars[DIE_B] == kind)
        if shown:
            born = min((mine[kind] + shown) // 2, t.herd[kind])
            mine[kind] += born
            t.herd[kind] -= born
    if fits(g, memo, seat, region_of(g, t, seat), mine[0], mine[1], mine[2], mine[3]):
        place(g, memo, t, seat)
        settle(g, t, seat)
    else:
        t.scalars[PHASE] = RETURN


@njit(cache=True)
def lose(g: Geometry, memo: Memo, t: Table, seat: int) -> None:
    """``RanchoState._lose``: the strike takes the seat's pieces on the struck pastures."""
    predator, price = t.scalars[STRIKE_BY], t.scalars[STRIKE_PRICE]
    ring = g.ring[price]
    for i in range(g.pastures + 2):
        kind = t.pieces[seat, i, KIND] - 1
        if kind >= 0 and t.pieces[seat, i, MASK] & ring and (kind == RABBIT) == (predator == FOX):
            n = t.pieces[seat, i, COUNT]
            t.animals[seat, kind] -= n
            t.herd[kind] += n
            t.scalars[EATEN] += g.kinds[VALUE, kind] * n
            t.pieces[seat, i, KIND] = 0
    recheck_safe(g, memo, t, seat)


@njit(cache=True)
def after_strike(g: Geometry, memo: Memo, t: Table) -> None:
    if t.scalars[PREDATORS]:
        t.scalars[PHASE] = STRIKE
    else:
        breed(g, memo, t)


@njit(cache=True)
def rolled(g: Geometry, memo: Memo, t: Table, a: int, b: int) -> None:
    """``RanchoState._rolled``: predators first, then breeding."""
    t.scalars[DIE_A] = a
    t.scalars[DIE_B] = b
    found = 0
    first = second = -1
    for face in (a, b):
        if face in (FOX, WOLF):
            if found == 0:
                first = face
            else:
                second = face
            found += 1
    if found == 2 and first != second:
        t.scalars[PHASE] = ORDER
    elif found:
        t.scalars[PREDATORS] = found
        t.scalars[PREDATOR_A] = first
        t.scalars[PREDATOR_B] = second
        t.scalars[PHASE] = STRIKE
    else:
        breed(g, memo, t)


@njit(cache=True)
def struck(g: Geometry, memo: Memo, t: Table, price: int) -> None:
    """``RanchoState._struck``: the next predator strikes ``price``; dog owners decide."""
    predator = t.scalars[PREDATOR_A]
    t.scalars[PREDATOR_A] = t.scalars[PREDATOR_B]
    t.scalars[PREDATORS] -= 1
    t.scalars[STRIKE_BY] = predator
    t.scalars[STRIKE_PRICE] = price
    made = t.scalars[STRIKES_MADE]
    if made < 2:  # a roll brings two predators at most
        t.scalars[FIRST_BY + 2 * made] = predator
        t.scalars[FIRST_PRICE + 2 * made] = price
        t.scalars[STRIKES_MADE] = made + 1
    dog = SMALL_DOG if predator == FOX else LARGE_DOG
    asked = 0
    for step in range(g.players):
        seat = (t.scalars[PLAYER] + step) % g.players
        if struck_value(g, t, seat, predator, price) >= 0:
            if t.animals[seat, dog]:
                t.dogs[asked] = seat
                asked += 1
            else:
                lose(g, memo, t, seat)
    t.scalars[DOGS_ASKED] = asked
    t.scalars[DOGS_HEAD] = 0
    if asked:
        t.scalars[PHASE] = DOG
    else:
        after_strike(g, memo, t)


@njit(cache=True)
def chance(g: Geometry, memo: Memo, t: Table, point: int) -> None:
    """Apply the chance outcome drawn at ``point`` in 0..total-1 of the node's weights."""
    if t.scalars[PHASE] == ROLL:
        i = np.searchsorted(g.rolls[:, ROLL_UP_TO], point, side="right")
        rolled(g, memo, t, g.rolls[i, ROLL_A], g.rolls[i, ROLL_B])
    else:
        i = np.searchsorted(g.strikes[:, STRIKE_UP_TO], point, side="right")
        struck(g, memo, t, g.strikes[i, STRIKE_PRICE_OF])


@njit(cache=True)
def chance_total(g: Geometry, t: Table) -> int:
    if t.scalars[PHASE] == ROLL:
        return g.rolls[-1, ROLL_UP_TO]  # type: ignore[no-any-return]
    return g.strikes[-1, STRIKE_UP_TO]  # type: ignore[no-any-return]


@njit(cache=True)
def deal(g: Geometry, memo: Memo, t: Table, seat: int, row: np.ndarray) -> None:
    """``RanchoState._deal``: animals, the pasture and any tolls; then a full herd wins."""
    mine = t.animals[seat]
    give, n, take, m, pasture = row[1], row[2], row[3], row[4], row[5]
    t.scalars[DEALS] += 1
    mine[give] -= n
    t.herd[give] += n
    if take >= 0:
        mine[take] += m
        t.herd[take] -= m
    if pasture >= 0:
        t.land[seat] |= 1 << pasture
        t.scalars[TAKEN] |= 1 << pasture
        t.owner[pasture] = seat
    owed = np.zeros(g.players, np.int64)
    for i in range(row[6]):
        space = row[ROUTE + i]
        owed[t.owner[space]] += g.spaces[PRICE, space]
    for owner in range(g.players):
        if owed[owner]:
            mine[RABBIT] -= owed[owner]
            placed = add_rabbits(g, t, owner, owed[owner])
            t.animals[owner, RABBIT] += placed
            t.herd[RABBIT] += owed[owner] - placed
            recheck_safe(g, memo, t, owner)
    place(g, memo, t, seat)
    if full_herd(t, seat):
        t.scalars[WINNER] = seat
        return
    for owner in range(g.players):
        if owed[owner] and full_herd(t, owner):
            t.scalars[WINNER] = owner
            return


@njit(cache=True)
def apply(g: Geometry, memo: Memo, t: Table, row: np.ndarray) -> None:
    """Apply a player's action row (one of those :func:`legal` wrote)."""
    seat = current(t)
    kind = row[0]
    if kind in (A_ROLL, A_ROLL_END):
        t.scalars[PHASE] = ROLL
        t.scalars[SETTLED] = kind == A_ROLL_END
        t.scalars[STRIKES_MADE] = 0
    elif kind == A_SAFEST:
        place(g, memo, t, seat)
    elif kind == A_DEAL:
        deal(g, memo, t, seat, row)
    elif kind == A_END_TURN:
        next_turn(g, t)
    elif kind == A_FIRST:
        t.scalars[PREDATORS] = 2
        t.scalars[PREDATOR_A] = row[1]
        t.scalars[PREDATOR_B] = WOLF if row[1] == FOX else FOX
        t.scalars[PHASE] = STRIKE
    elif kind == A_DOG:
        if row[1]:
            t.animals[seat, row[2]] -= 1
            t.herd[row[2]] += 1
            t.scalars[DOGS_GIVEN] += 1
        else:
            lose(g, memo, t, seat)
        t.scalars[DOGS_HEAD] += 1
        if t.scalars[DOGS_HEAD] == t.scalars[DOGS_ASKED]:
            after_strike(g, memo, t)
    elif kind == A_TRADE:
        t.scalars[DEALS] += 1
        for k in range(6):
            t.animals[seat, k] += row[7 + k] - row[1 + k]
            t.herd[k] += row[1 + k] - row[7 + k]
        place(g, memo, t, seat)
        if full_herd(t, seat):
            t.scalars[WINNER] = seat
    elif kind == A_RETURN:
        for k in range(4):
            t.animals[seat, k] -= row[1 + k]
            t.herd[k] += row[1 + k]
        place(g, memo, t, seat)
        settle(g, t, seat)


# ---------------------------------------------------------- legal actions
@njit(cache=True, inline="always")
def emit(out: np.ndarray, n: int, kind: int, a: int, b: int, c: int, d: int, e: int) -> int:
    if n >= MAX_ACTIONS:
        raise ValueError("more legal actions than the fast engine's buffer holds")
    out[n, 0] = kind
    out[n, 1] = a
    out[n, 2] = b
    out[n, 3] = c
    out[n, 4] = d
    out[n, 5] = e
    out[n, 6] = 0
    return n + 1


@njit(cache=True, inline="always")
def payment_kind(g: Geometry, t: Table, seat: int, price: int, kept: int) -> tuple[int, int]:
    """``deals.payment_kind``: (kind paid, rabbits of change), or (-1, 0)."""
    mine = t.animals[seat]
    if mine[RABBIT] - kept >= price:
        return RABBIT, 0
    for kind in (SMALL_DOG, SHEEP, LARGE_DOG, COW, HORSE):
        change = g.kinds[VALUE, kind] - price
        if mine[kind] and change >= 0 and t.herd[RABBIT] >= change:
            return kind, change
    return -1, 0


@njit(cache=True, inline="always")
def around(g: Geometry, seat: int, region: int) -> int:
    near = 0
    rest = region
    while rest:
        low = rest & -rest
        near |= g.neighbours[seat, low_bit(low)]
        rest ^= low
    return near & ((1 << g.pastures) - 1) & ~region


@njit(cache=True)
def legal(g: Geometry, memo: Memo, t: Table, out: np.ndarray) -> int:
    """``RanchoState._legal_actions`` for the seat to act, in the same order; the count."""
    phase = t.scalars[PHASE]
    seat = current(t)
    if phase == EXPAND:
        n = emit(out, 0, A_ROLL, 0, 0, 0, 0, 0)
        n = emit(out, n, A_ROLL_END, 0, 0, 0, 0, 0)
        if not t.seats[seat, SAFE]:
            n = emit(out, n, A_SAFEST, 0, 0, 0, 0, 0)
        if limit_reached(g, t):
            return n
        return offers(g, memo, t, seat, out, n)
    if phase == SETTLE:
        n = emit(out, 0, A_END_TURN, 0, 0, 0, 0, 0)
        if not t.seats[seat, SAFE]:
            n = emit(out, n, A_SAFEST, 0, 0, 0, 0, 0)
        return n
    if phase == ORDER:
        n = emit(out, 0, A_FIRST, FOX, 0, 0, 0, 0)
        return emit(out, n, A_FIRST, WOLF, 0, 0, 0, 0)
    if phase == DOG:
        size = SMALL_DOG if t.scalars[STRIKE_BY] == FOX else LARGE_DOG
        n = emit(out, 0, A_DOG, 1, size, 0, 0, 0)
        return emit(out, n, A_DOG, 0, size, 0, 0, 0)
    if phase == RETURN:
        return return_choices(g, memo, t, seat, out)
    return 0


@njit(cache=True)
def offers(g: Geometry, memo: Memo, t: Table, seat: int, out: np.ndarray, n: int) -> int:
    """``deals._offers``: ladder trades, then one payment per buyable pasture."""
    mine, herd = t.animals[seat], t.herd
    region = region_of(g, t, seat)
    room = popcount(region)
    for i in range(g.ladder.shape[0]):
        give, gn, take, tn = g.ladder[i, 0], g.ladder[i, 1], g.ladder[i, 2], g.ladder[i, 3]
        if mine[give] < gn or herd[take] < tn:
            continue
        if take < 4:
            r, s, c, h = mine[0], mine[1], mine[2], mine[3]
            r += tn * (take == 0) - gn * (give == 0)
            s += tn * (take == 1) - gn * (give == 1)
            c += tn * (take == 2) - gn * (give == 2)
            h += tn * (take == 3) - gn * (give == 3)
            if take >= 2:
                if not fits(g, memo, seat, region, r, s, c, h):
                    continue
            elif -(-r // g.per_space) + s + 2 * c + 3 * h > room:
                continue
        n = emit(out, n, A_DEAL, give, gn, take, tn, -1)
    if popcount(t.land[seat]) >= g.max_pastures:
        return n
    near = around(g, seat, region) & ~t.scalars[TAKEN]
    if not near:
        return blocked_offers(g, memo, t, seat, out, n)
    rest = near
    while rest:
        low = rest & -rest
        rest ^= low
        space = low_bit(low)
        price = g.spaces[PRICE, space]
        if mine[RABBIT] >= price:
            n = emit(out, n, A_DEAL, RABBIT, price, -1, 0, space)
            continue
        kind, change = payment_kind(g, t, seat, price, 0)
        if kind < 0:
            continue
        r, s, c, h = mine[0] + change, mine[1], mine[2], mine[3]
        s -= kind == SHEEP
        c -= kind == COW
        h -= kind == HORSE
        if fits(g, memo, seat, region | low, r, s, c, h):
            n = emit(out, n, A_DEAL, kind, 1, RABBIT if change else -1, change, space)
    return n


@njit(cache=True)
def return_choices(g: Geometry, memo: Memo, t: Table, seat: int, out: np.ndarray) -> int:
    """``RanchoState.return_choices``: single-species returns that fit, else one mixed."""
    mine = t.animals[seat]
    region = region_of(g, t, seat)
    n = 0
    left = np.empty(4, np.int64)
    for kind in range(4):
        for k in range(1, mine[kind] + 1):
            left[:] = mine[:4]
            left[kind] -= k
            if fits(g, memo, seat, region, left[0], left[1], left[2], left[3]):
                n = emit(out, n, A_RETURN, 0, 0, 0, 0, 0)
                out[n - 1, 1 + kind] = k
                break
    if n:
        return n
    back = np.zeros(4, np.int64)
    left[:] = mine[:4]
    for kind in range(4):
        while left[kind] and not fits(g, memo, seat, region, left[0], left[1], left[2], left[3]):
            left[kind] -= 1
            back[kind] += 1
    for kind in range(4):
        while back[kind]:
            left[kind] += 1
            if not fits(g, memo, seat, region, left[0], left[1], left[2], left[3]):
                left[kind] -= 1
                break
            back[kind] -= 1
    n = emit(out, 0, A_RETURN, back[0], back[1], back[2], back[3], 0)
    return n


@njit(cache=True)
def blocked_offers(g: Geometry, memo: Memo, t: Table, seat: int, out: np.ndarray, n: int) -> int:
    """``deals._blocked_offers``: for a walled-in seat, purchases through others' pastures.

    The cheapest routes to each free pasture (``deals.blocked_routes``: Dijkstra over
    other players' pastures, visiting spaces in the order the reference's heap pops
    them, with every equally cheap parent kept in the order found), one route per
    distinct payment, each paid the simplest way and checked as ``deal_problem`` would.
    """
    pastures = g.pastures
    region = region_of(g, t, seat)
    taken = t.scalars[TAKEN]
    foreign = taken & ~t.land[seat]
    start = 0
    rest = region
    while rest:
        low = rest & -rest
        start |= g.neighbours[seat, low_bit(low)]
        rest ^= low
    start &= foreign
    best = np.full(pastures, -1, np.int64)
    parents = np.full((pastures, 6), -1, np.int64)
    parent_count = np.zeros(pastures, np.int64)
    rest = start
    while rest:
        low = rest & -rest
        rest ^= low
        best[low_bit(low)] = g.spaces[PRICE, low_bit(low)]
    waiting = start  # reached and not yet settled: what the reference's heap holds
    while waiting:
        pick = -1
        rest = waiting
        while rest:
            low = rest & -rest
            rest ^= low
            s = low_bit(low)
            if pick < 0 or best[s] < best[pick]:
                pick = s
        waiting ^= 1 << pick
        near = g.neighbours[seat, pick] & foreign
        while near:
            low = near & -near
            near ^= low
            m = low_bit(low)
            new = best[pick] + g.spaces[PRICE, m]
            if best[m] < 0 or new < best[m]:
                best[m] = new
                parents[m, 0] = pick
                parent_count[m] = 1
                waiting |= low
            elif new == best[m]:
                known = False
                for j in range(parent_count[m]):
                    known |= parents[m, j] == pick
                if not known:
                    parents[m, parent_count[m]] = pick
                    parent_count[m] += 1
    free = ((1 << pastures) - 1) & ~taken
    target_cost = np.full(pastures, -1, np.int64)
    for s in range(pastures):
        if best[s] < 0:
            continue
        near = g.neighbours[seat, s] & free
        while near:
            low = near & -near
            near ^= low
            target = low_bit(low)
            if target_cost[target] < 0 or best[s] < target_cost[target]:
                target_cost[target] = best[s]
    paths = np.empty((MAX_ROUTES, pastures + 1), np.int64)  # length, then spaces
    stack = np.empty((MAX_ROUTES, pastures + 1), np.int64)
    payments = np.empty((MAX_ROUTES, g.players), np.int64)
    for target in range(pastures):
        cost = target_cost[target]
        if cost < 0:
            continue
        # deals._paths: depth first from each end, the last pushed popped first
        depth = 0
        ends = g.neighbours[seat, target] & foreign
        while ends:
            low = ends & -ends
            ends ^= low
            s = low_bit(low)
            if best[s] == cost:
                stack[depth, 0] = 1
                stack[depth, 1] = s
                depth += 1
        found = 0
        while depth and found < MAX_ROUTES:
            depth -= 1
            length = stack[depth, 0]
            head = stack[depth, 1]
            if parent_count[head] == 0:
                paths[found, : length + 1] = stack[depth, : length + 1]
                found += 1
                continue
            path = stack[depth, : length + 1].copy()
            for j in range(parent_count[head]):
                if depth == stack.shape[0]:  # a wide web of equally cheap routes: grow
                    wider = np.empty((2 * depth, pastures + 1), np.int64)
                    wider[:depth] = stack
                    stack = wider
                stack[depth, 0] = length + 1
                stack[depth, 1] = parents[head, j]
                stack[depth, 2 : length + 2] = path[1 : length + 1]
                depth += 1
        kept = 0
        for p in range(found):
            length = paths[p, 0]
            payments[kept, :] = 0
            for j in range(length):
                space = paths[p, 1 + j]
                payments[kept, t.owner[space]] += g.spaces[PRICE, space]
            seen = False
            for q in range(kept):
                same = True
                for o in range(g.players):
                    same &= payments[q, o] == payments[kept, o]
                seen |= same
            if seen:
                continue
            kept += 1
            toll = 0
            for o in range(g.players):
                toll += payments[kept - 1, o]
            n = blocked_purchase(g, memo, t, seat, region, target, toll, paths[p], out, n)
    return n


@njit(cache=True)
def blocked_purchase(
    g: Geometry,
    memo: Memo,
    t: Table,
    seat: int,
    region: int,
    target: int,
    toll: int,
    path: np.ndarray,
    out: np.ndarray,
    n: int,
) -> int:
    """One route's purchase (``payment_for`` keeping the toll), if ``deal_problem`` allows it."""
    price = g.spaces[PRICE, target]
    kind, change = payment_kind(g, t, seat, price, toll)
    if kind < 0:
        return n
    mine = t.animals[seat]
    paid_rabbits = price if kind == RABBIT else 0
    if mine[RABBIT] - paid_rabbits < toll:
        return n
    r = mine[RABBIT] - paid_rabbits + change - toll
    s = mine[SHEEP] - (kind == SHEEP)
    c = mine[COW] - (kind == COW)
    h = mine[HORSE] - (kind == HORSE)
    if not fits(g, memo, seat, region | (1 << target), r, s, c, h):
        return n
    count = price if kind == RABBIT else 1
    n = emit(out, n, A_DEAL, kind, count, RABBIT if change else -1, change, target)
    length = path[0]
    out[n - 1, 6] = length
    out[n - 1, ROUTE : ROUTE + length] = path[1 : length + 1]
    return n
