"""Rancho's fixed action space, chance numbering and game-length bound, for learning code.

Rancho's legal moves are open-ended: any equal-value deal with the herd, any
arrangement of the animals. The engine offers a finite list of them
(``state.legal_actions()``: the exchange-table trades, one payment per pasture,
"arrange safest", the step's other choices); this index space names that list and
adds the deals a learner most needs that the list leaves out:

* the fixed choices of a turn: roll, roll and end turn, arrange safest, end turn,
  fox first, wolf first, give or keep the dog, and the returns of newborns that do
  not fit (one index per species returned, one for the mixed return);
* **complete the herd**: the single deal that trades spare animals for every missing
  species at once (the greedy bot's winning move), when it is legal and no other
  index names it;
* one animal for its worth in any other species (``trade 12 rabbit > cow``, ``trade
  horse > 4 sheep``): 30 trades, the exchange table's ten among them, so any trade of
  one species for another is a run of indexed steps;
* per pasture, :data:`ROUTES` purchase slots: slot 0 is the engine's payment for it,
  and a blocked player's routes through other players' pastures take slots 0, 1, ...
  in the order the engine lists them.

What it cannot express: another many-animal deal (play it as one-animal trades), a
pasture paid some other way than the engine's payment, a pasture bought together
with animals, an explicit arrangement (only "arrange safest"), a mixed return other
than the listed one, and a blocked route beyond the slots. The shares covered are
measured by :mod:`ranchhand.games.rancho.coverage` (``tools/rancho_coverage.py``)
and given on the game's docs page.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import IllegalAction, InvalidAction
from ranchhand.games.rancho.actions import (
    ArrangeSafest,
    Deal,
    DiceRoll,
    Dog,
    EndTurn,
    First,
    Return,
    Roll,
    Strike,
)
from ranchhand.games.rancho.board import MAX_PRICE
from ranchhand.games.rancho.bots import winning_deal
from ranchhand.games.rancho.deals import deal_problem
from ranchhand.games.rancho.state import EXPAND
from ranchhand.games.rancho.tables import FACES, FARM, FOX, SPECIES
from ranchhand.games.rancho.tensor import RanchoTensor

if TYPE_CHECKING:
    from ranchhand.core.game import Observation, State
    from ranchhand.games.rancho.game import RanchoGame
    from ranchhand.games.rancho.state import RanchoState

ROUTES = 3
"""Purchase slots per pasture: the engine's payment, then up to two more blocked routes."""
FIXED = (
    "roll",
    "roll and end turn",
    "arrange safest",
    "end turn",
    "fox first",
    "wolf first",
    "give dog",
    "keep dog",
    *(f"return {SPECIES[kind]}" for kind in FARM),
    "return mixed",
    "complete the herd",
)
ROLL, ROLL_END, SAFEST, END_TURN, FOX_FIRST, WOLF_FIRST, GIVE_DOG, KEEP_DOG = range(8)
RETURN = 8
"""``RETURN + kind``: send back only that species, as few as must go."""
RETURN_MIXED = RETURN + len(FARM)
COMPLETE = RETURN_MIXED + 1
"""The deal that completes the full herd (see :func:`~ranchhand.games.rancho.bots.winning_deal`)."""
ROLL_PAIRS = tuple((a, b) for a in range(len(FACES)) for b in range(a, len(FACES)))
"""Chance indices 0..20: the unordered pairs of faces of the two twelve-sided dice."""
STRIKE_BASE = len(ROLL_PAIRS)
"""Chance index ``STRIKE_BASE + price - 1``: the six-sided die strikes that price."""
EXPAND_MOVES = 60
"""Deals and arrangements in one expand step assumed by :attr:`max_game_length`."""
EXPAND_MEMO = 50_000
"""Positions whose trades are remembered before the memo starts afresh (memory stays flat)."""
TURNS_WITHOUT_LIMIT = 1000
"""Turns assumed by :attr:`max_game_length` when ``max_turns`` is 0 (as ``simulate`` does)."""


def one_animal_trades(values: tuple[int, ...]) -> tuple[tuple[Deal, int, int, int, int], ...]:
    """One animal for its worth in another species, for every two species whose values
    divide (``trade 12 rabbit > cow``, ``trade horse > 4 sheep``), with (deal, kind given,
    count, kind taken, count). The exchange table's trades are among them."""
    out = []
    for give in range(len(SPECIES)):
        for take in range(len(SPECIES)):
            if give == take:
                continue
            if values[take] % values[give] == 0:
                given, taken = values[take] // values[give], 1
            elif values[give] % values[take] == 0:
                given, taken = 1, values[give] // values[take]
            else:
                continue
            counts = [[0] * len(SPECIES), [0] * len(SPECIES)]
            counts[0][give], counts[1][take] = given, taken
            deal = Deal(tuple(counts[0]), tuple(counts[1]))  # type: ignore[arg-type]
            out.append((deal, give, given, take, taken))
    return tuple(out)


class RanchoEncoding(Encoding):
    """Indices for the engine's offered moves of Rancho, and the public table as a tensor."""

    coverage_note: ClassVar[str] = (
        "Names the engine's listed moves (all but a blocked player's routes beyond "
        f"{ROUTES} to one pasture), the 30 one-animal trades between any two species and "
        "'complete the herd'. Measured over 350 bot games (tools/rancho_coverage.py): "
        "99.998% of listed legal actions and every move the greedy and random bots chose "
        "have an index; of the simple deals a person could type (one species for another "
        "in any counts, a pasture paid in one species), 71% have one and 99% are reached "
        "in indexed steps. No index: other many-animal deals, other payments for a "
        "pasture, explicit arrangements (only 'arrange safest'). See docs/games/rancho.md."
    )

    def __init__(self, game: RanchoGame) -> None:
        super().__init__(game)
        self.trades = one_animal_trades(game.values)
        self.trade_index = {deal: len(FIXED) + i for i, (deal, *_rest) in enumerate(self.trades)}
        self.purchase_base = len(FIXED) + len(self.trades)
        pastures = [space for space in game.board.spaces if not space.is_pen]
        self.pasture_slot = {space.id: i for i, space in enumerate(pastures)}
        self.labels = [
            *FIXED,
            *(str(deal) for deal, *_rest in self.trades),
            *(
                f"buy {space.id}" + (f" (route {route + 1})" if route else "")
                for space in pastures
                for route in range(ROUTES)
            ),
        ]
        self.tensor = RanchoTensor(game)
        self._chance_index: dict[Hashable, int] = {}
        """Each chance outcome's number once worked out (a handful of rolls and strikes)."""
        self._expand_memo: dict[
            tuple[int, ...], tuple[tuple[tuple[int, Deal], ...], Deal | None]
        ] = {}

    # ---------------------------------------------------------------- actions
    @property
    def num_actions(self) -> int:
        return len(self.labels)

    def action_label(self, index: int) -> str:
        self._check_index(index)
        return self.labels[index]

    def _moves(self, state: State, player: int, actions: list[Hashable]) -> dict[int, Hashable]:
        """The engine's listed moves that have an index, then the one-animal trades and
        'complete the herd' the list leaves out (see the module docstring)."""
        rancho: RanchoState = state  # type: ignore[assignment]
        out: dict[int, Hashable] = {}
        routes: dict[str, int] = {}
        for action in actions:
            index = self._listed_index(action, routes)
            if index is not None:
                if index in out:
                    raise AssertionError(f"index {index} names {out[index]} and {action}")
                out[index] = action
        limit = rancho.game.deal_limit
        if rancho.phase == EXPAND and not (limit and rancho.deals >= limit):
            trades, win = self._expand_deals(rancho, player)
            for index, deal in trades:
                out.setdefault(index, deal)
            if win is not None and win not in out.values():
                out[COMPLETE] = win
        return out

    def _expand_deals(
        self, state: RanchoState, player: int
    ) -> tuple[tuple[tuple[int, Deal], ...], Deal | None]:
        """The legal one-animal trades (listed by the engine or not) and the winning deal.

        Both depend only on the player's animals, the herd and the player's pen and
        pastures (a trade takes no land), so they are remembered by those: the same
        few positions come back at every expand step of every game.
        """
        mine, herd = state.animals[player], state.herd
        key = (state.region(player), *mine, *herd)
        known = self._expand_memo.get(key)
        if known is None:
            trades = tuple(
                (self.trade_index[deal], deal)
                for deal, give, given, take, taken in self.trades
                if mine[give] >= given
                and herd[take] >= taken
                and deal_problem(state, player, deal) is None
            )
            known = (trades, winning_deal(state, player))
            if len(self._expand_memo) > EXPAND_MEMO:
                self._expand_memo.clear()
            self._expand_memo[key] = known
        return known

    def _listed_index(self, action: Hashable, routes: dict[str, int]) -> int | None:
        """The index of one action of the engine's list (None beyond the route slots)."""
        if isinstance(action, Deal):
            if not action.pastures:
                return self.trade_index.get(action)
            target = action.pastures[0]
            route = routes.get(target, 0)
            routes[target] = route + 1
            if route >= ROUTES or len(action.pastures) != 1 or any(action.take[1:]):
                return None
            return self.purchase_base + self.pasture_slot[target] * ROUTES + route
        if isinstance(action, Roll):
            return ROLL_END if action.end else ROLL
        if isinstance(action, ArrangeSafest):
            return SAFEST
        if isinstance(action, EndTurn):
            return END_TURN
        if isinstance(action, First):
            return FOX_FIRST if action.predator == FOX else WOLF_FIRST
        if isinstance(action, Dog):
            return GIVE_DOG if action.give else KEEP_DOG
        if isinstance(action, Return):
            kinds = [kind for kind in FARM if action.animals[kind]]
            return RETURN + kinds[0] if len(kinds) == 1 else RETURN_MIXED
        return None

    def action_to_index(self, state: State, action: Hashable, player: int) -> int:
        reason = state.why_illegal(action, player)
        if reason is not None:
            raise IllegalAction(reason, text=str(action), game="rancho", player=player)
        for index, move in self.legal_moves(state, player).items():
            if move == action:
                return index
        raise InvalidAction(
            "this move has no index in Rancho's fixed action space (it names the "
            "exchange-table trades, the engine's payment for each pasture, 'complete the "
            "herd' and 'arrange safest'; play other deals as exchange-table steps)",
            text=str(action),
            game="rancho",
            player=player,
        )

    def index_to_action(self, state: State, index: int, player: int) -> Hashable:
        self._check_index(index)
        move = self.legal_moves(state, player).get(int(index))
        if move is None:
            raise InvalidAction(
                f"action index {index} ({self.labels[index]}) names no legal action here",
                game="rancho",
                player=player,
            )
        return move

    # ------------------------------------------------------------------ chance
    @property
    def max_chance_outcomes(self) -> int:
        return STRIKE_BASE + MAX_PRICE

    def chance_indices(self, state: State, outcomes: Sequence[Hashable]) -> list[int]:
        """The numbers of a node's own outcomes (no check that they are its own), from
        the memo :meth:`chance_to_index` fills: a roll has 21 outcomes, once a turn."""
        known = self._chance_index
        try:
            return [known[outcome] for outcome in outcomes]
        except KeyError:  # an outcome not numbered yet: number each on its own
            return super().chance_indices(state, outcomes)

    def chance_to_index(self, state: State, outcome: Hashable) -> int:
        index = self._chance_index.get(outcome)
        if index is None:
            index = self._chance_index[outcome] = _chance_number(outcome)
        if outcome not in state.chance_outcomes():
            raise InvalidAction(f"{outcome} is not an outcome of this chance node", game="rancho")
        return index

    def index_to_chance(self, state: State, index: int) -> Hashable:
        if isinstance(index, bool) or not 0 <= index < self.max_chance_outcomes:
            raise InvalidAction(
                f"chance outcome {index} is out of range; allowed: 0 to "
                f"{self.max_chance_outcomes - 1}",
                game="rancho",
            )
        outcome: Hashable
        if index < STRIKE_BASE:
            outcome = DiceRoll(*ROLL_PAIRS[index])
        else:
            outcome = Strike(index - STRIKE_BASE + 1)
        if outcome not in state.chance_outcomes():
            raise InvalidAction(
                f"chance outcome {index} ({outcome}) is not an outcome of this chance node",
                game="rancho",
            )
        return outcome

    @property
    def max_game_length(self) -> int:
        """Decisions in a game of ``max_turns`` turns (1000 without it), each turn at most
        :data:`EXPAND_MOVES` deals and arrangements (``2 * deals_per_turn + 1`` under that
        option, a true bound), a roll, an order, a dog decision per player per strike, a
        return and two settle choices. The research adapters cut a game at this bound, so
        it holds there whatever the options."""
        turns = self.game.max_turns or TURNS_WITHOUT_LIMIT
        limit: int = self.game.options["deals_per_turn"]
        # Under deals_per_turn an expand step is its deals, an "arrange safest" before
        # each and after the last (a deal leaves the safest arrangement), and the roll.
        expand = 2 * limit + 1 if limit else EXPAND_MOVES
        per_turn = expand + 1 + 1 + 2 * self.game.players + 1 + 2
        return turns * per_turn

    # ----------------------------------------------------------- observations
    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.tensor.size,)

    def observation_tensor(self, observation: Observation, player: int) -> np.ndarray:
        return self.tensor.build(observation, player)  # type: ignore[arg-type]

    def observation_bounds(self) -> tuple[float, float]:
        """0..1: every entry is a share of the box, a flag, a one-hot, half a die or a
        capped counter (``tensor.py``)."""
        return (0.0, 1.0)

    def observation_layout(self) -> list[tuple[str, int]]:
        return list(self.tensor.layout)


def _chance_number(outcome: Hashable) -> int:
    """A roll's unordered pair of faces, or a strike's price, as a chance index."""
    if isinstance(outcome, DiceRoll):
        pair = (min(outcome.first, outcome.second), max(outcome.first, outcome.second))
        return ROLL_PAIRS.index(pair)
    if isinstance(outcome, Strike) and 1 <= outcome.price <= MAX_PRICE:
        return STRIKE_BASE + outcome.price - 1
    raise InvalidAction(f"{outcome!r} is no Rancho chance outcome", game="rancho")
