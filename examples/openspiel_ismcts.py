"""OpenSpiel's own IS-MCTS against a uniform random player, on a ranchhand game through pyspiel.

Nothing here is ranchhand's search: the bot is ``open_spiel.python.algorithms.ismcts``
with random rollouts, keyed on the player's observation string and determinizing
through the adapter's ``resample_from_infostate`` (the engine redraws what the player
cannot see). The searcher takes each seat in turn; the win rate is printed with a 95%
interval::

    python examples/openspiel_ismcts.py --games 20 --simulations 20
    python examples/openspiel_ismcts.py --game rocket_ranchers --players 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]

from ranchhand.envs.openspiel import register
from ranchhand.sim.stats import wilson_interval


def play(game: object, searcher: object, seat: int, rng: np.random.RandomState) -> list[float]:
    """One game: ``searcher`` in ``seat``, uniform random choices in the others."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == seat:
            state.apply_action(searcher.step(state))  # type: ignore[attr-defined]
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.returns())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="rocket_ranchers", help="a sequential ranchhand game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=20, help="IS-MCTS simulations a move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    register()
    game = pyspiel.load_game(f"ranchhand_{args.game}", {"players": args.players})
    rng = np.random.RandomState(args.seed)
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(
        game,
        rollouts,
        2.0,
        args.simulations,
        random_state=rng,
        use_observation_string=True,
        allow_inconsistent_action_sets=True,
    )
    won = 0
    start = time.process_time()
    for number in range(args.games):
        seat = number % args.players
        won += play(game, searcher, seat, rng)[seat] > 0
        print(f"game {number + 1}: searcher in seat {seat}, {won} won so far", flush=True)
    low, high = wilson_interval(won, args.games)
    print(
        f"IS-MCTS ({args.simulations} simulations a move) against random, {args.players} "
        f"players: {won}/{args.games} won ({won / args.games:.0%}, 95% interval "
        f"{low:.0%}-{high:.0%}), {(time.process_time() - start) / args.games:.1f} s CPU a game"
    )


if __name__ == "__main__":
    main()
