"""Rancho's rules tables: species, exchange values, herd, dogs and dice, from data.

``data/rules.toml`` holds every number the rulebook prints (and the rules README's
choices where it prints none); this module reads it once, checks it, and turns it
into tuples indexed by species so the hot paths use plain integer lookups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ranchhand.core.data import Fields, read_data
from ranchhand.core.errors import shorten
from ranchhand.games.rancho.board import MAX_PRICE, PACKAGE

SPECIES = ("rabbit", "sheep", "cow", "horse", "small dog", "large dog")
"""Everything a player can own, in the order of every count tuple."""
RABBIT, SHEEP, COW, HORSE, SMALL_DOG, LARGE_DOG = range(6)
FARM = (RABBIT, SHEEP, COW, HORSE)
"""The species that need space, breed, and make up a full herd."""
KEYS = ("rabbit", "sheep", "cow", "horse", "small_dog", "large_dog")
FACES = ("rabbit", "sheep", "cow", "horse", "fox", "wolf")
"""The faces of the twelve-sided dice; the first four are species indices."""
FOX, WOLF = 4, 5
PREDATOR_NAMES = {FOX: "fox", WOLF: "wolf"}


@dataclass(frozen=True)
class Dice:
    """The two twelve-sided dice (face counts per die) and the six-sided die."""

    name: str
    doc: str
    d12: tuple[tuple[int, ...], ...]  # per die: count of each of FACES
    d6: tuple[int, ...]  # the price struck by each face

    def pair_weights(self) -> list[tuple[tuple[int, int], int]]:
        """Every unordered pair of faces with its integer weight (both orders merged)."""
        weights: dict[tuple[int, int], int] = {}
        first, second = self.d12
        for a, wa in enumerate(first):
            for b, wb in enumerate(second):
                if wa and wb:
                    key = (a, b) if a <= b else (b, a)
                    weights[key] = weights.get(key, 0) + wa * wb
        return sorted(weights.items())

    def strike_weights(self) -> list[tuple[int, int]]:
        """Each price the six-sided die can strike with its number of faces."""
        return sorted({p: self.d6.count(p) for p in self.d6}.items())


@dataclass(frozen=True)
class Tables:
    values: tuple[int, ...]
    rabbits_per_space: int
    herd: dict[int, tuple[int, ...]]  # players -> herd counts of the four farm species
    dogs: dict[str, tuple[str, dict[int, tuple[int, int]]]]  # option -> doc, players -> dogs
    start: tuple[int, ...]
    dice: dict[str, Dice]

    def herd_for(self, players: int, dogs: str) -> tuple[int, ...]:
        """The herd at setup: farm animals by player count plus the dogs option."""
        small, large = self.dogs[dogs][1][players]
        return (*self.herd[players], small, large)


DEFAULT_DICE = "twin"
"""The ``dice`` option's default (rules README); the rules file must define it."""
DEFAULT_DOGS = "by-players"
"""The ``dogs`` option's default (rules README); the rules file must define it."""
MAX_VALUE = 1000
"""The largest exchange value or herd count a rules file may give."""
PEN_SPACES = 2
"""Every pen is two adjacent spaces (the board loader checks it): the start animals' room."""
_CHOICE = re.compile(r"[a-z][a-z0-9-]{0,29}")
"""An option value (a dice or dogs row name), as typed in ``-o dice=twin``."""


@cache
def load_tables(source: str = "data/rules.toml") -> Tables:
    """Read and check ``data/rules.toml`` (or another rules file, e.g. in tests).

    Refused, naming the field: a value or price that is not a positive integer (a rabbit
    must be worth 1), herd counts that are not 5 positive integers (2 to 6 players), dog
    counts outside 0..3 (the box holds 3 of each), start animals that do not fit in a pen
    or that the herd cannot supply to every player, a twelve-sided die without 12 faces or
    with a face that names no animal or predator, a six-sided die face that is no price,
    and a missing default row for the ``dice`` or ``dogs`` option.
    """
    top = Fields(source, "", read_data(PACKAGE, source))
    top.only(("values", "space", "herd", "dogs", "start", "dice"))
    values_table = top.table_of("values")
    values_table.only(KEYS)
    values = tuple(values_table.integer(k, 1, MAX_VALUE) for k in KEYS)
    if values[RABBIT] != 1:
        values_table.fail("rabbit", "values are counted in rabbits, so a rabbit is worth 1")
    space = top.table_of("space")
    space.only(("rabbits_per_space",))
    rabbits_per_space = space.integer("rabbits_per_space", 1, 60)
    herd_table = top.table_of("herd")
    herd_table.only(KEYS[:4])
    columns = [_counts(herd_table, k, 1, MAX_VALUE) for k in KEYS[:4]]
    herd = {players: tuple(c[players - 2] for c in columns) for players in range(2, 7)}
    dogs: dict[str, tuple[str, dict[int, tuple[int, int]]]] = {}
    dogs_table = top.table_of("dogs")
    for name in dogs_table.table:
        _check_choice(dogs_table, name)
        row = dogs_table.table_of(name)
        row.only(("doc", "small_dog", "large_dog"))
        small, large = _counts(row, "small_dog", 0, 3), _counts(row, "large_dog", 0, 3)
        dogs[name] = (row.text("doc"), {p: (small[p - 2], large[p - 2]) for p in range(2, 7)})
    if DEFAULT_DOGS not in dogs:
        dogs_table.fail(DEFAULT_DOGS, "missing; it is the default of option dogs")
    start_table = top.table_of("start")
    start_table.only(KEYS[:4])
    start = tuple(start_table.integer(k, 0, 6, default=0) for k in KEYS[:4])
    _check_start(start_table, start, rabbits_per_space, herd)
    dice: dict[str, Dice] = {}
    dice_table = top.table_of("dice")
    for name in dice_table.table:
        _check_choice(dice_table, name)
        row = dice_table.table_of(name)
        row.only(("doc", "d12", "d6"))
        dies = []
        for die in row.tables("d12"):
            die.only(FACES)
            counts = tuple(die.integer(f, 0, 12, default=0) for f in FACES)
            if sum(counts) != 12:
                die.fail("", f"a twelve-sided die needs 12 faces, got {sum(counts)}")
            dies.append(counts)
        if len(dies) != 2:
            row.fail("d12", f"expected 2 twelve-sided dice, got {len(dies)}")
        d6 = row.items("d6")
        if len(d6) != 6 or not all(_whole(p) and 1 <= p <= MAX_PRICE for p in d6):
            row.fail("d6", f"expected 6 pasture prices 1..{MAX_PRICE}, got {shorten(repr(d6))}")
        dice[name] = Dice(name, row.text("doc"), tuple(dies), tuple(d6))
    if DEFAULT_DICE not in dice:
        dice_table.fail(DEFAULT_DICE, "missing; it is the default of option dice")
    return Tables(
        values=values,
        rabbits_per_space=rabbits_per_space,
        herd=herd,
        dogs=dogs,
        start=start,
        dice=dice,
    )


def _whole(value: object) -> bool:
    """An integer that is not a bool (TOML ``true`` is no count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _counts(table: Fields, key: str, low: int, high: int) -> list[int]:
    """Five counts ``low..high``, one for each player count 2 to 6."""
    column = table.items(key)
    if len(column) != 5 or not all(_whole(n) and low <= n <= high for n in column):
        table.fail(
            key, f"expected 5 counts {low}..{high} (2 to 6 players), got {shorten(repr(column))}"
        )
    return list(column)


def _check_choice(table: Fields, name: str) -> None:
    if not _CHOICE.fullmatch(name):
        table.fail(
            shorten(name), "expected a name of lowercase letters, digits and '-' (an option value)"
        )


def _check_start(
    table: Fields,
    start: tuple[int, ...],
    rabbits_per_space: int,
    herd: dict[int, tuple[int, ...]],
) -> None:
    """Every player's start animals must fit in their pen and come from the herd."""
    rabbits, sheep, cows, horses = start
    need = -(-rabbits // rabbits_per_space) + sheep + 2 * cows + 3 * horses
    if need > PEN_SPACES:
        table.fail("", f"the start animals need {need} spaces; a pen has {PEN_SPACES}")
    for players, counts in herd.items():
        for kind, key in enumerate(KEYS[:4]):
            if players * start[kind] > counts[kind]:
                table.fail(
                    key,
                    f"{players} players take {players * start[kind]} from a herd of {counts[kind]}",
                )
