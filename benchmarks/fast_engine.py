"""Rancho's fast engine beside its reference engine and OpenSpiel's C++ ``pig``, one run.

Each measurement plays whole games for ``--seconds`` of this process's CPU time (not the
clock: other work on a shared machine counts far less). A round measures, for each table
size and bot, the reference engine, the fast engine and pig back to back, so their ratios
compare figures of the same moment; the table gives the median over ``--rounds`` rounds
(a shared machine's figures swing by a third from one minute to the next). A step is any
action applied, chance outcomes included, in every row (what ``ranchhand bench`` counts).

* reference: ``ranchhand.core.runner.play`` with the bot in every seat (what
  ``simulate`` runs), ``max_turns`` 2000 as ``bench``;
* fast: ``FastRancho.play``, whole games in the compiled kernel, chunks of games;
* pig: OpenSpiel's C++ ``pig`` driven from Python as a researcher would
  (``legal_actions``, a random pick, ``apply_action``, chance from ``chance_outcomes``);
  needs ``open_spiel`` (the ``openspiel`` extra); skipped without it. ::

    nice .venv/bin/python benchmarks/fast_engine.py
    nice .venv/bin/python benchmarks/fast_engine.py --players 6 --bots random --rounds 5
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from statistics import median

import numpy as np
from vs_openspiel import Row, openspiel_loop

from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import play
from ranchhand.games.rancho.fast.engine import FastRancho

MAX_TURNS = 2000
FAST_CHUNK = 200

PlayMany = Callable[[random.Random], tuple[int, int]]
"""Plays some whole games with the generator's seeds; returns (games, steps)."""


def measure(name: str, kind: str, play_some: PlayMany, seconds: float) -> Row:
    """Games until ``seconds`` of CPU time have passed (one untimed round first), as
    ``vs_openspiel.measure`` but for a callable that may play several games a call."""
    rng = random.Random(1)
    play_some(rng)
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        played, applied = play_some(rng)
        games += played
        steps += applied
    return Row(name, kind, games, steps, elapsed)


def reference(players: int, bot: str) -> PlayMany:
    game = load("rancho", players, max_turns=MAX_TURNS)
    make = bot_factory("rancho", bot)

    def play_some(rng: random.Random) -> tuple[int, int]:
        return 1, play(game, [make() for _ in range(players)], rng.getrandbits(63)).steps

    return play_some


def fast(players: int, bot: str) -> PlayMany:
    engine = FastRancho(load("rancho", players, max_turns=MAX_TURNS))
    seats = (bot,) * players

    def play_some(rng: random.Random) -> tuple[int, int]:
        seeds = np.array([rng.getrandbits(32) for _ in range(FAST_CHUNK)], dtype=np.int64)
        rows = engine.play(seeds, seats)
        return FAST_CHUNK, int(rows[:, 2].sum())

    return play_some


def pig() -> PlayMany | None:
    """OpenSpiel's C++ pig through the driver of ``vs_openspiel.py`` (beside this file)."""
    try:
        play_one = openspiel_loop("pig")
    except ImportError:
        return None
    return lambda rng: (1, play_one(rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy"])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pig_play = pig()
    configs = [
        (players, bot, reference(players, bot), fast(players, bot))
        for players in args.players
        for bot in args.bots
    ]
    # Each round measures every configuration's engines and pig back to back, so a ratio
    # compares figures of the same moment; the table gives the median over the rounds.
    measured: dict[tuple[int, str], list[tuple[Row, Row, Row | None]]] = {}
    for _round in range(args.rounds):
        for players, bot, slow_play, quick_play in configs:
            name = f"rancho {players}p {bot}"
            slow = measure(name, "reference", slow_play, args.seconds)
            quick = measure(name, "fast", quick_play, args.seconds)
            beside = measure("pig", "OpenSpiel C++", pig_play, args.seconds) if pig_play else None
            measured.setdefault((players, bot), []).append((slow, quick, beside))
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()} {platform.processor()}, "
        f"{os.cpu_count()} cores, python {platform.python_version()}, {args.seconds:g} CPU s a "
        f"row, median of {args.rounds} rounds"
    )
    print()
    print(
        "| game | bot | reference steps/s | fast steps/s | fast games/s | pig steps/s "
        "| fast / reference | fast / pig |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (players, bot), rounds in measured.items():
        slow = median(r[0].steps_per_s for r in rounds)
        quick = median(r[1].steps_per_s for r in rounds)
        games = median(r[1].games_per_s for r in rounds)
        ratio = median(r[1].steps_per_s / r[0].steps_per_s for r in rounds)
        pigs = [r[2].steps_per_s for r in rounds if r[2] is not None]
        pig_rate = f"{median(pigs):,.0f}" if pigs else "-"
        versus_pig = (
            f"{median(r[1].steps_per_s / r[2].steps_per_s for r in rounds if r[2]):.2f}"
            if pigs
            else "-"
        )
        print(
            f"| rancho, {players} players | {bot} | {slow:,.0f} | {quick:,.0f} | {games:,.0f} "
            f"| {pig_rate} | {ratio:.1f} | {versus_pig} |"
        )


if __name__ == "__main__":
    main()
