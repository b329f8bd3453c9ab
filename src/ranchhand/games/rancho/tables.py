"""Rancho's rules tables: species, exchange values, herd, dogs and dice, from data.

``data/rules.toml`` holds every number the rulebook prints (and the rules README's
choices where it prints none); this module reads it once, checks it, and turns it
into tuples indexed by species so the hot paths use plain integer lookups.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ranchhand.core.data import Fields, read_data
from ranchhand.games.rancho.board import PACKAGE

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


@cache
def load_tables(source: str = "data/rules.toml") -> Tables:
    """Read and check ``data/rules.toml`` (or another rules file, e.g. in tests)."""
    top = Fields(source, "", read_data(PACKAGE, source))
    top.only(("values", "space", "herd", "dogs", "start", "dice"))
    values_table = top.table_of("values")
    values_table.only(KEYS)
    values = tuple(values_table.integer(k, 1, 1000) for k in KEYS)
    if values[RABBIT] != 1:
        values_table.fail("rabbit", "values are counted in rabbits, so a rabbit is worth 1")
    space = top.table_of("space")
    herd_table = top.table_of("herd")
    herd_table.only(KEYS[:4])
    columns = [herd_table.items(k) for k in KEYS[:4]]
    for key, column in zip(KEYS, columns, strict=False):
        if len(column) != 5 or not all(isinstance(n, int) and n >= 0 for n in column):
            herd_table.fail(key, f"expected 5 counts (2 to 6 players), got {column}")
    herd = {players: tuple(c[players - 2] for c in columns) for players in range(2, 7)}
    dogs: dict[str, tuple[str, dict[int, tuple[int, int]]]] = {}
    dogs_table = top.table_of("dogs")
    for name in dogs_table.table:
        row = dogs_table.table_of(name)
        row.only(("doc", "small_dog", "large_dog"))
        small, large = row.items("small_dog"), row.items("large_dog")
        for key, column in (("small_dog", small), ("large_dog", large)):
            if len(column) != 5 or not all(isinstance(n, int) and 0 <= n <= 3 for n in column):
                row.fail(key, f"expected 5 counts 0..3 (2 to 6 players), got {column}")
        dogs[name] = (row.text("doc"), {p: (small[p - 2], large[p - 2]) for p in range(2, 7)})
    start_table = top.table_of("start")
    start_table.only(KEYS[:4])
    start = tuple(start_table.integer(k, 0, 6, default=0) for k in KEYS[:4])
    dice: dict[str, Dice] = {}
    dice_table = top.table_of("dice")
    for name in dice_table.table:
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
        if len(d6) != 6 or not all(isinstance(p, int) and p > 0 for p in d6):
            row.fail("d6", f"expected 6 pasture prices, got {d6}")
        dice[name] = Dice(name, row.text("doc"), tuple(dies), tuple(d6))
    return Tables(
        values=values,
        rabbits_per_space=space.integer("rabbits_per_space", 1, 60),
        herd=herd,
        dogs=dogs,
        start=start,
        dice=dice,
    )
