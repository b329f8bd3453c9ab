"""Rancho's observation tensor: the public table as a flat float32 vector.

Built from a :class:`~ranchhand.games.rancho.observation.RanchoObservation` alone, and
only from what its ``to_json`` shows (phase, whose step, the herd, each player's animals,
pastures and arrangement, the dice, predators and strikes of this roll, the winner, the
turn, the deals made this turn under ``deals_per_turn``). Seats are counted from the
observer: block 0 is the observing player, block 1 the next player in turn order, and so
on, so a network trained in one seat plays any seat.

Counts are scaled into 0..1 by all the game's animals of their kind (the herd before
setup, which depends on the player count and the dogs option), so every entry lies in
0..1 and a network sees proportions of what exists.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

import numpy as np

from ranchhand.games.rancho.state import DOG, PHASES, ROLL, STRIKE
from ranchhand.games.rancho.tables import FACES, FARM, PREDATOR_NAMES, SPECIES

if TYPE_CHECKING:
    from ranchhand.games.rancho.game import RanchoGame
    from ranchhand.games.rancho.grazing import Arrangement
    from ranchhand.games.rancho.observation import RanchoObservation

PREDATORS = tuple(sorted(PREDATOR_NAMES))
"""Fox then wolf, in the order of their one-hot slots."""
STRIKES_SHOWN = 2
"""A roll brings at most a fox and a wolf: two strikes."""
TURNS_SHOWN = 1000
"""The turn counter reads turns / this, and turns beyond it as 1: it stays in 0..1 (greedy
games last about 30 turns at two players, random ones about 60)."""
CACHED = 50_000
"""Boards of owners and arrangements remembered before the memo starts afresh."""


class RanchoTensor:
    """The layout of one game's tensor (board and player count fixed) and its filling."""

    def __init__(self, game: RanchoGame) -> None:
        self.game = game
        n = game.players
        self.players = n
        self.spaces = len(game.board.spaces)
        self.prices = game.board.prices
        self.box = tuple(max(1, count) for count in game.start_herd)
        self.pastures_most = max(1, game.board.pasture_mask.bit_count())
        strike = len(PREDATORS) + len(self.prices)
        self.layout: list[tuple[str, int]] = [
            ("phase (one-hot: " + ", ".join(PHASES) + ")", len(PHASES)),
            ("player whose turn it is (one-hot, seats from the observer)", n),
            ("player to decide now (one-hot; zeros at a chance node or the end)", n),
            ("players still to decide on a dog (seats from the observer)", n),
            (
                "herd: " + ", ".join(SPECIES) + " (shares of all the game's animals of each kind)",
                len(SPECIES),
            ),
            (f"each player's animals ({n} x {len(SPECIES)}, shares as for the herd)", n * 6),
            (f"each player's pastures ({n}, share of the board's pastures)", n),
            (
                f"each space's owner ({self.spaces} x {n} one-hot, seats from the observer; "
                "pen spaces belong to their pen's player)",
                self.spaces * n,
            ),
            (
                f"what stands on each space ({self.spaces} x rabbits/6, sheep, cow, horse)",
                self.spaces * len(FARM),
            ),
            ("the last roll: dice showing each face (" + ", ".join(FACES) + "; 0..1)", len(FACES)),
            ("predators still to strike this roll, first and second (one-hot fox/wolf)", 4),
            (
                f"strikes of this roll, up to {STRIKES_SHOWN} (one-hot fox/wolf, then the price "
                f"struck among {', '.join(map(str, self.prices))})",
                STRIKES_SHOWN * strike,
            ),
            ("settled in advance ('roll and end turn')", 1),
            ("winner (one-hot, seats from the observer)", n),
            ("turns played, as a share of max_turns (0 without max_turns)", 1),
            (f"turns played / {TURNS_SHOWN} (1 from then on)", 1),
            ("deals made this expand step, as a share of deals_per_turn (0 without it)", 1),
        ]
        self.size = sum(length for _name, length in self.layout)
        self._price_slot = {price: i for i, price in enumerate(self.prices)}
        self._blank = array("f", bytes(4 * self.size))
        """All zeros: each tensor starts as a copy of it."""
        self._owners_cache: dict[tuple[tuple[int, ...], int], array[float]] = {}
        self._grazing_cache: dict[Arrangement, tuple[tuple[int, float], ...]] = {}

    def _owners(self, owners: tuple[int, ...], player: int) -> array[float]:
        """The space-owner block seen from ``player``, made once per distinct board of
        owners: land changes hands only at a purchase, so most tensors find it made."""
        known = self._owners_cache.get((owners, player))
        if known is None:
            n = self.players
            known = array("f", bytes(4 * self.spaces * n))
            for space, owner in enumerate(owners):
                if owner >= 0:
                    known[space * n + (owner - player) % n] = 1.0
            if len(self._owners_cache) >= CACHED:
                self._owners_cache.clear()
            self._owners_cache[(owners, player)] = known
        return known

    def _grazing(self, pieces: Arrangement) -> tuple[tuple[int, float], ...]:
        """(place in the block of what stands on each space, amount) for each space an
        arrangement uses, made once per distinct arrangement (a player's changes only
        when the herd does), rather than walking its pieces' space bits every time."""
        known = self._grazing_cache.get(pieces)
        if known is None:
            per_space, farm = self.game.grazing.per_space, len(FARM)
            places = []
            for kind, count, mask in pieces:
                amount = count / per_space if kind == 0 else 1.0
                rest = mask
                while rest:
                    low = rest & -rest
                    places.append(((low.bit_length() - 1) * farm + kind, amount))
                    rest ^= low
            known = tuple(places)
            if len(self._grazing_cache) >= CACHED:
                self._grazing_cache.clear()
            self._grazing_cache[pieces] = known
        return known

    def build(self, observation: RanchoObservation, player: int) -> np.ndarray:
        """``player``'s tensor from ``observation`` (the public table as its JSON shows it).

        Filled as a float32 ``array.array`` and viewed as numpy without a copy: its
        elements cost what a list's do to set, several times less than numpy's, and no
        conversion of the whole vector follows (``fromiter`` took most of the time).
        """
        state = observation.state
        n, spaces = self.players, self.spaces
        out = self._blank[:]
        seat = [(p - player) % n for p in range(n)]
        at = 0
        out[at + state.phase] = 1.0
        at += len(PHASES)
        over = state.winner >= 0 or (
            bool(self.game.max_turns) and state.turn >= self.game.max_turns
        )
        out[at + seat[state.player]] = 1.0
        at += n
        if not over and state.phase not in (ROLL, STRIKE):
            actor = state.dog_queue[0] if state.phase == DOG else state.player
            out[at + seat[actor]] = 1.0
        at += n
        for p in state.dog_queue:
            out[at + seat[p]] = 1.0
        at += n
        box = self.box
        for kind in range(6):
            out[at + kind] = state.herd[kind] / box[kind]
        at += 6
        for p in range(n):
            base = at + 6 * seat[p]
            mine = state.animals[p]
            for kind in range(6):
                out[base + kind] = mine[kind] / box[kind]
        at += 6 * n
        for p in range(n):
            out[at + seat[p]] = state.land[p].bit_count() / self.pastures_most
        at += n
        out[at : at + spaces * n] = self._owners(tuple(state.owner), player)
        at += spaces * n
        for pieces in state.pieces:
            for offset, amount in self._grazing(pieces):
                out[at + offset] = amount
        at += spaces * len(FARM)
        if state.dice is not None:
            for face in state.dice:
                out[at + face] += 0.5
        at += len(FACES)
        for i, predator in enumerate(state.predators[:2]):
            out[at + 2 * i + PREDATORS.index(predator)] = 1.0
        at += 4
        width = len(PREDATORS) + len(self.prices)
        for i, (predator, price) in enumerate(state.strikes[:STRIKES_SHOWN]):
            out[at + width * i + PREDATORS.index(predator)] = 1.0
            slot = self._price_slot.get(price)
            if slot is not None:
                out[at + width * i + len(PREDATORS) + slot] = 1.0
        at += STRIKES_SHOWN * width
        out[at] = float(state.settled)
        at += 1
        if state.winner >= 0:
            out[at + seat[state.winner]] = 1.0
        at += n
        if self.game.max_turns:
            out[at] = min(1.0, state.turn / self.game.max_turns)
        out[at + 1] = min(state.turn, TURNS_SHOWN) / TURNS_SHOWN
        if self.game.deal_limit:
            out[at + 2] = state.deals / self.game.deal_limit
        return np.frombuffer(out, dtype=np.float32)
