"""``optimal``: the exchange policy of solved solitaire Super Farmer (``solver``).

Alone at the table it plays the policy that minimises the expected rolls to a full farm
under the game's options (``exchanges=many`` plays the ``exchanges=one`` policy, which is
legal there: one exchange, then the dice). The default rules' policy ships with the
package; another is loaded from the user's cache, or computed once and cached there
(``solver.solve.cached``, with a message on stderr), except where solving on demand is off
(``RANCHHAND_SOLVE=never``, as on the server): there it plays greedy's exchanges.

At a table of several farmers it plays the solitaire's exchange for its farm where that
is on offer (the herd is short of what the others hold, so it may not be), else greedy's
choice, and greedy's choice for a farm never met alone. It never looks at the other
farms: a racing bot that does is the issue's next step, not this one.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Hashable, Sequence
from typing import Any

from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.bots import GreedyBot, after
from ranchhand.games.super_farmer.tables import FARM

log = logging.getLogger(__name__)


class OptimalBot(GreedyBot):
    """Solved solitaire play; greedy's choice where the solitaire's table has no answer."""

    name = "optimal"
    warned = False

    def policy(self, options: dict[str, str]) -> Any:
        """The solved policy for ``options``, or None (said once) where it cannot be had:
        the solver needs the ``fast`` extra (numba), and solving on demand may be off."""
        try:
            from ranchhand.games.super_farmer.solver.solve import NotSolved, cached
        except ImportError as missing:
            reason = (
                f"the solver needs the fast extra ({missing.name}): pip install 'ranchhand[fast]'"
            )
        else:
            try:
                return cached(options)
            except NotSolved as error:
                reason = str(error)
        if not self.warned:
            self.warned = True
            log.warning("optimal bot: %s; it plays greedy's exchanges", reason)
        return None

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
        options = {k: str(v) for k, v in state.game.options.items() if k != "exchanges"}
        solution = self.policy(options)
        row = -1 if solution is None else solution.lookup(mine)
        if solution is not None and row >= 0:
            move = int(solution.move[row])
            if move < 0:
                return Roll()
            trade = solution.trades[move]
            if trade in trades:
                return trade
        return super().act(observation, legal_actions, rng)
