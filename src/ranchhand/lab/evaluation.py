"""Which evaluation Ludii's metrics read: the game's own, or a search at sampled moves.

By default the lab reads ``State.evaluate()`` before every move: the game's cheap
heuristic of each player's chance to win. As TAG and Ludii do, a *search-based*
evaluation may stand in for it: before every ``every``-th move the game's rollout policy
(the search bots' own: ``greedy``, in the compiled engine where the game has one) plays
the game out ``rollouts`` times from the true position, and each player's evaluation is
the share of those playouts it won (a shared win split). Chance in the playouts comes
from the search's paired streams, seeded from the game's seed and the move, so a game's
evaluations are the same on every run and backend.

It costs ``rollouts`` playouts per sampled move, so it is opt-in (``--evaluation
search:32:10``) and part of a cell's identity: cells read with another evaluation are
other cells. Ludii's per-move metrics are then taken over the sampled moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ranchhand.core.errors import OptionError
from ranchhand.core.game import State
from ranchhand.core.runner import derive_seed
from ranchhand.core.streams import ChanceStream, playout

FULL = 100_000
"""A playout's step cap: play to the end (the game's own ``max_turns`` still applies)."""


@dataclass(frozen=True)
class Evaluation:
    """``game`` (``State.evaluate`` at every move) or ``search`` every ``every``-th move."""

    kind: str = "game"
    rollouts: int = 32
    every: int = 10

    @property
    def tag(self) -> str:
        """What a cell's version carries so that other evaluations make other cells."""
        return "" if self.kind == "game" else f"+search{self.rollouts}x{self.every}"

    def text(self) -> str:
        return "game" if self.kind == "game" else f"search:{self.rollouts}:{self.every}"


GAME = Evaluation()


def parse_evaluation(text: str) -> Evaluation:
    """``game``, or ``search[:ROLLOUTS[:EVERY]]`` (defaults 32 rollouts every 10th move).

    >>> parse_evaluation("search:16:5")
    Evaluation(kind='search', rollouts=16, every=5)
    """
    parts = [p.strip() for p in text.split(":")]
    if parts == ["game"]:
        return GAME
    if parts[0] != "search" or len(parts) > 3 or not all(p.isdigit() for p in parts[1:]):
        raise OptionError(f"--evaluation takes game or search[:ROLLOUTS[:EVERY]], got {text!r}")
    numbers = [int(p) for p in parts[1:]]
    rollouts = numbers[0] if numbers else 32
    every = numbers[1] if len(numbers) > 1 else 10
    if not 1 <= rollouts <= 10_000 or not 1 <= every <= 10_000:
        raise OptionError("--evaluation search: rollouts and every must be 1..10000")
    return Evaluation("search", rollouts, every)


Search = Callable[[State, int], list[float]]


def searcher(state: State, evaluation: Evaluation, seed: int) -> Search:
    """A function (state, move number) -> each player's share of won playouts."""
    from ranchhand.bots.random_bot import RandomBot
    from ranchhand.core.registry import game_module

    game = state.game
    compiled = game.compiled_playout("greedy")
    make = game_module(game.id).BOTS.get("greedy", RandomBot)

    def evaluate(now: State, move: int) -> list[float]:
        totals = [0.0] * game.players
        rng = random.Random(derive_seed(seed, "evaluation", move))
        for k in range(evaluation.rollouts):
            # 62 bits, as the search's streams: a compiled engine reads them as int64
            stream = ChanceStream(derive_seed(seed, "evaluation", move, k) >> 2)
            stream.at(now.turn)
            values: list[float] | None
            if compiled is not None:
                values, _, ended = compiled(now, stream, FULL)
            else:
                values, _, ended = playout(now.clone(), make, stream, FULL, rng)
            if not ended:
                continue  # cut off by max_turns: nobody won this playout
            winners = [p for p, r in enumerate(values or ()) if r > 0]
            for p in winners:
                totals[p] += 1 / len(winners)
        return [t / evaluation.rollouts for t in totals]

    return evaluate
