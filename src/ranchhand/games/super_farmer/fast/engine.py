"""The fast engine's Python face: a loaded game's tables as arrays, games in bulk, and a
table stepped from Python.

:class:`FastSuperFarmer` wraps one loaded :class:`SuperFarmerGame` (its options and
player count). ``play`` plays whole games in the kernel (``simulate --engine fast``
and ``bench --engine fast``); ``load`` copies any reference position into kernel
arrays; :class:`FastTable` steps one game from Python, showing its legal actions as
the reference engine's action objects, which is what the differential test compares.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import accumulate
from typing import cast

import numpy as np

from ranchhand.core import CHANCE, Game, OptionError
from ranchhand.core.game import TRUNCATED, Outcome, State
from ranchhand.core.kernels import kernel_policy
from ranchhand.core.streams import ChanceStream
from ranchhand.games.super_farmer.actions import DiceRoll, Roll, Trade
from ranchhand.games.super_farmer.bots import GreedyBot
from ranchhand.games.super_farmer.exchanges import unit
from ranchhand.games.super_farmer.fast import kernel
from ranchhand.games.super_farmer.game import SuperFarmerGame
from ranchhand.games.super_farmer.state import ROLL, STATS, SuperFarmerState

POLICIES = {"random": kernel.RANDOM, "greedy": kernel.GREEDY, "daring": kernel.DARING}
"""The bots the fast engine plays, by their registry names."""
RESULT_COLUMNS = ("winner", "turns", "steps", *kernel.STATS)
"""The columns of :meth:`FastSuperFarmer.play`'s rows."""

if tuple(kernel.STATS) != STATS:  # the kernel's scalars mirror the reference's stats
    raise AssertionError("the fast engine's statistics no longer match state.STATS")


def policy_of(bot: str) -> int:
    """The kernel's policy for a bot name; OptionError naming the bots it has."""
    return kernel_policy(POLICIES, bot)


def rules_of(game: SuperFarmerGame) -> kernel.Rules:
    """The kernel's :class:`~kernel.Rules` of a loaded game.

    Exchanges are listed species by species as ``exchanges.Offers`` lists them (the
    game's bundles in order, bought with then sold for), then the swaps sorted; the
    dice's outcomes in the order of ``game.roll_outcomes``.
    """
    trades: list[Trade] = []
    buy_from, sell_from, ends = [], [], []
    for kind, mixes in enumerate(game.bundles):
        one = unit(kind)
        buy_from.append(len(trades))
        trades.extend(Trade(mix, one) for mix in mixes)
        sell_from.append(len(trades))
        trades.extend(Trade(one, mix) for mix in mixes)
        ends.append(len(trades))
    swap_give = [0] * len(trades)
    swap_take = [0] * len(trades)
    for a, b in sorted(game.swaps):
        trades.append(Trade(unit(a), unit(b)))
        swap_give.append(a)
        swap_take.append(b)
    outcomes = game.roll_outcomes
    rolls = [cast("DiceRoll", roll) for roll in outcomes.actions]
    options = [0] * kernel.OPTIONS
    options[kernel.O_PLAYERS] = game.players
    options[kernel.O_MANY] = int(game.options["exchanges"] == "many")
    options[kernel.O_LEAVE_ONE] = int(game.options["fox"] == "leave-one")
    options[kernel.O_TAKES_SMALL_DOG] = int(game.options["wolf"] == "takes-small-dog")
    options[kernel.O_IF_NEEDED] = int(game.options["dog"] == "if-needed")
    options[kernel.O_WOLF_FIRST] = int(game.options["predators"] == "wolf-first")
    options[kernel.O_MAX_TURNS] = game.max_turns
    thresholds = [0] * 3
    thresholds[kernel.SMALL_DOG_AT] = GreedyBot.SMALL_DOG_AT
    thresholds[kernel.BIG_DOG_AT] = GreedyBot.BIG_DOG_AT
    thresholds[kernel.RABBITS_KEPT] = GreedyBot.RABBITS_KEPT

    def ints(values: list[int] | tuple[int, ...]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    return kernel.Rules(
        values=ints(game.values),
        box=ints(game.box),
        give=np.array([t.give for t in trades], dtype=np.int64).reshape(-1, kernel.KINDS),
        take=np.array([t.take for t in trades], dtype=np.int64).reshape(-1, kernel.KINDS),
        buy_from=ints(buy_from),
        sell_from=ints(sell_from),
        kind_ends=ints(ends),
        swap_give=ints(swap_give),
        swap_take=ints(swap_take),
        roll_wolf=ints([roll.wolf for roll in rolls]),
        roll_fox=ints([roll.fox for roll in rolls]),
        roll_ends=ints(list(accumulate(outcomes.weights))),
        options=ints(options),
        thresholds=ints(thresholds),
    )


class FastSuperFarmer:
    """The compiled engine for one loaded Super Farmer game."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, SuperFarmerGame):
            raise OptionError(f"this fast engine plays super-farmer only, not {game.id}")
        self.game = game
        self.rules = rules_of(game)
        self.trades: list[Trade] = [
            Trade(tuple(g), tuple(t))  # type: ignore[arg-type]
            for g, t in zip(self.rules.give.tolist(), self.rules.take.tolist(), strict=True)
        ]
        """Each exchange row as the reference engine's action."""

    def play(self, seeds: np.ndarray, seats: tuple[str, ...]) -> np.ndarray:
        """Play one game per seed (each below 2**32) with a bot of :data:`POLICIES` per
        seat; one row of :data:`RESULT_COLUMNS` per game."""
        if len(seats) != self.game.players:
            raise OptionError(f"{self.game.players} players need as many seats, not {len(seats)}")
        policies = np.array([policy_of(name) for name in seats], dtype=np.int64)
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        results = np.zeros((len(seeds), kernel.RESULTS), dtype=np.int64)
        kernel.play_many(self.rules, seeds, policies, results)
        return results

    def table(self, state: SuperFarmerState | None = None) -> FastTable:
        """A new game at its start, or at the reference ``state``, to step from Python."""
        return FastTable(self, state)

    def action(self, row: int) -> Hashable:
        """The reference engine's action for a kernel action (-1: roll)."""
        return Roll() if row < 0 else self.trades[row]

    @staticmethod
    def load(state: SuperFarmerState, s: np.ndarray, herd: np.ndarray, animals: np.ndarray) -> None:
        """Copy the reference ``state`` into kernel arrays."""
        s[:] = 0
        s[kernel.PLAYER] = state.player
        s[kernel.PHASE] = kernel.ROLL if state.phase == ROLL else kernel.TRADE
        s[kernel.TRADED] = state.traded
        s[kernel.WINNER] = state.winner
        s[kernel.TURN] = state.turn
        s[kernel.DIE_WOLF], s[kernel.DIE_FOX] = state.dice or (-1, -1)
        for i, name in enumerate(kernel.STATS):
            s[kernel.ROLLS + i] = state.stats[name]
        herd[:] = state.herd
        animals[:, :] = state.animals


class FastPlayout:
    """``Game.compiled_playout`` for one loaded game and bot (a ``core.game.Playout``):
    fresh ``greedy`` (or ``daring``) bots in every seat play on in the kernel, with the
    dice :mod:`ranchhand.core.streams` would draw, so the rollout is the reference's
    (``streams.playout``), step for step. One kernel table is kept and refilled each
    call (one call at a time: a search's rollouts follow one another)."""

    def __init__(self, engine: FastSuperFarmer, bot: str) -> None:
        self.engine = engine
        self.policy = policy_of(bot)
        if self.policy == kernel.RANDOM:
            raise OptionError("a compiled playout plays greedy or daring seats, not random")
        players = engine.game.players
        self.s = np.zeros(kernel.SCALARS, dtype=np.int64)
        self.herd = np.zeros(kernel.KINDS, dtype=np.int64)
        self.animals = np.zeros((players, kernel.KINDS), dtype=np.int64)
        self.rows = np.zeros(1 + len(engine.rules.give), dtype=np.int64)

    def __call__(
        self, state: State, stream: ChanceStream, max_steps: int
    ) -> tuple[list[float], int, bool]:
        """Play on from ``state`` (unchanged) for at most ``max_steps`` steps, chance drawn
        as ``streams.sample`` would go on drawing from ``stream`` (unchanged): (each
        player's returns if the game ended, else ``evaluate()`` where it stopped; the steps
        played; whether it ended)."""
        engine = self.engine
        if not isinstance(state, SuperFarmerState) or state.game is not engine.game:
            raise ValueError(f"this playout plays positions of {engine.game!r} only")
        engine.load(state, self.s, self.herd, self.animals)
        steps, ended = kernel.play_on(
            engine.rules,
            self.s,
            self.herd,
            self.animals,
            self.policy,
            stream.stream,
            stream.turn,
            stream.k,
            max_steps,
            self.rows,
        )
        if ended:
            winner = int(self.s[kernel.WINNER])
            outcome = Outcome((winner,)) if winner >= 0 else TRUNCATED
            return outcome.returns(engine.game.players), int(steps), True
        where = state.clone()  # the position reached, for the game's own evaluation
        where.herd = self.herd.tolist()
        where.animals = self.animals.tolist()
        return where.evaluate(), int(steps), False


class FastTable:
    """One game in the kernel, stepped from Python (slow: for tests and study)."""

    def __init__(self, engine: FastSuperFarmer, state: SuperFarmerState | None = None) -> None:
        self.engine = engine
        rules = engine.rules
        self.s = np.zeros(kernel.SCALARS, dtype=np.int64)
        self.herd = np.zeros(kernel.KINDS, dtype=np.int64)
        self.animals = np.zeros((engine.game.players, kernel.KINDS), dtype=np.int64)
        self._rows = np.zeros(1 + len(rules.give), dtype=np.int64)
        self._count = 0
        self._choice = -1
        if state is None:
            kernel.setup(rules, self.s, self.herd, self.animals)
        else:
            engine.load(state, self.s, self.herd, self.animals)

    def is_over(self) -> bool:
        return int(kernel.current(self.engine.rules, self.s)) == kernel.TERMINAL

    def current_player(self) -> int:
        """The farmer to act, or :data:`CHANCE`."""
        who = int(kernel.current(self.engine.rules, self.s))
        return CHANCE if who == kernel.CHANCE else who

    def legal_actions(self) -> list[Hashable]:
        """The legal actions in the kernel's order, as the reference engine's objects."""
        rules = self.engine.rules
        self._count = int(kernel.legal(rules, self.s, self.herd, self.animals, self._rows))
        return [self.engine.action(int(row)) for row in self._rows[: self._count]]

    def apply(self, index: int) -> None:
        """Apply the ``index``-th action of the last :meth:`legal_actions` list."""
        if not 0 <= index < self._count:
            raise IndexError(f"action {index} of {self._count}")
        kernel.apply(self.engine.rules, self.s, self.herd, self.animals, int(self._rows[index]))

    def greedy(self, guards: bool = True) -> Hashable:
        """The greedy bot's choice here (``guards`` False: the daring bot's);
        :meth:`apply_greedy` plays it."""
        rules = self.engine.rules
        count = kernel.legal(rules, self.s, self.herd, self.animals, self._rows)
        mine = self.animals[self.s[kernel.PLAYER]]
        self._choice = int(kernel.greedy(rules, mine, self._rows, count, guards))
        return self.engine.action(self._choice)

    def apply_greedy(self) -> None:
        """Apply the choice the last :meth:`greedy` made."""
        kernel.apply(self.engine.rules, self.s, self.herd, self.animals, self._choice)

    def chance(self, point: int) -> None:
        """Apply the dice's outcome at ``point`` (0 <= point < 144, the weights' total)."""
        kernel.chance(self.engine.rules, self.s, self.herd, self.animals, point)

    @property
    def winner(self) -> int:
        return int(self.s[kernel.WINNER])

    @property
    def turn(self) -> int:
        return int(self.s[kernel.TURN])

    @property
    def stats(self) -> dict[str, int]:
        return {name: int(self.s[kernel.ROLLS + i]) for i, name in enumerate(kernel.STATS)}
