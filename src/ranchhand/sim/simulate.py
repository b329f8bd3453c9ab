"""Many games in parallel processes, reduced to a report a designer can trust.

Every game gets its own seed derived from the run's seed and the game's index,
so results are the same whatever the number of processes. Workers load the
game once and play chunks of game indices (see :mod:`ranchhand.sim.workers`);
results are added up in index order as they arrive and then dropped
(:mod:`ranchhand.sim.tally`), so memory stays flat however many games run.
A run stopped by a signal returns a partial report that says which games
finished; their records are whole files.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ranchhand.core.errors import OptionError, RecordError, plural
from ranchhand.core.game import Game, GameSummary
from ranchhand.core.registry import bot_factory, canonical_name, game_class, load
from ranchhand.core.runner import derive_seed, play
from ranchhand.sim.stats import wilson_interval
from ranchhand.sim.tally import InOrder, Tally
from ranchhand.sim.workers import StopControl, run_pool

__all__ = ["Report", "Simulation", "StopControl", "simulate"]

MAX_CHUNK = 50
"""Games per chunk handed to a worker at most (fewer for short runs, to share them out)."""


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def effective_jobs(jobs: int | None, games: int) -> int:
    """Processes a run uses: ``jobs`` (default every core), at most one per core and
    one per game; more would only add processes that wait."""
    if jobs is not None and (isinstance(jobs, bool) or jobs < 1):
        raise OptionError(f"jobs must be at least 1, got {jobs}")
    return max(1, min(jobs or cores(), cores(), games))


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
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise OptionError(f"games must be at least 1, got {self.games}")
        cls = game_class(self.game)
        if not cls.min_players <= self.players <= cls.max_players:
            raise OptionError(
                f"{canonical_name(self.game)} is for {cls.min_players} to "
                f"{cls.max_players} players, not {self.players}"
            )
        game = self.load()
        for name in dict.fromkeys(self.seats):
            bot_factory(self.game, name)
        return game

    def record_name(self, game_id: str, index: int) -> str:
        """The file name of game ``index``'s record."""
        return f"{game_id}-s{self.seed}-g{index:06d}.json"


def prepare_record_dir(sim: Simulation, game_id: str) -> Path:
    """Make sure the record folder can take this run's records, before any game starts.

    Refuses a path that is not a folder (a file, a device), a folder that cannot be
    written, and one that already holds records of this run's names: a record is
    never replaced (``Record.save`` would fail midway), so the user picks an empty
    folder now rather than losing the run later.
    """
    assert sim.record_dir is not None
    folder = Path(sim.record_dir)
    if folder.exists() or folder.is_symlink():
        if not folder.is_dir():
            raise RecordError(f"cannot record in {folder}: it is not a folder")
    else:
        try:
            folder.mkdir(parents=True)
        except OSError as error:
            raise RecordError(f"cannot create the record folder {folder}: {_why(error)}") from None
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".ranchhand-probe-")
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise RecordError(f"cannot write records in {folder}: {_why(error)}") from None
    clash = sorted(_run_records(sim, game_id, folder))
    if clash:
        first = folder / sim.record_name(game_id, clash[0])
        raise RecordError(
            f"{folder} already holds {plural(len(clash), 'record')} of this game and seed "
            f"(first: {first.name}); records are never replaced: pick an empty folder"
        )
    return folder


def _run_records(sim: Simulation, game_id: str, folder: Path) -> set[int]:
    """Indices of the records of this run (game, seed, index in range) in ``folder``."""
    pattern = re.compile(rf"{re.escape(game_id)}-s{re.escape(str(sim.seed))}-g(\d+)\.json")
    found = set()
    with os.scandir(folder) as entries:
        for entry in entries:
            match = pattern.fullmatch(entry.name)
            if (
                match
                and int(match[1]) < sim.games
                and entry.name == sim.record_name(game_id, int(match[1]))
            ):
                found.add(int(match[1]))
    return found


def _why(error: OSError) -> str:
    return error.strerror or type(error).__name__


@dataclass
class Report:
    """A run's figures; ``stopped`` says why it ended early (``None``: every game ran)."""

    simulation: Simulation
    tally: Tally
    seconds: float
    options: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None
    signal: int | None = None
    uncounted_records: list[int] = field(default_factory=list)

    @property
    def partial(self) -> bool:
        return self.stopped is not None

    @property
    def exit_code(self) -> int:
        """0, 128 + the signal that stopped the run (130 SIGINT, 143 SIGTERM), or 1."""
        if self.signal is not None:
            return 128 + self.signal
        return 1 if self.partial else 0

    @property
    def summary(self) -> dict[str, Any]:
        return self.tally.summary.result()

    def to_json(self) -> dict[str, Any]:
        sim, tally = self.simulation, self.tally
        games = tally.games
        wins = tally.wins
        data = {
            "game": canonical_name(sim.game),
            "players": sim.players,
            "seats": list(sim.seats),
            "games": games,
            "finished": games - tally.truncated,
            "truncated": tally.truncated,
            "wins": list(wins),
            "win_rate": [w / games if games else 0.0 for w in wins],
            "win_ci95": [list(wilson_interval(w, games)) for w in wins],
            "ties": tally.ties,
            "turns": tally.turns.describe(),
            "mean_scores": tally.mean_scores(),
            "games_per_s": games / self.seconds if self.seconds > 0 else float("inf"),
            "seconds": self.seconds,
            "seed": sim.seed,
            "options": dict(self.options),
            "summary": self.summary,
            "partial": self.partial,
            "requested": sim.games,
            "indices": [list(run) for run in tally.indices],
        }
        if self.partial:
            data["stopped"] = self.stopped
            if self.uncounted_records:
                data["uncounted_records"] = list(self.uncounted_records)
        return data


_WORKER_CACHE: dict[Simulation, tuple[Game, list[Callable[[], Any]]]] = {}


def _worker_setup(sim: Simulation) -> tuple[Game, list[Callable[[], Any]]]:
    cached = _WORKER_CACHE.get(sim)
    if cached is None:
        cached = (sim.load(), [bot_factory(sim.game, name) for name in sim.seats])
        _WORKER_CACHE.clear()
        _WORKER_CACHE[sim] = cached
    return cached


def play_one(sim: Simulation, index: int) -> GameSummary:
    """Play game ``index`` of ``sim`` with its own derived seed (and save its record)."""
    game, factories = _worker_setup(sim)
    seed = derive_seed(sim.seed, index)
    recording = sim.record_dir is not None
    result = play(
        game, [make() for make in factories], seed, record=recording, seat_names=sim.seats
    )
    if result.record is not None and sim.record_dir is not None:
        result.record.save(Path(sim.record_dir) / sim.record_name(game.id, index))
    return GameSummary(
        index,
        result.outcome.winners,
        result.outcome.truncated,
        result.turns,
        result.outcome.scores,
        result.details,
    )


def simulate(
    sim: Simulation,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    control: StopControl | None = None,
) -> Report:
    """Play ``sim.games`` games on ``jobs`` processes (default: every core).

    SIGINT or SIGTERM during the run stops it within a game's time: the report
    then covers the games that finished (``report.partial``, ``report.signal``).
    Pass a ``control`` to share one stop between several runs (``compare``); its
    signal handling is then the caller's.
    """
    game = sim.check()
    jobs = effective_jobs(jobs, sim.games)
    if sim.record_dir is not None:
        prepare_record_dir(sim, game.id)
    tally = Tally(sim.players, game.summary())
    order = InOrder(tally)
    own = control is None
    control = control or StopControl()
    start = time.perf_counter()
    killed = 0
    with control.catching() if own else contextlib.nullcontext():
        if jobs == 1:
            for index in range(sim.games):
                if control.requested:
                    break
                order.offer(index, [play_one(sim, index)])
                if progress:
                    progress(1)
        else:
            chunk = max(1, min(MAX_CHUNK, sim.games // (jobs * 8)))
            recording = sim.record_dir is not None
            run = run_pool(
                partial(play_one, sim), sim.games, jobs, chunk, order, control,
                each=recording, progress=progress,
            )  # fmt: skip
            order.flush()
            if run.error is not None:
                raise run.error
            killed = run.killed
    seconds = time.perf_counter() - start
    report = Report(sim, tally, seconds, dict(game.options))
    if tally.games < sim.games or control.requested:
        report.stopped = control.reason or "stopped"
        report.signal = control.signal
        if killed and sim.record_dir is not None:
            report.uncounted_records = _uncounted(sim, game.id, tally)
    return report


def _uncounted(sim: Simulation, game_id: str, tally: Tally) -> list[int]:
    """Records on disk of games a killed worker finished but never reported; and the
    temporary files it may have left midway removed (they are never records)."""
    folder = Path(sim.record_dir or ".")
    for leftover in folder.glob(f".{game_id}-s{sim.seed}-g*.json.*.tmp"):
        leftover.unlink(missing_ok=True)
    return sorted(i for i in _run_records(sim, game_id, folder) if i not in tally.indices)


def report_json(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, sort_keys=False)
