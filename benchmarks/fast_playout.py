"""The search's playout in Rancho: the reference engine beside the compiled one, one run.

A playout is what ``ismcts`` does thousands of times a decision: from a position, a
new greedy bot in every seat plays to the end, chance drawn from a stream
(``core.streams``). The position is a mid-game two-player table: two greedy bots play
from the start (seed 1) to the expand step of turn ``--turn``. Each round times, back to
back in this process's CPU time, the reference rollout (``bots.greedy_playout``) over
new streams 0, 1, ... and the compiled one (``RanchoGame.compiled_playout("greedy")``, i.e.
``fast.playout.FastPlayout``: the position copied into the kernel, then played there)
over the same streams; the table gives the medians over ``--rounds`` rounds. Both
engines' results are checked equal on every stream timed. ::

    nice .venv/bin/python benchmarks/fast_playout.py
    nice .venv/bin/python benchmarks/fast_playout.py --turn 30 --seconds 4
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

from ranchhand.core import CHANCE
from ranchhand.core.registry import load
from ranchhand.core.streams import ChanceStream
from ranchhand.games.rancho.bots import GreedyBot, greedy_playout
from ranchhand.games.rancho.state import RanchoState

Rollout = Callable[[RanchoState, ChanceStream, int], tuple[list[float], int, bool]]
MAX_STEPS = 10_000
"""Steps a playout may take: more than any game lasts, so every playout ends."""


def mid_game(turn: int) -> RanchoState:
    """Two greedy bots' game (seed 1) at the expand step of ``turn``."""
    state: RanchoState = load("rancho", 2).new_initial_state()
    rng = random.Random(1)
    seats = [GreedyBot(), GreedyBot()]
    while state.turn < turn or state.is_chance_node():
        assert not state.is_terminal(), "the game ended before that turn"
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(seats[player].act(state.observe(player), state.legal_actions(), rng))
    return state


def measure(rollout: Rollout, state: RanchoState, seconds: float) -> tuple[float, float, int]:
    """Playouts over streams 0, 1, ... for ``seconds`` of CPU time: (microseconds a
    playout, steps a playout, playouts)."""
    played = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        steps += rollout(state, ChanceStream(played), MAX_STEPS)[1]
        played += 1
    return elapsed / played * 1e6, steps / played, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turn", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    state = mid_game(args.turn)
    compiled = state.game.compiled_playout("greedy")
    if compiled is None:
        raise SystemExit("the compiled playout needs numba: pip install -e '.[fast]'")
    compiled(state, ChanceStream(0), MAX_STEPS)  # warm-up: compiles or loads the kernel, untimed
    rows = []
    for _round in range(args.rounds):
        reference = measure(greedy_playout, state, args.seconds)
        fast = measure(compiled, state, args.seconds)
        for stream in range(min(reference[2], fast[2])):
            drawn = ChanceStream(stream)
            assert compiled(state, drawn, MAX_STEPS) == greedy_playout(state, drawn, MAX_STEPS)
        rows.append((reference, fast))
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
        f"python {platform.python_version()}, {args.seconds:g} CPU s a row, median of "
        f"{args.rounds} rounds; 2 players, greedy seats, from turn {state.turn} "
        f"(animals {state.animals})"
    )
    print()
    print("| engine | µs a playout | steps a playout | playouts timed |")
    print("| --- | ---: | ---: | ---: |")
    for name, column in (("reference", 0), ("compiled", 1)):
        micro = median(r[column][0] for r in rows)
        steps = median(r[column][1] for r in rows)
        print(f"| {name} | {micro:,.0f} | {steps:.1f} | {sum(r[column][2] for r in rows):,} |")
    ratio = median(r[0][0] / r[1][0] for r in rows)
    print()
    print(f"compiled / reference: {ratio:.1f} times as many playouts a second")


if __name__ == "__main__":
    main()
