"""Benchmarks: games and steps per second on one core, printed as figures (never asserted).

Two engines can be timed. ``reference`` is the Python engine every game has (what
``play`` and ``simulate`` run). ``fast`` is a compiled engine that plays whole games with the
same rules, for the games that have one (:data:`ranchhand.sim.fast.FAST_ENGINES`), imported
only when asked for (compiling is slow and its packages optional).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import bot_factory, game_class, load
from ranchhand.core.runner import derive_seed, play

ENGINES = ("reference", "fast")
"""What ``bench --engine`` takes: the Python engine, or a game's compiled one."""


@dataclass(frozen=True)
class BenchResult:
    game: str
    players: int
    bot: str
    games: int
    seconds: float
    turns: int
    truncated: int
    steps: int = 0
    """Actions applied, chance outcomes and simultaneous choices included."""
    engine: str = "reference"

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "bot": self.bot,
            "engine": self.engine,
            "games": self.games,
            "seconds": self.seconds,
            "games_per_s": self.games_per_s,
            "steps_per_s": self.steps_per_s,
            "turns_per_s": self.turns_per_s,
            "steps": self.steps,
            "turns": self.turns,
            "truncated": self.truncated,
        }


Timer = Callable[[str, int, int, str, int], BenchResult]
"""Times ``games`` games: (game, players, games, bot, seed) -> a result with engine set."""


def cores() -> int:
    """The cores this process may run on (the machine's count where affinity is unknown)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_player_counts(game: str) -> list[int]:
    """Smallest, middle and largest table: 2, 4, 6 for Rancho."""
    cls = game_class(game)
    low, high = cls.min_players, cls.max_players
    return sorted({low, (low + high + 1) // 2, high})


def fast_timer(game: str) -> Timer:
    """The compiled engine's timer of ``game``; OptionError naming the games that have one
    (:data:`ranchhand.sim.fast.FAST_ENGINES`)."""
    from ranchhand.sim import fast

    fast.fast_engine(game)
    return fast.time_games


def bench(
    game: str,
    players: int,
    games: int = 200,
    bot: str = "greedy",
    seed: int = 0,
    engine: str = "reference",
) -> BenchResult:
    """Play ``games`` games of one engine in this process and time them."""
    if engine == "fast":
        return fast_timer(game)(game, players, games, bot, seed)
    if engine != "reference":
        raise OptionError(f"no engine {engine!r}; engines are: {', '.join(ENGINES)}")
    return _bench_reference(game, players, games, bot, seed)


def _bench_reference(game: str, players: int, games: int, bot: str, seed: int) -> BenchResult:
    """Time the Python engine through ``play``, as ``simulate`` runs it.

    Loading the game and one warm-up game (which fills the games' memo tables) are not
    timed, so the first table size measured is not penalised for them. The time is this
    process's CPU time: "per core" even when other work shares the machine.
    """
    loaded = load(game, players, max_turns=2000)
    make = bot_factory(game, bot)
    turns = truncated = steps = 0
    play(loaded, [make() for _ in range(players)], derive_seed(seed, "warm-up"))  # fill caches
    start = time.process_time()
    for index in range(games):
        result = play(loaded, [make() for _ in range(players)], derive_seed(seed, index))
        turns += result.turns
        steps += result.steps
        truncated += result.outcome.truncated
    seconds = time.process_time() - start
    return BenchResult(loaded.id, players, bot, games, seconds, turns, truncated, steps)


def bench_json(results: list[BenchResult]) -> dict[str, Any]:
    """What ``bench --json`` prints: the core count and one row per configuration timed."""
    return {"cores": cores(), "results": [r.to_json() for r in results]}
