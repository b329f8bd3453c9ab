"""Turns to win a Super Farmer solitaire, per strategy and per reading of the rules.

The published strategy studies of Super Farmer time one farmer alone against the dice
over 10,000 games: how many turns until a full herd. This prints the same measure for
our strategies (mean, quartiles, p90 of the turns to win, and the games cut off at
``max_turns``), as a Markdown table for ``docs/games/super-farmer.md``::

    .venv/bin/python benchmarks/super_farmer_solo.py                  # 10,000 games a row
    .venv/bin/python benchmarks/super_farmer_solo.py --games 1000 --jobs 2

Every row plays the same seeds (one derived seed per game index), so rows differ only
by strategy and options, and the figures do not depend on ``--jobs``.
"""

from __future__ import annotations

import argparse
import platform
import time
from datetime import UTC, datetime

from ranchhand.sim.simulate import Simulation, simulate

ROWS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("random", ()),
    ("daring", ()),
    ("greedy", ()),
    ("greedy", (("exchanges", "many"),)),
    ("greedy", (("trade", "one-kind"),)),
    ("greedy", (("fox", "leave-one"),)),
    ("greedy", (("wolf", "takes-small-dog"),)),
    ("greedy", (("dog", "if-needed"),)),
)
"""(strategy, options other than the defaults) of each row."""
MAX_TURNS = 1000


def row(
    bot: str, options: tuple[tuple[str, str], ...], games: int, seed: int, jobs: int | None
) -> str:
    """One Markdown table row: the strategy, its options and its turns to win."""
    sim = Simulation("super-farmer", (bot,), games, seed, (*options, ("max_turns", str(MAX_TURNS))))
    report = simulate(sim, jobs=jobs)
    won = report.summary.get("turns_to_win") or {}
    figures = [f"{won[k]:.1f}" for k in ("mean", "q1", "median", "q3", "p90")] if won else []
    reading = ", ".join(f"`{k}={v}`" for k, v in options) or "defaults"
    cut = report.tally.truncated
    return f"| {bot} | {reading} | {report.tally.games} | {' | '.join(figures)} | {cut} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games a row")
    parser.add_argument("--seed", type=int, default=1, help="seed of every row")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    args = parser.parse_args()
    start = time.perf_counter()
    print("| strategy | options | games | mean | q1 | median | q3 | p90 | cut off |")
    print("|---|---|---|---|---|---|---|---|---|")
    for bot, options in ROWS:
        print(row(bot, options, args.games, args.seed, args.jobs), flush=True)
    minutes = (time.perf_counter() - start) / 60
    print(
        f"\n{args.games:,} games a row, seed {args.seed}, max_turns {MAX_TURNS}; "
        f"{minutes:.1f} min on {platform.python_implementation()} {platform.python_version()}, "
        f"{datetime.now(UTC):%Y-%m-%d}."
    )


if __name__ == "__main__":
    main()
