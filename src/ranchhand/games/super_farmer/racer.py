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

``RacerBot(rolls=2)`` (the ``hard`` level) looks two rolls ahead: after each first roll,
the choice it would make at its next turn among every exchange the herd offers then (or
rolling), over the 25 second rolls, a farm after those scored ``E[S(2 + T)]``, counted
as :meth:`RacerBot.two_rolls` says. Its arrays are numpy's, its rolls and exchange tests
the solver's compiled kernel (up to about a million farms rolled in a decision).

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
from ranchhand.games.super_farmer.optimal import OptimalBot, log
from ranchhand.games.super_farmer.tables import FARM


class RacerBot(OptimalBot):
    """Looks a roll ahead and takes the exchange (or none) most likely to finish first.

    ``rolls=2`` looks two rolls ahead (the ``hard`` level)."""

    name = "racer"
    label = "Racer (solved play, races the others)"
    warned_race = False
    GAMES: ClassVar[int] = 1000
    """Solitaires simulated per other farmer to find when it may win."""

    def __init__(self, rolls: int = 1) -> None:
        if rolls not in (1, 2):
            raise ValueError(f"the racer looks one or two rolls ahead, not {rolls}")
        self.rolls = rolls

    @classmethod
    def prepare(cls) -> str | None:
        """The race table of the default rules (``solver.race.prepare``): 20 to 45 CPU
        seconds and up to 520 MB, once; without numba (the ``fast`` extra) there is none."""
        try:
            from ranchhand.games.super_farmer.solver.race import prepare
        except ImportError:
            return None
        made = prepare()
        return None if made is None else f"Super Farmer's race table for the racer: {made}"

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
        equal to the rules', each farm breeding from the herd the choice leaves); two
        rolls deep if the racer looks so far (:meth:`two_rolls`)."""
        rules, table = contest.rules, contest.table
        mine = np.array(state.animals[me], np.int64)
        box = mine + np.array(state.herd, np.int64)  # our farm and the herd it breeds from
        if self.rolls == 2:
            return self.two_rolls(self.points(mine, choices), box, rules, table, weights)
        _, won, _, rows = self.outcomes(self.points(mine, choices), box, rules, table)
        # full now: S(1); one exchange completes it: S(2); live: E[S(1 + T)], the row
        chance, turns = self.scored(won, rows, table, first_turns(table, weights)[:2], weights[1:])
        return over_rolls(chance, turns, rules)

    def two_rolls(
        self, points: np.ndarray, box: np.ndarray, rules: Any, table: Any, weights: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`lookahead` two rolls deep, from the farm each choice leaves (``points``)
        and ``box``, that farm and the herd: after each of the 25 first rolls, the
        racer's best choice at its next turn (rolling, or any exchange the herd offers
        then), over the 25 second rolls. With ``S(t)`` the deadline (the chance no one
        else has won before our ``t``-th turn from now, ``t = 1`` this one; between two
        of our turns every other farmer plays one) and ``T`` the turns the solitaire
        policy still needs from a farm at the start of a turn:

        * after the first roll, a full farm wins in this turn: ``S(1)``; a farm one
          exchange completes wins at our next turn: ``S(2)``; any other farm is worth the
          best of its choices at our next turn, each of them scored over the second roll:
        * after the second roll, a full farm wins in our next turn: ``S(2)``; a farm one
          exchange completes, in the turn after: ``S(3)``; another farm, from the start of
          our third turn, in turn ``2 + T``: ``E[S(2 + T)]``, which with
          ``S(t) = sum_k a[k] g[k]**(t - 1)`` is ``sum_k a[k] g[k] E[g[k]**T]`` (the table's
          row times ``g``). ``S(1..3)`` are read from the same sum.

        The next choice is the one the racer would make then (the highest chance, ties
        to the fewer expected turns): the others' farms do not depend on ours, so the
        chance to finish first through it is the same sum over the deadline simulated
        now. The herd stays the one left now (the others' farms as they are). The
        expected turns are those of the same paths, as in :meth:`lookahead`."""
        deadline = first_turns(table, weights)
        rolled, won, winnable, _ = self.outcomes(points, box, rules, table)
        chance = np.where(won, deadline[0], deadline[1])
        turns = np.where(won, 0.0, 1.0)
        going = np.flatnonzero(~won & ~winnable)
        if going.size:  # some first rolls leave a farm that is not won by the next turn
            farms, back = self.distinct(rolled[going], rules)
            best, fewest = self.next_turn(farms, box, rules, table, weights, deadline)
            chance[going], turns[going] = best[back], fewest[back]
        return over_rolls(chance, turns, rules)

    def next_turn(
        self,
        farms: np.ndarray,
        box: np.ndarray,
        rules: Any,
        table: Any,
        weights: np.ndarray,
        deadline: list[float],
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each farm at our next turn (neither full nor winnable): the chance and
        the expected turns (from that turn) of its best choice, each choice scored over
        the 25 second rolls (see :meth:`two_rolls`)."""
        moves = np.concatenate((np.zeros((1, 7), np.int64), rules.take - rules.give))
        offered = np.ones((len(farms), len(moves)), np.bool_)  # rolling, then each exchange
        room = box - farms
        for k in range(7):  # what each exchange gives and takes of kind k, farm by farm
            offered[:, 1:] &= farms[:, k : k + 1] >= rules.give[:, k]
            offered[:, 1:] &= room[:, k : k + 1] >= rules.take[:, k]
        farm_of, move = np.nonzero(offered)  # grouped by farm, rolling first
        points, back = self.distinct(farms[farm_of] + moves[move], rules)
        _, won, _, rows = self.outcomes(points, box, rules, table)
        # one turn later than lookahead's: S(2), S(3) and E[S(2 + T)], the row times g
        chance, turns = self.scored(won, rows, table, deadline[1:], table.gammas * weights[1:])
        chances, expected = (part[back] for part in over_rolls(chance, turns, rules))
        starts = np.flatnonzero(np.concatenate(([True], farm_of[1:] != farm_of[:-1])))
        best = np.maximum.reduceat(chances, starts)
        close = chances >= best[farm_of] - 1e-9
        return best, np.minimum.reduceat(np.where(close, expected, np.inf), starts)

    @staticmethod
    def scored(
        won: np.ndarray, rows: np.ndarray, table: Any, fixed: list[float], live: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each rolled farm's chance to finish first and expected turns: ``fixed[0]`` for
        a full farm, ``fixed[1]`` for one an exchange completes (no row), and for a live
        farm its row of ``E[g**T]`` weighed by ``live``."""
        alive = rows >= 0
        chance = np.where(won, fixed[0], fixed[1])
        chance[alive] = table.powers[rows[alive]] @ live
        turns = np.where(won, 0.0, 1.0)
        turns[alive] = table.turns[rows[alive]]
        return chance, turns

    @staticmethod
    def points(mine: np.ndarray, choices: Sequence[Hashable]) -> np.ndarray:
        """The farm each choice leaves before the dice: ``mine``, or after the exchange."""
        points = np.repeat(mine[None, :], len(choices), axis=0)
        for i, choice in enumerate(choices):
            if isinstance(choice, Trade):
                points[i] += np.array(choice.take) - np.array(choice.give)
        return points

    @staticmethod
    def distinct(farms: np.ndarray, rules: Any) -> tuple[np.ndarray, np.ndarray]:
        """The distinct farms among ``farms`` and, for each farm, its index among them."""
        _, first, back = np.unique(farms @ rules.strides, return_index=True, return_inverse=True)
        return farms[first], back.reshape(-1)

    def outcomes(
        self, points: np.ndarray, box: np.ndarray, rules: Any, table: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each farm of ``points`` rolled with each of the 25 faces (rows ``i * 25 + f``),
        breeding from ``box`` less the farm (the solver's ``roll``): the farms, which are
        full, which one exchange with that herd completes, and their rows (:meth:`rows`).
        A farm the table holds is live in the solitaire, whose herd is the larger, so no
        exchange completes it here either: only the distinct farms the table lacks are
        tried, face by face, rolled again by the compiled kernel that tries them."""
        from ranchhand.games.super_farmer.solver import kernel

        faces = len(rules.faces)
        rolled = np.empty((len(points) * faces, 7), np.int64)
        winnable = np.zeros(len(rolled), np.bool_)
        none = np.empty((0, 7), np.int64)  # no exchange tried: only the roll
        boxes = np.repeat(box[None, :], len(points), axis=0)
        kernel.rolled_and_winnable(
            points, boxes, rules.faces, rules.flags, none, none, rolled, winnable
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
        winnable[unknown], rows[unknown] = tried[back], found[back]
        return rolled, won, winnable, rows


def full_farms(farms: np.ndarray) -> np.ndarray:
    """Which farms (rows) hold the winning herd: ``farm.full`` over many at once."""
    return np.asarray((farms[:, list(FARM)] > 0).all(axis=1))


def first_turns(table: Any, weights: np.ndarray) -> list[float]:
    """``S(1)``, ``S(2)`` and ``S(3)``: the deadline at this turn and the next two
    (``S(t) = sum_k a[k] g[k]**(t - 1)``, the ``g`` being 0 and the table's)."""
    grid = np.concatenate(([0.0], table.gammas))
    return [float(grid**t @ weights) for t in range(3)]


def over_rolls(chance: np.ndarray, turns: np.ndarray, rules: Any) -> tuple[np.ndarray, np.ndarray]:
    """Per farm before the dice (rows ``i * 25 + f`` rolled with face ``f``): the chance
    and the expected turns, weighed over the 25 rolls (one turn more for this roll)."""
    faces = len(rules.faces)
    return (
        chance.reshape(-1, faces) @ rules.weights,
        1.0 + turns.reshape(-1, faces) @ rules.weights,
    )
