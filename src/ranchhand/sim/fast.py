"""``simulate --engine fast`` and ``bench --engine fast``: whole games in a game's compiled
engine, reported and timed exactly as the reference engine's runs are.

A game with a compiled engine names, in :data:`FAST_ENGINES`, the module of its
``fast`` package that has: ``engine(game)`` (an object whose ``play(seeds, seats)``
returns one row per game, starting with the winner (-1: cut), turns and steps),
``policy_of(bot)`` (refusing, by name, the bots it cannot play) and
``summary_of(index, row)`` (the row as the :class:`GameSummary` a reference worker
sends). Game ``i`` of a run is seeded with ``derive_seed(seed, i)`` (its low 32 bits,
what numba's generator takes), so a run is reproducible from ``--seed``; the streams
differ from the reference engine's (another generator), so a game index names a
different game there.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable
from types import ModuleType

import numpy as np

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import canonical_name, load
from ranchhand.core.runner import derive_seed
from ranchhand.sim.bench import BenchResult
from ranchhand.sim.simulate import Report, Simulation, StopControl
from ranchhand.sim.tally import Tally

FAST_ENGINES: dict[str, str] = {
    "glory-ranch": "ranchhand.games.glory_ranch.fast.simulate",
    "rancho": "ranchhand.games.rancho.fast.simulate",
    "rocket-ranchers": "ranchhand.games.rocket_ranchers.fast.simulate",
    "super-farmer": "ranchhand.games.super_farmer.fast.simulate",
}
"""Each game's compiled engine: the module with ``engine``, ``policy_of`` and
``summary_of`` (see the module docstring), by game id."""
CHUNK = 500
"""Games per call into a kernel: progress and Ctrl-C are seen between chunks."""
BENCH_MAX_TURNS = 2000
"""As the reference bench: long enough that no game is cut."""


def fast_engine(game: str) -> ModuleType:
    """The module of ``game``'s compiled engine; OptionError naming the games with one."""
    name = canonical_name(game)
    target = FAST_ENGINES.get(name)
    if target is None:
        having = ", ".join(sorted(FAST_ENGINES))
        raise OptionError(f"{name} has no fast engine (games with one: {having})")
    return importlib.import_module(target)


def game_seeds(seed: int, start: int, stop: int) -> np.ndarray:
    """The kernel seeds of games ``start`` .. ``stop - 1`` of a run."""
    return np.array([derive_seed(seed, i) & 0xFFFFFFFF for i in range(start, stop)], np.int64)


def simulate_fast(
    sim: Simulation,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    control: StopControl | None = None,
) -> Report:
    """Play ``sim`` in its game's compiled engine and report as ``simulate`` (whose
    arguments it takes); one process whatever ``jobs`` says: a kernel game costs less
    than a worker's start."""
    module = fast_engine(sim.game)
    if sim.record_dir is not None:
        raise OptionError("the fast engine keeps no records; use --engine reference to record")
    for name in sim.seats:
        module.policy_of(name)
    game = sim.check()
    engine = module.engine(game)
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
                tally.add(module.summary_of(index, row))
            if progress:
                progress(last - first)
    report = Report(sim, tally, time.perf_counter() - start, dict(game.options))
    if tally.games < sim.games or control.requested:
        report.stopped = control.reason or "stopped"
        report.signal = control.signal
    return report


def time_games(game: str, players: int, games: int, bot: str, seed: int) -> BenchResult:
    """``bench --engine fast``: ``games`` games with ``bot`` in every seat in ``game``'s
    kernel, timed as the reference bench times its games: the same table (``max_turns``
    2000), seeds derived per game index, every action and chance outcome a step, one
    warm-up game untimed (it also loads or compiles the kernel), this process's CPU time."""
    module = fast_engine(game)
    module.policy_of(bot)
    loaded = load(game, players, max_turns=BENCH_MAX_TURNS)
    engine = module.engine(loaded)
    seats = (bot,) * players
    engine.play(game_seeds(seed, -1, 0), seats)  # warm-up
    start = time.process_time()
    rows = engine.play(game_seeds(seed, 0, games), seats)
    seconds = time.process_time() - start
    return BenchResult(
        loaded.id,
        players,
        bot,
        games,
        seconds,
        int(rows[:, 1].sum()),
        int((rows[:, 0] < 0).sum()),
        int(rows[:, 2].sum()),
        engine="fast",
    )
