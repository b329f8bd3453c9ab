"""A Rancho position and the turn: expand, roll, predators, breeding, settling.

Phases of a turn (``phase``):

* ``expand``: the player trades, buys and rearranges, then says ``roll``;
* ``roll`` (chance): the two twelve-sided dice;
* ``order``: a fox and a wolf were rolled, the roller picks which strikes first;
* ``strike`` (chance): the six-sided die for the next predator;
* ``dog``: a struck player who would lose animals and holds the right dog decides;
* ``return``: newborns do not fit, the player picks what goes back to the herd;
* ``settle``: after breeding the player may rearrange, then ``end turn``.

Everything is public. Animals a predator takes go back to the herd, so the herd
and the players always hold the whole box (a property the tests check).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ranchhand.core import CHANCE, ChanceOutcomes, InvalidAction, Outcome, State
from ranchhand.core.notation import is_number
from ranchhand.games.rancho import deals
from ranchhand.games.rancho.actions import (
    Arrange,
    ArrangeSafest,
    DiceRoll,
    Dog,
    EndTurn,
    First,
    Return,
    Roll,
    Strike,
    piece_text,
)
from ranchhand.games.rancho.actions import Deal as DealAction
from ranchhand.games.rancho.grazing import Arrangement, Piece, first_space
from ranchhand.games.rancho.notation import parse
from ranchhand.games.rancho.observation import RanchoObservation
from ranchhand.games.rancho.tables import (
    FARM,
    FOX,
    LARGE_DOG,
    PREDATOR_NAMES,
    SMALL_DOG,
    SPECIES,
    WOLF,
)
from ranchhand.games.rancho.words import words

if TYPE_CHECKING:
    from ranchhand.core.words import Memo
    from ranchhand.games.rancho.board import Board
    from ranchhand.games.rancho.describe import Told
    from ranchhand.games.rancho.game import RanchoGame

PHASES = ("expand", "roll", "order", "strike", "dog", "return", "settle")
EXPAND, ROLL, ORDER, STRIKE, DOG, RETURN, SETTLE = range(7)


class RanchoState(State):
    """The whole public table: herd, each player's animals, pastures and arrangement."""

    game: RanchoGame

    def __init__(self, game: RanchoGame) -> None:
        super().__init__(game)
        n = game.players
        self.herd: list[int] = list(game.start_herd)
        self.animals: list[list[int]] = [[0] * 6 for _ in range(n)]
        self.land: list[int] = [0] * n
        self.taken = 0
        self.owner: list[int] = [-1] * len(game.board.spaces)
        for player, pen in enumerate(game.pens):
            for space in range(len(game.board.spaces)):
                if pen >> space & 1:
                    self.owner[space] = player
        self.pieces: list[Arrangement] = [() for _ in range(n)]
        self.player = 0
        self.phase = EXPAND
        self.dice: tuple[int, int] | None = None
        self.predators: list[int] = []
        self.strike: tuple[int, int] | None = None
        self.dog_queue: list[int] = []
        self.strikes: list[tuple[int, int]] = []
        self.winner = -1
        self.settled = False  # "roll and end turn": no settle step after breeding
        self.deals = 0
        """Trades and purchases made in this expand step (``deals_per_turn`` bounds them)."""
        self.eaten_value = 0
        self.dogs_given = 0
        self._views: dict[int | None, RanchoObservation] = {}
        self._told: Memo[Told] | None = None
        """The last action described and what it does (``describe.told``): every
        viewer's line, in notation and in words, is said from one working out."""

    def _forget_cached(self) -> None:
        super()._forget_cached()
        self._told = None

    def worked_out(self, action: Hashable, player: int) -> RanchoState | None:
        """The copy telling ``action`` played it on (``describe.memo``), handed over once."""
        known = self._told
        after: RanchoState | None = None if known is None else known.hand_over(player, action)
        if after is not None:
            after._at_rest = True
        return after

    @classmethod
    def setup(cls, game: RanchoGame) -> RanchoState:
        """Each player takes their pen and puts in it the start animals from the herd."""
        state = cls(game)
        for player in range(game.players):
            for kind, n in enumerate(game.tables.start):
                state.animals[player][kind] += n
                state.herd[kind] -= n
            state.place(player)
        return state

    # -------------------------------------------------------------- helpers
    def region(self, player: int) -> int:
        """The player's pen and pastures, as a mask of spaces."""
        return self.game.pens[player] | self.land[player]

    def place(self, player: int) -> None:
        """Put the player's animals in the engine's safest arrangement (they must fit)."""
        pieces = self.game.grazing.safest(self.region(player), self.animals[player])
        assert pieces is not None, "animals that do not fit must be returned first"
        self.pieces[player] = pieces

    def safest(self, player: int) -> Arrangement | None:
        return self.game.grazing.safest(self.region(player), self.animals[player])

    def full_herd(self, player: int) -> bool:
        mine = self.animals[player]
        return all(mine[k] for k in FARM)

    # ---------------------------------------------------------------- hooks
    def _current_player(self) -> int:
        phase = self.phase
        if phase in (ROLL, STRIKE):
            return CHANCE
        if phase == DOG:
            return self.dog_queue[0]
        return self.player

    def _chance_outcomes(self) -> ChanceOutcomes:
        return self.game.roll_outcomes if self.phase == ROLL else self.game.strike_outcomes

    def _legal_actions(self, player: int) -> list[Hashable]:
        phase = self.phase
        if phase == EXPAND:
            actions: list[Hashable] = [Roll(), Roll(True)]
            if self.safest(player) != self.pieces[player]:
                actions.append(ArrangeSafest())
            actions.extend(deals.offered_deals(self, player))
            return actions
        if phase == SETTLE:
            if self.safest(player) != self.pieces[player]:
                return [EndTurn(), ArrangeSafest()]
            return [EndTurn()]
        if phase == ORDER:
            return [First(FOX), First(WOLF)]
        if phase == DOG:
            size = SMALL_DOG if self.strike and self.strike[0] == FOX else LARGE_DOG
            return [Dog(True, size), Dog(False, size)]
        if phase == RETURN:
            return [Return(r) for r in self.return_choices(player)]  # type: ignore[arg-type]
        return []

    def _why_illegal(self, action: Hashable, player: int) -> str | None:
        phase = PHASES[self.phase]
        if isinstance(action, DealAction):
            if self.phase != EXPAND:
                return f"trades and purchases belong to the expand step, not the {phase} step"
            return deals.deal_problem(self, player, action)
        if isinstance(action, Arrange):
            if self.phase not in (EXPAND, SETTLE):
                return f"you may rearrange during your expand step or after breeding, not {phase}"
            pieces, problem = self.resolve(action)
            if problem:
                return problem
            return self.game.grazing.check(self.region(player), self.animals[player], pieces)
        if isinstance(action, ArrangeSafest):
            if self.phase not in (EXPAND, SETTLE):
                return f"you may rearrange during your expand step or after breeding, not {phase}"
            return "your animals already stand in the safest arrangement"
        if isinstance(action, Return):
            if self.phase != RETURN:
                return "animals go back to the herd only when newborns do not fit"
            return self.return_problem(player, action.animals)
        if isinstance(action, Roll):
            return f"you roll at the end of the expand step; this is the {phase} step"
        if isinstance(action, EndTurn):
            return f"'end turn' comes after breeding; this is the {phase} step"
        if isinstance(action, First):
            return "the order of predators is chosen only when a fox and a wolf are rolled"
        if isinstance(action, Dog):
            if self.phase != DOG:
                return "dogs are given up only when a predator strikes your animals"
            predator = self.strike[0]  # type: ignore[index]
            right = SPECIES[SMALL_DOG if predator == FOX else LARGE_DOG]
            return f"this attack is by a {PREDATOR_NAMES[predator]}; only a {right} saves from it"
        if isinstance(action, DiceRoll | Strike):
            return "dice are rolled by chance, not by a player"
        return f"{action!r} is not a Rancho action"

    def _parse(self, text: str, player: int) -> Hashable:
        action = parse(text, self._is_space)
        if isinstance(action, Roll) and player == CHANCE:
            raise InvalidAction("a chance roll names both faces, e.g. 'roll rabbit+wolf'")
        return action

    def _is_space(self, text: str) -> bool:
        """Whether a word of an action names a space: a board id, or looks like one.

        "9.9" counts as a space (refused later as "not a space of the board"); "².1"
        does not (``str.isdigit`` would say it does), so it is refused as text.
        """
        return text in self.game.board.by_id or (
            "." in text and all(is_number(part) for part in text.split("."))
        )

    def resolve(self, action: Arrange) -> tuple[Arrangement, str | None]:
        """Turn an Arrange's space ids into board pieces, or say which id is unknown."""
        by_id = self.game.board.by_id
        pieces = []
        for kind, count, ids in action.pieces:
            mask = 0
            for space_id in ids:
                if space_id not in by_id:
                    return (), f"{space_id} is not a space of the board"
                mask |= 1 << by_id[space_id]
            pieces.append((kind, count, mask))
        return tuple(sorted(pieces, key=first_space)), None

    # --------------------------------------------------------------- apply
    def _apply(self, action: Hashable, player: int) -> None:
        if isinstance(action, DiceRoll):
            self._rolled(action)
        elif isinstance(action, Strike):
            self._struck(action.price)
        elif isinstance(action, Roll):
            self.phase = ROLL
            self.strikes = []
            self.settled = action.end
        elif isinstance(action, DealAction):
            self._deal(player, action)
        elif isinstance(action, ArrangeSafest):
            self.place(player)
        elif isinstance(action, Arrange):
            self.pieces[player] = self.resolve(action)[0]
        elif isinstance(action, EndTurn):
            self._next_turn()
        elif isinstance(action, First):
            other = WOLF if action.predator == FOX else FOX
            self.predators = [action.predator, other]
            self.phase = STRIKE
        elif isinstance(action, Dog):
            self._dog(player, action.give)
        elif isinstance(action, Return):
            self._return(player, action.animals)

    def _deal(self, player: int, deal: DealAction) -> None:
        mine, herd, board = self.animals[player], self.herd, self.game.board
        self.deals += 1
        for kind in range(6):
            mine[kind] += deal.take[kind] - deal.give[kind]
            herd[kind] += deal.give[kind] - deal.take[kind]
        for space_id in deal.pastures:
            index = board.by_id[space_id]
            self.land[player] |= 1 << index
            self.taken |= 1 << index
            self.owner[index] = player
        owners: list[int] = []
        if deal.via:
            for owner, rabbits in deals.tolls_of(self, deal.via).items():
                mine[0] -= rabbits
                self._receive_rabbits(owner, rabbits)
                owners.append(owner)
        self.place(player)
        # The game ends the moment anyone holds a full herd: the buyer first, then an
        # owner whose first rabbit came as a toll.
        for who in (player, *sorted(owners)):
            if self.full_herd(who):
                self.winner = who
                break

    def _receive_rabbits(self, owner: int, rabbits: int) -> None:
        """Toll rabbits join the owner's stacks without moving their other animals.

        Rabbits the owner has no room for go back to the herd.
        """
        pieces, placed = self.game.grazing.add_rabbits(
            self.pieces[owner], self.region(owner), rabbits
        )
        self.pieces[owner] = pieces
        self.animals[owner][0] += placed
        self.herd[0] += rabbits - placed

    def _rolled(self, roll: DiceRoll) -> None:
        self.dice = (roll.first, roll.second)
        found = [f for f in self.dice if f in (FOX, WOLF)]
        if len(found) == 2 and found[0] != found[1]:
            self.phase = ORDER
        elif found:
            self.predators = found
            self.phase = STRIKE
        else:
            self._breed()

    def _struck(self, price: int) -> None:
        predator = self.predators.pop(0)
        self.strike = (predator, price)
        self.strikes.append(self.strike)
        dog = SMALL_DOG if predator == FOX else LARGE_DOG
        grazing = self.game.grazing
        players = self.game.players
        self.dog_queue = []
        for step in range(players):
            p = (self.player + step) % players
            if grazing.struck(self.pieces[p], predator, price):
                if self.animals[p][dog]:
                    self.dog_queue.append(p)
                else:
                    self._lose(p)
        if self.dog_queue:
            self.phase = DOG
        else:
            self._after_strike()

    def _lose(self, player: int) -> None:
        """The current strike takes the player's animals on the struck pastures."""
        predator, price = self.strike  # type: ignore[misc]
        taken = self.game.grazing.struck(self.pieces[player], predator, price)
        values = self.game.values
        for kind, count, _mask in taken:
            self.animals[player][kind] -= count
            self.herd[kind] += count
            self.eaten_value += values[kind] * count
        self.pieces[player] = tuple(p for p in self.pieces[player] if p not in taken)

    def _dog(self, player: int, give: bool) -> None:
        if give:
            dog = SMALL_DOG if self.strike[0] == FOX else LARGE_DOG  # type: ignore[index]
            self.animals[player][dog] -= 1
            self.herd[dog] += 1
            self.dogs_given += 1
        else:
            self._lose(player)
        self.dog_queue.pop(0)
        if not self.dog_queue:
            self._after_strike()

    def _after_strike(self) -> None:
        self.strike = None
        if self.predators:
            self.phase = STRIKE
        else:
            self._breed()

    def _breed(self) -> None:
        """Each species rolled breeds: (owned + dice showing it) // 2, as the herd allows."""
        player, mine, herd = self.player, self.animals[self.player], self.herd
        assert self.dice is not None
        for kind in FARM:
            shown = (self.dice[0] == kind) + (self.dice[1] == kind)
            if shown:
                born = min((mine[kind] + shown) // 2, herd[kind])
                mine[kind] += born
                herd[kind] -= born
        if self.game.grazing.fits(self.region(player), mine):
            self.place(player)
            self._settle(player)
        else:
            self.phase = RETURN

    def _settle(self, player: int) -> None:
        """After breeding: a full herd wins; otherwise the settle step, or the next turn."""
        if self.full_herd(player):
            self.winner = player
            self.phase = SETTLE
        elif self.settled:
            self._next_turn()
        else:
            self.phase = SETTLE

    def _next_turn(self) -> None:
        self.player = (self.player + 1) % self.game.players
        self.phase = EXPAND
        self.settled = False
        self.deals = 0
        self._end_turn()

    # --------------------------------------------------------------- return
    def return_problem(self, player: int, animals: tuple[int, ...]) -> str | None:
        """Returned animals must be the player's farm animals, and just enough to fit."""
        mine = self.animals[player]
        if animals[SMALL_DOG] or animals[LARGE_DOG]:
            return "dogs take no space; return rabbits, sheep, cows or horses"
        for kind in FARM:
            if animals[kind] > mine[kind]:
                return f"you return {animals[kind]} {SPECIES[kind]} but have {mine[kind]}"
        left = [mine[k] - animals[k] for k in FARM]
        grazing, region = self.game.grazing, self.region(player)
        if not grazing.fits(region, left):
            return "the rest still does not fit: " + grazing.why_not(region, left)
        for kind in FARM:
            if animals[kind]:
                left[kind] += 1
                fits = grazing.fits(region, left)
                left[kind] -= 1
                if fits:
                    return f"one {SPECIES[kind]} fewer would fit too; return only what must go"
        return None

    def return_choices(self, player: int) -> list[tuple[int, ...]]:
        """Single-species returns that fit; else one mixed return, least valuable first."""
        mine = self.animals[player]
        grazing, region = self.game.grazing, self.region(player)
        choices = []
        for kind in FARM:
            for n in range(1, mine[kind] + 1):
                left = list(mine[:4])
                left[kind] -= n
                if grazing.fits(region, left):
                    back = [0] * 6
                    back[kind] = n
                    choices.append(tuple(back))
                    break
        if choices:
            return choices
        back = [0] * 6
        left = list(mine[:4])
        for kind in FARM:
            while left[kind] and not grazing.fits(region, left):
                left[kind] -= 1
                back[kind] += 1
        for kind in FARM:
            while back[kind]:
                left[kind] += 1
                if not grazing.fits(region, left):
                    left[kind] -= 1
                    break
                back[kind] -= 1
        return [tuple(back)]

    def _return(self, player: int, animals: tuple[int, ...]) -> None:
        for kind in FARM:
            self.animals[player][kind] -= animals[kind]
            self.herd[kind] += animals[kind]
        self.place(player)
        self._settle(player)

    # ------------------------------------------------------------- outcome
    def _outcome(self) -> Outcome | None:
        if self.winner < 0:
            return None
        return Outcome((self.winner,), None, "full herd")

    def observe(self, player: int | None) -> RanchoObservation:
        """A read-only view of this state; one per player, made once (it only points here).

        ``player`` None is the spectator (the coming server's view): the table as it
        shows to nobody in particular. Rancho hides nothing, so it is the public table.
        """
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = RanchoObservation(self, player)
        return view

    def evaluate(self) -> list[float]:
        """Each player's rough chance to win (:func:`chances`), for search bots' cut rollouts."""
        return chances(self.animals, self.game.tables.values)

    def standing(self) -> list[float]:
        """Each player's herd (animals and dogs) valued in rabbits, the lab's "who is ahead"."""
        values = self.game.tables.values
        return [float(sum(n * v for n, v in zip(a, values, strict=True))) for a in self.animals]

    def describe_for(self, viewer: int | None, action: Hashable, player: int) -> str:
        """``action`` and what it does to whom, in one line (``describe``): worked out on
        a clone, for display only."""
        from ranchhand.games.rancho.describe import describe

        return describe(self, viewer, action, player)

    def describe_words(
        self, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
    ) -> str:
        """``action`` and what it does told in sentences (``words``), players by name."""
        return words(self, viewer, action, player, names)

    def details(self) -> dict[str, Any]:
        return {
            "winner": self.winner if self.winner >= 0 else None,
            "turns": self.turn,
            "eaten_value": self.eaten_value,
            "dogs_given": self.dogs_given,
            "winner_pastures": self.land[self.winner].bit_count() if self.winner >= 0 else 0,
        }

    def clone(self) -> RanchoState:
        twin = self._twin()
        twin._views = {}
        twin.herd = list(self.herd)
        twin.animals = [list(a) for a in self.animals]
        twin.land = list(self.land)
        twin.owner = list(self.owner)
        twin.pieces = list(self.pieces)
        twin.predators = list(self.predators)
        twin.dog_queue = list(self.dog_queue)
        twin.strikes = list(self.strikes)
        return twin

    # ---------------------------------------------------------------- JSON
    def arrangement_text(self, player: int) -> str:
        board = self.game.board
        return "; ".join(_piece_text(board, piece) for piece in self.pieces[player])

    def _to_json(self) -> dict[str, Any]:
        from ranchhand.games.rancho.snapshot import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, game: RanchoGame, data: Mapping[str, Any]) -> RanchoState:
        """Rebuild a state from :meth:`_to_json` data; StateError names a malformed field."""
        from ranchhand.games.rancho.snapshot import state_from_json

        return state_from_json(cls(game), data)

    def _validate(self) -> None:
        """Refuse, naming the field, a position no game reaches (see ``checks``)."""
        from ranchhand.games.rancho.checks import validate

        validate(self)


def chances(animals: Sequence[Sequence[int]], values: Sequence[int]) -> list[float]:
    """Each player's rough chance to win: herd value toward one of each species, and the
    species held, shared out among the players.

    ``RanchoState.evaluate`` and the fast engine's playouts (which score a cut rollout
    from the kernel's animals) both call it, so a search scores a position the same in
    either engine.
    """
    target = sum(values[k] for k in FARM)
    progress = []
    for mine in animals:
        worth = sum(n * v for n, v in zip(mine, values, strict=True))
        held = sum(1 for k in FARM if mine[k])
        progress.append((min(worth, target) / target + held / len(FARM)) ** 2 + 1e-9)
    total = sum(progress)
    return [p / total for p in progress]


@lru_cache(maxsize=8192)
def _piece_text(board: Board, piece: Piece) -> str:
    """A piece as the arrangement's notation writes it (``2 rabbit @B3``): every view and
    record writes each player's arrangement, from the few pieces a board allows."""
    kind, count, mask = piece
    return piece_text(kind, count, tuple(board.ids(mask)))
