"""Super Farmer as a fixed action space, for learning code (see ``core.encoding``).

Every legal action of every position has exactly one index: ``roll`` is 0, then for each
species in table order (rabbit, sheep, pig, cow, horse, small dog, big dog) and each mix
of cheaper animals worth one of it (``Tables.bundles``, filtered by the ``trade`` option),
the exchange of the mix for the animal and then of the animal for the mix, and last the
table's one-for-one swaps. With the default options that is 1 + 2 x 378 + 4 = 761 indices,
most never legal at once (a farmer offers what the farm and the herd allow).

Chance outcomes are numbered ``7 x wolf die face + fox die face`` (faces in ``FACES``
order), so a roll keeps its number whatever the dice files say.

The tensor is the observer's view as numbers in [0, 1], seats counted from the observer
(the observer first, then the next to play): the herd and every farm as shares of the
box, whose turn it is, the step, whether an exchange was made this turn, the last roll,
the winner and the turn (turns / 1000, and as a share of ``max_turns``), so a policy
that sees the tensor knows how near a ``max_turns`` cut is.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

import numpy as np

from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import InvalidAction
from ranchhand.games.super_farmer.actions import DiceRoll, Roll, Trade
from ranchhand.games.super_farmer.exchanges import unit
from ranchhand.games.super_farmer.tables import FACES, KEYS

if TYPE_CHECKING:
    from ranchhand.core.game import Observation, State
    from ranchhand.games.super_farmer.game import SuperFarmerGame

TURNS_WITHOUT_LIMIT = 1000
"""Turns assumed by :attr:`max_game_length` when ``max_turns`` is 0 (as ``simulate`` does)."""
MANY_EXCHANGES = 20
"""Exchanges a turn assumed by :attr:`max_game_length` under ``exchanges=many``, whose
rules bound none; the research adapters cut a game at that length, so it holds there."""
TURNS_SHOWN = 1000
"""The turn counter reads turns / this, and 1 from then on (the tensor stays in 0..1)."""


class SuperFarmerEncoding(Encoding):
    """The index space and observation tensor of one rules configuration and player count."""

    game: SuperFarmerGame

    def __init__(self, game: SuperFarmerGame) -> None:
        super().__init__(game)
        actions: list[Hashable] = [Roll()]
        for kind, mixes in enumerate(game.bundles):
            for mix in mixes:
                actions += [Trade(mix, unit(kind)), Trade(unit(kind), mix)]
        actions += [Trade(unit(a), unit(b)) for a, b in sorted(game.swaps)]
        self.actions = tuple(actions)
        self.index = {action: i for i, action in enumerate(actions)}
        players = game.players
        self.layout = [
            ("herd (share of the box)", len(KEYS)),
            ("farms, the observer first (share of the box)", len(KEYS) * players),
            ("to play (seats from the observer)", players),
            ("step: exchange, roll", 2),
            ("an exchange made this turn", 1),
            ("last roll: wolf die face", len(FACES)),
            ("last roll: fox die face", len(FACES)),
            ("winner (seats from the observer)", players),
            (f"turns played / {TURNS_SHOWN} (1 from then on)", 1),
            ("turns played, as a share of max_turns (0 without max_turns)", 1),
        ]
        self.size = sum(length for _, length in self.layout)

    # ---------------------------------------------------------------- actions
    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action_to_index(self, state: State, action: Hashable, player: int) -> int:
        index = self.index.get(action)
        if index is None:
            raise InvalidAction(f"{action} is no Super Farmer action with an index")
        return index

    def index_to_action(self, state: State, index: int, player: int) -> Hashable:
        self._check_index(index)
        offered = self.offered(state, int(index), player)
        if offered is not None:
            return offered
        action = self.actions[int(index)]
        if not state.is_legal(action, player):
            raise InvalidAction(f"{action} (index {index}) is not legal now")
        return action

    def action_label(self, index: int) -> str:
        self._check_index(index)
        return str(self.actions[index])

    # ------------------------------------------------------------------ chance
    @property
    def max_chance_outcomes(self) -> int:
        return len(FACES) * len(FACES)

    def chance_to_index(self, state: State, outcome: Hashable) -> int:
        if not isinstance(outcome, DiceRoll):
            raise InvalidAction(f"{outcome} is not a roll of the dice")
        return outcome.wolf * len(FACES) + outcome.fox

    def index_to_chance(self, state: State, index: int) -> Hashable:
        if isinstance(index, bool) or not 0 <= index < self.max_chance_outcomes:
            raise InvalidAction(
                f"chance outcome {index} is out of range; allowed: 0 to "
                f"{self.max_chance_outcomes - 1}"
            )
        outcome = DiceRoll(*divmod(int(index), len(FACES)))
        if outcome not in state.chance_outcomes():
            raise InvalidAction(f"chance outcome {index} ({outcome}): no such faces on the dice")
        return outcome

    # ------------------------------------------------------------------ length
    @property
    def max_game_length(self) -> int:
        """One decision a turn (an exchange, after which the dice roll, or ``roll``) over
        ``max_turns`` turns (1000 without it). With ``exchanges=many`` a turn may trade
        back and forth without end: :data:`MANY_EXCHANGES` exchanges and the roll are
        assumed, a bound the research adapters enforce by cutting the game there."""
        turns = self.game.max_turns or TURNS_WITHOUT_LIMIT
        if self.game.options["exchanges"] != "one":
            return turns * (MANY_EXCHANGES + 1)
        return turns

    # ----------------------------------------------------------- observations
    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.size,)

    def observation_tensor(self, observation: Observation, player: int) -> np.ndarray:
        """Read from ``observation.to_json()`` only: the table the player sees."""
        seen = observation.to_json()
        players = self.game.players
        box = [max(1, n) for n in self.game.box]  # a rules file may leave a species out
        seats = [(player + step) % players for step in range(players)]
        parts: list[list[float]] = [[seen["herd"][k] / n for k, n in zip(KEYS, box, strict=True)]]
        for seat in seats:
            farm = seen["farmers"][seat]
            parts.append([farm[k] / n for k, n in zip(KEYS, box, strict=True)])
        over = seen["winner"] is not None
        parts.append([float(seat == seen["player"] and not over) for seat in seats])
        parts.append([float(seen["phase"] == "trade"), float(seen["phase"] == "roll")])
        parts.append([float(seen["traded"] > 0)])
        for face in seen["dice"] or [None, None]:
            parts.append([float(face == name) for name in FACES])
        parts.append([float(seat == seen["winner"]) for seat in seats])
        turn, cap = seen["turn"], self.game.max_turns
        parts.append([min(turn, TURNS_SHOWN) / TURNS_SHOWN, min(1.0, turn / cap) if cap else 0.0])
        return np.array([x for part in parts for x in part], dtype=np.float32)

    def observation_bounds(self) -> tuple[float, float]:
        """0..1: every entry is a share of the box, a flag, a one-hot or a capped counter."""
        return (0.0, 1.0)

    def observation_layout(self) -> list[tuple[str, int]]:
        return list(self.layout)
