"""Before/after games per second of the reference engine, two source trees in one run.

    git worktree add /tmp/before 09a0b90
    python benchmarks/reference_speedup.py --before /tmp/before/src --after src

Each configuration is timed in a fresh process per tree with ``bench``'s loop (the same
seeds, so the same games) in CPU seconds, alternating before and after ``--rounds`` times and
keeping each tree's best rate (on a machine shared with other work the best of a few
interleaved runs is the fairest) and, beside it, the median of the rounds' ratios (each
before/after pair ran back to back). Prints a Markdown table (the one in
docs/performance.md). Not a test: figures are never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CONFIGS = (
    ("rancho", 4, "greedy"),
    ("rocket-ranchers", 4, "greedy"),
    ("glory-ranch", 4, "greedy"),
    ("rancho", 6, "random"),
    ("rocket-ranchers", 4, "random"),
    ("glory-ranch", 4, "random"),
)
"""The issue's targets (4-player greedy, 6-player random Rancho) and random play."""

_TIMER = """
import json, sys, time
from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import derive_seed, play
game, players, bot, games = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
loaded, make = load(game, players, max_turns=2000), bot_factory(game, bot)
play(loaded, [make() for _ in range(players)], derive_seed(0, "warm-up"))
start = time.process_time()
for index in range(games):
    play(loaded, [make() for _ in range(players)], derive_seed(0, index))
print(json.dumps({"games_per_s": games / (time.process_time() - start)}))
"""
"""``bench``'s loop (the same seeds, so the same games), timed in CPU seconds: what the
process itself used, so the other work sharing the machine counts far less."""


def games_per_s(src: Path, game: str, players: int, bot: str, games: int) -> float:
    """One timing of one configuration in a fresh interpreter importing ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    out = subprocess.run(
        [sys.executable, "-c", _TIMER, game, str(players), bot, str(games)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(json.loads(out)["games_per_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="src folder of the old tree")
    parser.add_argument("--after", type=Path, default=Path("src"), help="src folder of the new")
    parser.add_argument("--games", type=int, default=100, help="games per timing")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved timings per tree")
    args = parser.parse_args()
    print("| game | players | bot | before games/s | after games/s | best/best | median ratio |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for game, players, bot in CONFIGS:
        rates: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(args.rounds):
            for label, src in (("before", args.before), ("after", args.after)):
                rates[label].append(games_per_s(src, game, players, bot, args.games))
        before, after = max(rates["before"]), max(rates["after"])
        pairs = zip(rates["after"], rates["before"], strict=True)
        paired = statistics.median(a / b for a, b in pairs)
        print(
            f"| {game} | {players} | {bot} | {before:.1f} | {after:.1f} | {after / before:.2f}x "
            f"| {paired:.2f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
