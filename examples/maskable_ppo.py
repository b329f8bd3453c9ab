"""Train sb3-contrib's MaskablePPO on a ranchhand game and print its learning curve.

Needs torch, stable-baselines3 and sb3-contrib (the ``rl`` extra; see
docs/research.md for a CPU-only torch)::

    python examples/maskable_ppo.py rocket-ranchers --steps 50000 --eval-every 10000 \\
        --out docs/images/ppo

The learner sits in a random seat of a 2-player Gymnasium environment (any
game, any count with ``--players``) and trains against one fixed bot
(``--opponent``, ``random`` by default) for a fixed number of its own steps.
Every ``--eval-every`` steps (rounded up to whole rollouts of ``--n-steps``),
and once before training, the policy plays the same seeded games (seeds never
used in training) against ``random`` and against ``greedy``, choosing the most
likely legal index (or, with ``--sample``, drawing from the policy's distribution,
seeded); a uniformly random learner over those games gives the floor.
Each measurement is a win rate with its 95% Wilson interval, a cut game
counting as not won, next to the wall and CPU time spent so far (CPU time of the
whole process, all threads, so it means the same on a loaded machine).

Torch runs on one thread unless ``--threads`` says otherwise: on a 2-core machine
shared with other jobs, two threads made each step of the policy 30 times and
each PPO update 13 times as costly in CPU time (their workers wait for each
other by spinning), for an MLP too small to gain from them.

The curve is printed as a table and, with ``--out PREFIX``, written to
``PREFIX-<game>.csv`` and ``.json`` (and ``.png`` with ``--plot``).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from ranchhand.envs.gymnasium import env
from ranchhand.sim.stats import wilson_interval

Policy = Callable[[np.ndarray, np.ndarray], int]
"""Chooses an action index from an observation tensor and its legal mask."""

EVALUATION_SEED = 1_000_000
"""Evaluation games are seeded from here on; training draws its games from ``--seed``."""

JUDGES = ("random", "greedy")
"""The bots every point of the curve is measured against."""


@dataclass
class Point:
    """One measurement of the curve: wins out of ``games`` against each judge."""

    steps: int
    """Learner steps trained so far (-1 for the uniformly random learner, the floor)."""
    games: int
    wins_random: int
    wins_greedy: int
    wall_seconds: float
    cpu_seconds: float
    """Process CPU time so far, training and measurements together."""
    training_cpu_seconds: float

    def label(self) -> str:
        return "uniform learner" if self.steps < 0 else f"{self.steps:,}"


def win_count(policy: Policy, game: str, players: int, opponent: str, games: int) -> int:
    """How many of ``games`` seeded games (the learner in a seat drawn from each seed)
    ``policy`` wins against ``opponent`` in every other seat."""
    table = env(game, players=players, opponents=opponent, seat="random")
    wins = 0
    for number in range(games):
        observation, info = table.reset(seed=EVALUATION_SEED + number)
        over, reward = False, 0.0
        while not over:
            action = policy(observation, info["action_mask"])
            observation, reward, terminated, truncated, info = table.step(action)
            over = terminated or truncated
        wins += reward > 0
    return wins


def uniform(seed: int) -> Policy:
    """A learner choosing uniformly among the legal indices: the floor of the curve."""
    rng = random.Random(seed)
    return lambda _, mask: rng.choice(np.flatnonzero(mask).tolist())


def trained(model: MaskablePPO, sample: bool) -> Policy:
    """The trained policy: its most likely legal index, or with ``sample`` an index drawn
    from its distribution over the legal ones (from torch's generator, which
    :func:`measuring` seeds)."""

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(
            observation, action_masks=mask.astype(bool), deterministic=not sample
        )
        return int(action)

    return choose


@contextmanager
def measuring() -> Iterator[None]:
    """Seed torch's generator for a measurement and give training its own back after, so
    sampled measurements repeat and leave training as it would have been without them."""
    kept = torch.get_rng_state()
    torch.manual_seed(EVALUATION_SEED)
    try:
        yield
    finally:
        torch.set_rng_state(kept)


def rate(wins: int, games: int) -> str:
    """``wins`` of ``games`` as a percentage with its 95% Wilson interval."""
    low, high = wilson_interval(wins, games)
    return f"{wins / games:6.1%} ({low:.0%}-{high:.0%})"


def table(points: list[Point]) -> str:
    """The curve as a Markdown table, as docs/research.md shows it."""
    games = points[0].games
    lines = [
        f"| steps | vs random ({games} games) | vs greedy ({games} games) | wall | CPU |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for point in points:
        lines.append(
            f"| {point.label()} | {rate(point.wins_random, games).strip()} "
            f"| {rate(point.wins_greedy, games).strip()} "
            f"| {point.wall_seconds / 60:.1f} min | {point.cpu_seconds / 60:.1f} min |"
        )
    return "\n".join(lines)


def save(points: list[Point], prefix: str, run: dict[str, object], plot: bool) -> None:
    """Write the curve to ``prefix.csv`` and ``prefix.json`` (with the run's settings),
    and draw it to ``prefix.png`` when asked."""
    Path(prefix).parent.mkdir(parents=True, exist_ok=True)
    rows = [asdict(point) for point in points]
    with open(f"{prefix}.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with open(f"{prefix}.json", "w") as handle:
        json.dump({"run": run, "curve": rows}, handle, indent=2)
        handle.write("\n")
    if plot:
        draw(points, f"{prefix}.png", str(run["game"]))


def draw(points: list[Point], path: str, title: str) -> None:
    """The win rates against each judge by training steps, with their intervals; the
    uniformly random learner's rates as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(6, 3.6), dpi=100)
    floor = [point for point in points if point.steps < 0]
    curve = [point for point in points if point.steps >= 0]
    steps = [point.steps for point in curve]
    for judge, colour in zip(JUDGES, ("tab:blue", "tab:red"), strict=True):
        wins = [getattr(point, f"wins_{judge}") for point in curve]
        games = curve[0].games
        rates = [won / games for won in wins]
        intervals = [wilson_interval(won, games) for won in wins]
        errors = [
            [r - low for r, (low, _) in zip(rates, intervals, strict=True)],
            [high - r for r, (_, high) in zip(rates, intervals, strict=True)],
        ]
        axes.errorbar(
            steps, rates, yerr=errors, marker="o", capsize=3, color=colour, label=f"against {judge}"
        )
        for point in floor:
            axes.axhline(
                getattr(point, f"wins_{judge}") / point.games,
                color=colour,
                linestyle="--",
                linewidth=0.8,
            )
    axes.set_ylim(0, 1)
    axes.set_xlabel("learner steps trained")
    axes.set_ylabel("win rate (95% interval)")
    axes.set_title(f"MaskablePPO, {title} (dashed: uniformly random learner)", fontsize=9)
    axes.legend(loc="upper left", fontsize=8)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="rancho, rocket-ranchers, glory-ranch or super-farmer")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="random", help="the bot trained against")
    parser.add_argument("--steps", type=int, default=50_000, help="learner steps to train")
    parser.add_argument("--eval-every", type=int, default=10_000, help="steps between points")
    parser.add_argument("--eval-games", type=int, default=200, help="games against each bot")
    parser.add_argument("--n-steps", type=int, default=2048, help="steps per PPO rollout")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help=f"torch threads (1 by default; this machine has {os.cpu_count()} cores, "
        "see the module's docstring)",
    )
    parser.add_argument(
        "--sample",
        action="store_true",
        help="measure the policy by sampling its actions, not by its most likely one",
    )
    parser.add_argument("--out", help="write the curve to OUT-<game>.csv and .json")
    parser.add_argument("--plot", action="store_true", help="and draw it to OUT-<game>.png")
    parser.add_argument("--save", help="write the trained model here (a .zip)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    training_cpu = 0.0
    points: list[Point] = []

    def measure(policy: Policy, steps: int) -> None:
        with measuring():
            wins = {
                judge: win_count(policy, args.game, args.players, judge, args.eval_games)
                for judge in JUDGES
            }
        point = Point(
            steps,
            args.eval_games,
            wins["random"],
            wins["greedy"],
            time.perf_counter() - started_wall,
            time.process_time() - started_cpu,
            training_cpu,
        )
        points.append(point)
        print(
            f"{point.label():>15} steps  vs random {rate(point.wins_random, point.games)}"
            f"  vs greedy {rate(point.wins_greedy, point.games)}"
            f"  {point.wall_seconds:6.0f} s wall {point.cpu_seconds:6.0f} s CPU",
            flush=True,
        )

    training = env(args.game, players=args.players, opponents=args.opponent, seat="random")
    training.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        training,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        gamma=0.995,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    measure(uniform(args.seed), -1)
    measure(trained(model, args.sample), 0)
    chunk = math.ceil(args.eval_every / args.n_steps) * args.n_steps
    while model.num_timesteps < args.steps:
        before = time.process_time()
        model.learn(
            total_timesteps=min(chunk, args.steps - model.num_timesteps), reset_num_timesteps=False
        )
        training_cpu += time.process_time() - before
        measure(trained(model, args.sample), model.num_timesteps)
    print()
    print(table(points))
    run = {
        "game": args.game,
        "players": args.players,
        "opponent": args.opponent,
        "steps": args.steps,
        "n_steps": args.n_steps,
        "batch_size": args.batch_size,
        "gamma": 0.995,
        "seed": args.seed,
        "threads": args.threads,
        "evaluation": "sampled" if args.sample else "most likely index",
        "evaluation_seeds": f"{EVALUATION_SEED} to {EVALUATION_SEED + args.eval_games - 1}",
        "torch": torch.__version__,
    }
    if args.out:
        save(points, f"{args.out}-{args.game}", run, args.plot)
    if args.save:
        model.save(args.save)


if __name__ == "__main__":
    main()
