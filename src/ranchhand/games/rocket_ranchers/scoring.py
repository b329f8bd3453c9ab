"""End-game scoring: Abundance or Variety per corral, Space Cats, and the winner.

A corral is ``(founder, face_up)``: the face-down card that formed it (a kind,
or HIDDEN when the observer may not see it) and the kinds placed face up in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ranchhand.games.rocket_ranchers.tables import Tables

Corral = tuple[int, tuple[int, ...]]


def table_points(rows: Sequence[tuple[int, int]], amount: int) -> int:
    """The points of the highest row ``amount`` reaches (0 below the first row).

    >>> table_points(((5, 12), (7, 18), (9, 24)), 8)
    18
    """
    points = 0
    for at_least, row_points in rows:
        if amount < at_least:
            break
        points = row_points
    return points


@dataclass(frozen=True)
class CorralScore:
    """What one corral would score each way, and the way it is scored."""

    abundance: int
    variety: int
    scored_as: str

    @property
    def points(self) -> int:
        return self.abundance if self.scored_as == "abundance" else self.variety


def score_corral(tables: Tables, options: Mapping[str, Any], corral: Corral) -> CorralScore:
    """Score a corral for Abundance and Variety and pick the way ``corral_scoring`` says.

    Abundance counts the face-up cards (or their dots). Variety counts the
    biomes of the face-up cards; with ``variety_counts=all`` the face-down
    founding card's biome counts too (when known).
    """
    founder, face_up = corral
    if options["abundance_counts"] == "dots":
        amount = sum(tables.dots[k] for k in face_up)
    else:
        amount = len(face_up)
    biomes = {tables.biome[k] for k in face_up}
    if options["variety_counts"] == "all" and founder >= 0:
        biomes.add(tables.biome[founder])
    abundance = table_points(tables.scores.abundance, amount)
    variety = table_points(tables.scores.variety, len(biomes))
    way = options["corral_scoring"]
    if way == "best":
        way = "abundance" if abundance >= variety else "variety"
    return CorralScore(abundance, variety, way)


def cat_points(floof: Sequence[int], tables: Tables) -> list[int]:
    """Space Cats: the players with the most lose 5 (ties all); others gain 2 each.

    With no Space Cats anywhere every player has the most (the literal rule).

    >>> from ranchhand.games.rocket_ranchers.tables import tables_for
    >>> cat_points([3, 1, 3], tables_for("standard", "standard", "rulebook"))
    [-5, 2, -5]
    """
    most = max(floof)
    scores = tables.scores
    return [scores.cats_most if n == most else scores.cats_each * n for n in floof]


@dataclass(frozen=True)
class PlayerScore:
    """A player's final points split into Abundance, Variety and Space Cats."""

    abundance: int
    variety: int
    cats: int

    @property
    def total(self) -> int:
        return self.abundance + self.variety + self.cats


def score_players(
    tables: Tables,
    options: Mapping[str, Any],
    corrals: Sequence[Sequence[Corral]],
    floof: Sequence[int],
) -> list[PlayerScore]:
    """Every player's score split, from their corrals and floof piles."""
    result = []
    for player, cats in enumerate(cat_points(floof, tables)):
        abundance = variety = 0
        for corral in corrals[player]:
            score = score_corral(tables, options, corral)
            if score.scored_as == "abundance":
                abundance += score.abundance
            else:
                variety += score.variety
        result.append(PlayerScore(abundance, variety, cats))
    return result


def winner(totals: Sequence[int], floof: Sequence[int]) -> int:
    """Most points; ties go to the most Space Cats, then to the later seat in turn order.

    Seat 0 holds the First Player Token, so a later seat is a higher index.

    >>> winner([30, 30, 25], [2, 2, 0])
    1
    """
    return max(range(len(totals)), key=lambda p: (totals[p], floof[p], p))
