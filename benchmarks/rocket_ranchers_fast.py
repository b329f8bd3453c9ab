"""Rocket Ranchers' fast engine beside its reference engine: games, playouts, searches.

Every figure is this process's CPU time (not the clock: other work on a shared machine
counts far less), and each round measures the two engines back to back, so a ratio
compares figures of the same moment; the tables give the median over ``--rounds`` rounds.

* games: whole games with the bot in every seat, ``--seconds`` of CPU each way: the
  reference through ``ranchhand.core.runner.play`` (what ``simulate`` and ``bench`` run),
  the fast engine through ``FastRocket.play`` in chunks; ``max_turns`` 2000 as ``bench``.
  A step is any action applied, chance outcomes included (what ``ranchhand bench`` counts).
* playouts: the search's rollout from tables it imagines (``sample_state`` of the player to
  act) along a two-player greedy game, the reference ``streams.playout`` with fresh greedy
  bots against ``RocketGame.compiled_playout("greedy")``, cut after ``rollout_depth`` steps
  as the ``normal`` search cuts them, and played to the end.
* search: the ``normal`` level's decisions (no time cap) at the same positions of
  two-player greedy games, with the compiled playouts and with the reference's; the choices
  must be the same, and the CPU seconds a decision are compared. ::

    nice .venv/bin/python benchmarks/rocket_ranchers_fast.py
    nice .venv/bin/python benchmarks/rocket_ranchers_fast.py --players 2 --rounds 5
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
from typing import Any

import numpy as np
from fast_engine import measure as measure_games

from ranchhand.bots.ismcts import ISMCTSBot, level
from ranchhand.core import CHANCE
from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import play
from ranchhand.core.streams import ChanceStream, playout
from ranchhand.games.rocket_ranchers.bots import GreedyBot
from ranchhand.games.rocket_ranchers.fast.engine import FastRocket
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState

MAX_TURNS = 2000
FAST_CHUNK = 200
GAME = "rocket-ranchers"

PlayMany = Callable[[random.Random], tuple[int, int]]
"""Plays some whole games with the generator's seeds; returns (games, steps)."""


def measure(play_some: PlayMany, seconds: float) -> tuple[float, float]:
    """(steps per second, games per second) over ``seconds`` of CPU (``fast_engine.measure``)."""
    row = measure_games(GAME, "", play_some, seconds)
    return row.steps_per_s, row.games_per_s


def reference(players: int, bot: str) -> PlayMany:
    game = load(GAME, players, max_turns=MAX_TURNS)
    make = bot_factory(GAME, bot)

    def play_some(rng: random.Random) -> tuple[int, int]:
        return 1, play(game, [make() for _ in range(players)], rng.getrandbits(63)).steps

    return play_some


def fast(players: int, bot: str) -> PlayMany:
    engine = FastRocket(load(GAME, players, max_turns=MAX_TURNS))
    seats = (bot,) * players

    def play_some(rng: random.Random) -> tuple[int, int]:
        seeds = np.array([rng.getrandbits(32) for _ in range(FAST_CHUNK)], dtype=np.int64)
        rows = engine.play(seeds, seats)
        return FAST_CHUNK, int(rows[:, 2].sum())

    return play_some


def games_table(args: argparse.Namespace) -> None:
    configs = [
        (players, bot, reference(players, bot), fast(players, bot))
        for players in args.players
        for bot in args.bots
    ]
    measured: dict[tuple[int, str], list[tuple[float, float, float]]] = {}
    for _round in range(args.rounds):
        for players, bot, slow_play, quick_play in configs:
            slow, _ = measure(slow_play, args.seconds)
            quick, games = measure(quick_play, args.seconds)
            measured.setdefault((players, bot), []).append((slow, quick, games))
    print("| players | bot | reference steps/s | fast steps/s | fast games/s | fast / reference |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    for (players, bot), rounds in measured.items():
        slow = median(r[0] for r in rounds)
        quick = median(r[1] for r in rounds)
        games = median(r[2] for r in rounds)
        ratio = median(r[1] / r[0] for r in rounds)
        print(f"| {players} | {bot} | {slow:,.0f} | {quick:,.0f} | {games:,.0f} | {ratio:.1f} |")


def positions(game: RocketGame, count: int, seed: int) -> list[RocketState]:
    """``count`` decision points of greedy games, each as a table the player to act
    imagines from its observation (what the search plays its rollouts on)."""
    rng = random.Random(seed)
    found: list[RocketState] = []
    while len(found) < count:
        state = game.new_initial_state()
        bots = [GreedyBot() for _ in range(game.players)]
        while not state.is_terminal() and len(found) < count:
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            if rng.random() < 0.2:
                found.append(game.sample_state(state.observe(player), rng))
            legal = state.legal_actions(player)
            state.apply(bots[player].act(state.observe(player), legal, rng), player)
    return found


def playouts_table(args: argparse.Namespace) -> None:
    game = load(GAME, 2)
    compiled = game.compiled_playout("greedy")
    assert compiled is not None
    tables = positions(game, 200, 3)
    depth = level(GAME, "normal").get("rollout_depth", 300)
    rows: dict[int, list[tuple[float, float]]] = {}
    for _round in range(args.rounds):
        for max_steps in (depth, 10_000):
            timing = []
            for run in ("reference", "fast"):
                rng = random.Random(1)
                done = 0
                start = time.process_time()
                while (elapsed := time.process_time() - start) < args.seconds:
                    state = tables[done % len(tables)]
                    stream = ChanceStream(done)
                    stream.at(state.turn)
                    if run == "fast":
                        compiled(state, stream, max_steps)
                    else:
                        playout(state.clone(), GreedyBot, stream, max_steps, rng)
                    done += 1
                timing.append(elapsed / done * 1e6)
            rows.setdefault(max_steps, []).append((timing[0], timing[1]))
    print("| rollout | reference µs a playout | compiled µs a playout | reference / compiled |")
    print("| --- | ---: | ---: | ---: |")
    for max_steps, rounds in rows.items():
        name = f"cut after {max_steps} steps" if max_steps < 10_000 else "to the end"
        slow = median(r[0] for r in rounds)
        quick = median(r[1] for r in rounds)
        ratio = median(r[0] / r[1] for r in rounds)
        print(f"| {name} | {slow:,.0f} | {quick:,.0f} | {ratio:.1f} |")


class _Reference(RocketGame):
    """The game without its compiled playout: the search rolls out in Python."""

    def compiled_playout(self, policy: str) -> None:
        return None


def search_table(args: argparse.Namespace) -> None:
    settings: dict[str, Any] = {**level(GAME, "normal"), "time_cap": None}
    per_game: dict[str, list[float]] = {"fast": [], "reference": []}
    same = decisions = 0
    for seed in range(args.search_games):
        games = {"fast": RocketGame(2), "reference": _Reference(2)}
        rng = random.Random(seed)
        state = games["fast"].new_initial_state()
        greedy = [GreedyBot(), GreedyBot()]
        while not state.is_terminal() and decisions < (seed + 1) * args.decisions:
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            legal = state.legal_actions(player)
            if len(legal) > 1 and rng.random() < 0.5:
                chosen = []
                for name in ("fast", "reference"):
                    bot = ISMCTSBot(games[name], **settings)
                    start = time.process_time()
                    chosen.append(bot.act(state.observe(player), legal, random.Random(decisions)))
                    per_game[name].append(time.process_time() - start)
                same += chosen[0] == chosen[1]
                decisions += 1
            state.apply(greedy[player].act(state.observe(player), legal, rng), player)
    fast_cpu, slow_cpu = median(per_game["fast"]), median(per_game["reference"])
    mean_fast = sum(per_game["fast"]) / len(per_game["fast"])
    mean_slow = sum(per_game["reference"]) / len(per_game["reference"])
    print(f"normal search, 2 players, {decisions} decisions ({same} chose the same move both ways)")
    print("| playouts | median CPU s a decision | mean CPU s a decision |")
    print("| --- | ---: | ---: |")
    print(f"| reference | {slow_cpu:.3f} | {mean_slow:.3f} |")
    print(f"| compiled | {fast_cpu:.3f} | {mean_fast:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 5])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy"])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--search-games", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=10, help="searched per game")
    parser.add_argument("--only", choices=("games", "playouts", "search"), default=None)
    args = parser.parse_args()
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
        f"python {platform.python_version()}, {args.seconds:g} CPU s a row, median of "
        f"{args.rounds} rounds, load average {os.getloadavg()[0]:.1f}"
    )
    for part, table in (("games", games_table), ("playouts", playouts_table)):
        if args.only in (None, part):
            print()
            table(args)
    if args.only in (None, "search"):
        print()
        search_table(args)


if __name__ == "__main__":
    main()
