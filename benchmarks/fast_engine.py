"""Rancho's fast engine beside its reference engine and OpenSpiel's C++ ``pig``, one run.

Each row plays whole games for ``--seconds`` of this process's CPU time (not the clock:
other work on a shared machine counts far less), so the rows share the conditions of
the moment and their ratios are fair. A step is any action applied, chance outcomes
included, in every row (what ``ranchhand bench`` counts).

* reference: ``ranchhand.core.runner.play`` with the bot in every seat (what
  ``simulate`` runs), ``max_turns`` 2000 as ``bench``;
* fast: ``FastRancho.play``, whole games in the compiled kernel, chunks of games;
* pig: OpenSpiel's C++ ``pig`` driven from Python as a researcher would
  (``legal_actions``, a random pick, ``apply_action``, chance from ``chance_outcomes``);
  needs ``open_spiel`` (the ``openspiel`` extra); skipped without it. ::

    nice .venv/bin/python benchmarks/fast_engine.py
    nice .venv/bin/python benchmarks/fast_engine.py --players 2 4 6 --seconds 5
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime

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
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rows: list[tuple[str, str, Row, Row]] = []
    for players in args.players:
        for bot in args.bots:
            name = f"rancho {players}p {bot}"
            slow = measure(name, "reference", reference(players, bot), args.seconds)
            quick = measure(name, "fast", fast(players, bot), args.seconds)
            rows.append((f"rancho, {players} players", bot, slow, quick))
    pig_play = pig()
    pig_row = measure("pig", "OpenSpiel C++", pig_play, args.seconds) if pig_play else None
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()} {platform.processor()}, "
        f"{os.cpu_count()} cores, python {platform.python_version()}, {args.seconds:g} CPU s a row"
    )
    print()
    print("| game | bot | reference steps/s | fast steps/s | fast games/s | x reference | x pig |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for game, bot, slow, quick in rows:
        versus_pig = f"{quick.steps_per_s / pig_row.steps_per_s:.2f}" if pig_row else "-"
        print(
            f"| {game} | {bot} | {slow.steps_per_s:,.0f} | {quick.steps_per_s:,.0f} "
            f"| {quick.games_per_s:,.0f} | {quick.steps_per_s / slow.steps_per_s:.1f} "
            f"| {versus_pig} |"
        )
    if pig_row:
        print(
            f"| pig | random (OpenSpiel C++, Python loop) | | {pig_row.steps_per_s:,.0f} "
            f"| {pig_row.games_per_s:,.0f} | | 1.00 |"
        )


if __name__ == "__main__":
    main()
