"""Benchmarks: games per second on one core, printed as figures (never asserted in tests)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ranchhand.core.registry import bot_factory, game_class, load
from ranchhand.core.runner import derive_seed, play


@dataclass(frozen=True)
class BenchResult:
    game: str
    players: int
    bot: str
    games: int
    seconds: float
    turns: int
    truncated: int

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.seconds


def default_player_counts(game: str) -> list[int]:
    """Smallest, middle and largest table: 2, 4, 6 for Rancho."""
    cls = game_class(game)
    low, high = cls.min_players, cls.max_players
    return sorted({low, (low + high + 1) // 2, high})


def bench(
    game: str, players: int, games: int = 200, bot: str = "greedy", seed: int = 0
) -> BenchResult:
    """Play ``games`` games in this process and time them.

    Loading the game and one warm-up game (which fills the games' memo tables) are not
    timed, so the first table size measured is not penalised for them.
    """
    loaded = load(game, players, max_turns=2000)
    make = bot_factory(game, bot)
    turns = truncated = 0
    play(loaded, [make() for _ in range(players)], derive_seed(seed, "warm-up"))  # fill caches
    start = time.perf_counter()
    for index in range(games):
        result = play(loaded, [make() for _ in range(players)], derive_seed(seed, index))
        turns += result.turns
        truncated += result.outcome.truncated
    seconds = time.perf_counter() - start
    return BenchResult(loaded.id, players, bot, games, seconds, turns, truncated)
