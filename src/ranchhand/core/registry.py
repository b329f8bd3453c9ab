"""The registry of games and bots: ``load("rancho", players=4, dice="twin")``.

Games live in ``ranchhand.games.<module>`` and are imported on first use, so
listing games is cheap and a broken game never stops another from loading.
A game package exposes ``GAME`` (its :class:`Game` class), ``BOTS`` (bot
classes by name, besides the shared ``random``) and ``VIEW`` (terminal views), and may
expose ``LEVELS``: its own bots for the levels ``normal`` and ``hard`` where the shared
search is not its strongest player (Super Farmer's solved racer).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.game import Game

GAME_MODULES: dict[str, str] = {
    "rancho": "ranchhand.games.rancho",
    "rocket-ranchers": "ranchhand.games.rocket_ranchers",
    "glory-ranch": "ranchhand.games.glory_ranch",
    "super-farmer": "ranchhand.games.super_farmer",
}
ALIASES: dict[str, str] = {
    "superfarmer": "super-farmer",
    "rocket": "rocket-ranchers",
    "rr": "rocket-ranchers",
    "glory": "glory-ranch",
}


def register(name: str, module: str) -> None:
    """Register a game package (a third-party game, or a test game) by module path."""
    GAME_MODULES[name] = module


def canonical_name(name: str) -> str:
    """The registered id of ``name`` (aliases, case and underscores forgiven)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in GAME_MODULES:
        raise OptionError(f"unknown game {name!r}; games are: {', '.join(GAME_MODULES)}")
    return key


def game_module(name: str) -> ModuleType:
    return importlib.import_module(GAME_MODULES[canonical_name(name)])


def game_class(name: str) -> type[Game]:
    return game_module(name).GAME


def load(name: str, players: int | None = None, **options: Any) -> Game:
    """Load a game by name with a player count and options.

    >>> load("rancho", players=7)
    Traceback (most recent call last):
    ...
    ranchhand.core.errors.OptionError: rancho: a game of 7 players is not allowed; allowed: 2 to 6
    """
    return game_class(name)(players, **options)


def games() -> list[dict[str, Any]]:
    """Every registered game with its player range and options (defaults, allowed values)."""
    listing = []
    for name in GAME_MODULES:
        cls = game_class(name)
        listing.append(
            {
                "id": cls.id,
                "name": cls.name,
                "version": cls.version,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "information": cls.information,
                "simultaneous": cls.simultaneous,
                "options": [
                    {"name": o.name, "default": o.default, "allowed": o.allowed(), "doc": o.doc}
                    for o in cls.option_specs()
                ],
                "bots": bot_names(name),
            }
        )
    return listing


SHARED_BOTS = ("random", "ismcts")
"""Bots every game has: the uniform random bot and the search bot."""
RANDOM = "ranchhand.bots.random_bot:RandomBot"
SEARCH = "ranchhand.bots.ismcts:at_level"
"""Where the shared bots live, by name as the games are: the ground knows its tenants only
as names it imports on first use, never by an import of its own (``bots`` builds on
``core``, not the other way round). ``at_level(game, name, level)`` gives the search's
constructor at a level."""
SEARCH_LEVELS = ("ismcts", "normal", "hard")
"""The names the shared search plays (at its level of that name) unless a game names
its own bot for one in ``LEVELS``."""


def _shared(path: str) -> Any:
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


LEVELS = ("easy", "normal", "hard")
"""Levels a person picks by name: the greedy bot, ismcts, ismcts with a bigger budget (or,
where a game names them in its ``LEVELS``, the game's own bots)."""


def own_levels(name: str) -> dict[str, Callable[[], Any]]:
    """The bots ``name`` seats at the levels it names itself (``normal``, ``hard``); the
    other levels are the shared ones."""
    levels: dict[str, Callable[[], Any]] = getattr(game_module(name), "LEVELS", {})
    return levels


def bot_names(name: str) -> list[str]:
    return [*SHARED_BOTS, *sorted(game_module(name).BOTS), *LEVELS]


def bot_factory(game: str | Game, bot: str) -> Callable[[], Any]:
    """The constructor of bot ``bot`` for ``game`` (``random`` and ``ismcts`` work for every
    game, and so do the levels ``easy``, ``normal`` and ``hard``: greedy, then ismcts at
    two budgets, unless the game names its own bots for them in ``LEVELS``).

    Given a loaded game, search bots are made with it; given a name, they are
    given the game by ``play`` (``bind``) before their first move.
    """
    random_bot = _shared(RANDOM)
    loaded = game if isinstance(game, Game) else None
    name = game.id if isinstance(game, Game) else game
    bots = game_module(name).BOTS
    if bot == "random":
        return random_bot  # type: ignore[no-any-return]
    if bot == "easy":
        return bots.get("greedy", random_bot)  # type: ignore[no-any-return]
    levels = own_levels(name)
    if bot in levels:
        return levels[bot]
    if bot in SEARCH_LEVELS:
        return _shared(SEARCH)(loaded, canonical_name(name), bot)  # type: ignore[no-any-return]
    if bot not in bots:
        raise OptionError(
            f"{canonical_name(name)} has no bot {bot!r}; bots are: {', '.join(bot_names(name))}"
        )
    return bots[bot]
