"""Seat a trained MaskablePPO model in PettingZoo's AEC loop against masked random agents.

The Gymnasium example (``maskable_ppo.py rocket-ranchers --save ppo-rocket.zip``)
trains from one seat with bots in the others; this plays the same model through
the PettingZoo environment instead, where every seat is outside code, to show
that the two adapters hand out the same tensors and masks::

    python examples/pettingzoo_evaluate.py ppo-rocket.zip --games 200

The model takes each seat in turn (games alternate), and the win rate is printed
per seat and in all, next to a random agent's in the same seat.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from sb3_contrib import MaskablePPO

from ranchhand.envs.pettingzoo import env

Agent = Callable[[np.ndarray, np.ndarray], int]
"""Chooses an action index from an observation tensor and its legal mask."""


def wins(agents: list[Agent], games: int, first_seed: int) -> list[int]:
    """How many of ``games`` seeded 2-player Rocket Ranchers games each seat won."""
    table = env("rocket-ranchers", players=len(agents))
    won = [0] * len(agents)
    for game in range(games):
        table.reset(seed=first_seed + game)
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            if terminated or truncated:
                won[table.agent_name_mapping[agent]] += reward > 0
                table.step(None)
                continue
            choose = agents[table.agent_name_mapping[agent]]
            table.step(choose(observation["observation"], observation["action_mask"]))
    return won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="a model saved by maskable_ppo.py rocket-ranchers --save")
    parser.add_argument("--games", type=int, default=200, help="games per seat")
    parser.add_argument("--seed", type=int, default=2_000_000)
    args = parser.parse_args()
    model = MaskablePPO.load(args.model, device="cpu")
    rng = np.random.default_rng(args.seed)

    def trained(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    def uniform(_: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    for name, learner in (("random agent", uniform), ("trained model", trained)):
        first = wins([learner, uniform], args.games, args.seed)[0]
        second = wins([uniform, learner], args.games, args.seed)[1]
        print(
            f"{name} vs random: seat 0 {first / args.games:.1%}, seat 1 "
            f"{second / args.games:.1%}, in all {(first + second) / (2 * args.games):.1%} "
            f"of {2 * args.games} games",
            flush=True,
        )


if __name__ == "__main__":
    main()
