"""Train sb3-contrib's MaskablePPO on 2-player Rocket Ranchers against the random bot.

Needs the ``rl`` extra (torch, stable-baselines3, sb3-contrib)::

    pip install -e ".[rl]"
    python examples/maskable_ppo_rocket_ranchers.py --steps 50000 --save ppo-rocket.zip

It measures the learner's win rate against ``random`` three times, over the same
seeded games: a uniformly random learner (the floor), the untrained policy, and
the policy after ``--steps`` environment steps of training. The learner sits in
a random seat each game, so first-player advantage averages out.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from ranchhand.envs.gymnasium import RanchGymEnv, env

Policy = Callable[[np.ndarray, np.ndarray], int]
"""Chooses an action index from an observation and its legal mask."""


def win_rate(policy: Policy, games: int, seed: int) -> float:
    """The share of ``games`` seeded games (``seed``, ``seed + 1``, ...) the policy wins."""
    table = env("rocket-ranchers", players=2, opponents="random", seat="random")
    wins = 0
    for game in range(games):
        observation, info = table.reset(seed=seed + game)
        reward, over = 0.0, False
        while not over:
            action = policy(observation, info["action_mask"])
            observation, reward, terminated, truncated, info = table.step(action)
            over = terminated or truncated
        wins += reward > 0
    return wins / games


def uniform(rng: random.Random) -> Policy:
    return lambda _, mask: rng.choice(np.flatnonzero(mask).tolist())


def greedy_policy(model: MaskablePPO) -> Policy:
    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000, help="training steps")
    parser.add_argument("--eval-games", type=int, default=300, help="games per measurement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="write the trained model here (a .zip)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    evaluation_seed = 1_000_000 + args.seed  # games never seen in training

    training: RanchGymEnv = env("rocket-ranchers", players=2, opponents="random", seat="random")
    training.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy", training, n_steps=2048, batch_size=256, gamma=0.995, seed=args.seed, verbose=0
    )
    started = time.perf_counter()
    floor = win_rate(uniform(random.Random(args.seed)), args.eval_games, evaluation_seed)
    print(f"random learner vs random:    {floor:.1%} of {args.eval_games} games", flush=True)
    untrained = win_rate(greedy_policy(model), args.eval_games, evaluation_seed)
    print(f"untrained policy vs random:  {untrained:.1%}", flush=True)
    model.learn(total_timesteps=args.steps)
    trained = win_rate(greedy_policy(model), args.eval_games, evaluation_seed)
    print(f"after {args.steps:,} steps:  {trained:.1%}", flush=True)
    print(f"{time.perf_counter() - started:.0f} s in all (training and the three measurements)")
    if args.save:
        model.save(args.save)


if __name__ == "__main__":
    main()
