"""Actions of Rocket Ranchers: small hashable values whose ``str()`` is the notation.

Display cells are named like a chess board: columns ``a`` to ``d`` from left to
right, rows ``1`` to ``4`` from top to bottom (so the refill order is a1, b1,
c1, d1, a2, ... d4). A beam is anchored at the top-left corner of the box the
turned pattern fills: ``beam L3 r90 @b2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ranchhand.core.notation import is_number
from ranchhand.games.rocket_ranchers.components import SIZE

COLUMNS = "abcd"[:SIZE]


def cell_name(index: int) -> str:
    """``0`` is ``a1`` (top left), ``15`` is ``d4`` (bottom right).

    >>> cell_name(0), cell_name(5), cell_name(15)
    ('a1', 'b2', 'd4')
    """
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def cell_index(text: str) -> int | None:
    """The index of a cell name, or None if ``text`` names no cell.

    Only ASCII is a cell: ``b²`` (a Unicode digit) names none.

    >>> cell_index("b2"), cell_index("e9"), cell_index("b²")
    (5, None, None)
    """
    text = text.strip().lower().lstrip("@")
    if len(text) != 2 or text[0] not in COLUMNS or not is_number(text[1]):
        return None
    row = int(text[1]) - 1
    return row * SIZE + COLUMNS.index(text[0]) if 0 <= row < SIZE else None


@dataclass(frozen=True)
class Beam:
    """Use a tractor beam: its shape, clockwise rotation in degrees and anchor cell."""

    shape: str
    rotation: int
    cell: str

    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(("Beam", *(self.shape, self.rotation, self.cell))))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"beam {self.shape} r{self.rotation} @{self.cell}"


@dataclass(frozen=True)
class Reboot:
    """Manual reboot: flip every beam and the dogship face up; the turn ends."""

    def __str__(self) -> str:
        return "reboot"


@dataclass(frozen=True)
class Dogship:
    """Swap two Wildlife cards of the same biome (cells in reading order)."""

    first: str
    second: str

    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(("Dogship", *(self.first, self.second))))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"dogship {self.first} {self.second}"


@dataclass(frozen=True)
class Form:
    """Place a collected card face down to form a new corral."""

    card: str

    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(("Form", *(self.card,))))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"form {self.card}"


@dataclass(frozen=True)
class Occupy:
    """Place a collected card face up in corral number ``corral`` (1-based)."""

    card: str
    corral: int

    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(("Occupy", *(self.card, self.corral))))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"occupy {self.card} in {self.corral}"


@dataclass(frozen=True)
class EndTurn:
    """End the turn after the refill without using the dogship."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Draw:
    """Chance: the card drawn from the deck into the next empty display cell."""

    card: str

    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(("Draw", *(self.card,))))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"draw {self.card}"


REBOOT = Reboot()
END_TURN = EndTurn()
CAT_TEXT = "cat"
DRAW_CAT = Draw(CAT_TEXT)
