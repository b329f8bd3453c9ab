"""Turns to win a Super Farmer solitaire, per strategy and per reading of the rules.

The published strategy studies of Super Farmer time one farmer alone against the dice
over 10,000 games: how many turns until a full herd, a turn there being a roll and then
an exchange. This prints the same measure for our strategies (mean, quartiles and p90 of
the rolls to win), ranchhand's own turns to win (a game won by an exchange counts the turn
that exchange opens, one more than its rolls) and the games cut off at ``max_turns``, as a
Markdown table for ``docs/games/super-farmer.md``. Ctrl-C stops it, the last row partial::

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

from ranchhand.sim.simulate import Simulation, StopControl, simulate

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
    bot: str,
    options: tuple[tuple[str, str], ...],
    games: int,
    seed: int,
    jobs: int | None,
    control: StopControl,
) -> str:
    """One Markdown table row: the strategy, its options, its rolls and turns to win."""
    sim = Simulation("super-farmer", (bot,), games, seed, (*options, ("max_turns", str(MAX_TURNS))))
    report = simulate(sim, jobs=jobs, control=control)
    rolls = report.summary.get("rolls_to_win") or {}
    turns = report.summary.get("turns_to_win") or {}
    figures = [f"{rolls[k]:.1f}" for k in ("mean", "q1", "median", "q3", "p90")] if rolls else []
    figures += [f"{turns[k]:.1f}" for k in ("mean", "median")] if turns else []
    reading = ", ".join(f"`{k}={v}`" for k, v in options) or "defaults"
    cut = report.tally.truncated
    return f"| {bot} | {reading} | {report.tally.games:,} | {' | '.join(figures)} | {cut} |"


HEAD = (
    "| strategy | options | games | rolls: mean | q1 | median | q3 | p90 "
    "| turns: mean | median | cut off |\n|---|---|---|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games a row")
    parser.add_argument("--seed", type=int, default=1, help="seed of every row")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    args = parser.parse_args()
    start = time.perf_counter()
    print(HEAD)
    control = StopControl()
    with control.catching():
        for bot, options in ROWS:
            line = row(bot, options, args.games, args.seed, args.jobs, control)
            if control.requested:
                print(f"(stopped: {control.reason}; the last row is partial)")
                print(line)
                break
            print(line, flush=True)
    minutes = (time.perf_counter() - start) / 60
    print(
        f"\n{args.games:,} games a row, seed {args.seed}, max_turns {MAX_TURNS}; "
        f"{minutes:.1f} min on {platform.python_implementation()} {platform.python_version()}, "
        f"{datetime.now(UTC):%Y-%m-%d}."
    )


if __name__ == "__main__":
    main()
