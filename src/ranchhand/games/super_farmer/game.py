"""The Super Farmer game: options, and the tables every state of a loaded game shares.

Every reading on which editions and published simulations differ is an option, the
classic rules' reading its default.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ranchhand.core import ChanceOutcomes, Game, Option, OptionError
from ranchhand.core.errors import GameDefinitionError
from ranchhand.core.game import Playout
from ranchhand.games.super_farmer.actions import DiceRoll, Trade
from ranchhand.games.super_farmer.exchanges import Offers
from ranchhand.games.super_farmer.summary import SuperFarmerSummary
from ranchhand.games.super_farmer.tables import SPECIES, Counts, load_tables

_TABLES = load_tables()


class SuperFarmerGame(Game):
    """Super Farmer for 1 to 6 players (1: the solitaire of the published simulations)."""

    id = "super-farmer"
    name = "Super Farmer"
    version = "1"
    min_players = 1
    max_players = 6
    information = "perfect"
    OPTIONS = (
        Option(
            "exchanges",
            "one",
            "Exchanges a farmer may make before rolling: one (the classic rules) or many "
            "(as some published simulations let a strategy rebuild its herd freely).",
            choices=("one", "many"),
        ),
        Option(
            "trade",
            "mixed",
            "What the 'several animals' side of an exchange may be: mixed (any cheaper "
            "animals of equal total value, as the published example of a cow, 2 pigs and "
            "2 sheep for a horse) or one-kind (one species only: 2 cows for a horse).",
            choices=("mixed", "one-kind"),
        ),
        Option(
            "fox",
            "all",
            "What the fox takes from a farmer without a small dog: all rabbits, or all "
            "but one (leave-one, a reading of some editions).",
            choices=("all", "leave-one"),
        ),
        Option(
            "wolf",
            "spares-small-dog",
            "Whether the wolf, besides rabbits, sheep, pigs and cows, also takes the small "
            "dogs of a farmer without a big dog (takes-small-dog, a reading of some editions).",
            choices=("spares-small-dog", "takes-small-dog"),
        ),
        Option(
            "dog",
            "always",
            "When a dog goes back to the herd: always when its predator comes (the rules "
            "say the dog goes 'instead'), or if-needed, only when the predator would "
            "otherwise take something (the rules do not say).",
            choices=("always", "if-needed"),
        ),
        Option(
            "predators",
            "fox-first",
            "With the fox and the wolf rolled together, which strikes first (the rules do "
            "not say; it matters only with dog=if-needed or wolf=takes-small-dog).",
            choices=("fox-first", "wolf-first"),
        ),
    )

    def __init__(self, players: int | None = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.tables = _TABLES
        self.values: Counts = _TABLES.values
        self.box: Counts = _TABLES.herd
        self.swaps = _TABLES.swaps
        one_kind = self.options["trade"] == "one-kind"
        self.bundles = tuple(
            tuple(b for b in _TABLES.bundles(kind) if not one_kind or sum(1 for n in b if n) == 1)
            for kind in range(len(SPECIES))
        )
        """For each species, the mixes of cheaper animals one of it is exchanged for."""
        self.offers: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Trade, ...]] = {}
        """Memo of exchanges.offered by (the farmer's animals, the herd)."""
        self.offer_parts = Offers(self.bundles, self.swaps)
        """Each species' exchanges by the capped counts that decide them (``exchanges``)."""
        rolls = _TABLES.roll_weights()
        self.roll_outcomes = ChanceOutcomes(
            [DiceRoll(a, b) for (a, b), _ in rolls], [w for _, w in rolls]
        )

    def new_initial_state(self) -> Any:
        from ranchhand.games.super_farmer.state import SuperFarmerState

        return SuperFarmerState(self)

    def _state_from_json(self, data: Mapping[str, Any]) -> Any:
        from ranchhand.games.super_farmer.snapshot import state_from_json

        return state_from_json(self, data)

    def _setup(self, spec: Mapping[str, Any]) -> Any:
        """A position from a short description (see ``snapshot.setup`` and the docs page)."""
        from ranchhand.games.super_farmer.snapshot import setup

        return setup(self, spec)

    def sample_state(self, observation: Any, rng: random.Random) -> Any:
        """The table the observation shows: Super Farmer hides nothing, so a copy of it
        (``rng`` is not needed)."""
        from ranchhand.games.super_farmer.observation import SuperFarmerObservation

        if not isinstance(observation, SuperFarmerObservation) or observation.game is not self:
            raise GameDefinitionError(f"{self.id}: not an observation of this game")
        return observation.state.clone()

    def compiled_playout(self, policy: str) -> Playout | None:
        """The fast engine's playout with ``greedy`` or ``daring`` bots (``fast/engine.py``),
        made once per game and bot; None for another bot, or without numba (the ``fast``
        extra), whose package is imported here, on the first call, so loading the game
        never loads numba."""
        if policy not in ("greedy", "daring"):
            return None
        made: dict[str, Playout | None] = self.__dict__.setdefault("_fast_playouts", {})
        if policy not in made:
            try:
                from ranchhand.games.super_farmer.fast.engine import FastPlayout, FastSuperFarmer

                made[policy] = FastPlayout(FastSuperFarmer(self), policy)
            except (ImportError, OptionError):
                made[policy] = None
        return made[policy]

    def _encoding(self) -> Any:
        """The fixed action space and observation tensor (``encoding.py``)."""
        from ranchhand.games.super_farmer.encoding import SuperFarmerEncoding

        return SuperFarmerEncoding(self)

    def summary(self) -> SuperFarmerSummary:
        """Turns to win (quartiles), wins by seat, predator losses and dogs given."""
        return SuperFarmerSummary(self.players)
