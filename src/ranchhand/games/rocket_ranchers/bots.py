"""The greedy bot of Rocket Ranchers: one-turn lookahead with a corral potential.

Heuristic, from what the observation shows:

* **Corral potential.** A corral is worth the better of its Abundance and
  Variety points, plus 60% of the way to the next row of each table (a corral
  of 6 cards is closer to 18 than one of 5). A Wildlife card is worth the rise
  in potential of the best corral it may join (its species, or an empty one);
  a card no corral takes would found a new corral and is worth little.
* **Space Cats.** A cat is +2 while the bot stays below the player with the
  most; reaching the most costs the 5-point penalty and the cats it held,
  weighted by how late in the game it is (early leads change hands).
* **Beam.** Use the face-up beam placement whose cards and cats are worth most.
* **Reboot** when the face-up beams are much worse than the best beam the bot
  owns (by at least half), or every face-up beam loses points.
* **Dogship** before the beam when swapping two same-biome cards raises the best
  beam by at least 2 points (a swap changes a beam by the value of the card
  brought in minus the card sent out; the cats it touches stay the same).
  After the refill the bot ends its turn (a swap then helps the next player).
* **Placement**: join a corral of the card's species (largest gain first), then
  fill an empty corral with the species most represented in the catch, and form
  a new corral with the card least like the others.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

import numpy as np

from ranchhand.bots.base import Bot
from ranchhand.games.rocket_ranchers.actions import END_TURN, REBOOT, Dogship, Form, Occupy
from ranchhand.games.rocket_ranchers.observation import RocketObservation
from ranchhand.games.rocket_ranchers.scoring import table_points
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY, Tables, neighbours

PARTIAL = 0.6
"""Share of the way to the next score row that a corral's potential counts."""
FOUND_VALUE = 0.5
"""A card that only founds a new corral: it scores nothing itself."""
SWAP_MARGIN = 2.0
"""The gain a dogship swap must bring (the dogship then waits for a reboot)."""
_ROUNDING = 1e-6
"""Far above the rounding of a sum of a few dozen points, far below any real difference."""
CorralShape = tuple[int, int, float]
"""A corral as its potential sees it: amount (cards or dots), biome bit mask, potential."""


def _potential_curve(
    rows: Sequence[tuple[int, int]], top: int, partial: float = PARTIAL
) -> tuple[float, ...]:
    """Potential of every amount 0..top: table points plus part of the way to the next row."""
    curve = []
    for amount in range(top + 1):
        points = table_points(rows, amount)
        nxt = next(((a, p) for a, p in rows if a > amount), None)
        if nxt is None:
            curve.append(float(points))
            continue
        below = max((a for a, _ in rows if a <= amount), default=0)
        share = (amount - below) / (nxt[0] - below)
        curve.append(points + partial * share * (nxt[1] - points))
    return tuple(curve)


class GreedyBot(Bot):
    """Takes the beam worth most for its corrals now; see the module docstring."""

    name = "greedy"
    partial: float = PARTIAL
    found_value: float = FOUND_VALUE
    swap_margin: float = SWAP_MARGIN
    reboot_share: float = 0.5
    """Reboot when the best face-up beam is worth less than this share of the best owned."""

    def __init__(self) -> None:
        self._prepared_for: object = None
        self._table: tuple[tuple[float, ...], ...] = ()
        self._dots = False
        self._homes: tuple[dict[int, list[CorralShape]], bool] = ({}, False)
        self._known_corrals: tuple[object, ...] | None = None
        self._known_options: object = None
        self._kind_values: dict[int, float] = {}

    def needs_observation(self, legal_actions: Sequence[Hashable]) -> bool:
        """After the refill (the list opens with 'end turn') the bot ends its turn unseen,
        and a card with only one place to go (about one placement in eight) goes there."""
        return legal_actions[0] is not END_TURN and len(legal_actions) > 1

    def act(
        self,
        observation: RocketObservation | None,
        legal_actions: Sequence[Hashable],
        rng: random.Random,
    ) -> Hashable:
        if observation is None:  # after the refill, or a forced move (see needs_observation)
            return legal_actions[0]
        self._prepare(observation)
        if observation.phase == "place":
            return self._place(observation, legal_actions)
        if observation.phase == "after":
            return END_TURN
        return self._start(observation)

    # ------------------------------------------------------------ valuation
    def _prepare(self, obs: RocketObservation) -> None:
        """Load the potential table of this game's options (built once per options):
        ``_table[cards or dots][biomes]`` is a corral's potential, and with
        ``abundance_counts=dots`` a card adds its dots to the count instead of 1."""
        if obs.options is self._prepared_for:
            return
        self._table = _potential_table(obs.tables, self.partial, obs.options["corral_scoring"])
        self._dots = obs.options["abundance_counts"] == "dots"
        self._prepared_for = obs.options

    def _corral_shape(self, obs: RocketObservation, face_up: Sequence[int]) -> CorralShape:
        """What a corral's potential depends on: (amount, biome mask, potential). A card
        joining it changes only the amount and the mask, so its gain is two table reads."""
        tables = obs.tables
        amount = sum(tables.dots[k] for k in face_up) if self._dots else len(face_up)
        biomes = 0
        for kind in face_up:
            biomes |= 1 << tables.biome[kind]
        return amount, biomes, self._table[min(amount, 60)][min(biomes.bit_count(), 10)]

    def _card_values(self, obs: RocketObservation) -> dict[int, float]:
        """What each kind in the display is worth to the bot (best corral it joins).

        Remembered while the bot's corrals stay the same (they change only in its turn).
        """
        mine = obs.corrals[obs.seat]
        if self._known_corrals != mine or self._known_options is not obs.options:
            self._known_corrals = mine
            self._known_options = obs.options
            self._kind_values = {}
            self._homes = self._corral_homes(obs)
        known = self._kind_values
        missing = [k for k in set(obs.display) if k >= 0 and k not in known]
        if missing:  # _potential and _size written out: this runs at every beam decision
            species, biome, dots = obs.tables.species, obs.tables.biome, obs.tables.dots
            table, by_dots = self._table, self._dots
            homes, empty = self._homes
            for kind in missing:
                size = dots[kind] if by_dots else 1
                best = self.found_value
                if empty:
                    best = max(best, table[min(size, 60)][1])
                for amount, biomes, before in homes.get(species[kind], ()):
                    grown = (biomes | 1 << biome[kind]).bit_count()
                    best = max(best, table[min(amount + size, 60)][min(grown, 10)] - before)
                known[kind] = best
        return known

    def _corral_homes(self, obs: RocketObservation) -> tuple[dict[int, list[CorralShape]], bool]:
        """The bot's corrals by species as (amount, biome mask, potential); any empty one?"""
        homes: dict[int, list[CorralShape]] = {}
        empty = False
        for _, face_up in obs.corrals[obs.seat]:
            if not face_up:
                empty = True
                continue
            species = obs.tables.species[face_up[0]]
            homes.setdefault(species, []).append(self._corral_shape(obs, face_up))
        return homes, empty

    def _cat_values(self, obs: RocketObservation, up_to: int) -> list[float]:
        """What taking 0, 1, ... ``up_to`` Space Cats is worth, against the current leader."""
        seat = obs.seat
        floof = obs.floof
        mine = floof[seat]
        most = 0
        for player, held in enumerate(floof):
            if player != seat and held > most:
                most = held
        late = 1.0 / (1.0 + obs.deck_size / 30.0)
        values = [0.0]
        for taken in range(1, up_to + 1):
            if mine + taken < most:
                values.append(2.0 * taken)
            elif mine >= most and mine > 0:
                values.append(-2.5 * taken)
            else:
                values.append(-(2.0 * mine + 5.0) * late - 1.0 * taken)
        return values

    def _beam_values(self, obs: RocketObservation, values: dict[int, float]) -> np.ndarray:
        """The value of every placement of every beam, in ``tables.placements`` order.

        A placement is worth the sum of its cells' card values plus its Space Cats'
        value; with a full display and no chaining the cats it meets are those in
        its precomputed neighbourhood: the card values are a matrix product, and how many
        cats each placement meets is the sum of one precomputed row per cat (there are
        rarely more than two in the display).
        """
        tables: Tables = obs.tables
        display = obs.display
        cover, near, _ = _matrices(tables)
        cell_value = np.array([values.get(card, 0.0) for card in display])
        total = _covered_sums(cover, cell_value)
        cats = display.count(CAT)
        if not cats:
            return total
        cat_value = np.array(self._cat_values(obs, cats))
        chain = obs.options["cat_chain"]
        if EMPTY not in display and not chain:
            cells = [cell for cell, card in enumerate(display) if card == CAT]
            counts = near[cells[0]]
            for cell in cells[1:]:
                counts = counts + near[cell]  # a new array: the rows stay as they are
        else:
            counts = self._cats_met(tables, display, chain)
        return total + cat_value[counts]

    def _cats_met(self, tables: Tables, display: tuple[int, ...], chain: bool) -> np.ndarray:
        """How many Space Cats each placement takes when the display has gaps or cats chain
        (the neighbourhood product no longer holds): beam by beam from the cell masks."""
        cats = filled = 0
        for cell, card in enumerate(display):
            if card == CAT:
                cats |= 1 << cell
            if card != EMPTY:
                filled |= 1 << cell
        return np.array(
            [self._caught(p.mask & filled, cats, chain).bit_count() for p in tables.placements]
        )

    @staticmethod
    def _caught(mask: int, cats: int, chain: bool) -> int:
        """The cells of the Space Cats a beam collecting ``mask`` takes."""
        if not mask:
            return 0
        caught = neighbours(mask) & cats
        if chain:
            grown = 0
            while grown != caught:
                grown = caught
                caught = neighbours(caught | mask) & cats
        return caught

    def shortlist(
        self, observation: RocketObservation, legal: Sequence[Hashable], width: int
    ) -> list[Hashable]:
        """The actions a search should weigh at the start of a turn: the ``width`` legal
        beam placements worth most by this bot's values, and the reboot where allowed
        (a search adds the bot's own choice). Other decisions are narrow: all of ``legal``.
        """
        if observation.phase != "start":
            return list(legal)
        self._prepare(observation)
        tables = observation.tables
        options = self._beam_values(observation, self._card_values(observation))
        offered = set(legal)
        kept: list[Hashable] = [REBOOT] if REBOOT in offered else []
        for index in np.argsort(-options, kind="stable"):
            action = tables.placements[index].action
            if action in offered:
                kept.append(action)
                if len(kept) >= width + (REBOOT in offered):
                    break
        return kept

    # ------------------------------------------------------------- decisions
    def _start(self, obs: RocketObservation) -> Hashable:
        tables = obs.tables
        values = self._card_values(obs)
        every = self._beam_values(obs, values)
        up = obs.beams[obs.seat]
        options = every + _face_up(tables, up)
        best = int(options.argmax())
        best_value = float(options[best])
        if up != (1 << len(tables.beams)) - 1:  # a reboot is allowed
            best_owned = float(every[every.argmax()])  # argmax: far cheaper than max
            if best_value <= 0 or best_value < self.reboot_share * best_owned - 1.0:
                return REBOOT
        if obs.dogship[obs.seat]:
            swap = self._best_swap(obs, values, options, best_value)
            if swap is not None:
                return swap
        return tables.placements[best].action

    def _best_swap(
        self, obs: RocketObservation, values: dict[int, float], options: np.ndarray, top: float
    ) -> Dogship | None:
        """The same-biome swap that lifts the best face-up beam (worth ``top``) by
        ``swap_margin``, if any.

        Swapping cells i and j changes a beam covering i but not j by v(j) - v(i)
        (and the reverse), and leaves its Space Cats alone (cats never move), so
        every beam after every swap is one array: beams x swaps.
        """
        pairs, gains = self._swaps_worth_weighing(obs, values)
        if not pairs:
            return None
        # No swap lifts a beam by more than the largest gain: that rules out most beams.
        needed = top + self.swap_margin
        rows = (options + max(map(abs, gains)) >= needed).nonzero()[0]
        if not len(rows):
            return None  # no swap can lift any beam far enough
        cover, _, _ = _matrices(obs.tables)
        first = [i for i, _ in pairs]
        second = [j for _, j in pairs]
        near = cover[rows]
        after = options[rows, None] + (near[:, first] - near[:, second]) * np.array(gains)
        best = int(after.argmax())
        if after.flat[best] < needed:
            return None
        return obs.tables.swaps[pairs[best % len(pairs)]]  # same biome, both Wildlife: legal

    def _swaps_worth_weighing(
        self, obs: RocketObservation, values: dict[int, float]
    ) -> tuple[list[tuple[int, int]], list[float]]:
        """The same-biome pairs of cells whose swap changes a beam by at least the margin,
        with the change v(second) - v(first), in the order the bot always weighed them.

        A swap moves a beam by its gain or not at all, and the best beam is already the
        best, so a smaller gain never reaches the margin: leaving it out changes no choice
        (the order of the rest breaks ties as before) and leaves most turns nothing to weigh.
        """
        display = obs.display
        pairs: list[tuple[int, int]] = []
        gains: list[float] = []
        for cells in _biome_groups(obs.tables, display):
            worths = [values[display[cell]] for cell in cells]
            if max(worths) - min(worths) + _ROUNDING < self.swap_margin:
                continue  # no pair in this biome is far enough apart
            for n, first in enumerate(cells):
                worth = values[display[first]]
                for second in cells[n + 1 :]:
                    gain = values[display[second]] - worth
                    if abs(gain) + _ROUNDING >= self.swap_margin:
                        pairs.append((first, second))
                        gains.append(gain)
        return pairs, gains

    def _place(self, obs: RocketObservation, legal: Sequence[Hashable]) -> Hashable:
        tables = obs.tables
        corrals = obs.corrals[obs.seat]
        best: tuple[float, Hashable] | None = None
        empty_fill: list[Occupy] = []
        shapes: dict[int, CorralShape] = {}  # each corral's, once a decision
        table, by_dots, dots, biome = self._table, self._dots, tables.dots, tables.biome
        for action in legal:
            if not isinstance(action, Occupy):
                continue
            face_up = corrals[action.corral - 1][1]
            kind = tables.kind_by_text[action.card]
            if not face_up:
                empty_fill.append(action)
                continue
            shape = shapes.get(action.corral)
            if shape is None:
                shape = shapes[action.corral] = self._corral_shape(obs, face_up)
            # The rise in potential when the card joins: two table reads.
            amount, biomes, before = shape
            amount += dots[kind] if by_dots else 1
            grown = (biomes | 1 << biome[kind]).bit_count()
            gain = table[min(amount, 60)][min(grown, 10)] - before
            if best is None or gain > best[0]:
                best = (gain, action)
        if best is not None:
            return best[1]
        species = Counter(tables.species[k] for k in obs.pending)
        if empty_fill:
            return max(
                empty_fill,
                key=lambda a: (species[tables.species[tables.kind_by_text[a.card]]], -a.corral),
            )
        forms = [a for a in legal if isinstance(a, Form)]
        return min(
            forms,
            key=lambda a: (
                species[tables.species[tables.kind_by_text[a.card]]],
                tables.dots[tables.kind_by_text[a.card]],
            ),
        )


_POTENTIALS: dict[tuple[int, float, str], tuple[Tables, tuple[tuple[float, ...], ...]]] = {}


def _potential_table(tables: Tables, partial: float, way: str) -> tuple[tuple[float, ...], ...]:
    """A corral's potential by [amount][biomes] under scoring ``way``.

    Built once per score table and bot settings, not per bot: simulations make four new bots
    a game, and building it took longer than many a whole game's decisions.
    """
    key = (id(tables), partial, way)
    known = _POTENTIALS.get(key)
    if known is None or known[0] is not tables:
        abundance = _potential_curve(tables.scores.abundance, 60, partial)
        variety = _potential_curve(tables.scores.variety, 10, partial)
        table = tuple(
            tuple(
                a if way == "abundance" else v if way == "variety" else max(a, v) for v in variety
            )
            for a in abundance
        )
        known = _POTENTIALS[key] = (tables, table)
    return known[1]


_UP = np.array([[mask >> b & 1 for b in range(8)] for mask in range(256)], dtype=bool)
"""_UP[mask][b]: is beam b face up in the face-up mask ``mask``."""
_FACE_UP: dict[tuple[int, int], tuple[Tables, np.ndarray]] = {}


def _face_up(tables: Tables, up: int) -> np.ndarray:
    """Per placement: 0 if its beam is face up in the mask ``up``, else minus infinity, to
    add to the beams' values (a sum costs a fraction of ``np.where``; x + 0.0 is x).
    Memoised per mask (at most 2^8 of them): every beam decision asks."""
    key = (id(tables), up)
    known = _FACE_UP.get(key)
    if known is None or known[0] is not tables:
        _, _, beam_of = _matrices(tables)
        known = _FACE_UP[key] = (tables, np.where(_UP[up][beam_of], 0.0, -np.inf))
    return known[1]


def _biome_groups(tables: Tables, display: tuple[int, ...]) -> Iterable[list[int]]:
    """The Wildlife cells of ``display`` grouped by biome: biomes in the order their first
    card appears, cells in display order (the order breaks ties between equally good swaps,
    so it stays the one the bot always used)."""
    biome = tables.biome
    groups: dict[int, list[int]] = {}
    for cell, card in enumerate(display):
        if card >= 0:
            groups.setdefault(biome[card], []).append(cell)
    return groups.values()


def _covered_sums(cover: np.ndarray, cell_value: np.ndarray) -> np.ndarray:
    """Each placement's sum of the values of the cells it covers, added in one fixed order:
    down each column of the 4x4 display (rows 1 to 4), then columns a+c and b+d, then the two.

    ``cover @ cell_value`` gave the same sums in an order of the BLAS library's choosing:
    the order this machine's library used, which is this one, but another processor's
    kernel adds eight lanes at a time, and sums of the same cards in another order differ
    in the last bit and break ties between beams differently. Written out, the bot chooses
    the same on every machine, and the compiled engine (``fast/kernel.py``) adds alike.
    """
    part = cover * cell_value
    lanes = part[:, 0:4] + part[:, 4:8]
    lanes += part[:, 8:12]
    lanes += part[:, 12:16]
    return (lanes[:, 0] + lanes[:, 2]) + (lanes[:, 1] + lanes[:, 3])


_MATRICES: dict[int, tuple[Tables, np.ndarray, np.ndarray, np.ndarray]] = {}


def _matrices(tables: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cells each placement covers (a row a placement), the placements that cover or
    touch each cell (1 or 0, a row a cell: a cat's row counts it for every placement it
    meets) and each placement's beam index."""
    known = _MATRICES.get(id(tables))
    if known is None or known[0] is not tables:
        placements = tables.placements
        cover = np.array([[p.mask >> c & 1 for c in range(CELLS)] for p in placements], float)
        near = np.array([[p.near >> c & 1 for p in placements] for c in range(CELLS)], np.intp)
        beam_of = np.array([p.beam for p in placements])
        known = _MATRICES[id(tables)] = (tables, cover, near, beam_of)
    return known[1], known[2], known[3]


BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot}
