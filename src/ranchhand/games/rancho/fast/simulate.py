"""``ranchhand simulate rancho --engine fast``: the same report, games played in the kernel.

Game ``i`` of a run is seeded with ``derive_seed(seed, i)`` (its low 32 bits, what
numba's generator takes), so a run is reproducible from ``--seed``; the games are
tallied in index order into the same :class:`~ranchhand.sim.tally.Tally` the
reference engine's runs fill, so the report has the same figures and shape. The
streams differ from the reference engine's (another generator), so a game index
names a different game there.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import numpy as np

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import canonical_name
from ranchhand.core.runner import derive_seed
from ranchhand.games.rancho.fast.engine import FastRancho, policy_of
from ranchhand.sim.simulate import Report, Simulation, StopControl
from ranchhand.sim.tally import GameSummary, Tally

CHUNK = 500
"""Games per call into the kernel: progress and Ctrl-C are seen between chunks."""


def game_seeds(seed: int, start: int, stop: int) -> np.ndarray:
    """The kernel seeds of games ``start`` .. ``stop - 1`` of a run."""
    return np.array([derive_seed(seed, i) & 0xFFFFFFFF for i in range(start, stop)], np.int64)


def simulate_fast(
    sim: Simulation,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    control: StopControl | None = None,
) -> Report:
    """Play ``sim`` in the fast engine and report as ``simulate`` (whose arguments it
    takes); one process whatever ``jobs`` says: a kernel game costs less than a
    worker's start."""
    if canonical_name(sim.game) != "rancho":
        raise OptionError(f"the fast engine plays rancho only, not {canonical_name(sim.game)}")
    if sim.record_dir is not None:
        raise OptionError("the fast engine keeps no records; use --engine reference to record")
    for name in sim.seats:
        policy_of(name)
    game = sim.check()
    engine = FastRancho(game)
    tally = Tally(sim.players, game.summary())
    own = control is None
    control = control or StopControl()
    start = time.perf_counter()
    with control.catching() if own else contextlib.nullcontext():
        for first in range(0, sim.games, CHUNK):
            if control.requested:
                break
            last = min(sim.games, first + CHUNK)
            rows = engine.play(game_seeds(sim.seed, first, last), sim.seats)
            for index, row in zip(range(first, last), rows, strict=True):
                tally.add(summary_of(index, row))
            if progress:
                progress(last - first)
    report = Report(sim, tally, time.perf_counter() - start, dict(game.options))
    if tally.games < sim.games or control.requested:
        report.stopped = control.reason or "stopped"
        report.signal = control.signal
    return report


def summary_of(index: int, row: np.ndarray) -> GameSummary:
    """A kernel result row as the summary the reference engine's workers send."""
    winner, turns, _steps, eaten, dogs, pastures = (int(n) for n in row)
    details = {
        "winner": winner if winner >= 0 else None,
        "turns": turns,
        "eaten_value": eaten,
        "dogs_given": dogs,
        "winner_pastures": pastures,
    }
    winners = (winner,) if winner >= 0 else ()
    return GameSummary(index, winners, winner < 0, turns, None, details)
