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

Every entry has a bound by construction (:meth:`RocketTensor.bounds`, the adapters'
observation Box): the face-up counts lie in 0..the copies of the kinds they count, the
turn in 0..:data:`TURN_CAP` and scores in -:data:`SCORE_CAP`..:data:`SCORE_CAP`
(clipped there; Space Cats make scores negative: -0.05 was the least measured).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

import numpy as np

from ranchhand.games.rocket_ranchers.phases import PHASES
from ranchhand.games.rocket_ranchers.scoring import cat_points, score_corral
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY, HIDDEN

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.game import RocketGame
    from ranchhand.games.rocket_ranchers.observation import RocketObservation
    from ranchhand.games.rocket_ranchers.scoring import Corral

SCALE = 100.0
"""Scores and turns are divided by this to keep them near 0..1."""
TURN_CAP = 10.0
"""Turns / 100 are clipped at 10 (a game ends when the deck runs out, long before)."""
SCORE_CAP = 10.0
"""Scores / 100 are clipped to -10..10 (1,000 points either way)."""
CACHED_CORRALS = 100_000
"""Distinct corrals whose entries and points are kept (a game meets a few hundred)."""


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
        self._cells = self._cell_rows()
        self._cell_arrays = [array("f", row.tobytes()) for row in self._cells]
        """The rows of :meth:`_cell_rows` as arrays, to copy into a tensor being written."""
        self._card_arrays = [row[: self.card] for row in self._cell_arrays]
        """A card kind's entries alone (no Space Cat or empty), for the pending slots."""
        self._corral_cache: dict[Corral, tuple[bytes, int]] = {}
        self._ranch_cache: dict[tuple[Corral, ...], tuple[array[float], int]] = {}
        self._beam_bits = [
            array("f", [float(up >> beam & 1) for beam in range(self.beams)])
            for up in range(1 << self.beams)
        ]
        """Row ``up``: the beams-up entries of a seat whose beams are the bits of ``up``."""
        self._blank = array("f", bytes(4 * self.size))
        """All zeros: each tensor is written into a copy of it, then viewed as numpy (its
        elements and slices cost several times less to set than a numpy array's)."""
        self._options = game.options
        self.low, self.high = self.bounds(wildlife)

    def bounds(self, wildlife: list[int] | tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The least and the greatest value of each entry, by construction: 0..1 but the
        turn, the scores and the face-up counts (:meth:`build` clips the first two).
        ``wildlife`` is the copies of each card kind in this player count's deck."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        tables, n = self.tables, self.players
        high[2 * n + 1 + len(PHASES) + 1] = TURN_CAP
        dots = len(self.dot_values)
        biomes = len(tables.deck.biomes)
        face_up = np.zeros(biomes * dots, dtype=np.float32)
        for kind, copies in enumerate(wildlife):  # a corral's face-up cards: one species
            cell = tables.biome[kind] * dots + self.dot_values.index(tables.dots[kind])
            face_up[cell] = max(face_up[cell], copies)
        counts_at = 2 + self.card + len(tables.deck.species)
        for offset in range(n):
            base = self._seats_at + offset * self.seat_size
            low[base + 2], high[base + 2] = -SCORE_CAP, SCORE_CAP
            for corral in range(self.corrals):
                at = base + 4 + self.beams + corral * self.corral_size + counts_at
                high[at : at + biomes * dots] = face_up
        return low, high

    def _cell_rows(self) -> np.ndarray:
        """Each display cell's entries: row k for card kind k, then Space Cat, then empty.

        The last two rows are also rows ``CAT`` (-2) and ``EMPTY`` (-1), counted from
        the end, so the display's codes pick their rows as they are.
        """
        kinds = self.tables.kinds
        rows = np.zeros((kinds + 2, self.card + 2), dtype=np.float32)
        for kind in range(kinds):
            for part in self.card_parts:
                rows[kind, part[kind]] = 1.0
        if sorted((CAT, EMPTY)) != [-2, -1]:
            raise AssertionError("the display's codes for a Space Cat and an empty cell moved")
        rows[CAT, self.card] = rows[EMPTY, self.card + 1] = 1.0
        return rows

    def build(self, observation: RocketObservation, player: int) -> np.ndarray:
        """``player``'s tensor from ``observation`` (what that player sees, nothing else)."""
        n = self.players
        out = self._blank[:]
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
        at, width, cells = self._display_at, self.card + 2, self._cell_arrays
        for code in observation.display:
            out[at : at + width] = cells[code]
            at += width
        width = self.card + 1
        for slot, card in enumerate(observation.pending):
            base = self._pending_at + slot * width
            out[base] = 1.0
            out[base + 1 : base + width] = self._card_arrays[card]
        cats = cat_points(observation.floof, self.tables)
        for offset in range(n):
            seat = (player + offset) % n
            base = self._seats_at + offset * self.seat_size
            self._seat(out, base, observation, seat, cats[seat])
        tensor = np.frombuffer(out, dtype=np.float32)
        return np.clip(tensor, self.low, self.high, out=tensor)

    def _seat(
        self, out: array[float], base: int, observation: RocketObservation, seat: int, score: int
    ) -> None:
        """A seat's block; ``score`` starts as its Space Cat points, corrals add theirs."""
        mine = observation.corrals[seat]
        out[base] = observation.floof[seat] / self.cats_total
        out[base + 1] = float(observation.dogship[seat])
        out[base + 3] = len(mine) / self.corrals
        at = base + 4 + self.beams
        out[base + 4 : at] = self._beam_bits[observation.beams[seat]]
        entries, points = self._ranch(mine)
        out[at : at + len(entries)] = entries
        out[base + 2] = (score + points) / SCALE

    def _ranch(self, mine: tuple[Corral, ...]) -> tuple[array[float], int]:
        """A seat's corrals' entries in a row and their points, made once per distinct
        line of corrals: a seat's corrals change only when a card is placed, so most
        observations find them made."""
        known = self._ranch_cache.get(mine)
        if known is not None:
            return known
        made = [self._corral(corral) for corral in mine]
        entries = array("f", b"".join(e for e, _points in made))
        known = (entries, sum(points for _e, points in made))
        if len(self._ranch_cache) >= CACHED_CORRALS:
            self._ranch_cache.clear()
        self._ranch_cache[mine] = known
        return known

    def _corral(self, corral: Corral) -> tuple[bytes, int]:
        """A corral's entries (as float32 bytes, to join into a line of corrals) and points,
        made once per distinct corral (corrals are values)."""
        known = self._corral_cache.get(corral)
        if known is not None:
            return known
        founder, face_up = corral
        tables = self.tables
        entries = np.zeros(self.corral_size, dtype=np.float32)
        entries[0] = 1.0
        if founder == HIDDEN:
            entries[1] = 1.0
        else:
            entries[2 : 2 + self.card] = self._cells[founder, : self.card]
        if face_up:
            at = 2 + self.card
            entries[at + tables.species[face_up[0]]] = 1.0
            at += len(tables.deck.species)
            dots = len(self.dot_values)
            for kind in face_up:
                entries[
                    at + tables.biome[kind] * dots + self.dot_values.index(tables.dots[kind])
                ] += 1
        points = score_corral(tables, self._options, corral).points
        if len(self._corral_cache) >= CACHED_CORRALS:
            self._corral_cache.clear()
        known = (entries.tobytes(), points)
        self._corral_cache[corral] = known
        return known
