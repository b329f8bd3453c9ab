"""A tiny game that uses every engine feature: chance, simultaneous choices, hidden info.

Each round a die with faces 1, 2, 2, 3 is rolled; then every player secretly
bets "odd" or "even" at once; the players who guessed right score the roll.
The first to reach the target wins (ties share the win).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ranchhand.core import (
    CHANCE,
    SIMULTANEOUS,
    ChanceOutcomes,
    Game,
    InvalidAction,
    Option,
    Outcome,
    State,
    StateError,
)
from ranchhand.core.encoding import Encoding


@dataclass(frozen=True)
class Bet:
    parity: str

    def __str__(self) -> str:
        return f"bet {self.parity}"


@dataclass(frozen=True)
class Roll:
    face: int

    def __str__(self) -> str:
        return f"roll {self.face}"


@dataclass
class ToyObservation:
    player: int
    scores: list[int]
    roll: int | None
    my_bet: str | None
    waiting_for: list[int]

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


class ToyGame(Game):
    id = "toy"
    name = "Odds and Evens"
    version = "1"
    min_players = 2
    max_players = 3
    information = "imperfect"
    simultaneous = True
    OPTIONS = (Option("target", 5, "points to win", minimum=1, maximum=50),)

    def new_initial_state(self) -> ToyState:
        return ToyState(self)

    def _encoding(self) -> ToyEncoding:
        return ToyEncoding(self)

    def sample_state(self, observation: Any, rng: random.Random) -> ToyState:
        """The viewer's own bet is known; bets already made by others are hidden: drawn."""
        state = ToyState(self)
        state.scores = list(observation.scores)
        state.roll = observation.roll
        if state.roll is not None:
            for p in range(self.players):
                if p == observation.player and observation.my_bet is not None:
                    state.bets[p] = observation.my_bet
                elif p not in observation.waiting_for:
                    state.bets[p] = rng.choice(("odd", "even"))
        return state

    def _state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        state = ToyState(self)
        state.scores = list(data["scores"])
        state.roll = data["roll"]
        state.bets = {int(k): v for k, v in data["bets"].items()}
        return state


class ToyState(State):
    def __init__(self, game: ToyGame) -> None:
        super().__init__(game)
        self.scores = [0] * game.players
        self.roll: int | None = None
        self.bets: dict[int, str] = {}

    def _current_player(self) -> int:
        return CHANCE if self.roll is None else SIMULTANEOUS

    def _acting_players(self) -> tuple[int, ...]:
        return tuple(p for p in range(self.game.players) if p not in self.bets)

    def _chance_outcomes(self) -> ChanceOutcomes:
        return ChanceOutcomes([Roll(1), Roll(2), Roll(3)], [1, 2, 1])

    def _legal_actions(self, player: int) -> list[Hashable]:
        return [Bet("odd"), Bet("even")]

    def _why_illegal(self, action: Hashable, player: int) -> str | None:
        return f"{action} is not a bet; bet odd or bet even"

    def _parse(self, text: str, player: int) -> Hashable:
        words = text.lower().split()
        if self.roll is None and len(words) == 2 and words[0] == "roll" and words[1].isdigit():
            return Roll(int(words[1]))
        if len(words) == 2 and words[0] == "bet":
            return Bet(words[1])
        raise InvalidAction("expected 'bet odd' or 'bet even'")

    def _apply(self, action: Hashable, player: int) -> None:
        if isinstance(action, Roll):
            self.roll = action.face
            return
        assert isinstance(action, Bet)
        self.bets[player] = action.parity
        if len(self.bets) == self.game.players:
            parity = "odd" if self.roll % 2 else "even"  # type: ignore[operator]
            for p, bet in self.bets.items():
                if bet == parity:
                    self.scores[p] += self.roll  # type: ignore[operator]
            self.roll, self.bets = None, {}
            self._end_turn()

    def _outcome(self) -> Outcome | None:
        best = max(self.scores)
        if best < self.game.options["target"]:
            return None
        winners = tuple(p for p, s in enumerate(self.scores) if s == best)
        return Outcome(winners, tuple(float(s) for s in self.scores), "target reached")

    def observe(self, player: int) -> ToyObservation:
        return ToyObservation(
            player,
            list(self.scores),
            self.roll,
            self.bets.get(player),
            list(self._acting_players()),
        )

    def _validate(self) -> None:
        if len(self.scores) != self.game.players or any(s < 0 for s in self.scores):
            raise StateError("data.scores", "expected one score of 0 or more per player")
        if self.roll not in (None, 1, 2, 3):
            raise StateError("data.roll", f"expected 1..3 or null, got {self.roll!r}")

    def _to_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "roll": self.roll,
            "bets": {str(k): v for k, v in self.bets.items()},
        }


PARITIES = ("odd", "even")


class ToyEncoding(Encoding):
    """Index 0 bets odd, 1 bets even; the tensor is the observation's fields, one-hot.

    Layout: each player's score over the target, the roll one-hot (none, 1, 2, 3),
    the viewer's own bet one-hot (none, odd, even), and who still owes a bet.
    """

    @property
    def num_actions(self) -> int:
        return len(PARITIES)

    def action_to_index(self, state: State, action: Hashable, player: int) -> int:
        if not isinstance(action, Bet) or action.parity not in PARITIES:
            raise InvalidAction(f"{action} is not a bet")
        return PARITIES.index(action.parity)

    def index_to_action(self, state: State, index: int, player: int) -> Hashable:
        self._check_index(index)
        if player not in state.acting_players():
            raise InvalidAction(f"player {player} has no bet to make now")
        return Bet(PARITIES[index])

    @property
    def max_chance_outcomes(self) -> int:
        return 3

    @property
    def max_game_length(self) -> int:
        """A bet per player a round; every bet may miss, so the rules bound nothing and
        this assumes ``max_turns`` (or 1,000) rounds."""
        return (self.game.max_turns or 1000) * self.game.players

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (2 * self.game.players + 7,)

    def observation_tensor(self, observation: Any, player: int) -> np.ndarray:
        n = self.game.players
        tensor = np.zeros(self.observation_shape, dtype=np.float32)
        tensor[:n] = np.asarray(observation.scores, dtype=np.float32) / self.game.options["target"]
        tensor[n + (observation.roll or 0)] = 1.0
        tensor[n + 4 + (PARITIES.index(observation.my_bet) + 1 if observation.my_bet else 0)] = 1
        tensor[n + 7 + np.asarray(observation.waiting_for, dtype=np.intp)] = 1.0
        return tensor

    def observation_layout(self) -> list[tuple[str, int]]:
        n = self.game.players
        return [("scores / target", n), ("roll", 4), ("my bet", 3), ("waiting for", n)]


GAME = ToyGame
BOTS: dict[str, type] = {}
