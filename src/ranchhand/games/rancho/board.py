"""The Rancho board: spaces, prices, pens and adjacency, read from a data file.

A board file (``data/board-<name>.toml``) lists forest hexes, pastures with their
price and pens, each with axial hex coordinates; adjacency follows from the
coordinates. Everything the rules ask about the board often (neighbours, the price
of a space, which pairs and triples of spaces are connected) is computed once here,
as integers and tuples, so the rules and bots never walk the map at play time.

Spaces (pastures and pens) are numbered 0..n-1 in file order; a set of spaces is
an integer bit mask.

A board file nobody vouches for (``-o board=path``, or a shipped file edited by
hand) is checked before any game uses it, and refused with the file and field
named if it would break the game: a space id the notation cannot read ("ring.index",
numbers joined by dots) or used twice, two spaces on one hex, a price outside
1..24, a pen that is not two adjacent spaces or touches no pasture, a player count
whose pens are missing or repeated, coordinates or a number of spaces far beyond
any table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ranchhand.core.data import Fields, read_data
from ranchhand.core.errors import shorten
from ranchhand.core.notation import is_number

PACKAGE = "ranchhand.games.rancho"
NEIGHBOUR_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""Axial steps to the six hexes sharing an edge."""
MAX_PRICE = 24
"""The dearest pasture a board may price (a horse's worth in rabbits)."""
MAX_COORDINATE = 50
"""Hex coordinates lie in -50..50: a table, not a continent (the view draws every row)."""
MAX_SPACES = 400
"""Pastures and pens on one board; the shipped boards have 66 and 48."""
MAX_PEN = 12
PLAYER_COUNTS = range(2, 7)
SPACE_ID = re.compile(r"[0-9]{1,4}(?:\.[0-9]{1,4})+")
"""A space id: numbers joined by dots ("4.12"), which the action notation reads as a space."""


@dataclass(frozen=True)
class Space:
    """A pasture (price > 0) or a pen space (price 0, ``pen`` its pen number)."""

    index: int
    id: str
    q: int
    r: int
    price: int
    pen: int  # pen number for pen spaces, 0 for pastures

    @property
    def is_pen(self) -> bool:
        return self.pen > 0


@dataclass(frozen=True, eq=False)
class Board:
    """A loaded board with its precomputed geometry."""

    name: str
    description: str
    spaces: tuple[Space, ...]
    forest: tuple[tuple[str, int, int], ...]
    pens: dict[int, int]  # pen number -> mask of its spaces
    pens_by_players: dict[int, tuple[int, ...]]
    neighbours: tuple[tuple[int, ...], ...]
    neighbour_mask: tuple[int, ...]
    prices: tuple[int, ...]  # distinct pasture prices, ascending
    pairs: tuple[int, ...]  # masks of adjacent pairs of spaces
    triples: tuple[int, ...]  # masks of connected triples of spaces
    pasture_mask: int
    by_id: dict[str, int]
    price_masks: dict[int, int]  # price -> mask of the pastures of that price

    def space_of(self, space_id: str) -> int | None:
        return self.by_id.get(space_id)

    def price_mask(self, price: int) -> int:
        """The mask of the pastures of one price (what a predator strikes)."""
        return self.price_masks.get(price, 0)

    def ids(self, mask: int) -> list[str]:
        return [self.spaces[i].id for i in iter_bits(mask)]


def iter_bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def board_names() -> tuple[str, ...]:
    """The boards shipped in the package, from their file names."""
    folder = resources.files(PACKAGE).joinpath("data")
    names = [
        entry.name[len("board-") : -len(".toml")]
        for entry in folder.iterdir()
        if entry.name.startswith("board-") and entry.name.endswith(".toml")
    ]
    return tuple(sorted(names))


@cache
def load_board(name: str) -> Board:
    """Load and check ``data/board-<name>.toml`` (or a path to a board file)."""
    source = name if name.endswith(".toml") else f"data/board-{name}.toml"
    top = Fields(source, "", read_data(PACKAGE, source))
    top.only(("name", "description", "pens_by_players", "forest", "pastures", "pens"))
    board_name = top.text("name")
    if not 0 < len(board_name) <= 40:
        top.fail("name", f"expected a name of 1 to 40 characters, got {shorten(board_name)!r}")
    seen: dict[tuple[int, int], str] = {}
    ids: set[str] = set()

    def place(fields: Fields) -> tuple[str, int, int]:
        space_id = fields.text("id")
        if not SPACE_ID.fullmatch(space_id):
            fields.fail(
                "id", f"expected numbers joined by dots like '4.12', got {shorten(space_id)!r}"
            )
        q = fields.integer("q", -MAX_COORDINATE, MAX_COORDINATE)
        r = fields.integer("r", -MAX_COORDINATE, MAX_COORDINATE)
        if space_id in ids:
            fields.fail("id", f"{space_id!r} is used twice")
        if (q, r) in seen:
            fields.fail("q", f"hex ({q}, {r}) is also {seen[q, r]!r}")
        ids.add(space_id)
        seen[q, r] = space_id
        return space_id, q, r

    forest = []
    for fields in top.tables("forest"):
        fields.only(("id", "q", "r"))
        forest.append(place(fields))
    spaces: list[Space] = []
    pasture_rows = top.tables("pastures", "pasture")
    pen_rows = top.tables("pens", "pen")
    if len(pasture_rows) + len(pen_rows) > MAX_SPACES:
        top.fail("pastures", f"more than {MAX_SPACES} pastures and pen spaces")
    if not pasture_rows:
        top.fail("pastures", "a board needs pastures")
    for fields in pasture_rows:
        fields.only(("id", "q", "r", "price"))
        space_id, q, r = place(fields)
        price = fields.integer("price", 1, MAX_PRICE)
        spaces.append(Space(len(spaces), space_id, q, r, price, 0))
    for fields in pen_rows:
        fields.only(("id", "q", "r", "pen"))
        space_id, q, r = place(fields)
        spaces.append(Space(len(spaces), space_id, q, r, 0, fields.integer("pen", 1, MAX_PEN)))
    pens: dict[int, int] = {}
    for space in spaces:
        if space.is_pen:
            pens[space.pen] = pens.get(space.pen, 0) | 1 << space.index
    at = {(s.q, s.r): s.index for s in spaces}
    neighbours = tuple(
        tuple(at[s.q + dq, s.r + dr] for dq, dr in NEIGHBOUR_STEPS if (s.q + dq, s.r + dr) in at)
        for s in spaces
    )
    for pen, mask in sorted(pens.items()):
        members = iter_bits(mask)
        if len(members) != 2 or members[1] not in neighbours[members[0]]:
            top.fail(
                "pens", f"pen {pen} must be two adjacent spaces, got {board_ids(spaces, mask)}"
            )
        if not any(not spaces[n].is_pen for m in members for n in neighbours[m]):
            top.fail("pens", f"pen {pen} touches no pasture")
    pens_by_players = _pens_by_players(top, pens)
    pairs = sorted({1 << a | 1 << b for a in range(len(spaces)) for b in neighbours[a]})
    triples = sorted(
        {pair | 1 << c for pair in pairs for m in iter_bits(pair) for c in neighbours[m]}
        - set(pairs)
    )
    price_masks: dict[int, int] = {}
    for space in spaces:
        if not space.is_pen:
            price_masks[space.price] = price_masks.get(space.price, 0) | 1 << space.index
    return Board(
        name=board_name,
        description=top.text("description", default=""),
        spaces=tuple(spaces),
        forest=tuple(forest),
        pens=pens,
        pens_by_players=pens_by_players,
        neighbours=neighbours,
        neighbour_mask=tuple(sum(1 << n for n in ns) for ns in neighbours),
        prices=tuple(sorted({s.price for s in spaces if not s.is_pen})),
        pairs=tuple(pairs),
        triples=tuple(t for t in triples if t.bit_count() == 3),
        pasture_mask=sum(1 << s.index for s in spaces if not s.is_pen),
        by_id={s.id: s.index for s in spaces},
        price_masks=price_masks,
    )


def _pens_by_players(top: Fields, pens: dict[int, int]) -> dict[int, tuple[int, ...]]:
    """Which pens each player count uses: distinct pens of the board, one per player."""
    by_players = top.table_of("pens_by_players")
    out: dict[int, tuple[int, ...]] = {}
    for key in by_players.table:
        if not is_number(key) or int(key) not in PLAYER_COUNTS:
            by_players.fail(
                shorten(key), f"expected a player count {PLAYER_COUNTS[0]}..{PLAYER_COUNTS[-1]}"
            )
        chosen = by_players.items(key)
        for pen in chosen:
            if isinstance(pen, bool) or not isinstance(pen, int):
                by_players.fail(key, f"expected pen numbers, got {shorten(repr(pen))}")
            if pen not in pens:
                by_players.fail(key, f"no pen {pen}; pens are {sorted(pens)}")
        if len(chosen) != int(key) or len(set(chosen)) != len(chosen):
            by_players.fail(key, f"expected {key} different pen numbers, got {chosen}")
        out[int(key)] = tuple(chosen)
    if not out:
        by_players.fail("", "names no player count")
    return out


def board_ids(spaces: list[Space] | tuple[Space, ...], mask: int) -> list[str]:
    return [spaces[i].id for i in iter_bits(mask)]
