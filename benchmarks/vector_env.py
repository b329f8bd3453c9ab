"""Batched stepping (``ranchhand.envs.vector``): learner steps a second, compiled and not.

A learner step is one decision of the learner's seat in every game of the batch, with
what follows it (chance and the other seats' moves). The learner picks a uniformly random
legal index, chosen for the whole batch with one numpy call outside the timed part, so the
figure is the environment's ``step`` alone, not a policy's. CPU time of this process; each
configuration runs after a warm-up (the kernel loaded or compiled), the compiled batch and
the Python one in turn (the Python batch at most 64 games: its rate does not grow with size).

Rancho's games are the research adapters' (``deals_per_turn`` 8); both batches play
greedy opponents.

    .venv/bin/python benchmarks/vector_env.py [--seconds 3] [--players 2]
                                              [--games super-farmer,rancho]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from gymnasium.vector import VectorEnv

from ranchhand.envs.vector import vector_env


def rate(game: str, num_envs: int, players: int, compiled: bool, seconds: float) -> float:
    env = vector_env(game, num_envs, players, "greedy", compiled=compiled)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(5):  # warm-up
        _, *_, info = env.step(
            np.argmax(info["action_mask"] * rng.random(info["action_mask"].shape), axis=1)
        )
    return learner_rate(env, info, rng, seconds)


def learner_rate(
    env: VectorEnv[Any, Any, Any], info: dict[str, Any], rng: np.random.Generator, seconds: float
) -> float:
    """Learner steps per CPU second of ``env``'s ``step`` alone, from ``info`` (the last
    step's): each index uniformly random among the legal ones, drawn before the clock starts."""
    steps, spent = 0, 0.0
    while spent < seconds:
        masks = info["action_mask"]
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        start = time.process_time()
        _, *_, info = env.step(actions)
        spent += time.process_time() - start
        steps += env.num_envs
    return steps / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", default="super-farmer,rancho")
    args = parser.parse_args()
    print("| game | batch | Python envs (learner steps/s) | compiled (learner steps/s) | ratio |")
    print("|---|---:|---:|---:|---:|")
    for game in args.games.split(","):
        for num_envs in (1, 64, 1024):
            python = rate(game, min(num_envs, 64), args.players, False, args.seconds)
            fast = rate(game, num_envs, args.players, True, args.seconds)
            print(
                f"| {game}, {args.players} players | {num_envs} | {python:,.0f} | {fast:,.0f} "
                f"| {fast / python:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
