"""``ranchhand bench rancho --engine fast``: the compiled engine timed as the reference is.

Registered in :data:`ranchhand.sim.bench.FAST_ENGINES`. The same table (``max_turns``
2000), seeds derived from the bench seed per game index, steps counted the same way
(every action applied, chance outcomes included), one warm-up game untimed (it also
loads or compiles the kernel), and this process's CPU time.
"""

from __future__ import annotations

import time

from ranchhand.core.registry import load
from ranchhand.games.rancho.fast.engine import FastRancho, policy_of
from ranchhand.games.rancho.fast.simulate import game_seeds
from ranchhand.sim.bench import BenchResult

BENCH_MAX_TURNS = 2000
"""As the reference bench: long enough that no game is cut."""


def time_games(game: str, players: int, games: int, bot: str, seed: int) -> BenchResult:
    """Play ``games`` games with ``bot`` in every seat in the kernel and time them."""
    policy_of(bot)
    loaded = load(game, players, max_turns=BENCH_MAX_TURNS)
    engine = FastRancho(loaded)
    seats = (bot,) * players
    engine.play(game_seeds(seed, -1, 0), seats)  # warm-up: compiles or loads the kernel
    start = time.process_time()
    rows = engine.play(game_seeds(seed, 0, games), seats)
    seconds = time.process_time() - start
    truncated = int((rows[:, 0] < 0).sum())
    return BenchResult(
        loaded.id,
        players,
        bot,
        games,
        seconds,
        int(rows[:, 1].sum()),
        truncated,
        int(rows[:, 2].sum()),
        engine="fast",
    )
