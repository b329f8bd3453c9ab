"""Run one cell (one simulation setting): play the games the store lacks, keep them, and
report on all of them as ``simulate`` would.

Games already stored for the cell (same game version, seats, options and seed) are not
played again, so a rerun is free and an interrupted run resumes where it stopped. New
games reach the store in index order, in batches at least once a second; a stop keeps
every game finished so far. Without a store the cell is simply played (``--backend ray``
on ``simulate``).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from ranchhand.core.game import Game, GameSummary, Summary
from ranchhand.core.registry import game_class
from ranchhand.lab.backends import Backend, Progress
from ranchhand.lab.evaluation import GAME, Evaluation
from ranchhand.lab.store import Cell, Store
from ranchhand.lab.trace import LabGame, play_traced
from ranchhand.sim.simulate import Report, Simulation
from ranchhand.sim.tally import InOrder, Tally
from ranchhand.sim.workers import StopControl

BATCH = 200
"""Games written to the store per transaction at most."""

FLUSH_SECONDS = 1.0
"""The longest a finished game waits to be written (so a killed run loses little)."""

TRACE_VERSION = 2
"""Bumped when what a stored game holds changes meaning, so old rows are not reused."""


class Gaps:
    """The game indices still to play, as ranges, numbered by position 0, 1, 2...

    >>> gaps = Gaps.missing(10, {0, 1, 2, 5})
    >>> len(gaps), [gaps[p] for p in range(len(gaps))]
    (6, [3, 4, 6, 7, 8, 9])
    """

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        self.ranges = ranges
        self.offsets = [0]
        for start, stop in ranges:
            self.offsets.append(self.offsets[-1] + stop - start)

    @classmethod
    def missing(cls, games: int, stored: set[int]) -> Gaps:
        ranges: list[tuple[int, int]] = []
        start = None
        for index in range(games + 1):
            absent = index < games and index not in stored
            if absent and start is None:
                start = index
            elif not absent and start is not None:
                ranges.append((start, index))
                start = None
        return cls(ranges)

    def __len__(self) -> int:
        return self.offsets[-1]

    def __getitem__(self, position: int) -> int:
        at = bisect.bisect_right(self.offsets, position) - 1
        return self.ranges[at][0] + position - self.offsets[at]


def _play_at(sim: Simulation, gaps: Gaps, evaluation: Evaluation, position: int) -> GameSummary:
    return play_traced(sim, gaps[position], evaluation)


class Keeper(Tally):
    """A tally that also hands each game, in index order, to the store in batches."""

    def __init__(self, players: int, summary: Summary, store: Store | None, cell: Cell | None):
        super().__init__(players, summary)
        self.store, self.cell = store, cell
        self.pending: list[LabGame] = []
        self.played = 0
        self.flushed = time.monotonic()

    def add(self, result: GameSummary) -> None:
        super().add(result)
        self.played += 1
        if self.store is not None and isinstance(result, LabGame):
            self.pending.append(result)
            if len(self.pending) >= BATCH or time.monotonic() - self.flushed >= FLUSH_SECONDS:
                self.flush()

    def flush(self) -> None:
        if self.store is not None and self.cell is not None:
            self.store.add_games(self.cell, self.pending)
        self.pending = []
        self.flushed = time.monotonic()


@dataclass
class CellResult:
    """A cell's report (over stored and new games), with how many of each."""

    report: Report
    cell: Cell | None
    played: int
    reused: int


def version(game: Game, evaluation: Evaluation = GAME) -> str:
    """The rules version, the lab's and the evaluation's, which together decide whether
    stored games count."""
    return f"{game_class(game.id).version}+lab{TRACE_VERSION}{evaluation.tag}"


def store_cell(store: Store, sim: Simulation, game: Game, evaluation: Evaluation = GAME) -> Cell:
    return store.cell(game.id, version(game, evaluation), sim.seats, dict(game.options), sim.seed)


def tally_of(players: int, summary: Summary, games: Iterable[GameSummary]) -> Tally:
    """A tally of games given in index order."""
    tally = Tally(players, summary)
    for game in games:
        tally.add(game)
    return tally


def run_cell(
    sim: Simulation,
    backend: Backend,
    store: Store | None = None,
    control: StopControl | None = None,
    progress: Progress = None,
    evaluation: Evaluation = GAME,
) -> CellResult:
    """Play what ``store`` lacks of ``sim`` on ``backend``; report on every game of it.

    Games already stored count toward ``progress`` at once. The caller handles signals
    (``control.catching``); a stop returns a partial report of the games kept.
    """
    game = sim.check()
    control = control or StopControl()
    cell = None if store is None else store_cell(store, sim, game, evaluation)
    stored = set() if store is None or cell is None else store.stored(cell, sim.games)
    if progress and stored:
        progress(len(stored))
    gaps = Gaps.missing(sim.games, stored)
    keeper = Keeper(sim.players, game.summary(), store, cell)
    order = InOrder(keeper)
    start = time.perf_counter()
    try:
        if len(gaps) and not control.requested:
            play = partial(_play_at, sim, gaps, evaluation)
            result = backend.run(play, len(gaps), order, control, progress)
            order.flush()
            if result.error is not None:
                raise result.error
    finally:
        keeper.flush()
    seconds = time.perf_counter() - start
    tally: Tally = keeper
    if stored and store is not None and cell is not None:
        tally = tally_of(sim.players, game.summary(), store.games(cell, sim.games))
    report = Report(sim, tally, seconds, dict(game.options))
    if tally.games < sim.games or control.requested:
        report.stopped = control.reason or "stopped"
        report.signal = control.signal
    return CellResult(report, cell, keeper.played, len(stored))


def runner(
    backend: Backend, store: Store | None = None
) -> Callable[[Simulation, int | None, Progress, StopControl | None], Report]:
    """A drop-in for ``simulate(sim, jobs, progress, control)`` on this backend and store
    (``jobs`` is the backend's)."""

    def run(
        sim: Simulation,
        jobs: int | None = None,
        progress: Progress = None,
        control: StopControl | None = None,
    ) -> Report:
        return run_cell(sim, backend, store, control, progress).report

    return run
