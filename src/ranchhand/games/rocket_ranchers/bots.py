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
from collections.abc import Hashable, Sequence

from ranchhand.bots.base import Bot
from ranchhand.games.rocket_ranchers.actions import END_TURN, REBOOT, Beam, Dogship, Form, Occupy
from ranchhand.games.rocket_ranchers.observation import RocketObservation
from ranchhand.games.rocket_ranchers.scoring import table_points
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, FULL, Tables, neighbours

PARTIAL = 0.6
"""Share of the way to the next score row that a corral's potential counts."""
FOUND_VALUE = 0.5
"""A card that only founds a new corral: it scores nothing itself."""
SWAP_MARGIN = 2.0
"""The gain a dogship swap must bring (the dogship then waits for a reboot)."""


def _potential_curve(rows: Sequence[tuple[int, int]], top: int) -> tuple[float, ...]:
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
        curve.append(points + PARTIAL * share * (nxt[1] - points))
    return tuple(curve)


class GreedyBot(Bot):
    """Takes the beam worth most for its corrals now; see the module docstring."""

    name = "greedy"

    def __init__(self) -> None:
        self._curves: dict[tuple[int, str], tuple[tuple[float, ...], tuple[float, ...]]] = {}
        self._values: dict[tuple[int, tuple[int, ...]], float] = {}

    def act(
        self, observation: RocketObservation, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        if observation.phase == "place":
            return self._place(observation, legal_actions)
        if observation.phase == "after":
            return END_TURN
        return self._start(observation, legal_actions)

    # ------------------------------------------------------------ valuation
    def _curves_for(self, obs: RocketObservation) -> tuple[tuple[float, ...], tuple[float, ...]]:
        key = (id(obs.tables), obs.options["abundance_counts"])
        curves = self._curves.get(key)
        if curves is None:
            scores = obs.tables.scores
            curves = (_potential_curve(scores.abundance, 60), _potential_curve(scores.variety, 10))
            self._curves[key] = curves
        return curves

    def _corral_value(self, obs: RocketObservation, face_up: tuple[int, ...]) -> float:
        """The potential of a corral holding ``face_up`` (remembered: corrals recur)."""
        key = (id(obs.options), face_up)
        known = self._values.get(key)
        if known is None:
            if len(self._values) > 100_000:
                self._values.clear()
            known = self._values[key] = self._potential(obs, face_up)
        return known

    def _potential(self, obs: RocketObservation, face_up: tuple[int, ...]) -> float:
        tables = obs.tables
        abundance, variety = self._curves_for(obs)
        if obs.options["abundance_counts"] == "dots":
            amount = sum(tables.dots[k] for k in face_up)
        else:
            amount = len(face_up)
        biomes = len({tables.biome[k] for k in face_up})
        way = obs.options["corral_scoring"]
        a = abundance[min(amount, len(abundance) - 1)]
        v = variety[min(biomes, len(variety) - 1)]
        if way == "abundance":
            return a
        if way == "variety":
            return v
        return max(a, v)

    def _card_values(self, obs: RocketObservation) -> dict[int, float]:
        """What each kind in the display is worth to the bot (best corral it joins)."""
        tables = obs.tables
        species = tables.species
        corrals = [up for _, up in obs.corrals[obs.player] if up]
        empty = len(corrals) < len(obs.corrals[obs.player])
        value = self._corral_value
        before = [value(obs, up) for up in corrals]
        values: dict[int, float] = {}
        for kind in set(obs.display):
            if kind < 0:
                continue
            best = FOUND_VALUE
            if empty:
                best = max(best, value(obs, (kind,)))
            for index, face_up in enumerate(corrals):
                if species[face_up[0]] == species[kind]:
                    best = max(best, value(obs, (*face_up, kind)) - before[index])
            values[kind] = best
        return values

    def _cat_value(self, obs: RocketObservation, taken: int) -> float:
        if not taken:
            return 0.0
        mine = obs.floof[obs.player]
        most = max((n for p, n in enumerate(obs.floof) if p != obs.player), default=0)
        if mine + taken < most:
            return 2.0 * taken
        if mine >= most and mine > 0:
            return -2.5 * taken
        late = 1.0 / (1.0 + obs.deck_size / 30.0)
        return -(2.0 * mine + 5.0) * late - 1.0 * taken

    def _beam_values(
        self, obs: RocketObservation, values: dict[int, float]
    ) -> list[tuple[float, int, Beam]]:
        """The value, beam index and action of every placement of every beam."""
        tables: Tables = obs.tables
        display = obs.display
        cell_value = [values.get(card, 0.0) for card in display]
        filled = 0
        cats = 0
        for cell in range(CELLS):
            card = display[cell]
            if card == CAT:
                cats |= 1 << cell
                filled |= 1 << cell
            elif card >= 0:
                filled |= 1 << cell
        chain = obs.options["cat_chain"]
        cat_value = [self._cat_value(obs, n) for n in range(cats.bit_count() + 1)]
        result = []
        for placement in tables.placements:
            if not cats:
                total = 0.0
            elif filled == FULL and not chain:
                total = cat_value[(placement.near & cats).bit_count()]
            else:
                total = cat_value[self._caught(placement.mask & filled, cats, chain).bit_count()]
            for cell in placement.cells:
                total += cell_value[cell]
            result.append((total, placement.beam, placement.action))
        return result

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

    # ------------------------------------------------------------- decisions
    def _start(self, obs: RocketObservation, legal: Sequence[Hashable]) -> Hashable:
        mine = obs.beams[obs.player]
        values = self._card_values(obs)
        every = self._beam_values(obs, values)
        options = [(v, beam) for v, index, beam in every if mine >> index & 1]
        best_value, best_beam = max(options, key=lambda pair: pair[0])
        if REBOOT in legal:
            best_owned = max(v for v, _, _ in every)
            if best_value <= 0 or best_value < 0.5 * best_owned - 1.0:
                return REBOOT
        if obs.dogship[obs.player]:
            swap = self._best_swap(obs, values, options, best_value, legal)
            if swap is not None:
                return swap
        return best_beam

    def _best_swap(
        self,
        obs: RocketObservation,
        values: dict[int, float],
        options: list[tuple[float, Beam]],
        best_value: float,
        legal: Sequence[Hashable],
    ) -> Dogship | None:
        tables = obs.tables
        display = obs.display
        by_biome: dict[int, list[int]] = {}
        for cell, card in enumerate(display):
            if card >= 0:
                by_biome.setdefault(tables.biome[card], []).append(cell)
        best: tuple[float, int, int] | None = None
        wildlife = [values[card] for card in display if card >= 0]
        if not wildlife:
            return None
        enough = best_value + SWAP_MARGIN - (max(wildlife) - min(wildlife))
        for value, beam in options:
            if value < enough:
                continue  # no swap can lift this beam far enough
            cells = tables.placement_of[beam].cells
            for inside in cells:
                card = display[inside]
                if card < 0:
                    continue
                for outside in by_biome[tables.biome[card]]:
                    if outside in cells:
                        continue
                    gain = value + values[display[outside]] - values[card]
                    if best is None or gain > best[0]:
                        best = (gain, inside, outside)
        if best is None or best[0] < best_value + SWAP_MARGIN:
            return None
        first, second = sorted(best[1:])
        action = tables.swaps[(first, second)]
        return action if action in legal else None

    def _place(self, obs: RocketObservation, legal: Sequence[Hashable]) -> Hashable:
        tables = obs.tables
        corrals = obs.corrals[obs.player]
        best: tuple[float, Hashable] | None = None
        empty_fill: list[Occupy] = []
        for action in legal:
            if not isinstance(action, Occupy):
                continue
            face_up = corrals[action.corral - 1][1]
            kind = tables.kind_by_text[action.card]
            if not face_up:
                empty_fill.append(action)
                continue
            gain = self._corral_value(obs, (*face_up, kind)) - self._corral_value(obs, face_up)
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


BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot}
