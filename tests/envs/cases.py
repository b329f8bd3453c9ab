"""The games and player counts the adapter tests run on, and the skip for a missing encoding.

Every registered game (and the toy game) at every player count it allows; a
game whose encoding has not been written yet is skipped with the reason, so
the adapters' tests grow with the encodings instead of breaking before them.
"""

from __future__ import annotations

import random

import pytest

from ranchhand.core.errors import GameDefinitionError
from ranchhand.core.game import Game
from ranchhand.core.registry import GAME_MODULES, game_class, load, register

register("toy", "tests.core.toy")


def _player_counts(name: str) -> list[int]:
    cls = game_class(name)
    return list(range(cls.min_players, cls.max_players + 1))


CASES = [(name, players) for name in sorted(GAME_MODULES) for players in _player_counts(name)]
GAMES = sorted(GAME_MODULES)


def encoded(name: str, players: int | None = None) -> Game:
    """The game loaded, or the test skipped when the game has no encoding yet."""
    game = load(name, players)
    try:
        game.encoding()
    except GameDefinitionError as error:
        pytest.skip(f"{name} has no encoding yet ({error})")
    return game


def random_index(mask: object, rng: random.Random) -> int:
    """A legal index drawn uniformly from a 0/1 mask."""
    legal = [i for i, bit in enumerate(mask) if bit]  # type: ignore[attr-defined]
    return rng.choice(legal)
