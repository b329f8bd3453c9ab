"""``racer``: the solved solitaire policy, turned to win a race against other farmers.

``optimal`` makes the exchange that minimises its expected rolls to a full farm; at a
table of several, what counts is finishing first. The racer looks one roll ahead: for
rolling at once and for every exchange on offer, it plays each of the 25 rolls of the
dice on the real table (the herd as it is, short of what the others hold; the solver's
``roll``, which the tests hold equal to the rules'), and scores the farm each leaves by
the chance to finish first from there:

* a full farm: won now (1);
* a farm one exchange completes: won at the next turn if nobody finishes before;
* another farm, ``T`` the turns the solitaire policy still needs from it (so it wins in
  our turn ``1 + T`` from now): ``E[S(1 + T)]``, the table's row of ``E[g**T]`` itself.
  (The first version weighed the row by ``g`` once more, ``E[S(2 + T)]``; the right
  reading won 467 of 1,200 four-player games against three greedy where it won 453.)

``S(t)``, the *deadline*, is the chance that no other farmer has won before this one's
``t``-th turn from now: from solitaires simulated by the policy from each other farm
(``solver.race.Race.deadline``). Written as a sum of exponentials ``g**(t - 1)``, it makes
``E[S(k + T)]`` a weighted sum of the table's ``E[g**T]`` (``solver.race``). Far from the
end the deadline is far off and the racer plays close to the solitaire's policy; when
another farmer nears the end, it takes the exchange that most often wins soon, even if
it loses more on average. Ties go to the fewer expected turns.

``RacerBot(exact=True)`` (the ``hard`` level) reads the deadline's first turns exactly:
near the end ``S`` falls like a step, which the exponentials follow badly (up to 0.09
off); from each farm's law of turns tabled turn by turn (``solver.race.law_table``) it
scores a live farm ``sum_{t <= 24} P(T = t) S(1 + t)`` plus the exponentials' sum over
the tail alone (``solver.race.Race.split``).

Alone at the table, with ``exchanges=many`` after its one exchange, or where no solved
policy or race table is to be had, it plays ``optimal``. A farm the solitaire never meets
(the herd was short) is valued as the nearest live farm below it, species kept.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.bots import after
from ranchhand.games.super_farmer.optimal import OptimalBot, log
from ranchhand.games.super_farmer.tables import FARM


class RacerBot(OptimalBot):
    """Looks a roll ahead and takes the exchange (or none) most likely to finish first.

    ``exact=True`` reads the deadline's first turns exactly (the ``hard`` level)."""

    name = "racer"
    label = "Racer (solved play, races the others)"
    warned_race = False
    GAMES: ClassVar[int] = 1000
    """Solitaires simulated per other farmer to find when it may win."""

    def __init__(self, exact: bool = False) -> None:
        self.exact = exact

    @classmethod
    def prepare(cls) -> str | None:
        """The race and law tables of the default rules (``solver.race.prepare``): 25 to
        50 CPU seconds and up to 520 MB, once; without numba (the ``fast`` extra) there
        are none."""
        try:
            from ranchhand.games.super_farmer.solver.race import prepare
        except ImportError:
            return None
        made = prepare()
        return None if made is None else f"Super Farmer's race tables for the racer: {made}"

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
        reading = self.reading(self.deadline(state, me, contest), contest)
        choices: list[Hashable] = [Roll(), *trades]
        chances, turns = self.lookahead(state, me, choices, contest, reading)
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
        lost = (rows < 0) & ~winnable & ~full_farms(farms)
        rows[lost] = self.nearest(farms[lost], table)
        return rows

    @staticmethod
    def nearest(farms: np.ndarray, table: Any) -> np.ndarray:
        """For each farm (rows of ``farms``), the row of a live farm reached from it by
        taking away animals one at a time, the most numerous kind first (the first such
        kind on a tie), never the last of a kind; 0 (the empty farm) if none is met. All
        the farms step together, each until it meets a live farm or has nothing spare."""
        probe = np.array(farms, np.int64).reshape(-1, 7)
        rows = np.zeros(len(probe), np.int64)
        pending = np.arange(len(probe))
        while pending.size:
            spare = np.where(probe[pending] > 1, probe[pending], 0)
            movable = spare.any(axis=1)
            pending, spare = pending[movable], spare[movable]
            probe[pending, np.argmax(spare, axis=1)] -= 1
            found = table.rows(probe[pending])
            met = found >= 0
            rows[pending[met]] = found[met]
            pending = pending[~met]
        return rows

    def reading(self, deadline: np.ndarray, contest: Any) -> Reading:
        """How this racer reads ``deadline`` (``S(t)``, ``t = 1..``): through the
        exponentials alone, or, ``exact``, its first turns exactly (where the law table is
        to be had; else as ``normal`` does, saying so once)."""
        if self.exact:
            from ranchhand.games.super_farmer.solver.race import law_table
            from ranchhand.games.super_farmer.solver.solve import NotSolved

            try:
                law = law_table(contest.solution)
            except NotSolved as refused:
                if not self.warned_race:
                    self.warned_race = True
                    log.warning("racer: %s; it reads the deadline as normal does", refused)
            else:
                tail, head = contest.split(deadline)
                return Reading(float(deadline[0]), float(deadline[1]), tail, law, head)
        weights = contest.mixture(deadline)
        now, next_turn = first_turns(contest.table, weights)
        return Reading(now, next_turn, weights[1:])

    def lookahead(
        self,
        state: Any,
        me: int,
        choices: Sequence[Hashable],
        contest: Any,
        reading: Reading,
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each choice (roll, or an exchange then roll): the chance to win the race
        and the expected turns to win, over the 25 rolls of the dice (the solver's
        ``roll``, which the tests hold equal to the rules', each farm breeding from the
        herd the choice leaves): a full farm wins now, ``S(1)``; one an exchange
        completes at our next turn, ``S(2)``; a live farm ``E[S(1 + T)]``, as
        ``reading`` reads it from its row."""
        rules, table = contest.rules, contest.table
        mine = np.array(state.animals[me], np.int64)
        box = mine + np.array(state.herd, np.int64)  # our farm and the herd it breeds from
        won, rows = self.outcomes(self.points(mine, choices), box, rules, table)
        chance = np.where(won, reading.now, reading.next_turn)
        turns = np.where(won, 0.0, 1.0)
        alive = rows >= 0
        chance[alive] = reading.chances(table, rows[alive])
        turns[alive] = table.turns[rows[alive]]
        return over_rolls(chance, turns, rules)

    @staticmethod
    def points(mine: np.ndarray, choices: Sequence[Hashable]) -> np.ndarray:
        """The farm each choice leaves before the dice: ``mine``, or after the exchange."""
        points = np.repeat(mine[None, :], len(choices), axis=0)
        for i, choice in enumerate(choices):
            if isinstance(choice, Trade):
                points[i] += np.array(choice.take) - np.array(choice.give)
        return points

    def outcomes(
        self, points: np.ndarray, box: np.ndarray, rules: Any, table: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each farm of ``points`` rolled with each of the 25 faces (rows ``i * 25 + f``),
        breeding from ``box`` less the farm (the solver's ``roll``): which are full, and
        their rows (:meth:`rows`; -1 for a full farm and for one an exchange with that
        herd completes). A farm the table holds is live in the solitaire, whose herd is
        the larger, so no exchange completes it here either: only the distinct farms the
        table lacks are tried, face by face, rolled again by the compiled kernel that
        tries them."""
        from ranchhand.games.super_farmer.solver import kernel

        faces = len(rules.faces)
        rolled = np.empty((len(points) * faces, 7), np.int64)
        unused = np.zeros(len(rolled), np.bool_)  # no exchange tried: nothing is winnable
        none = np.empty((0, 7), np.int64)
        boxes = np.repeat(box[None, :], len(points), axis=0)
        kernel.rolled_and_winnable(
            points, boxes, rules.faces, rules.flags, none, none, rolled, unused
        )
        won = full_farms(rolled)
        rows = table.rows(rolled)
        unknown = np.flatnonzero((rows < 0) & ~won)
        _, first, back = np.unique(
            rolled[unknown] @ rules.strides, return_index=True, return_inverse=True
        )
        point, face = np.divmod(unknown[first], faces)
        tried = np.empty(len(first), np.bool_)
        for f in np.unique(face):
            some = np.flatnonzero(face == f)
            again = np.empty((len(some), 7), np.int64)
            answers = np.empty(len(some), np.bool_)
            kernel.rolled_and_winnable(
                points[point[some]],
                boxes[: len(some)],
                rules.faces[f : f + 1],
                rules.flags,
                rules.give,
                rules.take,
                again,
                answers,
            )
            tried[some] = answers
        found = np.full(len(first), -1, np.int64)
        found[~tried] = self.nearest(rolled[unknown[first[~tried]]], table)
        back = back.reshape(-1)
        rows[unknown] = found[back]
        return won, rows


def full_farms(farms: np.ndarray) -> np.ndarray:
    """Which farms (rows) hold the winning herd: ``farm.full`` over many at once."""
    return np.asarray((farms[:, list(FARM)] > 0).all(axis=1))


def first_turns(table: Any, weights: np.ndarray) -> tuple[float, float]:
    """``S(1)`` and ``S(2)``: the deadline at this turn and the next, as the exponentials
    write it (``S(t) = sum_k a[k] g[k]**(t - 1)``, the ``g`` being 0 and the table's)."""
    grid = np.concatenate(([0.0], table.gammas))
    return float(grid**0 @ weights), float(grid @ weights)


@dataclass
class Reading:
    """A deadline as a racer reads it: ``S(1)`` and ``S(2)``, and how a live farm's
    ``E[S(1 + T)]`` is summed from its row of the race table (``live`` weights on its
    ``E[g**T]``) and, read exactly, from its column of the law table (``head`` weights on
    ``P(T = t)``, ``t = 1..HEAD``)."""

    now: float
    next_turn: float
    live: np.ndarray
    law: np.ndarray | None = None
    head: np.ndarray | None = None

    def chances(self, table: Any, rows: np.ndarray) -> np.ndarray:
        """``E[S(1 + T)]`` of the live farms of ``rows``."""
        chance: np.ndarray = table.powers[rows] @ self.live
        if self.law is not None and self.head is not None:
            chance = chance + self.head @ self.law[:, rows]
        return chance


def over_rolls(chance: np.ndarray, turns: np.ndarray, rules: Any) -> tuple[np.ndarray, np.ndarray]:
    """Per farm before the dice (rows ``i * 25 + f`` rolled with face ``f``): the chance
    and the expected turns, weighed over the 25 rolls (one turn more for this roll)."""
    faces = len(rules.faces)
    return (
        chance.reshape(-1, faces) @ rules.weights,
        1.0 + turns.reshape(-1, faces) @ rules.weights,
    )
