"""Rocket Ranchers as a fixed action space, for learning code (see ``core.encoding``).

Every legal action of every position has exactly one index, in six blocks:

* every beam placement (each beam at each distinct rotation and anchor, in the
  order of ``Tables.placements``: 85 with the standard beams);
* ``reboot``, then ``end``;
* every dogship swap of two display cells (16 x 15 / 2 = 120);
* ``form``: found a corral with the collected card in *pending slot* s;
* ``occupy``: put the card in pending slot s face up in corral c.

A pending slot is the card's place in the line of collected cards waiting for a
corral (``observation.pending``, which the tensor shows in order); a kind held
twice is named by its first place. A beam collects at most as many Wildlife
cards as it has cells (Space Cats go to the floof pile), so the slots are the
largest beam's cell count (4). Corrals have no limit in the rules, but each is
founded with a Wildlife card, so a player never has more corrals than the deck
for the player count has Wildlife cards (90 at 2 or 3 players, 120 at 4, 150
at 5): that many corral numbers make the occupy block sound, most of it never
used in a real game.

Chance outcomes are numbered by card kind (``Tables`` order, 150 in the standard
deck) and the Space Cat last, so a card keeps its number whatever is left in the
deck.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import InvalidAction
from ranchhand.games.rocket_ranchers.actions import END_TURN, REBOOT, Draw, Form, Occupy
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS
from ranchhand.games.rocket_ranchers.tensor import RocketTensor

if TYPE_CHECKING:
    from ranchhand.core.game import Observation, State
    from ranchhand.games.rocket_ranchers.game import RocketGame
    from ranchhand.games.rocket_ranchers.observation import RocketObservation
    from ranchhand.games.rocket_ranchers.state import RocketState


class RocketEncoding(Encoding):
    """The index space and observation tensor of one rules configuration and player count."""

    game: RocketGame

    def __init__(self, game: RocketGame) -> None:
        super().__init__(game)
        tables = game.tables
        self.tables = tables
        self.slots = max(len(beam.cells) for beam in tables.beams)
        """Pending slots: the most Wildlife cards one beam can collect."""
        self.corrals = sum(tables.deck_counts(game.players)[0])
        """Corral numbers: one per Wildlife card in the deck, the most a player can found."""
        fixed: list[Hashable] = [p.action for p in tables.placements]
        fixed += [REBOOT, END_TURN, *tables.swaps.values()]
        self.fixed = tuple(fixed)
        self.fixed_index = {action: index for index, action in enumerate(fixed)}
        self.form_start = len(fixed)
        self.occupy_start = self.form_start + self.slots
        self.size = self.occupy_start + self.slots * self.corrals
        self.tensor = RocketTensor(game, self.slots, self.corrals)
        self._chance_index: dict[Hashable, int] = {}
        """Each draw's chance index once known (:meth:`chance_to_index`)."""

    # ---------------------------------------------------------------- actions
    @property
    def num_actions(self) -> int:
        return self.size

    def action_to_index(self, state: State, action: Hashable, player: int) -> int:
        index = self.fixed_index.get(action)
        if index is not None:
            return index
        if isinstance(action, Form):
            return self.form_start + self._slot(state, action.card)
        if isinstance(action, Occupy):
            if not 1 <= action.corral <= self.corrals:
                raise InvalidAction(f"{action}: corral numbers run 1 to {self.corrals}")
            slot = self._slot(state, action.card)
            return self.occupy_start + slot * self.corrals + action.corral - 1
        raise InvalidAction(f"{action} is no Rocket Ranchers action with an index")

    def _moves(self, state: State, player: int, actions: list[Hashable]) -> dict[int, Hashable]:
        """Every legal action's index, the fixed blocks looked up here: a dogship step
        lists all 120 swaps, and a call per action would cost most of the step."""
        fixed = self.fixed_index
        out: dict[int, Hashable] = {}
        for action in actions:
            index = fixed.get(action)
            out[self.action_to_index(state, action, player) if index is None else index] = action
        return out

    def _slot(self, state: State, card: str) -> int:
        """The pending slot of ``card``: where it first stands among the collected cards."""
        kind = self.tables.kind_by_text.get(card)
        pending = cast("RocketState", state).pending
        if kind is None or kind not in pending:
            raise InvalidAction(f"{card} is not among the collected cards waiting for a corral")
        return pending.index(kind)

    def index_to_action(self, state: State, index: int, player: int) -> Hashable:
        self._check_index(index)
        index = int(index)
        offered = self.offered(state, index, player)
        if offered is not None:
            return offered
        action: Hashable
        if index < self.form_start:
            action = self.fixed[index]
        else:
            slot, corral = self._split(index)
            pending = cast("RocketState", state).pending
            if slot >= len(pending) or pending.index(pending[slot]) != slot:
                raise InvalidAction(f"{self.action_label(index)}: no collected card there now")
            kind = pending[slot]
            action = self.tables.forms[kind] if corral is None else self.tables.occupy(kind, corral)
        if not state.is_legal(action, player):
            raise InvalidAction(f"{self.action_label(index)} ({action}) is not legal now")
        return action

    def _split(self, index: int) -> tuple[int, int | None]:
        """(pending slot, 0-based corral or None for form) of a form or occupy index."""
        if index < self.occupy_start:
            return index - self.form_start, None
        slot, corral = divmod(index - self.occupy_start, self.corrals)
        return slot, corral

    def action_label(self, index: int) -> str:
        self._check_index(index)
        if index < self.form_start:
            return str(self.fixed[index])
        slot, corral = self._split(index)
        if corral is None:
            return f"form with pending card {slot + 1}"
        return f"occupy corral {corral + 1} with pending card {slot + 1}"

    def blocks(self) -> list[tuple[str, int]]:
        """(name, size) of each block of the index space, in order, for docs."""
        tables = self.tables
        return [
            ("beam placements", len(tables.placements)),
            ("reboot", 1),
            ("end", 1),
            ("dogship swaps", len(tables.swaps)),
            ("form (pending slot)", self.slots),
            ("occupy (pending slot x corral)", self.slots * self.corrals),
        ]

    # ------------------------------------------------------------------ chance
    @property
    def max_chance_outcomes(self) -> int:
        """Every card kind, and the Space Cat."""
        return self.tables.kinds + 1

    def chance_to_index(self, state: State, outcome: Hashable) -> int:
        """The draw's card kind (the Space Cat last); remembered per draw, because
        reading a card's text costs more than OpenSpiel's whole step otherwise and a
        deck has few kinds."""
        known = self._chance_index.get(outcome)
        if known is not None:
            return known
        if not isinstance(outcome, Draw):
            raise InvalidAction(f"{outcome} is not a draw")
        card = self.tables.card_of(outcome.card)
        if card is None:
            raise InvalidAction(f"{outcome}: no such card in this deck")
        index = self.tables.kinds if card == CAT else card
        self._chance_index[outcome] = index
        return index

    def chance_indices(self, state: State, outcomes: Sequence[Hashable]) -> list[int]:
        known = self._chance_index
        try:
            return [known[outcome] for outcome in outcomes]
        except KeyError:  # a draw not numbered yet: number each on its own
            return super().chance_indices(state, outcomes)

    def index_to_chance(self, state: State, index: int) -> Hashable:
        if isinstance(index, bool) or not 0 <= index < self.max_chance_outcomes:
            raise InvalidAction(
                f"chance outcome {index} is out of range; allowed: 0 to "
                f"{self.max_chance_outcomes - 1}"
            )
        tables = self.tables
        outcome = tables.draw_cat if index == tables.kinds else tables.draws[index]
        # a scan of the outcomes: hashing all 46 for the node's lookup costs more
        if outcome not in state.chance_outcomes().actions:
            raise InvalidAction(f"chance outcome {index} ({outcome}): no such card in the deck")
        return outcome

    # ------------------------------------------------------------------ length
    @property
    def turns_bound(self) -> int:
        """The most player turns a game can last (``max_turns`` caps it further).

        After the deal the deck of ``D`` cards holds ``D - 16``. A beam used on the full
        display takes at least one card, which the refill replaces from the deck,
        so at most ``D - 16`` beam turns start with cards in the deck; a reboot
        needs a beam used since the player's last reboot, so reboots are no more
        than beams; once the deck is empty the round ends within ``players`` turns.
        """
        wildlife, cats = self.tables.deck_counts(self.game.players)
        beam_turns = sum(wildlife) + cats - CELLS
        bound = 2 * beam_turns + self.game.players
        cap = self.game.max_turns
        return min(bound, cap) if cap else bound

    @property
    def max_game_length(self) -> int:
        """Decisions per turn times turns: the dogship, a beam, one placement per pending
        slot and the dogship or ``end`` after the refill."""
        return self.turns_bound * (3 + self.slots)

    # ----------------------------------------------------------- observations
    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.tensor.size,)

    def observation_tensor(self, observation: Observation, player: int) -> np.ndarray:
        return self.tensor.build(cast("RocketObservation", observation), player)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each entry's bounds by construction (``RocketTensor.bounds``)."""
        return self.tensor.low, self.tensor.high

    def observation_layout(self) -> list[tuple[str, int]]:
        return list(self.tensor.layout)
