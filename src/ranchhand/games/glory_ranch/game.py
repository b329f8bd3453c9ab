"""Glory Ranch, the game: options, the deck it is loaded with, JSON and summaries.

>>> game = GloryRanch(4)
>>> game.target, GloryRanch(5).target, GloryRanch(3, target=20).target
(50, 30, 20)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ranchhand.core import Game, Option, OptionError
from ranchhand.core.game import Playout
from ranchhand.games.glory_ranch.actions import Draw, HandCard, Steal
from ranchhand.games.glory_ranch.cards import DECK_FILE, Deck, Effect, check_deck, load_deck
from ranchhand.games.glory_ranch.scoring import Tables
from ranchhand.games.glory_ranch.summary import GlorySummary

HAND_SIZE = 5
RANCH_LIMIT = 7


class GloryRanch(Game):
    """The game of fantasy-creature ranches scored in Glory (2 to 6 players)."""

    id = "glory-ranch"
    name = "Glory Ranch"
    version = "2"
    min_players = 2
    max_players = 6
    information = "imperfect"
    simultaneous = True
    OPTIONS = (
        Option(
            "target",
            0,
            "Total Glory that ends the game (at the end of the round in which a player "
            "reaches it). 0 uses the rulebook's recommendation by player count: 50 for "
            "2-4 players, 30 for 5-6 (the book recommends 50 for 3-4 and 30 for 5).",
            minimum=0,
            maximum=500,
        ),
        Option(
            "deck",
            "standard",
            "The deck: 'standard' (cards.toml in this package, our original deck; the "
            "rulebook prints no cards) or the path of another deck file in the same format, "
            "so a group can play other cards without editing code.",
        ),
        Option(
            "tie",
            "play-on",
            "What a tie for the highest total at the target does: the rulebook says "
            "'either play another round or share the victory'.",
            choices=("play-on", "share"),
            choice_docs={
                "play-on": "play another round until one player alone is highest",
                "share": "every player tied for the highest total wins",
            },
        ),
        Option(
            "rps_ties",
            10,
            "How many tied rock-paper-scissors throws in a row end a contest: the rulebook "
            "says 'if you tie, repeat until you do not', which never ends for players who "
            "always show the same sign. At this many ties the contest is void: nobody wins "
            "and its consequences are skipped (like any action that cannot be done). With "
            "players choosing at random, 10 ties in a row happen once in about 59,000 contests.",
            minimum=1,
            maximum=1000,
        ),
    )

    def __init__(self, players: int | None = None, **options: Any) -> None:
        super().__init__(players, **options)
        deck = self.options["deck"]
        self.deck: Deck = load_deck(DECK_FILE if deck == "standard" else deck)
        check_deck(self.deck, DECK_FILE if deck == "standard" else deck)
        self.tables = Tables.of(self.deck)
        self.target: int = self.options["target"] or (50 if self.players <= 4 else 30)
        self.share_ties: bool = self.options["tie"] == "share"
        self.rps_ties: int = self.options["rps_ties"]
        self.kinds = len(self.deck.cards)
        self.ids = tuple(c.id for c in self.deck.cards)
        self.index = {c.id: c.index for c in self.deck.cards}
        self.draws = tuple(Draw(i) for i in self.ids)
        self.steals = tuple(Steal(i) for i in self.ids)
        self.hand_cards = {
            verb: tuple(HandCard(verb, i) for i in self.ids)
            for verb in ("play", "discard", "give", "pass")
        }
        """Each card as the action choosing it from a hand, by verb: made once, not per list."""
        # Every distinct action of the deck gets a number, so pending steps are plain data.
        effects: list[Effect] = []
        number: dict[Effect, int] = {}

        def register(effect: Effect) -> int:
            if effect not in number:
                number[effect] = len(effects)
                effects.append(effect)
                for inner in (*effect.win, *effect.lose):
                    register(inner)
            return number[effect]

        self.card_effects = tuple(
            tuple(register(e) for e in card.actions) for card in self.deck.cards
        )
        self.effects = tuple(effects)
        self.effect_number = number

    def new_initial_state(self) -> Any:
        from ranchhand.games.glory_ranch.state import GloryState

        return GloryState(self)

    def _state_from_json(self, data: Mapping[str, Any]) -> Any:
        from ranchhand.games.glory_ranch.state import GloryState

        return GloryState.from_json(self, data)

    def _setup(self, spec: Mapping[str, Any]) -> Any:
        """A position described by hand (docs/games/glory-ranch.md: "Setting up a position")."""
        from ranchhand.games.glory_ranch.positions import setup

        return setup(self, spec)

    def sample_state(self, observation: Any, rng: random.Random) -> Any:
        """A full state consistent with ``observation``, hidden cards redrawn (determinize.py)."""
        from ranchhand.games.glory_ranch.determinize import sample_state

        return sample_state(self, observation, rng)

    def compiled_playout(self, policy: str) -> Playout | None:
        """The fast engine's playout with ``greedy`` or ``random`` bots (``fast/engine.py``),
        made once per game and bot; None for another bot, or without numba (the ``fast``
        extra), whose package is imported here, on the first call, so loading the game
        never loads numba. Its bots' random choices (a greedy seat's sign) come from the
        stream, not the search's generator: ``fast/engine.py``'s ``BotChoices``."""
        if policy not in ("greedy", "random"):
            return None
        made: dict[str, Playout | None] = self.__dict__.setdefault("_fast_playouts", {})
        if policy not in made:
            try:
                from ranchhand.games.glory_ranch.fast.engine import FastGloryRanch, FastPlayout

                made[policy] = FastPlayout(FastGloryRanch(self), policy)
            except (ImportError, OptionError):
                made[policy] = None
        return made[policy]

    def _encoding(self) -> Any:
        """The fixed action space and observation tensor for learning code (encoding.py)."""
        from ranchhand.games.glory_ranch.encoding import GloryEncoding

        return GloryEncoding(self)

    def summary(self) -> GlorySummary:
        """Rounds per game, turns per round, wins per seat and the per-card table."""
        return GlorySummary(self.players, self.deck)
