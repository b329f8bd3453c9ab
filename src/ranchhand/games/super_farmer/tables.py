"""Super Farmer's rules tables: species, exchange values, the herd and the two dice.

``data/rules.toml`` holds every number of the classic game; this module reads it
once, checks it, and turns it into tuples indexed by species so that breeding and
exchanges are plain integer lookups.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ranchhand.core.data import Fields, read_data

PACKAGE = "ranchhand.games.super_farmer"
SPECIES = ("rabbit", "sheep", "pig", "cow", "horse", "small dog", "big dog")
"""Everything a farmer can own, in the order of every count tuple."""
KEYS = ("rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog")
RABBIT, SHEEP, PIG, COW, HORSE, SMALL_DOG, BIG_DOG = range(7)
FARM = (RABBIT, SHEEP, PIG, COW, HORSE)
"""The species that breed and make up a winning herd (dogs do neither)."""
FACES = ("rabbit", "sheep", "pig", "cow", "horse", "fox", "wolf")
"""The faces a twelve-sided die may show; the first five are species indices."""
FOX, WOLF = 5, 6
DIE_NAMES = ("wolf", "fox")
"""The two dice, in the order of a roll: the wolf die first, then the fox die."""
MAX_COUNT = 1000
"""The most animals of one kind a rules file may put in the herd."""

Counts = tuple[int, int, int, int, int, int, int]


@dataclass(frozen=True)
class Tables:
    """The checked contents of a rules file."""

    values: Counts
    swaps: frozenset[tuple[int, int]]
    herd: Counts
    dice: tuple[tuple[int, ...], tuple[int, ...]]  # per die: the count of each of FACES

    def roll_weights(self) -> list[tuple[tuple[int, int], int]]:
        """Every (wolf die face, fox die face) with its weight out of 144."""
        wolf, fox = self.dice
        return [
            ((a, b), wa * wb) for a, wa in enumerate(wolf) for b, wb in enumerate(fox) if wa and wb
        ]

    def bundles(self, kind: int) -> tuple[Counts, ...]:
        """Every mix of cheaper animals worth exactly one ``kind``, within the box.

        These are the several animals that one ``kind`` is exchanged for (either
        way); the herd's stock bounds each count, since nobody can hold more.
        """
        return _bundles(self, kind)


@cache
def _bundles(tables: Tables, kind: int) -> tuple[Counts, ...]:
    worth = tables.values[kind]
    cheaper = [k for k in range(len(SPECIES)) if tables.values[k] < worth]
    found: list[Counts] = []
    counts = [0] * len(SPECIES)

    def fill(i: int, left: int) -> None:
        if i == len(cheaper):
            if left == 0:
                found.append(tuple(counts))  # type: ignore[arg-type]
            return
        k = cheaper[i]
        for n in range(min(tables.herd[k], left // tables.values[k]) + 1):
            counts[k] = n
            fill(i + 1, left - n * tables.values[k])
        counts[k] = 0

    fill(0, worth)
    return tuple(found)


@cache
def load_tables(source: str = "data/rules.toml") -> Tables:
    """Read and check ``data/rules.toml`` (or another rules file, e.g. in tests).

    Refused, naming the field: a value that is not a positive integer (a rabbit must be
    worth 1), a swap between animals of different values, a herd count outside
    0..1000, a die that does not have 12 faces or names a face that is no animal or
    predator, a wolf die without the wolf or a fox die without the fox.
    """
    top = Fields(source, "", read_data(PACKAGE, source))
    top.only(("values", "herd", "dice"))
    values_table = top.table_of("values")
    values_table.only((*KEYS, "swaps"))
    values = tuple(values_table.integer(k, 1, MAX_COUNT) for k in KEYS)
    if values[RABBIT] != 1:
        values_table.fail("rabbit", "values are counted in rabbits, so a rabbit is worth 1")
    swaps: set[tuple[int, int]] = set()
    for i, pair in enumerate(values_table.items("swaps", default=[])):
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in KEYS for p in pair)):
            values_table.fail(f"swaps[{i}]", f"expected two of {', '.join(KEYS)}")
        a, b = KEYS.index(pair[0]), KEYS.index(pair[1])
        if a == b or values[a] != values[b]:
            values_table.fail(f"swaps[{i}]", "a swap is between two animals of equal value")
        swaps |= {(a, b), (b, a)}
    herd_table = top.table_of("herd")
    herd_table.only(KEYS)
    herd = tuple(herd_table.integer(k, 0, MAX_COUNT) for k in KEYS)
    dice_table = top.table_of("dice")
    dice_table.only(DIE_NAMES)
    dice = []
    for name, predator in zip(DIE_NAMES, (WOLF, FOX), strict=True):
        die = dice_table.table_of(name)
        die.only(FACES)
        counts = tuple(die.integer(f, 0, 12, default=0) for f in FACES)
        if sum(counts) != 12:
            die.fail("", f"a twelve-sided die needs 12 faces, got {sum(counts)}")
        if not counts[predator]:
            die.fail(FACES[predator], f"the {name} die must show the {name}")
        dice.append(counts)
    return Tables(
        values=values,  # type: ignore[arg-type]
        swaps=frozenset(swaps),
        herd=herd,  # type: ignore[arg-type]
        dice=(dice[0], dice[1]),
    )
