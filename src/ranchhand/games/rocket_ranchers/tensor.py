"""Rocket Ranchers' observation tensor: one player's view as a flat float32 vector.

Built from a :class:`~ranchhand.games.rocket_ranchers.observation.RocketObservation`
alone: the display, the collected cards waiting for a corral, the deck's size and
Space Cats, and per seat the floof pile, beam and dogship sides, the score so far
and every corral (founding card when the viewer may see it, face-up cards). Seats
are counted from the viewer (block 0 is the viewer, block 1 the next player in
turn order), so a network trained in one seat plays any seat.

A card is written as three one-hots: species, biome and dots (the dot values the
deck prints), which name the card kind exactly. A corral's face-up cards are all
of one species, so they are written as that species and a count per biome and
dot value (their order is not kept; scoring never reads it). Counts are scaled
by what the box holds for the player count, so every entry lies in 0..1 except
the scores (points / 100, a high score is about 100), the turn (turns / 100) and
the face-up counts (copies of a kind: 0 or 1 in the standard deck).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ranchhand.games.rocket_ranchers.phases import PHASES
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY, HIDDEN

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.game import RocketGame
    from ranchhand.games.rocket_ranchers.observation import RocketObservation
    from ranchhand.games.rocket_ranchers.scoring import Corral

SCALE = 100.0
"""Scores and turns are divided by this to keep them near 0..1."""


class RocketTensor:
    """The layout of one configuration's tensor (player count fixed) and its filling."""

    def __init__(self, game: RocketGame, slots: int, corrals: int) -> None:
        tables = game.tables
        n = game.players
        self.players = n
        self.tables = tables
        self.slots = slots
        self.corrals = corrals
        self.dot_values = tuple(sorted(set(tables.dots)))
        species, biomes = len(tables.deck.species), len(tables.deck.biomes)
        dots = len(self.dot_values)
        self.card = species + biomes + dots
        """Entries of one card: species, biome and dots, each one-hot."""
        self.card_parts = (
            tables.species,
            tuple(species + b for b in tables.biome),
            tuple(species + biomes + self.dot_values.index(d) for d in tables.dots),
        )
        wildlife, cats = tables.deck_counts(n)
        self.deck_total = sum(wildlife) + cats
        self.cats_total = max(1, cats)
        self.beams = len(tables.beams)
        self.corral_size = 2 + self.card + species + biomes * dots
        self.seat_size = 4 + self.beams + corrals * self.corral_size
        self.layout: list[tuple[str, int]] = [
            ("viewer's seat (one-hot, absolute seat number)", n),
            ("who acts (one-hot, seats from the viewer; then chance during a refill)", n + 1),
            ("phase (one-hot: " + ", ".join(PHASES) + ")", len(PHASES)),
            ("game over", 1),
            ("turns played / 100", 1),
            ("cards in the deck, as a share of the deck for this player count", 1),
            ("Space Cats in the deck, as a share of those shuffled in", 1),
            (
                f"display, {CELLS} cells a1, b1, ... d4: card ({self.card}: species, biome, "
                "dots one-hot), Space Cat, empty",
                CELLS * (self.card + 2),
            ),
            (
                f"collected cards waiting for a corral, {slots} pending slots in order: "
                f"present, card ({self.card})",
                slots * (self.card + 1),
            ),
            (
                f"per seat from the viewer ({n} x {self.seat_size}): Space Cats / those "
                f"shuffled in, dogship up, score / 100, corrals / {corrals}, beams up "
                f"({self.beams}), then {corrals} corrals x {self.corral_size}: exists, "
                f"founding card hidden, founding card ({self.card}), face-up species "
                f"({species}), face-up cards per biome x dots ({biomes} x {dots})",
                n * self.seat_size,
            ),
        ]
        self.size = sum(length for _name, length in self.layout)
        self._display_at = 2 * n + 1 + len(PHASES) + 4
        self._pending_at = self._display_at + CELLS * (self.card + 2)
        self._seats_at = self._pending_at + slots * (self.card + 1)

    def build(self, observation: RocketObservation, player: int) -> np.ndarray:
        """``player``'s tensor from ``observation`` (what that player sees, nothing else)."""
        n = self.players
        out = np.zeros(self.size, dtype=np.float32)
        out[player] = 1.0
        current = observation.current
        if not observation.over:
            out[n + ((current - player) % n if current >= 0 else n)] = 1.0
        at = 2 * n + 1
        out[at + PHASES.index(observation.phase)] = 1.0
        at += len(PHASES)
        out[at] = float(observation.over)
        out[at + 1] = observation.turn / SCALE
        out[at + 2] = observation.deck_size / self.deck_total
        out[at + 3] = observation.deck_cats / self.cats_total
        cell_size = self.card + 2
        for cell, card in enumerate(observation.display):
            base = self._display_at + cell * cell_size
            if card == CAT:
                out[base + self.card] = 1.0
            elif card == EMPTY:
                out[base + self.card + 1] = 1.0
            else:
                self._card(out, base, card)
        for slot, card in enumerate(observation.pending):
            base = self._pending_at + slot * (self.card + 1)
            out[base] = 1.0
            self._card(out, base + 1, card)
        scores = observation.scores()
        for offset in range(n):
            seat = (player + offset) % n
            base = self._seats_at + offset * self.seat_size
            self._seat(out, base, observation, seat, scores[seat].total)
        return out

    def _card(self, out: np.ndarray, base: int, kind: int) -> None:
        for part in self.card_parts:
            out[base + part[kind]] = 1.0

    def _seat(
        self, out: np.ndarray, base: int, observation: RocketObservation, seat: int, score: int
    ) -> None:
        mine = observation.corrals[seat]
        out[base] = observation.floof[seat] / self.cats_total
        out[base + 1] = float(observation.dogship[seat])
        out[base + 2] = score / SCALE
        out[base + 3] = len(mine) / self.corrals
        up = observation.beams[seat]
        for beam in range(self.beams):
            out[base + 4 + beam] = float(up >> beam & 1)
        base += 4 + self.beams
        for number, corral in enumerate(mine):
            self._corral(out, base + number * self.corral_size, corral)

    def _corral(self, out: np.ndarray, base: int, corral: Corral) -> None:
        founder, face_up = corral
        out[base] = 1.0
        if founder == HIDDEN:
            out[base + 1] = 1.0
        else:
            self._card(out, base + 2, founder)
        if not face_up:
            return
        tables = self.tables
        base += 2 + self.card
        out[base + tables.species[face_up[0]]] = 1.0
        base += len(tables.deck.species)
        dots = len(self.dot_values)
        for kind in face_up:
            spot = tables.biome[kind] * dots + self.dot_values.index(tables.dots[kind])
            out[base + spot] += 1.0
