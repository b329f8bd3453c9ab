"""The components of Rocket Ranchers as data: the Wildlife deck, tractor beams, score tables.

Each loader reads a TOML file (shipped in this package, or a path given as an
option value), checks every field and returns plain immutable values. Errors
name the file and the field, e.g. ``deck-standard.toml: cards[12].dots: ...``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ranchhand.core.data import Fields, read_data

PACKAGE = "ranchhand.games.rocket_ranchers"
SIZE = 4
"""The display is a SIZE x SIZE grid (the rulebook's four-by-four)."""
MARKS = {"4+": 4, "5+": 5, "": 2}
"""A card's player mark and the least player count that keeps it in the deck."""


def data_file(kind: str, value: str) -> str:
    """The file an option value names: ``standard`` is ``<kind>-standard.toml`` here.

    Any other value is a path to a TOML file of the same layout.
    """
    if re.fullmatch(r"[a-z0-9-]+", value) and not Path(value).is_file():
        return f"{kind}-{value}.toml"
    return value


@dataclass(frozen=True)
class WildlifeCard:
    """One printed Wildlife card: species, biome, dots and the least player count."""

    species: str
    biome: str
    dots: int
    players: int

    @property
    def text(self) -> str:
        return f"{self.species}/{self.biome}/{self.dots}".lower()


@dataclass(frozen=True)
class Deck:
    """A Wildlife deck file: species and biome names, biome colours, cards, Space Cats."""

    name: str
    species: tuple[str, ...]
    biomes: tuple[str, ...]
    colours: tuple[str, ...]
    cards: tuple[WildlifeCard, ...]
    space_cats: Mapping[int, int]

    def for_players(self, players: int) -> tuple[list[WildlifeCard], int]:
        """The Wildlife cards and Space Cat count shuffled for ``players``."""
        return [c for c in self.cards if c.players <= players], self.space_cats[players]


def load_deck(value: str) -> Deck:
    """Load and check the Wildlife deck named by the ``deck`` option."""
    name = data_file("deck", value)
    top = Fields(name, "", read_data(PACKAGE, name))
    top.only(("name", "species", "biomes", "cards", "space_cats"))
    species = _names(top, "species")
    biome_tables = top.tables("biomes")
    if not biome_tables:
        top.fail("biomes", "expected at least one biome")
    biomes, colours = [], []
    for biome in biome_tables:
        biome.only(("name", "colour"))
        biomes.append(biome.text("name"))
        colours.append(biome.text("colour", default="white"))
    if len(set(biomes)) != len(biomes):
        top.fail("biomes", f"biome names must differ, got {biomes}")
    cats_table = top.table_of("space_cats")
    space_cats = {}
    for players in range(2, 6):
        space_cats[players] = cats_table.integer(str(players), 0, 1000)
    cats_table.only(str(p) for p in range(2, 6))
    cards = []
    for card in top.tables("cards"):
        card.only(("species", "biome", "dots", "mark"))
        cards.append(
            WildlifeCard(
                card.text("species", species),
                card.text("biome", biomes),
                card.integer("dots", 1, 9),
                MARKS[card.text("mark", MARKS, default="")],
            )
        )
    for players in range(2, 6):
        kept = sum(1 for c in cards if c.players <= players)
        if kept + space_cats[players] <= SIZE * SIZE:
            top.fail(
                "cards",
                f"the {players}-player deck has {kept} Wildlife cards and "
                f"{space_cats[players]} Space Cats; it needs more than {SIZE * SIZE} "
                "to fill the display and play",
            )
    return Deck(
        top.text("name"),
        tuple(species),
        tuple(biomes),
        tuple(colours),
        tuple(cards),
        space_cats,
    )


def _names(top: Fields, key: str) -> list[str]:
    names = top.items(key)
    if not names or not all(isinstance(n, str) and re.fullmatch(r"[A-Za-z]+", n) for n in names):
        top.fail(key, f"expected a non-empty list of one-word names, got {names!r}")
    if len({n.lower() for n in names}) != len(names):
        top.fail(key, f"names must differ, got {names}")
    return list(names)


@dataclass(frozen=True)
class BeamShape:
    """One tractor beam token: its name and pattern cells (row, column) at rotation 0."""

    name: str
    description: str
    cells: tuple[tuple[int, int], ...]

    def rotated(self, quarter_turns: int) -> tuple[tuple[int, int], ...]:
        """The pattern turned clockwise ``quarter_turns`` times, moved to start at (0, 0)."""
        cells = self.cells
        for _ in range(quarter_turns % 4):
            cells = tuple((c, -r) for r, c in cells)
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        return tuple(sorted((r - top, c - left) for r, c in cells))


def load_beams(value: str) -> tuple[BeamShape, ...]:
    """Load and check the tractor beams named by the ``beams`` option."""
    name = data_file("beams", value)
    top = Fields(name, "", read_data(PACKAGE, name))
    top.only(("name", "beam"))
    shapes = []
    for beam in top.tables("beam"):
        beam.only(("name", "description", "cells"))
        label = beam.text("name")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", label):
            beam.fail("name", f"expected a short name of letters and digits, got {label!r}")
        cells = []
        for index, cell in enumerate(beam.items("cells")):
            if (
                not isinstance(cell, list)
                or len(cell) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
                or not all(0 <= x < SIZE for x in cell)
            ):
                beam.fail(
                    f"cells[{index}]", f"expected [row, column] in 0..{SIZE - 1}, got {cell!r}"
                )
            cells.append((cell[0], cell[1]))
        if not cells or len(set(cells)) != len(cells):
            beam.fail("cells", f"expected at least one cell and no repeats, got {cells}")
        if not _connected(set(cells)):
            beam.fail("cells", f"the pattern must be orthogonally connected, got {cells}")
        shapes.append(BeamShape(label, beam.text("description", default=label), tuple(cells)))
    names = [s.name.lower() for s in shapes]
    if len(shapes) != 4 or len(set(names)) != 4:
        top.fail("beam", f"expected four beams with different names, got {names}")
    return tuple(shapes)


def _connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if step in cells and step not in seen:
                seen.add(step)
                todo.append(step)
    return seen == cells


@dataclass(frozen=True)
class ScoreTables:
    """Score rows ``(at least, points)`` for Abundance and Variety, and Space Cat points."""

    abundance: tuple[tuple[int, int], ...]
    variety: tuple[tuple[int, int], ...]
    cats_most: int
    cats_each: int


def load_scores(abundance_table: str) -> ScoreTables:
    """Load the score tables, with the Abundance table the option names."""
    name = "scores.toml"
    top = Fields(name, "", read_data(PACKAGE, name))
    top.only(("abundance", "variety", "space_cats"))
    tables = top.table_of("abundance")
    if not tables.has(abundance_table):
        tables.fail(abundance_table, f"no such Abundance table; tables: {', '.join(tables.table)}")
    cats = top.table_of("space_cats")
    return ScoreTables(
        _rows(tables.table_of(abundance_table)),
        _rows(top.table_of("variety")),
        cats.integer("most"),
        cats.integer("each"),
    )


def _rows(table: Fields) -> tuple[tuple[int, int], ...]:
    rows: list[Any] = list(table.items("rows"))
    good = all(isinstance(r, list) and len(r) == 2 and all(type(x) is int for x in r) for r in rows)
    if not rows or not good:
        table.fail("rows", f"expected [[at least, points], ...], got {rows!r}")
    if [r[0] for r in rows] != sorted({r[0] for r in rows}) or rows[0][0] < 1:
        table.fail("rows", f"thresholds must rise from at least 1, got {rows!r}")
    return tuple((r[0], r[1]) for r in rows)
