"""ranchhand's reference engine beside OpenSpiel's C++ and Python games, random play, one run.

Every row plays whole games with uniformly random choices for ``--seconds`` of CPU time in
this one process (CPU time, not the clock: other work on a shared machine counts far less),
so the rows share the conditions of the moment and their ratios are fair:

* ranchhand: each game at ``--players`` through ``ranchhand.core.runner.play`` with the
  ``random`` bot in every seat, chance sampled from the seed (what ``simulate`` runs);
* OpenSpiel C++ games (``pig``, ``tic_tac_toe``, ...) and Python games
  (``python_tic_tac_toe``, ``python_kuhn_poker``) driven from Python as a researcher
  would: ``legal_actions``, a random pick, ``apply_action``, chance sampled from
  ``chance_outcomes``.

A step is any action applied, chance outcomes included, on both sides. ``x pig`` is the
row's steps/s over OpenSpiel's C++ ``pig``; the summary gives ranchhand's mean against the
C++ and the Python games. Needs ``open_spiel`` (``pip install -e ".[openspiel]"``). ::

    nice .venv/bin/python benchmarks/vs_openspiel.py
    nice .venv/bin/python benchmarks/vs_openspiel.py --seconds 5 --players 2
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import play

RANCHHAND_GAMES = ("rancho", "rocket-ranchers", "glory-ranch")
CPP_GAMES = ("pig", "tic_tac_toe", "connect_four", "kuhn_poker", "leduc_poker")
PYTHON_GAMES = ("python_tic_tac_toe", "python_kuhn_poker")

PlayOne = Callable[[random.Random], int]
"""Plays one whole game with the generator's choices; returns the steps applied."""


@dataclass(frozen=True)
class Row:
    name: str
    kind: str
    games: int
    steps: int
    seconds: float

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def measure(name: str, kind: str, play_one: PlayOne, seconds: float) -> Row:
    """Whole games until ``seconds`` have passed (one untimed game first, to warm caches)."""
    rng = random.Random(1)
    play_one(rng)
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        steps += play_one(rng)
        games += 1
    return Row(name, kind, games, steps, elapsed)


def ranchhand_loop(game_id: str, players: int) -> PlayOne:
    game = load(game_id, players, max_turns=2000)
    make = bot_factory(game_id, "random")

    def play_one(rng: random.Random) -> int:
        return play(game, [make() for _ in range(players)], rng.getrandbits(63)).steps

    return play_one


def openspiel_loop(short_name: str) -> PlayOne:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game(short_name)

    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                point, total = rng.random(), 0.0
                action = outcomes[-1][0]
                for outcome, probability in outcomes:
                    total += probability
                    if point < total:
                        action = outcome
                        break
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            steps += 1
        return steps

    return play_one


def table(rows: list[Row]) -> str:
    pig = next(r for r in rows if r.name == "pig").steps_per_s
    lines = [
        "| game | engine | games/s | steps/s | x pig |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r.name} | {r.kind} | {r.games_per_s:,.1f} | {r.steps_per_s:,.0f} "
            f"| {r.steps_per_s / pig:.3f} |"
        )
    ours = statistics.mean(r.steps_per_s for r in rows if r.kind.startswith("ranchhand"))
    cpp = statistics.mean(r.steps_per_s for r in rows if r.kind == "OpenSpiel C++")
    py = statistics.mean(r.steps_per_s for r in rows if r.kind == "OpenSpiel Python")
    lines.append("")
    lines.append(
        f"ranchhand's mean steps/s is {ours / cpp:.2f}x OpenSpiel's C++ games' mean and "
        f"{ours / py:.2f}x its Python games' mean."
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row")
    parser.add_argument("--players", type=int, default=4, help="players in ranchhand's games")
    args = parser.parse_args()
    import open_spiel.python.games  # type: ignore[import-untyped]  # noqa: F401  (registers them)

    loops: list[tuple[str, str, PlayOne]] = [
        (g, f"ranchhand ({args.players} players)", ranchhand_loop(g, args.players))
        for g in RANCHHAND_GAMES
    ]
    loops += [(g, "OpenSpiel C++", openspiel_loop(g)) for g in CPP_GAMES]
    loops += [(g, "OpenSpiel Python", openspiel_loop(g)) for g in PYTHON_GAMES]
    rows = [measure(name, kind, loop, args.seconds) for name, kind, loop in loops]
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{args.seconds:g} s per row, random play\n"
    )
    print(table(rows))


if __name__ == "__main__":
    main()
