"""Solved solitaire Super Farmer: the value of the empty farm against simulated games.

    .venv/bin/python benchmarks/super_farmer_optimal.py                      # defaults
    .venv/bin/python benchmarks/super_farmer_optimal.py -o fox=leave-one --games 100000

Loads the policy of the options from the cache (solving it once if needed), then plays
it two ways: ``--games`` solitaires with the solver's own compiled rules (the
distribution: mean with its 95% interval, quartiles, p90), and ``--reference-games``
with the ``optimal`` bot (and any ``--bot``) on the reference engine, seeded as ``bench`` (an
independent check of the solver's rules: its mean must agree with the value within its
95% interval). Prints Markdown lines for ``docs/games/super-farmer.md``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from ranchhand.core.options import parse_assignments
from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import derive_seed, play
from ranchhand.games.super_farmer.solver.solve import Rules, cached, rolls_to_win


def interval(mean: float, sd: float, n: int) -> str:
    half = 1.96 * sd / math.sqrt(n)
    return f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--reference-games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bot", action="append", default=None, help="bots to play on the reference engine"
    )
    args = parser.parse_args()
    args.bot = args.bot or ["optimal"]
    options = parse_assignments(args.option)
    solution = cached(options)
    rules = Rules.of(options)
    print(f"options: {solution.options or 'defaults'}; solver: {solution.info}")
    print(f"value of the empty farm: {solution.empty_value:.4f} rolls")
    started = time.perf_counter()
    rolls = rolls_to_win(solution, rules, args.seed, args.games)
    q1, median, q3, p90 = np.percentile(rolls, [25, 50, 75, 90])
    print(
        f"compiled rules, {args.games:,} games ({time.perf_counter() - started:.1f} s): "
        f"mean {interval(rolls.mean(), rolls.std(), len(rolls))}, q1 {q1:.1f}, "
        f"median {median:.1f}, q3 {q3:.1f}, p90 {p90:.1f}"
    )
    if args.reference_games:
        for bot in args.bot:
            game = load("super-farmer", 1, max_turns=100_000, **options)
            make = bot_factory("super-farmer", bot)
            started = time.perf_counter()
            counts = np.array(
                [
                    play(game, [make()], derive_seed(args.seed, i)).details["rolls"]
                    for i in range(args.reference_games)
                ]
            )
            q1, median, q3, p90 = np.percentile(counts, [25, 50, 75, 90])
            print(
                f"reference engine, {bot}, {len(counts):,} seeded games "
                f"({time.perf_counter() - started:.0f} s): "
                f"mean {interval(counts.mean(), counts.std(), len(counts))}, q1 {q1:.1f}, "
                f"median {median:.1f}, q3 {q3:.1f}, p90 {p90:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
