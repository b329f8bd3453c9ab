"""The fast engine's Python face: options checked, tables built, games played in bulk.

:class:`FastRancho` wraps one loaded :class:`RanchoGame`. ``play`` plays whole
games in the compiled kernel (the bulk path for ``simulate`` and ``bench``);
``load`` copies any reference position into a kernel table (where the search's
playouts start, ``playout.py``); :class:`FastTable` steps one game from Python,
showing its legal actions as the reference engine's action objects, which is what the
differential test compares.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from ranchhand.core import CHANCE, Game, OptionError
from ranchhand.core.kernels import kernel_policy
from ranchhand.games.rancho.actions import (
    ArrangeSafest,
    Deal,
    Dog,
    EndTurn,
    First,
    Return,
    Roll,
)
from ranchhand.games.rancho.fast import greedy, kernel, play
from ranchhand.games.rancho.fast.geometry import frames_of
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import RanchoState

RESULT_COLUMNS = play.RESULT_COLUMNS
POLICIES = {"random": play.RANDOM, "greedy": play.GREEDY}
"""The bots the fast engine plays, by their registry names."""


def policy_of(bot: str) -> int:
    """The kernel's policy for a bot name; OptionError naming the bots it has."""
    return kernel_policy(POLICIES, bot)


class FastRancho:
    """The compiled engine for one loaded Rancho game (its options and player count)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, RanchoGame):
            raise OptionError(f"the fast engine plays rancho only, not {game.id}")
        self.game = game
        frames = frames_of(game)
        self.geometry = frames.geometry
        self.pen_spaces = frames.pen_spaces
        self.memo = kernel.new_memo(self.geometry)
        self.max_turns = game.max_turns
        self._ids = tuple(space.id for space in game.board.spaces[: self.geometry.pastures])

    def play(self, seeds: np.ndarray, seats: tuple[str, ...]) -> np.ndarray:
        """Play one game per seed (each below 2**32) with a bot of :data:`POLICIES` per
        seat; one row of :data:`RESULT_COLUMNS` per game."""
        policies = np.array([policy_of(name) for name in seats], dtype=np.int64)
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        results = np.zeros((len(seeds), len(RESULT_COLUMNS)), dtype=np.int64)
        table = kernel.new_table(self.geometry)
        play.play_many(self.geometry, self.memo, table, seeds, policies, self.max_turns, results)
        return results

    def table(self, state: RanchoState | None = None) -> FastTable:
        """A new game at its start, or at the reference ``state``, to step from Python."""
        return FastTable(self, state)

    def load(self, state: RanchoState, t: kernel.Table) -> None:
        """Copy the reference ``state`` into the kernel table ``t``, with new greedy bots.

        Masks go into each seat's frame (``geometry.py``): pastures keep their index,
        the seat's pen becomes the frame's last two bits; a piece is stored at its first
        space. The dog queue is copied from its head. Whether pieces stand in the safest
        arrangement, and the bots' blank memory, are worked out in the kernel (``loaded``).
        """
        pastures = self.geometry.pastures
        on_pastures = (1 << pastures) - 1
        scalars = [0] * kernel.SCALARS
        scalars[kernel.PLAYER] = state.player
        scalars[kernel.PHASE] = state.phase
        scalars[kernel.TURN] = state.turn
        scalars[kernel.WINNER] = state.winner
        scalars[kernel.SETTLED] = int(state.settled)
        scalars[kernel.DIE_A], scalars[kernel.DIE_B] = state.dice or (-1, -1)
        predators = state.predators
        scalars[kernel.PREDATORS] = len(predators)
        scalars[kernel.PREDATOR_A] = predators[0] if predators else -1
        scalars[kernel.PREDATOR_B] = predators[1] if len(predators) > 1 else -1
        scalars[kernel.STRIKE_BY], scalars[kernel.STRIKE_PRICE] = state.strike or (0, 0)
        scalars[kernel.DOGS_ASKED] = len(state.dog_queue)
        scalars[kernel.TAKEN] = state.taken
        scalars[kernel.EATEN] = state.eaten_value
        scalars[kernel.DOGS_GIVEN] = state.dogs_given
        scalars[kernel.DEALS] = state.deals
        scalars[kernel.STRIKES_MADE] = len(state.strikes[:2])
        for i, (predator, price) in enumerate(state.strikes[:2]):
            scalars[kernel.FIRST_BY + 2 * i] = predator
            scalars[kernel.FIRST_PRICE + 2 * i] = price
        t.scalars[:] = scalars
        t.herd[:] = state.herd
        t.animals[:] = state.animals
        t.land[:] = state.land
        t.owner[:] = state.owner[:pastures]
        t.dogs[: len(state.dog_queue)] = state.dog_queue
        t.pieces[:] = 0
        for seat, pieces in enumerate(state.pieces):
            first, second = self.pen_spaces[seat]
            rows = t.pieces[seat]
            for kind, count, mask in pieces:
                local = (
                    mask & on_pastures
                    | (mask >> first & 1) << pastures
                    | (mask >> second & 1) << (pastures + 1)
                )
                at = (local & -local).bit_length() - 1
                rows[at, kernel.KIND] = kind + 1
                rows[at, kernel.COUNT] = count
                rows[at, kernel.MASK] = local
        kernel.loaded(self.geometry, self.memo, t)

    def action(self, row: np.ndarray) -> Hashable:
        """The reference engine's action for a kernel action row."""
        kind = int(row[0])
        if kind in (kernel.A_ROLL, kernel.A_ROLL_END):
            return Roll(kind == kernel.A_ROLL_END)
        if kind == kernel.A_SAFEST:
            return ArrangeSafest()
        if kind == kernel.A_END_TURN:
            return EndTurn()
        if kind == kernel.A_FIRST:
            return First(int(row[1]))
        if kind == kernel.A_DOG:
            return Dog(bool(row[1]), int(row[2]))
        if kind == kernel.A_RETURN:
            return Return((int(row[1]), int(row[2]), int(row[3]), int(row[4]), 0, 0))
        if kind == kernel.A_TRADE:
            counts = [int(n) for n in row[1:13]]
            return Deal(tuple(counts[:6]), tuple(counts[6:]))  # type: ignore[arg-type]
        give = [0] * 6
        give[int(row[1])] = int(row[2])
        take = [0] * 6
        if row[3] >= 0:
            take[int(row[3])] = int(row[4])
        pastures = (self._ids[int(row[5])],) if row[5] >= 0 else ()
        via = tuple(self._ids[int(s)] for s in row[kernel.ROUTE : kernel.ROUTE + int(row[6])])
        return Deal(tuple(give), tuple(take), pastures, via)  # type: ignore[arg-type]


class FastTable:
    """One game in the kernel, stepped from Python (slow: for tests and study)."""

    def __init__(self, engine: FastRancho, state: RanchoState | None = None) -> None:
        self.engine = engine
        self.table = kernel.new_table(engine.geometry)
        self._rows = np.zeros((kernel.MAX_ACTIONS, kernel.ROW), dtype=np.int64)
        self._choice = np.zeros(kernel.ROW, dtype=np.int64)
        if state is None:
            kernel.setup(engine.geometry, engine.memo, self.table)
        else:
            engine.load(state, self.table)

    def is_over(self) -> bool:
        return bool(kernel.over(self.table, self.engine.max_turns))

    def current_player(self) -> int:
        """The seat to act, or :data:`CHANCE`."""
        seat = int(kernel.current(self.table))
        return CHANCE if seat < 0 else seat

    def legal_actions(self) -> list[Hashable]:
        """The legal actions in the kernel's order, as the reference engine's objects."""
        count = kernel.legal(self.engine.geometry, self.engine.memo, self.table, self._rows)
        return [self.engine.action(self._rows[i]) for i in range(count)]

    def apply(self, index: int) -> None:
        """Apply the ``index``-th action of the last :meth:`legal_actions` list."""
        kernel.apply(self.engine.geometry, self.engine.memo, self.table, self._rows[index])

    def greedy(self) -> Hashable:
        """The greedy bot's choice here (it remembers its turn, as ``GreedyBot`` does);
        :meth:`apply_greedy` plays it."""
        engine = self.engine
        count = kernel.legal(engine.geometry, engine.memo, self.table, self._rows)
        greedy.choose(engine.geometry, engine.memo, self.table, self._rows, count, self._choice)
        return engine.action(self._choice)

    def apply_greedy(self) -> None:
        """Apply the choice the last :meth:`greedy` made."""
        kernel.apply(self.engine.geometry, self.engine.memo, self.table, self._choice)

    def chance(self, point: int) -> None:
        """Apply the chance outcome at ``point`` (0 <= point < the node's total weight)."""
        kernel.chance(self.engine.geometry, self.engine.memo, self.table, point)

    @property
    def herd(self) -> list[int]:
        return [int(n) for n in self.table.herd]

    @property
    def animals(self) -> list[list[int]]:
        return [[int(n) for n in row] for row in self.table.animals]

    @property
    def winner(self) -> int:
        return int(self.table.scalars[kernel.WINNER])

    @property
    def land(self) -> list[int]:
        """Each seat's pastures as a mask of board spaces (pastures keep their index)."""
        return [int(n) for n in self.table.land]

    @property
    def turn(self) -> int:
        return int(self.table.scalars[kernel.TURN])
