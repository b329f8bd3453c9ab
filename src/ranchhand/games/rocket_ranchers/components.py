"""The components of Rocket Ranchers as data: the Wildlife deck, tractor beams, score tables.

Each loader reads a TOML file (shipped in this package, or a path given as an
option value), checks every field and returns plain immutable values. Errors
name the file and the field, e.g. ``deck-standard.toml: cards[12].dots: ...``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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


MAX_NAME = 24
"""The longest species or biome name: a card's text must stay short enough to type."""
MAX_SPACE_CATS = 1000
_WORD = re.compile(r"[A-Za-z]+")
_COLOUR = re.compile(r"[a-z][a-z0-9_]*|#[0-9a-fA-F]{6}")


def load_deck(value: str) -> Deck:
    """Load and check the Wildlife deck named by the ``deck`` option.

    Beyond each field's type, the file must make a playable game: species and
    biome names are single words that differ whatever their case (a card is
    typed as ``kow/tundra/2``, in lower case), biome colours are colours the
    terminal can draw, and every player count's deck holds a Wildlife card and
    enough cards to fill the display.
    """
    name = data_file("deck", value)
    top = Fields(name, "", read_data(PACKAGE, name))
    top.only(("name", "species", "biomes", "cards", "space_cats"))
    top.text("name")
    species = _names(top, "species")
    biome_tables = top.tables("biomes")
    if not biome_tables:
        top.fail("biomes", "expected at least one biome")
    biomes, colours = [], []
    for biome in biome_tables:
        biome.only(("name", "colour"))
        biomes.append(_word(biome, "name", "biome"))
        colours.append(_colour(biome))
    _distinct(top, "biomes", biomes)
    space_cats = _space_cats(top.table_of("space_cats"))
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
        if not kept:
            top.fail(
                "cards",
                f"the {players}-player deck has no Wildlife card (the 4+ and 5+ marks leave "
                "every card in the box); there would be nothing to put in a corral",
            )
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
    if not names:
        top.fail(key, "expected a non-empty list of one-word names")
    for index, name in enumerate(names):
        if not isinstance(name, str) or not _WORD.fullmatch(name) or len(name) > MAX_NAME:
            top.fail(f"{key}[{index}]", _word_problem(name))
    _distinct(top, key, names)
    return list(names)


def _word(table: Fields, key: str, what: str) -> str:
    name = table.text(key)
    if not _WORD.fullmatch(name) or len(name) > MAX_NAME:
        table.fail(key, _word_problem(name))
    return name


def _word_problem(name: object) -> str:
    return (
        f"expected one word of 1 to {MAX_NAME} ASCII letters (it is part of a card's "
        f"text, e.g. kow/tundra/2), got {name!r}"
    )


def _distinct(top: Fields, key: str, names: Sequence[str]) -> None:
    """Names must differ once lower-cased: the notation ignores case."""
    seen: dict[str, str] = {}
    for index, name in enumerate(names):
        other = seen.setdefault(name.lower(), name)
        if other is not name:
            top.fail(
                f"{key}[{index}]",
                f"{name!r} differs from {other!r} only in case; cards are typed in lower "
                "case, so names must differ in letters",
            )


def _colour(biome: Fields) -> str:
    """A colour the terminal view can draw: a Rich colour name or ``#rrggbb``."""
    from rich.color import Color, ColorParseError

    colour = biome.text("colour", default="white")
    try:
        good = bool(_COLOUR.fullmatch(colour)) and Color.parse(colour) is not None
    except ColorParseError:
        good = False
    if not good:
        biome.fail(
            "colour", f"expected a colour name such as 'dark_green' or '#2e8b57', got {colour!r}"
        )
    return colour


def _space_cats(table: Fields) -> dict[int, int]:
    """Space Cats shuffled in for 2 to 5 players.

    A larger table never uses fewer: the box holds the 5-player count and a
    smaller table takes some of them, as the rulebook's 11/13/17/21.
    """
    table.only(str(p) for p in range(2, 6))
    counts = {p: table.integer(str(p), 0, MAX_SPACE_CATS) for p in range(2, 6)}
    for players in range(3, 6):
        if counts[players] < counts[players - 1]:
            table.fail(
                str(players),
                f"{counts[players]} Space Cats for {players} players is fewer than "
                f"{counts[players - 1]} for {players - 1}; a larger table never uses fewer",
            )
    return counts


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


MAX_BEAM_NAME = 8
RESERVED = frozenset(
    (
        *("at", "beam", "reboot", "end", "done", "pass", "turn", "dogship", "swap"),
        *("form", "occupy", "in", "corral", "draw", "cat", "empty", "hidden"),
    )
)
"""Words of the action notation a beam may not be called (``beam at r0 @a1`` is unreadable)."""
_NOTATION_LIKE = re.compile(r"r[0-9]+|[a-d][1-4]")
"""Rotations (``r90``) and cells of the 4x4 display (``b2``): the parser reads them as such."""


def load_beams(value: str) -> tuple[BeamShape, ...]:
    """Load and check the tractor beams named by the ``beams`` option.

    Four beams, each a connected pattern inside the grid, with names the
    notation can tell apart: one short word, not a notation word or a
    rotation or cell, different from the other names whatever the case.
    """
    name = data_file("beams", value)
    top = Fields(name, "", read_data(PACKAGE, name))
    top.only(("name", "beam"))
    top.text("name", default="")
    shapes = []
    seen: dict[str, int] = {}
    for index, beam in enumerate(top.tables("beam")):
        beam.only(("name", "description", "cells"))
        label = _beam_name(beam)
        if label.lower() in seen:
            beam.fail(
                "name",
                f"{label!r} is the name of beam[{seen[label.lower()]}] too (case is ignored "
                "when typing); every beam needs its own name",
            )
        seen[label.lower()] = index
        cells = []
        for number, cell in enumerate(beam.items("cells")):
            if (
                not isinstance(cell, list)
                or len(cell) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
                or not all(0 <= x < SIZE for x in cell)
            ):
                beam.fail(
                    f"cells[{number}]", f"expected [row, column] in 0..{SIZE - 1}, got {cell!r}"
                )
            cells.append((cell[0], cell[1]))
        if not cells or len(set(cells)) != len(cells):
            beam.fail("cells", f"expected at least one cell and no repeats, got {cells}")
        if not _connected(set(cells)):
            beam.fail("cells", f"the pattern must be orthogonally connected, got {cells}")
        shapes.append(BeamShape(label, beam.text("description", default=label), tuple(cells)))
    if len(shapes) != 4:
        top.fail("beam", f"expected four beams (each player's four tokens), got {len(shapes)}")
    return tuple(shapes)


def _beam_name(beam: Fields) -> str:
    label = beam.text("name")
    lower = label.lower()
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", label) or len(label) > MAX_BEAM_NAME:
        beam.fail(
            "name",
            f"expected a short name of 1 to {MAX_BEAM_NAME} letters and digits, "
            f"starting with a letter, got {label!r}",
        )
    if lower in RESERVED:
        beam.fail("name", f"{label!r} is a word of the action notation; choose another name")
    if _NOTATION_LIKE.fullmatch(lower):
        beam.fail(
            "name",
            f"{label!r} reads as a rotation or a cell (like r90 or b2); choose another name",
        )
    return label


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
