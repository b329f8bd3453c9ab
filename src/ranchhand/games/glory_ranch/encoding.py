"""Glory Ranch as a fixed action space, for learning code (see ``core.encoding``).

Every legal action of every position has exactly one index, in five blocks
(K card kinds in the deck file's order, 32 in the standard deck; n players):

* a card from your own hand: ``play``, ``discard``, ``give`` or ``pass`` it
  (4 x K, verb-major);
* ``target``: another player, counted clockwise from the chooser (n - 1);
* ``pick``: a card in a ranch, by seat counted from the chooser (0 is your own)
  and position from the left (n x 7: a ranch holds at most seven cards);
* ``place``: where the card just played goes in your ranch (7);
* ``choose``: rock, paper or scissors (3).

Seats are counted from the player who decides, as the tensor counts them, so a
network trained in one seat plays any seat. A rock-paper-scissors node is
simultaneous: each of its two players has a mask of their own (all three signs)
and an index names only that player's sign.

Chance outcomes (a card drawn from the deck or stolen from a hand) are numbered
by card kind, so a card keeps its number whatever is left.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import InvalidAction
from ranchhand.games.glory_ranch.actions import (
    HAND_VERBS,
    SIGNS,
    Choose,
    HandCard,
    Pick,
    Place,
    Target,
)
from ranchhand.games.glory_ranch.game import RANCH_LIMIT
from ranchhand.games.glory_ranch.length import decisions_per_turn, turns_cap
from ranchhand.games.glory_ranch.tensor import GloryTensor

if TYPE_CHECKING:
    from ranchhand.core.game import Observation, State
    from ranchhand.games.glory_ranch.game import GloryRanch
    from ranchhand.games.glory_ranch.observation import GloryObservation
    from ranchhand.games.glory_ranch.state import GloryState


class GloryEncoding(Encoding):
    """The index space and observation tensor of one deck and player count."""

    game: GloryRanch

    def __init__(self, game: GloryRanch) -> None:
        super().__init__(game)
        n, kinds = game.players, game.kinds
        self.target_start = len(HAND_VERBS) * kinds
        self.pick_start = self.target_start + n - 1
        self.place_start = self.pick_start + n * RANCH_LIMIT
        self.choose_start = self.place_start + RANCH_LIMIT
        self.size = self.choose_start + len(SIGNS)
        self.tensor = GloryTensor(game)

    # ---------------------------------------------------------------- actions
    @property
    def num_actions(self) -> int:
        return self.size

    def action_to_index(self, state: State, action: Hashable, player: int) -> int:
        game = self.game
        n = game.players
        if isinstance(action, HandCard) and action.verb in HAND_VERBS:
            card = game.index.get(action.card)
            if card is not None:
                return HAND_VERBS.index(action.verb) * game.kinds + card
        elif isinstance(action, Target) and 0 <= action.seat < n and action.seat != player:
            return self.target_start + (action.seat - player) % n - 1
        elif isinstance(action, Pick) and 0 <= action.seat < n and 1 <= action.slot <= RANCH_LIMIT:
            seat = (action.seat - player) % n
            return self.pick_start + seat * RANCH_LIMIT + action.slot - 1
        elif isinstance(action, Place) and 1 <= action.slot <= RANCH_LIMIT:
            return self.place_start + action.slot - 1
        elif isinstance(action, Choose) and action.sign in SIGNS:
            return self.choose_start + SIGNS.index(action.sign)
        raise InvalidAction(f"{action} is no Glory Ranch action with an index")

    def index_to_action(self, state: State, index: int, player: int) -> Hashable:
        self._check_index(index)
        index = int(index)
        offered = self.offered(state, index, player)
        if offered is not None:
            return offered
        game = self.game
        n = game.players
        action: Hashable
        if index < self.target_start:
            verb, card = divmod(index, game.kinds)
            action = HandCard(HAND_VERBS[verb], game.ids[card])
        elif index < self.pick_start:
            action = Target((player + index - self.target_start + 1) % n)
        elif index < self.place_start:
            seat, slot = divmod(index - self.pick_start, RANCH_LIMIT)
            seat = (player + seat) % n
            ranch = cast("GloryState", state).ranches[seat]
            if slot >= len(ranch):
                raise InvalidAction(f"{self.action_label(index)}: that ranch has no such card")
            action = Pick(seat, slot + 1, game.ids[ranch[slot]])
        elif index < self.choose_start:
            action = Place(index - self.place_start + 1)
        else:
            action = Choose(SIGNS[index - self.choose_start])
        if not state.is_legal(action, player):
            raise InvalidAction(f"{self.action_label(index)} ({action}) is not legal now")
        return action

    def action_label(self, index: int) -> str:
        self._check_index(index)
        game = self.game
        if index < self.target_start:
            verb, card = divmod(index, game.kinds)
            return f"{HAND_VERBS[verb]} {game.ids[card]}"
        if index < self.pick_start:
            return f"target the player {_seat_words(index - self.target_start + 1)}"
        if index < self.place_start:
            seat, slot = divmod(index - self.pick_start, RANCH_LIMIT)
            whose = "your ranch" if seat == 0 else f"the ranch of the player {_seat_words(seat)}"
            return f"pick card {slot + 1} of {whose}"
        if index < self.choose_start:
            return f"place {index - self.place_start + 1}"
        return f"choose {SIGNS[index - self.choose_start]}"

    def blocks(self) -> list[tuple[str, int]]:
        """(name, size) of each block of the index space, in order, for docs."""
        n = self.game.players
        return [
            ("hand cards (play, discard, give, pass x card kind)", self.target_start),
            ("target (another player, clockwise from you)", n - 1),
            (f"pick (seat from you x ranch position 1-{RANCH_LIMIT})", n * RANCH_LIMIT),
            (f"place (position 1-{RANCH_LIMIT})", RANCH_LIMIT),
            ("choose (rock, paper, scissors)", len(SIGNS)),
        ]

    # ------------------------------------------------------------------ chance
    @property
    def max_chance_outcomes(self) -> int:
        """One per card kind: a draw or a steal names the card."""
        return self.game.kinds

    def chance_to_index(self, state: State, outcome: Hashable) -> int:
        card = self.game.index.get(getattr(outcome, "card", ""))  # a Draw or a Steal
        if card is None:
            raise InvalidAction(f"{outcome} is not a draw or steal of a card in this deck")
        return card

    def chance_indices(self, state: State, outcomes: Sequence[Hashable]) -> list[int]:
        """The node's cards' kinds in one pass (a draw has up to 32 outcomes)."""
        kinds = self.game.index
        numbers = [kinds.get(getattr(outcome, "card", "")) for outcome in outcomes]
        if None in numbers:  # name the outcome that is no card of this deck
            return super().chance_indices(state, outcomes)
        return cast("list[int]", numbers)

    def index_to_chance(self, state: State, index: int) -> Hashable:
        kinds = self.game.kinds
        if isinstance(index, bool) or not 0 <= index < kinds:
            raise InvalidAction(
                f"chance outcome {index} is out of range; allowed: 0 to {kinds - 1}"
            )
        card = self.game.ids[index]
        for outcome in state.chance_outcomes().actions:
            if getattr(outcome, "card", None) == card:
                return outcome
        raise InvalidAction(f"chance outcome {index} ({card}) cannot happen here")

    # ------------------------------------------------------------------ length
    @property
    def max_game_length(self) -> int:
        """Decisions a turn can take times the turns (see :mod:`.length`)."""
        return decisions_per_turn(self.game) * turns_cap(self.game)

    # ----------------------------------------------------------- observations
    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.tensor.size,)

    def observation_tensor(self, observation: Observation, player: int) -> np.ndarray:
        return self.tensor.build(cast("GloryObservation", observation), player)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each entry's bounds by construction (``GloryTensor.bounds``)."""
        return self.tensor.low, self.tensor.high

    def observation_layout(self) -> list[tuple[str, int]]:
        return list(self.tensor.layout)


def _seat_words(offset: int) -> str:
    """``1`` is "on your left" (next clockwise); others "N seats clockwise"."""
    return "on your left" if offset == 1 else f"{offset} seats clockwise"
