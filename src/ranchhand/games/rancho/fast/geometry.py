"""The numbers a compiled Rancho game reads: one loaded game's board, dice and tables as arrays.

The compiled kernel works on 63-bit integer masks, but the default board has 66 spaces
(54 pastures and six two-space pens). A player's own animals only ever stand on the
pastures and on *their* pen, and nobody buys or crosses a pen, so each seat sees the
board in its own *frame*: pastures keep their board index (they come first in every
board file), and the seat's two pen spaces become the next two bits. The order of
spaces is unchanged by the mapping, so every tie the reference engine breaks by a
space's index or a mask's value is broken the same way here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ranchhand.core import OptionError
from ranchhand.games.rancho.board import iter_bits
from ranchhand.games.rancho.deals import MAX_PASTURES

if TYPE_CHECKING:
    from ranchhand.games.rancho.game import RanchoGame

MASK_BITS = 62
"""Spaces a seat's frame may hold: masks are signed 64-bit integers, kept clear of the sign."""


# rows of Geometry.spaces
PRICE, RISK, BY_RISK = range(3)
# rows of Geometry.kinds
VALUE, DEAREST, CHEAPEST, START_HERD, START = range(5)
# columns of Geometry.rolls and Geometry.strikes
ROLL_A, ROLL_B, ROLL_UP_TO = range(3)
STRIKE_PRICE_OF, STRIKE_UP_TO = range(2)


class Geometry(NamedTuple):
    """A loaded Rancho game as the compiled kernel reads it (see the module's docstring).

    Few arrays, each a table of related numbers: every compiled call passes them all.
    """

    players: int
    pastures: int
    """Pastures on the board; a seat's pen is bits ``pastures`` and ``pastures + 1``."""
    per_space: int
    max_pastures: int
    deal_limit: int
    """``deals_per_turn``: deals allowed in one expand step (0: any number)."""
    neighbours: np.ndarray
    """(seat, space): the mask of pastures and own-pen spaces next to a space."""
    spaces: np.ndarray
    """(PRICE | RISK | BY_RISK, space): a pasture's price (0 for the pen); the faces of
    the six-sided die (of 6) that strike it; and every space of a frame, least struck
    first (ties by index), where single pieces go."""
    ring: np.ndarray
    """(price,): the mask of the pastures a strike of that price hits."""
    shapes: np.ndarray
    """(seat, 0 for triples | 1 for pairs, i): where a horse or a cow may stand, in the
    engine's order of preference, 0-padded."""
    shape_counts: np.ndarray
    """(seat, 0 | 1): how many triples and pairs ``shapes`` holds."""
    kinds: np.ndarray
    """(VALUE | DEAREST | CHEAPEST | START_HERD | START, kind): exchange values; the six
    kinds dearest first and cheapest first (ties in kind order, as the greedy bot pays);
    the herd at setup; each seat's start animals."""
    ladder: np.ndarray
    """(step, 4): kind given, count given, kind taken, count taken: the offered trades."""
    rolls: np.ndarray
    """(outcome, ROLL_A | ROLL_B | ROLL_UP_TO): the faces of each roll of the twelve-sided
    dice as the game lists them, and the running total of their weights."""
    strikes: np.ndarray
    """(outcome, STRIKE_PRICE_OF | STRIKE_UP_TO): each price the six-sided die strikes."""


class Frames(NamedTuple):
    """The kernel's geometry and the maps back to the board's space ids."""

    geometry: Geometry
    pen_spaces: tuple[tuple[int, int], ...]
    """Each seat's two pen spaces as board indices (the frame's last two bits)."""


def frames_of(game: RanchoGame) -> Frames:
    """Build the kernel's arrays for ``game``; OptionError if its board is too large."""
    board, grazing = game.board, game.grazing
    pastures = sum(1 for space in board.spaces if not space.is_pen)
    if any(space.is_pen for space in board.spaces[:pastures]) or pastures + 2 > MASK_BITS:
        raise OptionError(
            f"rancho: the fast engine needs a board of at most {MASK_BITS - 2} pastures listed "
            f"before its pens; board {board.name} is not one"
        )
    size = pastures + 2
    pens = [iter_bits(mask) for mask in game.pens]

    def local(seat: int, mask: int) -> int | None:
        """``mask`` in the seat's frame, or None if it touches a space the seat never uses."""
        out = mask & ((1 << pastures) - 1)
        rest = mask >> pastures << pastures
        for offset, space in enumerate(pens[seat]):
            if rest >> space & 1:
                out |= 1 << (pastures + offset)
                rest ^= 1 << space
        return None if rest else out

    players = game.players
    neighbours = np.zeros((players, size), dtype=np.int64)
    for seat in range(players):
        for at, space in enumerate([*range(pastures), *pens[seat]]):
            near = _restricted(board.neighbour_mask[space], pens[seat], pastures)
            neighbours[seat, at] = local(seat, near) or 0
    triples = _shapes(grazing.triples_by_risk, players, local)
    pairs = _shapes(grazing.pairs_by_risk, players, local)
    width = max(len(row) for row in triples + pairs)
    shapes = np.zeros((players, 2, width), dtype=np.int64)
    for seat in range(players):
        for which, rows in enumerate((triples, pairs)):
            shapes[seat, which, : len(rows[seat])] = rows[seat]
    risk = [grazing.space_risk[s] for s in range(pastures)] + [0, 0]
    prices = [board.spaces[s].price for s in range(pastures)] + [0, 0]
    by_risk = sorted(range(size), key=lambda s: (risk[s], s))
    ring = np.zeros(max(board.prices) + 1, dtype=np.int64)
    for price in board.prices:
        ring[price] = board.price_mask(price)
    values = game.values
    kinds = [
        list(values),
        sorted(range(6), key=lambda k: -values[k]),
        sorted(range(6), key=lambda k: values[k]),
        list(game.start_herd),
        [*game.tables.start, 0, 0],
    ]
    geometry = Geometry(
        players=players,
        pastures=pastures,
        per_space=grazing.per_space,
        max_pastures=MAX_PASTURES,
        deal_limit=game.deal_limit,
        neighbours=neighbours,
        spaces=np.array([prices, risk, by_risk], dtype=np.int64),
        ring=ring,
        shapes=shapes,
        shape_counts=np.array([[len(triples[s]), len(pairs[s])] for s in range(players)], np.int64),
        kinds=np.array(kinds, dtype=np.int64),
        ladder=np.array(
            [(gk, gn, tk, tn) for _deal, gk, gn, tk, tn in game.ladder_deals], dtype=np.int64
        ).reshape(-1, 4),
        rolls=_running(game.dice.pair_weights()),
        strikes=_running([((price,), weight) for price, weight in game.dice.strike_weights()]),
    )
    return Frames(geometry, tuple((a, b) for a, b in pens))


def _running(outcomes: Sequence[tuple[tuple[int, ...], int]]) -> np.ndarray:
    """Rows of an outcome's numbers and the running total of the weights, in the order
    the game lists its chance outcomes (``RanchoGame.roll_outcomes`` is built the same way)."""
    totals = accumulate(weight for _numbers, weight in outcomes)
    rows = [(*numbers, total) for (numbers, _weight), total in zip(outcomes, totals, strict=True)]
    return np.array(rows, dtype=np.int64)


def _restricted(mask: int, pen: list[int], pastures: int) -> int:
    """``mask`` without the spaces of other seats' pens."""
    keep = (1 << pastures) - 1
    for space in pen:
        keep |= 1 << space
    return mask & keep


def _shapes(
    shapes: tuple[int, ...], players: int, local: Callable[[int, int], int | None]
) -> list[list[int]]:
    """Each seat's usable pairs or triples (those in its frame), in the engine's order."""
    rows: list[list[int]] = []
    for seat in range(players):
        mapped = (local(seat, mask) for mask in shapes)
        rows.append([mask for mask in mapped if mask is not None])
    return rows
