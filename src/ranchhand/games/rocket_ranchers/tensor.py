"""Rocket Ranchers' observation tensor: one player's view as a flat float32 vector.

Built from a :class:`~ranchhand.games.rocket_ranchers.observation.RocketObservation`
alone: the display, the collected cards waiting for a corral, the deck's size and
Space Cats, and per seat the floof pile, beam and dogship sides, the score so far
and where each of the seat's cards lies in its corrals. Seats are counted from the
viewer (block 0 is the viewer, block 1 the next player in turn order), so a network
trained in one seat plays any seat.

A card in the display or waiting for a corral is written as three one-hots: species,
biome and dots (the dot values the deck prints), which name the card kind exactly.

**Corrals are written by card, not by corral.** The rules put no limit on corrals and a
seat can found one with every Wildlife card it takes; it takes up to 3 cards a turn
(the four beams' 2 + 3 + 3 + 4 cells before they reboot by themselves) while another
player may take 1 (a line of 2, then a reboot), so a true bound on one seat's corrals
is most of the deck's Wildlife cards. Games reach far fewer, but not few enough for
a cap: 720 random, greedy and mixed games at 2-5 players (rules options varied) had at
most 20 corrals a seat, 11 face-up cards in a corral, 4 collected cards waiting, yet a
seat that founds a corral with every card it takes, against players taking a line of 2
and rebooting, had 62. A block per corral number (the old layout: 45 entries x 90-150
corrals a seat, 8,525-34,205 entries) was therefore nearly all structural zeros.
Every card of the deck is in one place, so each seat instead gets a *card slot* per
Wildlife card of the deck for the player count (``wildlife[k]`` slots for kind ``k``,
in the tables' kind order, :attr:`RocketTensor.slot_kinds`: the slot's place names
the card), two entries each:

* the number of the seat's corral the card lies face up in, / C (0: not face up there);
* the number of the seat's corral the card founded, / C (0: it founds none there, or
  the viewer may not see it: another player's founding cards are ``hidden`` until the
  game is over, so their slots stay 0 and only the seat's corral count shows them).

C is the Wildlife cards in the deck (the encoding's corral numbers, which the
``occupy`` actions use). Copies of one kind take its slots in corral order, the
founding card before the face-up ones of its corral. This loses nothing of the
observation but the order of the face-up cards in a corral (scoring never reads it,
nor legality): a corral's face-up cards are the slots holding its number, its
founding card (when seen) the slot founding it, and the corrals of the seat's count
that no slot names are the ones whose hidden founding card stands alone. The
viewer's own founding cards are always seen, so each of its corral numbers (what an
``occupy`` index names) is found in a slot. The price of the small size: a network
groups a corral's cards by equal entries (number / C) rather than reading a block per
corral; every entry is still bounded by construction, since a seat never has more
corrals than C.

Counts are scaled by what the box holds for the player count, so every entry lies in
0..1 except the scores (points / 100, a high score is about 100) and the turn
(turns / 100): :meth:`RocketTensor.bounds` (the adapters' observation Box) gives the
turn 0..:data:`TURN_CAP` and scores -:data:`SCORE_CAP`..:data:`SCORE_CAP` (clipped
there; Space Cats make scores negative: -0.05 was the least measured).
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from typing import TYPE_CHECKING

import numpy as np

from ranchhand.games.rocket_ranchers.phases import PHASES
from ranchhand.games.rocket_ranchers.scoring import cat_points, score_corral
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY

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
        self.first_slot = [0, *accumulate(wildlife)][:-1]
        """Kind k's first card slot in a seat's line of slots (its copies follow)."""
        self.slot_kinds = tuple(k for k, copies in enumerate(wildlife) for _ in range(copies))
        """The card kind of each card slot (``tables.text`` names it), for readers."""
        self.card_slots = sum(wildlife)
        """Card slots a seat: one per Wildlife card in the deck for the player count."""
        self.seat_size = 4 + self.beams + 2 * self.card_slots
        named = [
            f"{tables.text[k]} x {c}" if c > 1 else tables.text[k]
            for k, c in enumerate(wildlife)
            if c
        ]
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
                f"({self.beams}), then {self.card_slots} card slots x 2 (one per Wildlife "
                f"card, in kind order: {named[0]}, {named[1]}, ... {named[-1]}): the "
                f"seat's corral it lies face up in / {corrals}, the seat's corral it "
                f"founded / {corrals} (0: not there, or not seen)",
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
        self._points_cache: dict[Corral, int] = {}
        self._ranch_cache: dict[tuple[Corral, ...], tuple[array[float], int]] = {}
        self._beam_bits = [
            array("f", [float(up >> beam & 1) for beam in range(self.beams)])
            for up in range(1 << self.beams)
        ]
        """Row ``up``: the beams-up entries of a seat whose beams are the bits of ``up``."""
        self._blank = array("f", bytes(4 * self.size))
        """All zeros: each tensor is written into a copy of it, then viewed as numpy (its
        elements and slices cost several times less to set than a numpy array's)."""
        self._no_cards = array("f", bytes(4 * 2 * self.card_slots))
        self._options = game.options
        self.low, self.high = self.bounds()

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The least and the greatest value of each entry, by construction: 0..1 but the
        turn and the scores, which :meth:`build` clips (a corral number is at most C, the
        Wildlife cards in the deck, since each corral is founded with one)."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        high[2 * self.players + 1 + len(PHASES) + 1] = TURN_CAP
        for offset in range(self.players):
            score = self._seats_at + offset * self.seat_size + 2
            low[score], high[score] = -SCORE_CAP, SCORE_CAP
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
        if mine:
            entries, points = self._ranch(mine)
            out[at : at + len(entries)] = entries
            score += points
        out[base + 2] = score / SCALE

    def _ranch(self, mine: tuple[Corral, ...]) -> tuple[array[float], int]:
        """A seat's card slots and its corrals' points, made once per distinct line of
        corrals: a seat's corrals change only when a card is placed, so most observations
        find them made."""
        known = self._ranch_cache.get(mine)
        if known is not None:
            return known
        entries = self._no_cards[:]
        first, scale = self.first_slot, self.corrals
        taken = [0] * len(first)  # copies of each kind given a slot (a deck may repeat one)
        points = 0
        for number, corral in enumerate(mine, 1):
            founder, face_up = corral
            if founder >= 0:
                entries[2 * (first[founder] + taken[founder]) + 1] = number / scale
                taken[founder] += 1
            for kind in face_up:
                entries[2 * (first[kind] + taken[kind])] = number / scale
                taken[kind] += 1
            points += self._points(corral)
        known = (entries, points)
        if len(self._ranch_cache) >= CACHED_CORRALS:
            self._ranch_cache.clear()
        self._ranch_cache[mine] = known
        return known

    def _points(self, corral: Corral) -> int:
        """A corral's points, reckoned once per distinct corral (corrals are values)."""
        known = self._points_cache.get(corral)
        if known is None:
            known = score_corral(self.tables, self._options, corral).points
            if len(self._points_cache) >= CACHED_CORRALS:
                self._points_cache.clear()
            self._points_cache[corral] = known
        return known
