"""Precomputed tables of one rules configuration: card kinds, beam placements, swaps.

The state and the bots work on small integers (a card kind, a display cell, a
16-bit mask of cells); these tables turn the data files into such integers once
per configuration, and hold the action values so hot paths never build them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ranchhand.games.rocket_ranchers.actions import (
    CAT_TEXT,
    DRAW_CAT,
    Beam,
    Dogship,
    Draw,
    Form,
    Occupy,
    cell_name,
)
from ranchhand.games.rocket_ranchers.components import (
    SIZE,
    BeamShape,
    Deck,
    ScoreTables,
    load_beams,
    load_deck,
    load_scores,
)

CELLS = SIZE * SIZE
EMPTY = -1
"""A display cell with no card (only once the deck has run out)."""
CAT = -2
"""A Space Cat card (in the display)."""
HIDDEN = -3
"""A face-down corral card the observer may not see."""
FULL = (1 << CELLS) - 1
_LEFT_COLUMN = sum(1 << (r * SIZE) for r in range(SIZE))
_RIGHT_COLUMN = _LEFT_COLUMN << (SIZE - 1)


def neighbours(mask: int) -> int:
    """The cells orthogonally next to any cell of ``mask`` (the mask itself included).

    >>> bin(neighbours(1))  # a1 touches b1 and a2
    '0b10011'
    """
    return (
        mask
        | ((mask << 1) & ~_LEFT_COLUMN)
        | ((mask >> 1) & ~_RIGHT_COLUMN)
        | (mask << SIZE)
        | (mask >> SIZE)
    ) & FULL


@dataclass(frozen=True)
class Placement:
    """One way to use a beam: the beam's index, its action, the cells it covers."""

    beam: int
    action: Beam
    cells: tuple[int, ...]
    mask: int
    near: int
    """The cells of ``mask`` and those orthogonally next to them."""


class Tables:
    """Everything a state or bot needs about one deck, beam set and score table."""

    def __init__(self, deck: Deck, beams: tuple[BeamShape, ...], scores: ScoreTables) -> None:
        self.deck = deck
        self.beams = beams
        self.scores = scores
        kinds = sorted({(c.species, c.biome, c.dots) for c in deck.cards}, key=_card_order(deck))
        self.kind_of = {kind: index for index, kind in enumerate(kinds)}
        self.kinds = len(kinds)
        self.species = tuple(deck.species.index(k[0]) for k in kinds)
        self.biome = tuple(deck.biomes.index(k[1]) for k in kinds)
        self.dots = tuple(k[2] for k in kinds)
        self.text = tuple(f"{s}/{b}/{d}".lower() for s, b, d in kinds)
        self.kind_by_text = {t: k for k, t in enumerate(self.text)}
        self.draws = tuple(Draw(t) for t in self.text)
        self.draw_cat = DRAW_CAT
        self.drawn: dict[Draw, int] = {draw: kind for kind, draw in enumerate(self.draws)}
        """The card each chance outcome lays (a kind, or CAT): a draw's one lookup."""
        self.drawn[DRAW_CAT] = CAT
        self.forms = tuple(Form(t) for t in self.text)
        self._occupy: dict[tuple[int, int], Occupy] = {}
        self.placements, self.by_beam, self.canonical = _placements(beams)
        self.placement_of = {p.action: p for p in self.placements}
        self.beam_index = {b.name.lower(): i for i, b in enumerate(beams)}
        self.swaps = {
            (i, j): Dogship(cell_name(i), cell_name(j))
            for i in range(CELLS)
            for j in range(i + 1, CELLS)
        }
        self.swap_cells = {action: pair for pair, action in self.swaps.items()}
        self._beam_choices: dict[int, tuple[Beam, ...]] = {}
        self._box: dict[int, tuple[tuple[int, ...], int]] = {}
        self._swaps_in: dict[tuple[int, ...], tuple[Dogship, ...]] = {}

    def swaps_in(self, display: tuple[int, ...]) -> tuple[Dogship, ...]:
        """Every dogship swap on ``display``: two Wildlife cards of one biome, biome by biome.

        Memoised by display: a turn that ends without a swap leaves the next player's turn
        opening on the same display, and both lists are made.
        """
        known = self._swaps_in.get(display)
        if known is None:
            groups: list[list[int]] = [[] for _ in self.deck.biomes]
            for cell, card in enumerate(display):
                if card >= 0:
                    groups[self.biome[card]].append(cell)
            known = tuple(
                self.swaps[(first, second)]
                for group in groups
                for n, first in enumerate(group)
                for second in group[n + 1 :]
            )
            if len(self._swaps_in) > 50_000:
                self._swaps_in.clear()
            self._swaps_in[display] = known
        return known

    def beam_choices(self, up: int) -> tuple[Beam, ...]:
        """Every placement of the beams face up in the mask ``up``, in beam order.

        Memoised (a beam set has at most 2^8 masks): the list opens every turn's choices.
        """
        choices = self._beam_choices.get(up)
        if choices is None:
            choices = tuple(
                p.action for b, mine in enumerate(self.by_beam) if up >> b & 1 for p in mine
            )
            self._beam_choices[up] = choices
        return choices

    def deck_counts(self, players: int) -> tuple[list[int], int]:
        """Copies of each kind in the deck for ``players``, and the Space Cats: a new
        list each call, which the caller may change.

        Memoised per player count: every table a search imagines and every check of a
        loaded table starts from the box, and counting it was a sixth of a search's time.
        """
        box = self._box.get(players)
        if box is None:
            cards, cats = self.deck.for_players(players)
            counts = [0] * self.kinds
            for card in cards:
                counts[self.kind_of[(card.species, card.biome, card.dots)]] += 1
            box = self._box[players] = (tuple(counts), cats)
        return list(box[0]), box[1]

    def occupy(self, kind: int, corral: int) -> Occupy:
        """The action placing ``kind`` face up in corral number ``corral`` (0-based)."""
        key = (kind, corral)
        action = self._occupy.get(key)
        if action is None:
            action = self._occupy[key] = Occupy(self.text[kind], corral + 1)
        return action

    def card_text(self, card: int) -> str:
        if card == CAT:
            return CAT_TEXT
        if card == EMPTY:
            return "empty"
        if card == HIDDEN:
            return "hidden"
        return self.text[card]

    def card_of(self, text: str) -> int | None:
        """The card a text names (a kind, or CAT), or None."""
        text = text.strip().lower()
        if text == CAT_TEXT:
            return CAT
        return self.kind_by_text.get(text)


def _card_order(deck: Deck) -> Callable[[tuple[str, str, int]], tuple[int, int, int]]:
    def key(kind: tuple[str, str, int]) -> tuple[int, int, int]:
        return deck.species.index(kind[0]), deck.biomes.index(kind[1]), kind[2]

    return key


def _placements(
    beams: tuple[BeamShape, ...],
) -> tuple[tuple[Placement, ...], tuple[tuple[Placement, ...], ...], dict[tuple[str, int], int]]:
    """Every beam at every distinct rotation and anchor wholly inside the grid.

    Rotations that give the same pattern (a line turned 180 degrees) are listed
    once, under the smallest rotation; ``canonical`` maps each rotation to it.
    """
    everything: list[Placement] = []
    by_beam: list[tuple[Placement, ...]] = []
    canonical: dict[tuple[str, int], int] = {}
    for index, beam in enumerate(beams):
        seen: dict[tuple[tuple[int, int], ...], int] = {}
        mine: list[Placement] = []
        for turns in range(4):
            pattern = beam.rotated(turns)
            if pattern in seen:
                canonical[(beam.name.lower(), turns * 90)] = seen[pattern]
                continue
            seen[pattern] = turns * 90
            canonical[(beam.name.lower(), turns * 90)] = turns * 90
            height = max(r for r, _ in pattern) + 1
            width = max(c for _, c in pattern) + 1
            for row in range(SIZE - height + 1):
                for column in range(SIZE - width + 1):
                    cells = tuple(sorted((row + r) * SIZE + column + c for r, c in pattern))
                    action = Beam(beam.name, turns * 90, cell_name(row * SIZE + column))
                    mask = sum(1 << cell for cell in cells)
                    mine.append(Placement(index, action, cells, mask, neighbours(mask)))
        by_beam.append(tuple(mine))
        everything.extend(mine)
    return tuple(everything), tuple(by_beam), canonical


@cache
def tables_for(deck: str, beams: str, abundance_table: str) -> Tables:
    """The tables of one configuration, loaded once per process."""
    return Tables(load_deck(deck), load_beams(beams), load_scores(abundance_table))
