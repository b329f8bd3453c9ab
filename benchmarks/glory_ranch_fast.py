"""Glory Ranch's fast engine beside the reference: steps/s, and the ``normal`` search with
and without the compiled playout, one run.

Steps/s (``--speed``): each measurement plays whole games for ``--seconds`` of this
process's CPU time, one untimed call first; a round measures, for each player count and
bot, the reference engine (``core.runner.play``, what ``simulate`` runs) and the fast one
(``FastGloryRanch.play``, chunks of 200 games) back to back, ``max_turns`` 2000 as
``bench``; the table gives the medians over ``--rounds`` rounds. A step is any action
applied, chance outcomes included (what ``ranchhand bench`` counts).

The search: a decision of the search is mostly rollouts: from each imagined table, greedy bots in
every seat play on to the game's end (``core.streams.playout``), or, where the game has a
compiled engine, in the kernel (``GloryRanch.compiled_playout("greedy")``). The
positions are seat 0's decisions with more than one choice in games of greedy bots
(seeds 0, 1, ...), ``--positions`` of them per player count, spread over the game. For
each position the two searches run back to back (which goes first alternates), each
from a fresh bot and the same seed, and each decision's CPU time (this thread's) is
taken; the table gives the mean and median over the positions, and how often both chose
the same move (they draw a greedy seat's sign from different generators, so they may
differ; ``tests/games/glory_ranch/test_fast_engine.py`` proves the rollouts equal given
the same signs). The budget is the level's iterations with no time cap. ::

    nice .venv/bin/python benchmarks/glory_ranch_fast.py
    nice .venv/bin/python benchmarks/glory_ranch_fast.py --players 2 4 --positions 40
    nice .venv/bin/python benchmarks/glory_ranch_fast.py --speed --players 2 4 6
    nice .venv/bin/python benchmarks/glory_ranch_fast.py --differential 400 --players 2 4 6

``--differential GAMES`` is the differential test at length: per player count, ``GAMES``
seeded games played in both engines and compared after every step (the test's
``play_both``), half with greedy in every seat and half with greedy and random seats
alternating, under the standard deck and the card-language deck in turn.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from statistics import mean, median
from typing import Any

import numpy as np

from ranchhand.bots.ismcts import ISMCTSBot, level
from ranchhand.core import CHANCE
from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import play
from ranchhand.games.glory_ranch.bots import GreedyBot
from ranchhand.games.glory_ranch.fast.engine import FastGloryRanch
from ranchhand.games.glory_ranch.game import GloryRanch
from ranchhand.games.glory_ranch.state import GloryState


def positions(game: GloryRanch, count: int) -> list[GloryState]:
    """Seat 0's decisions (more than one legal action, outside contests) in greedy games,
    every third one, from seeds 0, 1, ... until ``count`` are found."""
    found: list[GloryState] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state: GloryState = game.new_initial_state()
        bots = [GreedyBot() for _ in range(game.players)]
        seen = 0
        while not state.is_terminal() and len(found) < count:
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            acting = state.acting_players()
            if acting == (0,) and len(state.legal_actions(0)) > 1:
                seen += 1
                if seen % 3 == 0:
                    found.append(state.clone())
            for p in acting:
                state.apply(bots[p].act(state.observe(p), state.legal_actions(p), rng), p)
        seed += 1
    return found


def decide(game: GloryRanch, state: GloryState, compiled: bool, seed: int) -> tuple[float, str]:
    """One ``normal`` decision at ``state`` for seat 0: (CPU seconds, the move)."""
    settings: dict[str, Any] = {**level(game.id, "normal"), "time_cap": None}
    bot = ISMCTSBot(game, **settings)
    observation, legal = state.observe(0), state.legal_actions(0)
    plain = game.compiled_playout
    if not compiled:
        game.compiled_playout = lambda policy: None  # type: ignore[method-assign]
    try:
        start = time.thread_time()
        move = bot.act(observation, legal, random.Random(seed))
        seconds = time.thread_time() - start
    finally:
        game.compiled_playout = plain  # type: ignore[method-assign]
    return seconds, str(move)


MAX_TURNS = 2000
FAST_CHUNK = 200


def steps_per_second(players: int, bot: str, fast: bool, seconds: float) -> float:
    """Steps a second of CPU time over whole games with ``bot`` in every seat."""
    game = load("glory-ranch", players, max_turns=MAX_TURNS)
    rng = random.Random(1)
    if fast:
        engine = FastGloryRanch(game)

        def play_some() -> int:
            seeds = np.array([rng.getrandbits(32) for _ in range(FAST_CHUNK)], dtype=np.int64)
            return int(engine.play(seeds, (bot,) * players)[:, 2].sum())

    else:
        make = bot_factory("glory-ranch", bot)

        def play_some() -> int:
            return play(game, [make() for _ in range(players)], rng.getrandbits(63)).steps

    play_some()
    steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        steps += play_some()
    return steps / elapsed


def speed(players: list[int], seconds: float, rounds: int) -> None:
    """The steps/s table (see the module docstring)."""
    print("| players | bot | reference steps/s | fast steps/s | fast / reference |")
    print("| ---: | --- | ---: | ---: | ---: |")
    for count in players:
        for bot in ("random", "greedy"):
            ratios, slow, quick = [], [], []
            for _ in range(rounds):
                slow.append(steps_per_second(count, bot, False, seconds))
                quick.append(steps_per_second(count, bot, True, seconds))
                ratios.append(quick[-1] / slow[-1])
            print(
                f"| {count} | {bot} | {median(slow):,.0f} | {median(quick):,.0f} "
                f"| {median(ratios):.1f} |"
            )


def differential(players: list[int], games: int) -> None:
    """The differential test's ``play_both`` over ``games`` games per player count."""
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))  # the tests package, for the test's own driver
    from tests.games.glory_ranch import test_fast_engine as lockstep
    from tests.games.glory_ranch.helpers import VOCABULARY_DECK

    for count in players:
        start = time.process_time()
        steps = 0
        for seed in range(games):
            options = {"deck": VOCABULARY_DECK} if seed % 4 >= 2 else {}
            engine = lockstep.engine_for(count, options)
            seats = tuple(
                "greedy" if seed % 2 == 0 or (seed + p) % 2 else "random" for p in range(count)
            )
            final = lockstep.play_both(engine, seats, 90_000 + seed)
            steps += final.turn
        print(
            f"{count} players: {games} games, {steps:,} turns, every step the same "
            f"({time.process_time() - start:.0f} s of CPU)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--speed", action="store_true", help="steps/s instead of the search")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--differential", type=int, default=0, metavar="GAMES")
    args = parser.parse_args()
    if args.differential:
        differential(args.players, args.differential)
        return
    print(f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}")
    print(f"# {os.cpu_count()} cores, nice {os.nice(0)}; CPU time of this process")
    if args.speed:
        speed(args.players, args.seconds, args.rounds)
        return
    print("| players | iterations | reference s | compiled s | reference / compiled | same move |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for players in args.players:
        game = GloryRanch(players)
        game.compiled_playout("greedy")  # load (or compile) the kernel before timing
        decide(game, positions(game, 1)[0], True, 0)
        times: dict[bool, list[float]] = {True: [], False: []}
        same = 0
        for i, state in enumerate(positions(game, args.positions)):
            moves = {}
            for compiled in (True, False) if i % 2 else (False, True):
                seconds, moves[compiled] = decide(game, state, compiled, i)
                times[compiled].append(seconds)
            same += moves[True] == moves[False]
        settings = level(game.id, "normal")
        iterations = settings["iterations"]
        if settings.get("per_two_players"):
            iterations = max(1, round(iterations * 2 / players))
        slow, fast = times[False], times[True]
        print(
            f"| {players} | {iterations} | {mean(slow):.3f} (median {median(slow):.3f}) "
            f"| {mean(fast):.3f} (median {median(fast):.3f}) | {mean(slow) / mean(fast):.1f} "
            f"| {same} of {len(slow)} |"
        )


if __name__ == "__main__":
    main()
