"""Rancho's actions: small hashable values whose ``str()`` is the canonical text.

Animal counts are 6-tuples in the order of :data:`~ranchhand.games.rancho.tables.SPECIES`
(rabbit, sheep, cow, horse, small dog, large dog). Spaces are named by their board
ids ("4.7"), so an action prints and compares without a board.

>>> str(Deal(give=(3, 2, 0, 0, 1, 1), take=(0, 0, 0, 1, 0, 0)))
'trade 3 rabbit + 2 sheep + small dog + large dog > horse'
>>> str(Deal(give=(0, 1, 0, 0, 0, 0), take=(4, 0, 0, 0, 0, 0), pastures=("3.4",)))
'buy 3.4 + 4 rabbit with sheep'
>>> str(Arrange(((2, 1, ("4.3", "4.4")), (0, 6, ("2.1",)))))
'arrange 6 rabbit @2.1; cow @4.3-4.4'
"""

from __future__ import annotations

from dataclasses import dataclass

from ranchhand.core.notation import is_number
from ranchhand.games.rancho.tables import FACES, PREDATOR_NAMES, SPECIES

Counts = tuple[int, int, int, int, int, int]
NONE: Counts = (0, 0, 0, 0, 0, 0)


def id_key(space_id: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key of a space id: "4.10" after "4.9"; parts that are no number sort as text."""
    return tuple((0, int(part)) if is_number(part) else (1, part) for part in space_id.split("."))


def animals_text(counts: tuple[int, ...]) -> str:
    """'3 rabbit + sheep + small dog'; 'nothing' for no animals."""
    parts = [
        name if n == 1 else f"{n} {name}" for name, n in zip(SPECIES, counts, strict=True) if n
    ]
    return " + ".join(parts) or "nothing"


@dataclass(frozen=True)
class Roll:
    """End the expand step and roll the two twelve-sided dice.

    ``end`` ("roll and end turn") settles in advance: after breeding the animals
    take the engine's safest arrangement and the turn ends without a settle step,
    the same as answering ``arrange safest`` then ``end turn`` there.
    """

    end: bool = False

    def __str__(self) -> str:
        return "roll and end turn" if self.end else "roll"


@dataclass(frozen=True)
class Deal:
    """One transaction with the herd: animals given for animals and pastures taken.

    ``via`` names the other players' pastures crossed to reach a pasture when
    blocked (FAQ); each crossed space's price is paid in rabbits to its owner.
    """

    give: Counts
    take: Counts = NONE
    pastures: tuple[str, ...] = ()
    via: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "pastures", tuple(sorted(self.pastures, key=id_key)))
        object.__setattr__(self, "_hash", hash((self.give, self.take, self.pastures, self.via)))

    def __hash__(self) -> int:
        # Deals fill every legal list, which the engine turns into a set at each step.
        return self._hash  # type: ignore[attr-defined,no-any-return]

    def __str__(self) -> str:
        if not self.pastures:
            return f"trade {animals_text(self.give)} > {animals_text(self.take)}"
        taken = " + ".join(self.pastures)
        if any(self.take):
            taken += " + " + animals_text(self.take)
        via = f" via {','.join(self.via)}" if self.via else ""
        return f"buy {taken}{via} with {animals_text(self.give)}"


@dataclass(frozen=True)
class Arrange:
    """Place every farm animal explicitly: pieces ``(kind, count, space ids)``."""

    pieces: tuple[tuple[int, int, tuple[str, ...]], ...]

    def __post_init__(self) -> None:
        pieces = [(k, n, tuple(sorted(ids, key=id_key))) for k, n, ids in self.pieces]
        pieces.sort(key=lambda p: (id_key(p[2][0]) if p[2] else (), p[0], p[1]))
        object.__setattr__(self, "pieces", tuple(pieces))

    def __str__(self) -> str:
        if not self.pieces:
            return "arrange nothing"
        return "arrange " + "; ".join(piece_text(*p) for p in self.pieces)


def piece_text(kind: int, count: int, ids: tuple[str, ...]) -> str:
    name = SPECIES[kind] if count == 1 else f"{count} {SPECIES[kind]}"
    return f"{name} @{'-'.join(ids)}"


@dataclass(frozen=True)
class ArrangeSafest:
    """Let the engine place the animals where predators strike least."""

    def __str__(self) -> str:
        return "arrange safest"


@dataclass(frozen=True)
class EndTurn:
    """Finish the turn after breeding (and any rearranging)."""

    def __str__(self) -> str:
        return "end turn"


@dataclass(frozen=True)
class First:
    """With a fox and a wolf rolled, the roller chooses which attacks first."""

    predator: int

    def __str__(self) -> str:
        return f"{PREDATOR_NAMES[self.predator]} first"


@dataclass(frozen=True)
class Dog:
    """A struck player gives up a dog of the right size, or keeps it and loses the animals."""

    give: bool
    size: int  # SMALL_DOG or LARGE_DOG

    def __str__(self) -> str:
        return f"{'give' if self.give else 'keep'} {SPECIES[self.size]}"


@dataclass(frozen=True)
class Return:
    """Newborns that do not fit: the animals the player sends back to the herd."""

    animals: Counts

    def __str__(self) -> str:
        return f"return {animals_text(self.animals)}"


@dataclass(frozen=True)
class DiceRoll:
    """Chance: the faces of the two twelve-sided dice (order does not matter)."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"roll {FACES[self.first]}+{FACES[self.second]}"


@dataclass(frozen=True)
class Strike:
    """Chance: the six-sided die names the pasture price a predator strikes."""

    price: int

    def __str__(self) -> str:
        return f"strike {self.price}"
