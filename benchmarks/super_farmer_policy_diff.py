"""Where the solved solitaire policy and greedy choose differently, and how often.

    .venv/bin/python benchmarks/super_farmer_policy_diff.py --games 2000

Plays ``--games`` solitaires with the ``optimal`` bot on the reference engine and asks
greedy, at every decision, what it would do there. Prints the share of decisions where
they differ, a count of the kinds of difference (a dog bought or not, an exchange where
greedy rolls and the reverse, another exchange), and the most frequent differing
decisions with the farm, for the docs' account of what optimal play does.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from ranchhand.core.registry import load
from ranchhand.core.runner import derive_seed
from ranchhand.games.super_farmer.actions import Roll, Trade, animals_text
from ranchhand.games.super_farmer.bots import GreedyBot
from ranchhand.games.super_farmer.optimal import OptimalBot


def kind(action: object) -> str:
    if isinstance(action, Roll):
        return "roll"
    assert isinstance(action, Trade)
    if action.take[5] or action.take[6]:
        return "buy a dog"
    if sum(action.take) == 1:
        return "several for one"
    return "one for several"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    game = load("super-farmer", 1, max_turns=100_000)
    optimal, greedy = OptimalBot(), GreedyBot()
    decisions = differ = 0
    kinds: Counter[tuple[str, str]] = Counter()
    cases: Counter[tuple[str, str, str]] = Counter()
    for index in range(args.games):
        rng = random.Random(derive_seed(1, index))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.chance_outcomes().sample(rng))
                continue
            legal = state.legal_actions(0)
            observation = state.observe(0)
            mine = optimal.act(observation, legal, rng)
            theirs = greedy.act(observation, legal, rng)
            if any(isinstance(a, Trade) for a in legal):
                decisions += 1
                if mine != theirs:
                    differ += 1
                    kinds[kind(mine), kind(theirs)] += 1
                    farm = animals_text(tuple(state.animals[0]))
                    cases[farm, str(mine), str(theirs)] += 1
            state.apply(mine)
    print(f"{decisions:,} decisions with an exchange on offer; {differ:,} differ")
    for (a, b), n in kinds.most_common():
        print(f"  optimal: {a:16} greedy: {b:16} {n:6,} ({n / decisions:.1%})")
    for (farm, a, b), n in cases.most_common(args.top):
        print(f"  {n:5,}  {farm}: optimal {a}; greedy {b}")


if __name__ == "__main__":
    main()
