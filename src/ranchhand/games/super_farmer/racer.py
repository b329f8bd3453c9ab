"""``racer``: the solved solitaire policy, turned to win a race against other farmers.

``optimal`` makes the exchange that minimises its expected rolls to a full farm; at a
table of several, what counts is finishing first. The racer looks one roll ahead: for
rolling at once and for every exchange on offer, it plays each of the 25 rolls of the
dice on the real table (the herd as it is, short of what the others hold; the solver's
``roll``, which the tests hold equal to the rules'), and scores the farm each leaves by
the chance to finish first from there:

* a full farm: won now (1);
* a farm one exchange completes: won at the next turn if nobody finishes before;
* another farm: ``E[S(1 + T)]``, ``T`` the turns the solitaire policy still needs from it.

``S(t)``, the *deadline*, is the chance that no other farmer has won before this one's
``t``-th turn from now: from solitaires simulated by the policy from each other farm
(``solver.race.Race.deadline``). Written as a sum of exponentials ``g**(t - 1)``, it makes
``E[S(1 + T)]`` a weighted sum of the table's ``E[g**T]`` (``solver.race``). Far from the
end the deadline is far off and the racer plays close to the solitaire's policy; when
another farmer nears the end, it takes the exchange that most often wins soon, even if
it loses more on average. Ties go to the fewer expected turns.

Alone at the table, with ``exchanges=many`` after its one exchange, or where no solved
policy or race table is to be had, it plays ``optimal``. A farm the solitaire never meets
(the herd was short) is valued as the nearest live farm below it, species kept.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.bots import after
from ranchhand.games.super_farmer.farm import full
from ranchhand.games.super_farmer.optimal import OptimalBot, log
from ranchhand.games.super_farmer.tables import FARM


class RacerBot(OptimalBot):
    """One roll of lookahead, each farm scored by its chance to win the race."""

    name = "racer"
    label = "Racer (solved play, races the others)"
    warned_race = False
    GAMES: ClassVar[int] = 1000
    """Solitaires simulated per other farmer to find when it may win."""

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        trades = [a for a in legal_actions if isinstance(a, Trade)]
        state = observation.state
        if not trades or state.traded:
            return Roll()
        me = observation.player
        mine = tuple(state.animals[me])
        winning = [t for t in trades if all(after(mine, t)[k] for k in FARM)]
        if winning:
            return winning[0]
        options = {k: str(v) for k, v in state.game.options.items() if k != "exchanges"}
        solution = self.policy(options) if state.game.players > 1 else None
        if solution is None:
            return super().act(observation, legal_actions, rng)
        from ranchhand.games.super_farmer.solver.race import race
        from ranchhand.games.super_farmer.solver.solve import NotSolved

        try:
            contest = race(solution)
        except NotSolved as refused:
            if not self.warned_race:
                self.warned_race = True
                log.warning("racer: %s; it plays optimal's exchanges", refused)
            return super().act(observation, legal_actions, rng)
        weights = contest.mixture(self.deadline(state, me, contest))
        choices: list[Hashable] = [Roll(), *trades]
        chances, turns = self.lookahead(state, me, choices, contest, weights)
        best = chances.max()
        close = np.flatnonzero(chances >= best - 1e-9)
        return choices[int(close[np.argmin(turns[close])])]

    def deadline(self, state: Any, me: int, contest: Any) -> np.ndarray:
        """``S(t)``: the chance that no other farmer has won before this one's ``t``-th
        turn from now (``t = 1`` this one), the others playing the solitaire policy; the
        simulation's seed comes from the table, so a position always gets one answer."""
        from ranchhand.games.super_farmer.solver import kernel

        rules = contest.rules
        others = np.array(
            [state.animals[p] for p in range(state.game.players) if p != me], np.int64
        )
        boxes = others + np.array(state.herd, np.int64)
        winnable = np.array(
            [
                kernel.winnable(farm, box, rules.give, rules.take)
                for farm, box in zip(others, boxes, strict=True)
            ]
        )
        rows = self.rows(contest.table, others, winnable)
        known = rows >= 0
        others[known] = contest.solution.farms[rows[known]]  # a farm never met: its nearest
        seed = zlib.crc32(repr((state.animals, state.herd, me)).encode())
        return contest.deadline(others, self.GAMES, seed)

    def rows(self, table: Any, farms: np.ndarray, winnable: np.ndarray) -> np.ndarray:
        """Each farm's row in ``table``; -1 for a full farm and for one an exchange
        completes (``winnable``); for a farm the solitaire never meets, the row of the
        nearest live farm below it that keeps its species."""
        rows = table.rows(farms)
        for i in np.flatnonzero(rows < 0):
            if not winnable[i] and not full(farms[i]):
                rows[i] = self.nearest(farms[i], table)
        return rows

    @staticmethod
    def nearest(farm: np.ndarray, table: Any) -> int:
        """The row of a live farm reached from ``farm`` by taking away animals one at a
        time, the most numerous kind first, never the last of a kind; 0 (the empty farm)
        if none is met."""
        probe = farm.copy()
        for _ in range(int(probe.sum())):
            spare = np.where(probe > 1, probe, 0)
            if not spare.any():
                break
            probe[int(np.argmax(spare))] -= 1
            row = int(table.rows(probe[None, :])[0])
            if row >= 0:
                return row
        return 0

    def lookahead(
        self,
        state: Any,
        me: int,
        choices: Sequence[Hashable],
        contest: Any,
        weights: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each choice (roll, or an exchange then roll): the chance to win the race
        (``weights`` on the exponentials ``g``: 0 and the table's) and the expected turns
        to win, over the 25 rolls of the dice (the solver's ``roll``, which the tests hold
        equal to the rules', each farm breeding from the herd the choice leaves)."""
        from ranchhand.games.super_farmer.solver import kernel

        rules, table = contest.rules, contest.table
        mine = np.array(state.animals[me], np.int64)
        herd = np.array(state.herd, np.int64)
        points = np.repeat(mine[None, :], len(choices), axis=0)
        for i, choice in enumerate(choices):
            if isinstance(choice, Trade):
                points[i] += np.array(choice.take) - np.array(choice.give)
        faces = len(rules.faces)
        rolled = np.empty((len(choices) * faces, 7), np.int64)
        winnable = np.empty(len(rolled), np.bool_)
        kernel.rolled_and_winnable(
            points,
            np.repeat((mine + herd)[None, :], len(choices), axis=0),  # farm + herd
            rules.faces,
            rules.flags,
            rules.give,
            rules.take,
            rolled,
            winnable,
        )
        won = (rolled[:, list(FARM)] > 0).all(axis=1)
        rows = self.rows(table, rolled, winnable)
        live = rows >= 0
        # E[g**(T - 1)] of the turns T from now, per farm after the roll and per g
        grid = np.concatenate(([0.0], table.gammas))
        powers = np.broadcast_to(grid, (len(rolled), len(grid))).copy()  # won next turn
        powers[won] = 1.0
        powers[live] = grid * np.concatenate(
            (np.zeros((int(live.sum()), 1)), table.powers[rows[live]]), axis=1
        )
        turns = np.where(won, 0.0, 1.0)
        turns[live] = table.turns[rows[live]]
        shape = (len(choices), faces)
        chance = (powers @ weights).reshape(shape)
        return chance @ rules.weights, 1.0 + turns.reshape(shape) @ rules.weights
