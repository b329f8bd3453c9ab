"""A Super Farmer position and the turn: an exchange, then the two dice.

Phases of a turn (``phase``):

* ``trade``: the farmer may make an exchange with the herd (one, or any number with
  ``exchanges=many``), then says ``roll``; with one exchange the roll follows it at once;
* ``roll`` (chance): the wolf die and the fox die. Predators strike, the animals shown
  breed, and the turn passes.

Everything is public. Animals a predator takes go back to the herd, so the herd and
the farmers always hold the whole box (a property the tests check). ``turn`` counts
every turn played, the winning one included, so a solitaire's ``turn`` at the end is
its number of turns to win.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from ranchhand.core import CHANCE, ChanceOutcomes, Outcome, State
from ranchhand.games.super_farmer import exchanges
from ranchhand.games.super_farmer.actions import DiceRoll, Roll, Trade
from ranchhand.games.super_farmer.farm import breed, full
from ranchhand.games.super_farmer.notation import parse
from ranchhand.games.super_farmer.observation import SuperFarmerObservation
from ranchhand.games.super_farmer.tables import (
    BIG_DOG,
    COW,
    FARM,
    FOX,
    PIG,
    RABBIT,
    SHEEP,
    SMALL_DOG,
    WOLF,
)
from ranchhand.games.super_farmer.words import words

if TYPE_CHECKING:
    from ranchhand.core.words import Memo
    from ranchhand.games.super_farmer.game import SuperFarmerGame
    from ranchhand.games.super_farmer.words import Told

PHASES = ("trade", "roll")
TRADE, ROLL = range(2)
STATS = (
    "rolls",
    "fox_strikes",
    "wolf_strikes",
    "rabbits_lost",
    "value_lost",
    "dogs_given",
    "trades",
)
"""What each state counts for simulation reports (``details``). ``rolls`` is the measure
of the published solitaire studies, whose turn is a roll followed by an exchange: a game
won by an exchange counts one turn here (the turn that exchange opens) and no roll."""


class SuperFarmerState(State):
    """The whole public table: the herd, each farmer's animals, the step, the last roll."""

    game: SuperFarmerGame

    def __init__(self, game: SuperFarmerGame) -> None:
        super().__init__(game)
        self.herd: list[int] = list(game.box)
        self.animals: list[list[int]] = [[0] * len(game.box) for _ in range(game.players)]
        self.player = 0
        self.phase = TRADE
        self.traded = 0
        self.dice: tuple[int, int] | None = None
        self.winner = -1
        self.stats: dict[str, int] = dict.fromkeys(STATS, 0)
        self._views: dict[int | None, SuperFarmerObservation] = {}
        self._told: Memo[Told] | None = None
        """The last action told in words and what it does (``words.told``): every
        viewer's line is said from one working out."""

    def _forget_cached(self) -> None:
        super()._forget_cached()
        self._told = None

    # -------------------------------------------------------------- helpers
    def full_herd(self, player: int) -> bool:
        """At least one rabbit, sheep, pig, cow and horse: the winning herd."""
        return full(self.animals[player])

    def may_trade(self) -> bool:
        """Whether the farmer to act may still exchange this turn (one, or any number
        with ``exchanges=many``)."""
        return self.phase == TRADE and (
            self.traded == 0 or self.game.options["exchanges"] == "many"
        )

    # ---------------------------------------------------------------- hooks
    def _current_player(self) -> int:
        return CHANCE if self.phase == ROLL else self.player

    def _chance_outcomes(self) -> ChanceOutcomes:
        return self.game.roll_outcomes

    def _legal_actions(self, player: int) -> list[Hashable]:
        actions: list[Hashable] = [Roll()]
        if self.may_trade():
            actions.extend(exchanges.offered(self, player))
        return actions

    def _why_illegal(self, action: Hashable, player: int) -> str | None:
        if isinstance(action, Trade):
            if not self.may_trade():
                return "one exchange a turn (option exchanges=many allows more); now roll"
            return exchanges.trade_problem(self, player, action)
        if isinstance(action, DiceRoll):
            return "the dice are rolled by chance, not by a player; say 'roll'"
        return f"{action!r} is not a Super Farmer action"

    def _parse(self, text: str, player: int) -> Hashable:
        return parse(text, max(self.game.box))

    # ---------------------------------------------------------------- apply
    def _apply(self, action: Hashable, player: int) -> None:
        if isinstance(action, DiceRoll):
            self._rolled(action)
        elif isinstance(action, Roll):
            self.phase = ROLL
        elif isinstance(action, Trade):
            self._trade(player, action)

    def _trade(self, player: int, trade: Trade) -> None:
        mine, herd = self.animals[player], self.herd
        for kind, (give, take) in enumerate(zip(trade.give, trade.take, strict=True)):
            mine[kind] += take - give
            herd[kind] += give - take
        self.traded += 1
        self.stats["trades"] += 1
        if self.full_herd(player):
            self._win(player)
        elif self.game.options["exchanges"] == "one":
            self.phase = ROLL

    def _rolled(self, roll: DiceRoll) -> None:
        self.dice = (roll.wolf, roll.fox)
        stats, values = self.stats, self.game.values
        stats["rolls"] += 1
        mine, herd = self.animals[self.player], self.herd
        for predator in self.predators(roll):
            stats["fox_strikes" if predator == FOX else "wolf_strikes"] += 1
            gave, taken = self.strike(predator, mine, herd)
            if gave:
                stats["dogs_given"] += 1
            else:
                stats["value_lost"] += sum(count * values[kind] for kind, count in taken.items())
                stats["rabbits_lost"] += taken.get(RABBIT, 0)
        breed(self.dice, mine, herd)
        if self.full_herd(self.player):
            self._win(self.player)
        else:
            self._next_turn()

    def predators(self, roll: DiceRoll) -> list[int]:
        """The predators ``roll`` shows, in the order they strike (option ``predators``)."""
        predators = [face for face in (roll.wolf, roll.fox) if face in (FOX, WOLF)]
        predators.sort(reverse=self.game.options["predators"] == "wolf-first")
        return predators

    def strike(
        self, predator: int, mine: list[int], herd: list[int]
    ) -> tuple[bool, dict[int, int]]:
        """``predator`` comes to the farm ``mine``: the fox takes all rabbits (all but one
        with fox=leave-one), the wolf rabbits, sheep, pigs and cows (and small dogs with
        wolf=takes-small-dog), back to the ``herd``, unless the farmer gives up the dog
        that guards against it instead (a small dog, a big dog). Changes ``mine`` and
        ``herd``; returns (a dog was given up, the animals taken by species). A function
        of the lists, so the log in words can play a roll on copies of two lists."""
        options = self.game.options
        if predator == FOX:
            dog = SMALL_DOG
            keep = min(1, mine[RABBIT]) if options["fox"] == "leave-one" else 0
            prey = {RABBIT: mine[RABBIT] - keep}
        else:
            dog = BIG_DOG
            kinds = [RABBIT, SHEEP, PIG, COW]
            if options["wolf"] == "takes-small-dog":
                kinds.append(SMALL_DOG)
            prey = {kind: mine[kind] for kind in kinds}
        if mine[dog] and (any(prey.values()) or options["dog"] == "always"):
            mine[dog] -= 1
            herd[dog] += 1
            return True, {}
        for kind, count in prey.items():
            mine[kind] -= count
            herd[kind] += count
        return False, prey

    def _win(self, player: int) -> None:
        self.winner = player
        self.phase = TRADE
        self._end_turn()

    def _next_turn(self) -> None:
        self.player = (self.player + 1) % self.game.players
        self.phase = TRADE
        self.traded = 0
        self._end_turn()

    # ------------------------------------------------------------- outcome
    def _outcome(self) -> Outcome | None:
        if self.winner < 0:
            return None
        return Outcome((self.winner,), None, "full herd")

    def observe(self, player: int | None) -> SuperFarmerObservation:
        """A read-only view of this state (Super Farmer hides nothing), made once per seat."""
        if player not in self._views:
            self._views[player] = SuperFarmerObservation(self, player)
        return self._views[player]

    def describe_words(
        self, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
    ) -> str:
        """``action`` and what it does told in sentences (``words``), players by name."""
        return words(self, viewer, action, player, names)

    def standing(self) -> list[float]:
        """Each farmer's animals and dogs valued in rabbits: the lab's "who is ahead"."""
        values = self.game.values
        return [float(sum(map(operator.mul, mine, values))) for mine in self.animals]

    def evaluate(self) -> list[float]:
        """Each farmer's rough chance to win, for search bots' cut rollouts: the share of
        the five species held and of the winning herd's value (127 rabbits) owned, squared
        to favour the leader, normalised over the table."""
        goal = sum(self.game.values[k] for k in FARM)
        scores = []
        for mine, worth in zip(self.animals, self.standing(), strict=True):
            species = sum(1 for k in FARM if mine[k]) / len(FARM)
            scores.append(((species + min(goal, worth) / goal) / 2) ** 2 + 1e-9)
        return [score / sum(scores) for score in scores]

    def details(self) -> dict[str, Any]:
        return {
            "winner": self.winner if self.winner >= 0 else None,
            "turns": self.turn,
            **self.stats,
        }

    def clone(self) -> SuperFarmerState:
        twin = self._twin()
        twin._views = {}
        twin.herd = list(self.herd)
        twin.animals = [list(a) for a in self.animals]
        twin.stats = dict(self.stats)
        return twin

    # ---------------------------------------------------------------- JSON
    def _to_json(self) -> dict[str, Any]:
        from ranchhand.games.super_farmer.snapshot import state_to_json

        return state_to_json(self)

    def _validate(self) -> None:
        """Refuse, naming the field, a position no game reaches (see ``snapshot``)."""
        from ranchhand.games.super_farmer.snapshot import validate

        validate(self)
