"""Many games in parallel processes, reduced to a report a designer can trust.

Every game gets its own seed derived from the run's seed and the game's index,
so results are the same whatever the number of processes. Workers load the
game once and play chunks of game indices; results are put back in index order.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.game import Game
from ranchhand.core.registry import bot_factory, canonical_name, load
from ranchhand.core.runner import derive_seed, play
from ranchhand.sim.stats import describe, wilson_interval


@dataclass(frozen=True)
class Simulation:
    """What to simulate: a game, its options, one bot name per seat, how many games."""

    game: str
    seats: tuple[str, ...]
    games: int = 1000
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    record_dir: str | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def load(self) -> Game:
        return load(self.game, self.players, **dict(self.options))

    def check(self) -> Game:
        """Load the game and every bot once, so bad names fail before any work starts."""
        if self.games < 1:
            raise OptionError(f"games must be at least 1, got {self.games}")
        game = self.load()
        for name in self.seats:
            bot_factory(self.game, name)
        return game


@dataclass(frozen=True)
class GameSummary:
    """One finished game, as much as the report needs."""

    index: int
    winners: tuple[int, ...]
    truncated: bool
    turns: int
    scores: tuple[float, ...] | None
    details: dict[str, Any]


@dataclass
class Report:
    simulation: Simulation
    results: list[GameSummary]
    seconds: float
    options: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        sim = self.simulation
        results = self.results
        games = len(results)
        truncated = sum(r.truncated for r in results)
        finished = games - truncated
        wins = [0] * sim.players
        ties = 0
        for r in results:
            if len(r.winners) == 1:
                wins[r.winners[0]] += 1
            elif len(r.winners) > 1:
                ties += 1
        scores = [r.scores for r in results if r.scores is not None and not r.truncated]
        mean_scores = (
            [sum(s[p] for s in scores) / len(scores) for p in range(sim.players)]
            if scores
            else None
        )
        return {
            "game": canonical_name(sim.game),
            "players": sim.players,
            "seats": list(sim.seats),
            "games": games,
            "finished": finished,
            "truncated": truncated,
            "wins": wins,
            "win_rate": [w / games for w in wins],
            "win_ci95": [list(wilson_interval(w, games)) for w in wins],
            "ties": ties,
            "turns": describe([r.turns for r in results if not r.truncated]),
            "mean_scores": mean_scores,
            "games_per_s": games / self.seconds if self.seconds > 0 else float("inf"),
            "seconds": self.seconds,
            "seed": sim.seed,
            "options": dict(self.options),
            "summary": self.summary,
        }


_WORKER_CACHE: dict[Simulation, tuple[Game, list[Callable[[], Any]]]] = {}


def _worker_setup(sim: Simulation) -> tuple[Game, list[Callable[[], Any]]]:
    cached = _WORKER_CACHE.get(sim)
    if cached is None:
        cached = (sim.load(), [bot_factory(sim.game, name) for name in sim.seats])
        _WORKER_CACHE.clear()
        _WORKER_CACHE[sim] = cached
    return cached


def play_one(sim: Simulation, index: int) -> GameSummary:
    """Play game ``index`` of ``sim`` with its own derived seed."""
    game, factories = _worker_setup(sim)
    seed = derive_seed(sim.seed, index)
    recording = sim.record_dir is not None
    result = play(
        game, [make() for make in factories], seed, record=recording, seat_names=sim.seats
    )
    if result.record is not None and sim.record_dir is not None:
        result.record.save(Path(sim.record_dir) / f"{game.id}-s{sim.seed}-g{index:06d}.json")
    return GameSummary(
        index,
        result.outcome.winners,
        result.outcome.truncated,
        result.turns,
        result.outcome.scores,
        result.details,
    )


def _play_chunk(sim: Simulation, indices: Sequence[int]) -> list[GameSummary]:
    return [play_one(sim, i) for i in indices]


def simulate(
    sim: Simulation,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play ``sim.games`` games on ``jobs`` processes (default: every core)."""
    game = sim.check()
    if sim.record_dir is not None:
        Path(sim.record_dir).mkdir(parents=True, exist_ok=True)
    jobs = max(1, jobs or os.cpu_count() or 1)
    start = time.perf_counter()
    results: list[GameSummary] = []
    if jobs == 1:
        for index in range(sim.games):
            results.append(play_one(sim, index))
            if progress:
                progress(1)
    else:
        chunk = max(1, min(200, sim.games // (jobs * 8) or 1))
        chunks = [list(range(i, min(i + chunk, sim.games))) for i in range(0, sim.games, chunk)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, sim, c) for c in chunks]
            for future in as_completed(futures):
                part = future.result()
                results.extend(part)
                if progress:
                    progress(len(part))
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r.index)
    finished = [r.details for r in results if not r.truncated]
    return Report(sim, results, seconds, dict(game.options), game.summarize(finished))


def report_json(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, sort_keys=False)
