"""The Rancho game: options, and the tables every state of a loaded game shares."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ranchhand.core import ChanceOutcomes, Game, Option, OptionError
from ranchhand.core.errors import GameDefinitionError
from ranchhand.games.rancho.actions import Deal, DiceRoll, Strike
from ranchhand.games.rancho.board import board_names, load_board
from ranchhand.games.rancho.deals import ladder
from ranchhand.games.rancho.grazing import grazing_for
from ranchhand.games.rancho.summary import RanchoSummary
from ranchhand.games.rancho.tables import DEFAULT_DICE, DEFAULT_DOGS, load_tables

if TYPE_CHECKING:
    from ranchhand.core.game import Playout
    from ranchhand.games.rancho.encoding import RanchoEncoding

_TABLES = load_tables()
RESEARCH_DEALS_PER_TURN = 8
"""``deals_per_turn`` under the research adapters unless given: in 30 greedy games at 2 and
at 4 players no turn made more than 4 deals, so 8 leaves room to play and bounds a turn."""
MAX_DEALS_PER_TURN = 1000


class RanchoGame(Game):
    """Rancho for 2 to 6 players; every choice the rulebook leaves open is an option."""

    id = "rancho"
    name = "Rancho"
    version = "1"
    min_players = 2
    max_players = 6
    information = "perfect"
    OPTIONS = (
        Option(
            "board",
            "hex-rings",
            "The map (a data file data/board-<name>.toml). hex-rings is the rules README's "
            "reading of the printed board: forest of 7 hexes, pasture rings costing 1, 2, 4, "
            "six two-space pens on the corners.",
            choices=board_names(),
        ),
        Option(
            "dice",
            DEFAULT_DICE,
            "The faces of the two twelve-sided dice and the six-sided die (the rulebook does "
            "not print them; twin is the rules README's choice).",
            choices=tuple(_TABLES.dice),
            choice_docs={name: dice.doc for name, dice in _TABLES.dice.items()},
        ),
        Option(
            "dogs",
            DEFAULT_DOGS,
            "How many small and large dogs the herd holds (the rulebook's dog row is missing; "
            "by-players is the rules README's choice).",
            choices=tuple(_TABLES.dogs),
            choice_docs={name: doc for name, (doc, _rows) in _TABLES.dogs.items()},
        ),
        Option(
            "deals_per_turn",
            0,
            "The most trades and purchases a player may make in one expand step; 0 (the "
            "rulebook: 'any number') sets no limit. With no limit a player may trade back "
            "and forth for ever inside one turn, so the research adapters default to "
            f"{RESEARCH_DEALS_PER_TURN}, which keeps every episode finite (greedy bots "
            "make at most 4).",
            minimum=0,
            maximum=MAX_DEALS_PER_TURN,
        ),
    )

    research_options: ClassVar[dict[str, Any]] = {"deals_per_turn": RESEARCH_DEALS_PER_TURN}
    """Options the research adapters (``ranchhand.envs``) set unless given: a bound on deals."""

    def __init__(self, players: int | None = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.tables = _TABLES
        self.values = _TABLES.values
        self.ladder = ladder(self.values)
        self.ladder_deals = tuple(
            (Deal(give, take), *_single(give), *_single(take)) for give, take in self.ladder
        )
        self.ladder_steps = {(gk, gn, tk, tn): deal for deal, gk, gn, tk, tn in self.ladder_deals}
        """Each ladder deal by (kind given, count, kind taken, count), for bots."""
        self._purchases: dict[tuple[int, int, int, int], Deal] = {}
        self._around: dict[int, int] = {}
        self.offers: dict[tuple[int, ...], tuple[Deal, ...]] = {}
        """Memo of deals.offered_deals by everything the list depends on."""
        self.routes: dict[tuple[int, ...], dict[int, list[tuple[str, ...]]]] = {}
        """Memo of deals.blocked_routes by the player and everyone's land (all it reads)."""
        self.deal_limit: int = self.options["deals_per_turn"]
        """Deals allowed in one expand step (0: any number, the rulebook's default)."""
        self.board = load_board(self.options["board"])
        if self.players not in self.board.pens_by_players:
            raise OptionError(
                f"rancho: board {self.board.name} has no pens for {self.players} players"
            )
        self.prices = tuple(space.price for space in self.board.spaces)
        self.rabbit_buys = {
            s.index: self.purchase(s.index, 0, s.price, 0) for s in self.board.spaces if s.price
        }
        """Each pasture's purchase paid with its price in rabbits."""
        self.dice = _TABLES.dice[self.options["dice"]]
        self.grazing = grazing_for(self.options["board"], self.dice.d6)
        self.pens: tuple[int, ...] = tuple(
            self.board.pens[pen] for pen in self.board.pens_by_players[self.players]
        )
        self.pen_numbers = self.board.pens_by_players[self.players]
        self.start_herd = _TABLES.herd_for(self.players, self.options["dogs"])
        pairs = self.dice.pair_weights()
        self.roll_outcomes = ChanceOutcomes(
            [DiceRoll(a, b) for (a, b), _ in pairs], [w for _, w in pairs]
        )
        strikes = self.dice.strike_weights()
        self.strike_outcomes = ChanceOutcomes(
            [Strike(p) for p, _ in strikes], [w for _, w in strikes]
        )

    def around(self, region: int) -> int:
        """The pastures adjacent to ``region`` and outside it (memoised: regions repeat)."""
        near = self._around.get(region)
        if near is None:
            near = 0
            masks = self.board.neighbour_mask
            rest = region
            while rest:
                low = rest & -rest
                near |= masks[low.bit_length() - 1]
                rest ^= low
            near &= self.board.pasture_mask & ~region
            if len(self._around) > 100_000:
                self._around.clear()
            self._around[region] = near
        return near

    def purchase(self, space: int, kind: int, count: int, change: int) -> Deal:
        """The deal buying ``space`` with ``count`` of ``kind`` and ``change`` rabbits back.

        Cached: the same few purchases are offered at every decision of every game.
        """
        key = (space, kind, count, change)
        deal = self._purchases.get(key)
        if deal is None:
            give = [0] * 6
            give[kind] = count
            take = [0] * 6
            take[0] = change
            deal = Deal(tuple(give), tuple(take), (self.board.spaces[space].id,))  # type: ignore[arg-type]
            self._purchases[key] = deal
        return deal

    def new_initial_state(self) -> Any:
        from ranchhand.games.rancho.state import RanchoState

        return RanchoState.setup(self)

    def _state_from_json(self, data: Mapping[str, Any]) -> Any:
        from ranchhand.games.rancho.state import RanchoState

        return RanchoState.from_json(self, data)

    def _setup(self, spec: Mapping[str, Any]) -> Any:
        """A position from a short description (see ``position.py`` and the docs page)."""
        from ranchhand.games.rancho.position import setup

        return setup(self, spec)

    def sample_state(self, observation: Any, rng: random.Random) -> Any:
        """The table the observation shows: Rancho hides nothing, so a copy (``rng`` unused)."""
        state = getattr(observation, "state", None)
        if state is None or state.game is not self:
            raise GameDefinitionError(f"{self.id}: not an observation of this game")
        return state.clone()

    def compiled_playout(self, policy: str) -> Playout | None:
        """The fast engine's greedy playout (``fast/playout.py``), made once per game.

        None for another policy, and where the fast engine cannot play this game:
        numba missing (the ``fast`` extra), or a board too large for its masks. The fast
        package is imported here, on first call, so loading Rancho never loads numba.
        """
        if policy != "greedy":
            return None
        if "_fast_playout" not in self.__dict__:
            playout: Playout | None
            try:
                from ranchhand.games.rancho.fast.engine import FastRancho
                from ranchhand.games.rancho.fast.playout import FastPlayout

                playout = FastPlayout(FastRancho(self))
            except (ImportError, OptionError):
                playout = None
            self.__dict__["_fast_playout"] = playout
        cached: Playout | None = self.__dict__["_fast_playout"]
        return cached

    def _encoding(self) -> RanchoEncoding:
        """Indices for the engine's offered moves and the table as a tensor (``encoding.py``)."""
        from ranchhand.games.rancho.encoding import RanchoEncoding

        return RanchoEncoding(self)

    def summary(self) -> RanchoSummary:
        """Mean game length, wins by seat, predator losses and dogs given, over many games."""
        return RanchoSummary(self.players)


def _single(counts: tuple[int, ...]) -> tuple[int, int]:
    """The one species of a ladder side and its count."""
    kind = next(k for k, n in enumerate(counts) if n)
    return kind, counts[kind]
