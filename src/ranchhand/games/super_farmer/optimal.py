"""``optimal``: the exchange policy of solved solitaire Super Farmer (``solver``).

Alone at the table it plays the policy that minimises the expected rolls to a full farm
under the game's options (``exchanges=many`` plays the ``exchanges=one`` policy, which is
legal there: one exchange, then the dice). The policy is loaded from the user's cache, or
computed once and cached there (``solver.solve.cached``, with a message on stderr).

At a table of several farmers it plays the solitaire's exchange for its farm where that
is on offer (the herd is short of what the others hold, so it may not be), else greedy's
choice, and greedy's choice for a farm never met alone. It never looks at the other
farms: a racing bot that does is the issue's next step, not this one.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.bots import GreedyBot, after
from ranchhand.games.super_farmer.tables import FARM


class OptimalBot(GreedyBot):
    """Solved solitaire play; greedy's choice where the solitaire's table has no answer."""

    name = "optimal"

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        trades = [a for a in legal_actions if isinstance(a, Trade)]
        if not trades:
            return next(a for a in legal_actions if isinstance(a, Roll))
        state = observation.state
        mine = tuple(state.animals[observation.player])
        winning = [t for t in trades if all(after(mine, t)[k] for k in FARM)]
        if winning:
            return winning[0]
        from ranchhand.games.super_farmer.solver.solve import cached

        options = {k: str(v) for k, v in state.game.options.items() if k != "exchanges"}
        solution = cached(options)
        row = solution.lookup(mine)
        if row >= 0:
            move = int(solution.move[row])
            if move < 0:
                return Roll()
            trade = solution.trades[move]
            if trade in trades:
                return trade
        choice = self.choose(mine, trades, state.game.values)
        return choice if choice is not None else Roll()
