"""Rocket Ranchers: Herding Cats in Space! for 2 to 5 players.

Players take cards from a 4x4 display with tractor beams, herd them into
corrals scored for Abundance or Variety, and try not to end up with the most
Space Cats. The options are the readings of the rules README (see the docs
page docs/games/rocket-ranchers.md for the reasons).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ranchhand.core import Game, Option, OptionError
from ranchhand.core.game import Observation, Playout
from ranchhand.games.rocket_ranchers.determinize import sample_state
from ranchhand.games.rocket_ranchers.encoding import RocketEncoding
from ranchhand.games.rocket_ranchers.position import build_position
from ranchhand.games.rocket_ranchers.state import RocketState
from ranchhand.games.rocket_ranchers.summary import RocketSummary
from ranchhand.games.rocket_ranchers.tables import Tables, tables_for

OPTIONS = (
    Option(
        "deck",
        "standard",
        "The Wildlife deck data file: 'standard' (150 cards, rules README) or a path to a "
        "TOML file of the same layout.",
    ),
    Option(
        "beams",
        "standard",
        "The tractor beam data file: 'standard' (line of 2, line of 3, L of 3, 2x2 square) "
        "or a path to a TOML file of the same layout.",
    ),
    Option(
        "abundance_table",
        "rulebook",
        "Which printed Abundance table scores: the rulebook's End Game Scoring table "
        "(5-6: 12, 7-8: 18, 9+: 24) or the Abundance scoring card (10, 15, 22).",
        choices=("rulebook", "scoring-card"),
        choice_docs={
            "rulebook": "page 10 of the rulebook: 12 / 18 / 24",
            "scoring-card": "the scoring card on pages 3 and 5: 10 / 15 / 22",
        },
    ),
    Option(
        "abundance_counts",
        "cards",
        "What Abundance counts in a corral: its face-up cards (the rulebook text) or the "
        "dots printed on them.",
        choices=("cards", "dots"),
    ),
    Option(
        "variety_counts",
        "face-up",
        "Which cards' biomes Variety counts: the face-up cards only (the founding card "
        "lies face down and shows no biome) or all cards including the founding card.",
        choices=("face-up", "all"),
    ),
    Option(
        "cat_chain",
        False,
        "false: Space Cats next to the collected cards are collected once; true: Space Cats "
        "next to those are collected too, until none is adjacent.",
        choices=(False, True),
    ),
    Option(
        "corral_scoring",
        "best",
        "How each corral is scored: the better of Abundance and Variety (what a player "
        "choosing would pick: the choice affects nobody else), or every corral one way.",
        choices=("best", "abundance", "variety"),
    ),
)


class RocketGame(Game):
    """The game loaded with a player count and options; it owns the data tables."""

    id = "rocket-ranchers"
    name = "Rocket Ranchers: Herding Cats in Space!"
    version = "1"
    min_players = 2
    max_players = 5
    information = "imperfect"
    simultaneous = False
    OPTIONS = OPTIONS

    def __init__(self, players: int | None = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.tables: Tables = tables_for(
            self.options["deck"], self.options["beams"], self.options["abundance_table"]
        )

    def new_initial_state(self) -> RocketState:
        return RocketState(self)

    def _state_from_json(self, data: Mapping[str, Any]) -> RocketState:
        state = RocketState(self)
        state.load_json(data)
        return state

    def _setup(self, spec: Mapping[str, Any]) -> RocketState:
        """A position at the start of a player's turn, described by hand (see :mod:`.position`)."""
        return build_position(self, spec)

    def sample_state(self, observation: Observation, rng: random.Random) -> RocketState:
        """A table consistent with ``observation``, unseen founding cards redrawn (see
        :mod:`.determinize`)."""
        return sample_state(self, observation, rng)

    def compiled_playout(self, policy: str) -> Playout | None:
        """The fast engine's greedy playout (``fast/engine.py``), made once per game; None
        for another bot, or without numba (the ``fast`` extra), whose package is imported
        here, on the first call, so loading the game never loads numba."""
        if policy != "greedy":
            return None
        if "_fast_playout" not in self.__dict__:
            playout: Playout | None
            try:
                from ranchhand.games.rocket_ranchers.fast.engine import FastPlayout, FastRocket

                playout = FastPlayout(FastRocket(self))
            except (ImportError, OptionError):
                playout = None
            self.__dict__["_fast_playout"] = playout
        made: Playout | None = self.__dict__["_fast_playout"]
        return made

    def _encoding(self) -> RocketEncoding:
        """The fixed action space and observation tensor for learning code (:mod:`.encoding`)."""
        return RocketEncoding(self)

    def summary(self) -> RocketSummary:
        """Average score split per seat and overall, win rate per seat, Space Cats."""
        return RocketSummary()
