"""The static, public data the browser needs to draw Rocket Ranchers.

Everything here follows from the loaded game (its deck, beams and score tables,
and the options that change scoring); nothing depends on a position, so a
browser fetches it once per table. The observation names cards by their text
(``kow/tundra/2``); ``cards`` turns a text into its species, biome, dots and
player mark, ``beams`` gives every distinct rotation's cells, ``scoring`` lets
the page show what each corral scores as it grows.
"""

from __future__ import annotations

from typing import Any

from ranchhand.games.rocket_ranchers.board import glyphs
from ranchhand.games.rocket_ranchers.components import SIZE
from ranchhand.games.rocket_ranchers.game import RocketGame

WEB_COLOURS = {
    "dark_orange": "#c97a2b",
    "bright_green": "#6b9f3a",
    "dark_green": "#2f6b3a",
    "medium_purple": "#7a5fb5",
    "bright_cyan": "#2b8fb0",
}
"""Calmer shades of the standard deck's terminal colours (the letter is always shown too)."""


def _hex(colour: str) -> str:
    if colour in WEB_COLOURS:
        return WEB_COLOURS[colour]
    if colour.startswith("#"):
        return colour.lower()
    from rich.color import Color

    return Color.parse(colour).get_truecolor().hex


def _mix(colour: str, weight: float) -> str:
    """``colour`` mixed with white: ``weight`` of the colour, the rest white."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - x) * weight):02x}" for x in rgb)


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#1d1d1d" if luminance > 0.55 else "#ffffff"


def catalog(game: RocketGame) -> dict[str, Any]:
    """Species, biomes (name, colour, letter), card kinds, beams per rotation, scoring."""
    tables = game.tables
    deck = tables.deck
    marks = glyphs(tables)
    biomes = []
    for index, name in enumerate(deck.biomes):
        colour = _hex(deck.colours[index])
        biomes.append(
            {
                "name": name,
                "letter": marks.biomes[index],
                "colour": colour,
                "tint": _mix(colour, 0.16),
                "ink": _ink(colour),
            }
        )
    cards = {
        tables.text[kind]: {
            "species": tables.species[kind],
            "biome": tables.biome[kind],
            "dots": tables.dots[kind],
            "mark": marks.marks[kind],
        }
        for kind in range(tables.kinds)
    }
    beams = []
    for shape in tables.beams:
        rotations: dict[str, list[list[int]]] = {}
        seen: set[tuple[tuple[int, int], ...]] = set()
        for turns in range(4):
            cells = shape.rotated(turns)
            if cells not in seen:
                seen.add(cells)
                rotations[str(turns * 90)] = [[r, c] for r, c in cells]
        beams.append({"name": shape.name, "description": shape.description, "rotations": rotations})
    scores = tables.scores
    return {
        "size": SIZE,
        "columns": "abcd"[:SIZE],
        "species": list(deck.species),
        "species_short": list(marks.species),
        "biomes": biomes,
        "cards": cards,
        "beams": beams,
        "scoring": {
            "abundance": [list(row) for row in scores.abundance],
            "variety": [list(row) for row in scores.variety],
            "cats_most": scores.cats_most,
            "cats_each": scores.cats_each,
            "abundance_counts": game.options["abundance_counts"],
            "variety_counts": game.options["variety_counts"],
            "corral_scoring": game.options["corral_scoring"],
            "cat_chain": bool(game.options["cat_chain"]),
        },
    }
