"""The fast engine's Python face: a loaded game's tables as arrays, games in bulk, a table
stepped from Python, and the search's compiled playouts.

:class:`FastRocket` wraps one loaded :class:`RocketGame` (its options and player count).
``play`` plays whole games in the kernel (``simulate --engine fast`` and ``bench --engine
fast``); :meth:`FastRocket.load` copies any reference position into kernel arrays and
:meth:`FastRocket.rebuild` turns kernel arrays back into a reference state (corrals card by
card from the kernel's log of placements); :class:`FastTable` steps one game from Python,
showing its legal actions as the reference engine's action objects, which is what the
differential test compares; :class:`FastPlayout` is ``RocketGame.compiled_playout``.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from ranchhand.core import CHANCE, Game, OptionError
from ranchhand.core.game import Outcome, State
from ranchhand.core.kernels import kernel_policy
from ranchhand.core.streams import ChanceStream
from ranchhand.games.rocket_ranchers.actions import END_TURN, REBOOT
from ranchhand.games.rocket_ranchers.bots import GreedyBot, _potential_table
from ranchhand.games.rocket_ranchers.fast import kernel
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.scoring import Corral
from ranchhand.games.rocket_ranchers.state import RocketState, chances
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY, HIDDEN

POLICIES = {"random": kernel.RANDOM, "greedy": kernel.GREEDY}
"""The bots the fast engine plays, by their registry names."""
MEMO = 50_000
"""Corral rows :meth:`FastRocket.load` remembers before it forgets them all."""
WAYS = {"best": kernel.WAY_BEST, "abundance": kernel.WAY_ABUNDANCE, "variety": kernel.WAY_VARIETY}

if (CELLS, EMPTY, CAT) != (kernel.CELLS, kernel.EMPTY, kernel.CAT):
    raise AssertionError("the fast engine's display no longer matches tables.py")


def policy_of(bot: str) -> int:
    """The kernel's policy for a bot name; OptionError naming the bots it has."""
    return kernel_policy(POLICIES, bot)


def rules_of(game: RocketGame) -> kernel.Rules:
    """The kernel's :class:`~kernel.Rules` of a loaded game: every named option is a
    number or a table here (the deck and beam files become the kinds and placements)."""
    tables = game.tables
    options = game.options
    box, cats = tables.deck_counts(game.players)
    settings = [0.0] * kernel.GREEDY_SETTINGS
    settings[kernel.G_FOUND] = GreedyBot.found_value
    settings[kernel.G_SWAP_MARGIN] = GreedyBot.swap_margin
    settings[kernel.G_REBOOT_SHARE] = GreedyBot.reboot_share
    settings[kernel.G_ROUNDING] = 1e-6
    flags = [0] * kernel.OPTIONS
    flags[kernel.O_PLAYERS] = game.players
    flags[kernel.O_MAX_TURNS] = game.max_turns
    flags[kernel.O_BY_DOTS] = int(options["abundance_counts"] == "dots")
    flags[kernel.O_VARIETY_ALL] = int(options["variety_counts"] == "all")
    flags[kernel.O_CHAIN] = int(bool(options["cat_chain"]))
    flags[kernel.O_WAY] = WAYS[options["corral_scoring"]]
    flags[kernel.O_ALL_BEAMS] = (1 << len(tables.beams)) - 1
    scores = tables.scores
    potential = _potential_table(tables, GreedyBot.partial, options["corral_scoring"])

    def ints(values: list[int] | tuple[int, ...]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    return kernel.Rules(
        species=ints(tables.species),
        biome=ints(tables.biome),
        dots=ints(tables.dots),
        box=ints(box),
        box_cats=cats,
        place_mask=ints([p.mask for p in tables.placements]),
        place_beam=ints([p.beam for p in tables.placements]),
        place_cells=np.array(
            [[*p.cells, *[0] * (CELLS - len(p.cells))] for p in tables.placements], np.int64
        ),
        place_size=ints([len(p.cells) for p in tables.placements]),
        abundance_at=ints([a for a, _ in scores.abundance]),
        abundance_points=ints([p for _, p in scores.abundance]),
        variety_at=ints([a for a, _ in scores.variety]),
        variety_points=ints([p for _, p in scores.variety]),
        cats_most=scores.cats_most,
        cats_each=scores.cats_each,
        biomes=len(tables.deck.biomes),
        max_corrals=max(1, sum(box)),
        potential=np.array(potential, dtype=np.float64),
        greedy=np.array(settings, dtype=np.float64),
        options=ints(flags),
    )


class Arrays:
    """One kernel table: the arrays of the kernel's module docstring."""

    def __init__(self, rules: kernel.Rules, players: int) -> None:
        self.s = np.zeros(kernel.SCALARS, dtype=np.int64)
        self.deck = np.zeros(len(rules.species), dtype=np.int64)
        self.display = np.zeros(CELLS, dtype=np.int64)
        self.pending = np.zeros(CELLS, dtype=np.int64)
        self.seats = np.zeros((players, kernel.SEAT_FIELDS), dtype=np.int64)
        self.corrals = np.zeros((players, rules.max_corrals, kernel.CORRAL_FIELDS), np.int64)
        self.log = np.zeros((rules.max_corrals, 3), dtype=np.int64)
        """Room for every card of the box placed once: no table places more."""
        self.actions = np.zeros(kernel.action_room(rules), dtype=np.int64)


class FastRocket:
    """The compiled engine for one loaded Rocket Ranchers game."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, RocketGame):
            raise OptionError(f"this fast engine plays rocket-ranchers only, not {game.id}")
        if game.players > kernel.MAX_SEATS:
            raise OptionError(f"the fast engine plays up to {kernel.MAX_SEATS} players")
        self.game = game
        self.rules = rules_of(game)
        tables = game.tables
        places = len(tables.placements)
        self._swap_base = places + 2
        self._form_base = self._swap_base + CELLS * CELLS
        self._occupy_base = self._form_base + tables.kinds
        self._rows: dict[Corral, tuple[int, int, int, int, int]] = {}
        """Each corral's kernel row, by the corral (a search loads the same corrals in
        table after table it imagines); forgotten past :data:`MEMO` corrals."""

    def play(self, seeds: np.ndarray, seats: tuple[str, ...]) -> np.ndarray:
        """Play one game per seed (each below 2**32) with a bot of :data:`POLICIES` per
        seat; one row of ``kernel.RESULTS`` columns per game (see ``play_many``)."""
        if len(seats) != self.game.players:
            raise OptionError(f"{self.game.players} players need as many seats, not {len(seats)}")
        policies = np.array([policy_of(name) for name in seats], dtype=np.int64)
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        results = np.zeros((len(seeds), kernel.RESULTS), dtype=np.int64)
        kernel.play_many(self.rules, seeds, policies, results)
        return results

    def table(self, state: RocketState | None = None) -> FastTable:
        """A new game at its start, or at the reference ``state``, to step from Python."""
        return FastTable(self, state)

    def action(self, code: int) -> Hashable:
        """The reference engine's action for a kernel action."""
        tables = self.game.tables
        places = len(tables.placements)
        if code < places:
            return tables.placements[code].action
        if code == places:
            return REBOOT
        if code == places + 1:
            return END_TURN
        if code < self._form_base:
            pair = code - self._swap_base
            return tables.swaps[(pair // CELLS, pair % CELLS)]
        if code < self._occupy_base:
            return tables.forms[code - self._form_base]
        kind, corral = divmod(code - self._occupy_base, self.rules.max_corrals)
        return tables.occupy(kind, corral)

    def load(self, state: RocketState, a: Arrays) -> None:
        """Copy the reference ``state`` into kernel arrays (the log emptied)."""
        over = state.over
        # In the order of the kernel's scalars (PLAYER ... LOGGED), one copy.
        a.s[:] = (
            state.player,
            state.phase,  # phases.py's numbers are the kernel's
            state.setting_up,
            state.deck_size,
            state.deck_cats,
            state.turn,
            over is not None,
            over.winners[0] if over is not None else -1,
            len(state.pending),
            0,
        )
        a.deck[:] = state.deck
        a.display[:] = state.display
        a.pending[: len(state.pending)] = state.pending
        corrals = state.corrals
        a.seats[:] = [
            (floof, beams, dogship, len(mine))
            for floof, beams, dogship, mine in zip(
                state.floof, state.beams, state.dogship, corrals, strict=True
            )
        ]
        known = self._rows
        if len(known) > MEMO:
            known.clear()
        for player, mine in enumerate(corrals):
            if mine:
                rows = []
                for corral in mine:
                    row = known.get(corral)
                    if row is None:
                        row = known[corral] = self._row(corral)
                    rows.append(row)
                a.corrals[player, : len(mine)] = rows

    def _row(self, corral: Corral) -> tuple[int, int, int, int, int]:
        """A corral as the kernel's row: founder, face-up cards, their dots, the mask of
        their biomes, their species (-1 while none is face up)."""
        founder, face_up = corral
        tables = self.game.tables
        mask = 0
        for kind in face_up:
            mask |= 1 << tables.biome[kind]
        species = tables.species[face_up[0]] if face_up else -1
        return founder, len(face_up), sum(tables.dots[k] for k in face_up), mask, species

    def rebuild(self, start: RocketState, a: Arrays) -> RocketState:
        """The reference state the kernel arrays hold, for a table loaded from ``start``
        (its corrals, then every card of the log placed as the kernel placed it)."""
        s = a.s
        state = start.clone()
        state.deck = a.deck.tolist()
        state.left = [k for k, n in enumerate(state.deck) if n]
        state.deck_cats = int(s[kernel.DECK_CATS])
        state.deck_size = int(s[kernel.DECK_SIZE])
        state.display = a.display.tolist()
        state.pending = a.pending[: s[kernel.PENDING]].tolist()
        state.floof = a.seats[:, kernel.FLOOF].tolist()
        state.beams = a.seats[:, kernel.BEAMS].tolist()
        state.dogship = [bool(d) for d in a.seats[:, kernel.DOGSHIP]]
        state.player = int(s[kernel.PLAYER])
        state.phase = int(s[kernel.PHASE])
        state.setting_up = bool(s[kernel.SETTING_UP])
        state.turn = int(s[kernel.TURN])
        corrals = state.corrals
        for player, corral, kind in a.log[: s[kernel.LOGGED]].tolist():
            mine = corrals[player]
            if corral == len(mine):
                mine.append((kind, ()))
            else:
                founder, face_up = mine[corral]
                mine[corral] = (founder, (*face_up, kind))
        state.public = [tuple((HIDDEN, up) for _, up in mine) for mine in corrals]
        state.over = state._final_outcome() if s[kernel.OVER] else None
        state._forget_cached()
        return state


class FastPlayout:
    """``Game.compiled_playout("greedy")`` for one loaded game (a ``core.game.Playout``):
    fresh greedy bots in every seat play on in the kernel, with the draws
    :mod:`ranchhand.core.streams` would make, so the rollout is the reference's
    (``streams.playout``), step for step. A rollout cut short is scored by the reference
    state's own ``evaluate()`` on the position reached. One kernel table is kept and
    refilled each call (one call at a time: a search's rollouts follow one another)."""

    def __init__(self, engine: FastRocket) -> None:
        self.engine = engine
        self.arrays = Arrays(engine.rules, engine.game.players)
        self.parts = np.zeros((engine.game.players, 4), dtype=np.int64)

    def __call__(
        self, state: State, stream: ChanceStream, max_steps: int
    ) -> tuple[list[float], int, bool]:
        """Play on from ``state`` (unchanged) for at most ``max_steps`` steps, chance drawn
        as ``streams.sample`` would go on drawing from ``stream`` (unchanged): (each
        player's returns if the game ended, else ``evaluate()`` where it stopped; the steps
        played; whether it ended)."""
        engine = self.engine
        if not isinstance(state, RocketState) or state.game is not engine.game:
            raise ValueError(f"this playout plays positions of {engine.game!r} only")
        a = self.arrays
        engine.load(state, a)
        parts = self.parts
        steps, ended = kernel.play_on(
            engine.rules,
            a.s,
            a.deck,
            a.display,
            a.pending,
            a.seats,
            a.corrals,
            a.log,
            stream.stream,
            stream.turn,
            stream.k,
            max_steps,
            a.actions,
            parts,
        )
        players = engine.game.players
        if ended:
            if a.s[kernel.OVER]:
                return Outcome((int(a.s[kernel.WINNER]),)).returns(players), int(steps), True
            return [0.0] * players, int(steps), True  # cut at max_turns: nobody won
        # RocketState.evaluate of the position reached: chances() of the totals.
        return chances(parts[:, 3].tolist()), int(steps), False


class FastTable:
    """One game in the kernel, stepped from Python (slow: for tests and study)."""

    def __init__(self, engine: FastRocket, state: RocketState | None = None) -> None:
        self.engine = engine
        self.arrays = a = Arrays(engine.rules, engine.game.players)
        self.start = state.clone() if state is not None else engine.game.new_initial_state()
        engine.load(self.start, a)
        self._count = 0
        self._choice = -1

    def is_over(self) -> bool:
        return int(kernel.current(self.engine.rules, self.arrays.s)) == kernel.TERMINAL

    def current_player(self) -> int:
        """The player to act, or :data:`CHANCE`."""
        who = int(kernel.current(self.engine.rules, self.arrays.s))
        return CHANCE if who == kernel.CHANCE else who

    def _legal(self) -> int:
        a = self.arrays
        rules = self.engine.rules
        self._count = int(
            kernel.legal(rules, a.s, a.display, a.pending, a.seats, a.corrals, a.actions)
        )
        return self._count

    def legal_actions(self) -> list[Hashable]:
        """The legal actions in the kernel's order, as the reference engine's objects."""
        count = self._legal()
        return [self.engine.action(int(code)) for code in self.arrays.actions[:count]]

    def apply(self, index: int) -> None:
        """Apply the ``index``-th action of the last :meth:`legal_actions` list."""
        if not 0 <= index < self._count:
            raise IndexError(f"action {index} of {self._count}")
        self._apply(int(self.arrays.actions[index]))

    def _apply(self, code: int) -> None:
        a = self.arrays
        kernel.apply(self.engine.rules, a.s, a.display, a.pending, a.seats, a.corrals, a.log, code)

    def greedy(self) -> Hashable:
        """The greedy bot's choice here; :meth:`apply_greedy` plays it."""
        a = self.arrays
        count = self._legal()
        self._choice = int(
            kernel.greedy(
                self.engine.rules, a.s, a.display, a.pending, a.seats, a.corrals, a.actions, count
            )
        )
        return self.engine.action(self._choice)

    def apply_greedy(self) -> None:
        """Apply the choice the last :meth:`greedy` made."""
        self._apply(self._choice)

    def chance(self, point: int) -> None:
        """Draw the card at ``point`` (0 <= point < the deck's size) of the deck's counts."""
        a = self.arrays
        kernel.chance(self.engine.rules, a.s, a.deck, a.display, a.seats, a.corrals, point)

    def state(self) -> RocketState:
        """The reference state this table holds (rebuilt: for comparisons)."""
        return self.engine.rebuild(self.start, self.arrays)

    @property
    def winner(self) -> int:
        """The winner once the game is over by the rules, else -1."""
        s = self.arrays.s
        return int(s[kernel.WINNER]) if s[kernel.OVER] else -1

    @property
    def turn(self) -> int:
        return int(self.arrays.s[kernel.TURN])

    def corrals(self) -> list[list[Corral]]:
        """Every player's corrals as the reference state holds them."""
        return self.state().corrals
