"""What the solved solitaire policy says about a race: how soon each farm wins, as a law.

A racing bot (``racer``) needs more than the expected rolls ``V`` of a farm: against
other farmers what counts is the chance to finish first, which depends on the whole law
of the turns ``T`` a farm still needs. For every live farm of a :class:`Solution`, played
on by its policy, :class:`RaceTable` holds the expected turns ``E[T]`` (a game won by an
exchange counts the turn that exchange opens) and the generating function ``E[g**T]``
at each ``g`` of :data:`GAMMAS`.

Why the generating function: a race's *deadline* ``S(t)``, the chance that no other
farmer has won before our ``t``-th turn, is simulated once per decision
(:meth:`Race.deadline`) and written as ``sum_k a[k] * g[k]**(t - 1)``
(:meth:`Race.mixture`); then the chance to finish first from a farm, ``E[S(T)]``, is
``sum_k a[k] * E[g[k]**(T - 1)]``: a few numbers of the farm's row, whatever the farm.

The table takes about 20 CPU seconds and 300 MB to compute from the policy (``race_values``
in ``kernel``), so it is cached beside the policy (``super-farmer-race-<options>.npz``,
71 MB) and in memory per process.

Why the law's first turns too: near the end a deadline falls like a step (the other
farmer cannot win in two turns, then likely does), which a sum of exponentials follows
badly: up to 0.09 off, with weights of either sign summing to 170 in absolute value. The
*law table* holds each farm's chance to win in exactly ``t`` turns for ``t = 1..HEAD``
(``kernel.law_head``, 5 CPU seconds, ``super-farmer-law-<options>.npz``, 107 MB); with
it a deadline's first turns are read exactly and only its tail, a smooth one, is written
in exponentials (:meth:`Race.split`). The ``hard`` racer reads so.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ranchhand.games.super_farmer.solver import kernel
from ranchhand.games.super_farmer.solver.solve import (
    SOLVE_ENV,
    STRIDES,
    NotSolved,
    Rules,
    Solution,
    cache_path,
    cached,
    policy_arrays,
)

GAMMAS = (0.2, 0.35, 0.5, 0.6, 0.7, 0.76, 0.82, 0.86, 0.9, 0.92, 0.94, 0.955, 0.97, 0.98, 0.99)
"""The ``g`` at which ``E[g**T]`` is tabled: with ``g = 0`` (``0**T`` is 1 for a farm that
wins in the turn, else 0), the exponentials a race's deadline is written in
(:meth:`Race.mixture`), denser toward 1 where the slow parts of a race are."""
HORIZON = 150
"""Turns of the others' races simulated; later ones count as this one."""
RIDGE = 1e-6
"""Keeps a deadline's weights on the exponentials small (they are near-collinear)."""
TOLERANCE = 1e-6
"""The largest change of a tabled number by the last sweep."""
SWEEPS = 400
FORMAT = 1
HEAD = 24
"""Turns of each farm's law tabled one by one (:func:`law_table`): a deadline's first
``HEAD`` turns are read exactly, the rest through the exponentials."""


@dataclass
class RaceTable:
    """Per live farm (the solution's sorted keys): expected turns to win, and ``E[g**T]``
    for each of ``gammas`` (float32: decisions compare numbers far apart from its error)."""

    keys: np.ndarray
    turns: np.ndarray
    powers: np.ndarray  # (farms, len(gammas))
    gammas: np.ndarray

    def rows(self, farms: np.ndarray) -> np.ndarray:
        """The row of each farm (an (n, 7) array of counts), -1 where it is not live."""
        keys = np.asarray(farms, np.int64) @ np.array(STRIDES, np.int64)
        rows = np.searchsorted(self.keys, keys)
        rows[rows == len(self.keys)] = 0
        return np.where(self.keys[rows] == keys, rows, -1)

    def save(self, path: Path) -> None:
        """Write the table to ``path`` whole or not at all (:func:`_save_whole`)."""
        _save_whole(
            path, format=np.array(FORMAT), turns=self.turns, powers=self.powers, gammas=self.gammas
        )

    @classmethod
    def load(cls, path: Path, solution: Solution) -> RaceTable | None:
        """The table saved at ``path`` for ``solution``, or None if it is of another format,
        another grid or another number of farms (then it is computed again)."""
        with np.load(path) as data:
            if int(data["format"]) != FORMAT or tuple(data["gammas"]) != GAMMAS:
                return None
            if len(data["turns"]) != len(solution.keys):
                return None
            return cls(solution.keys, data["turns"], data["powers"], data["gammas"])


def compute(solution: Solution, box: Any = None) -> RaceTable:
    """The race table of ``solution`` (see the module docstring); ``box`` the smaller box
    it was solved in, if it was (``solve``'s)."""
    rules = Rules.of(solution.options, box)
    successors = played_on(solution, rules)
    gammas = np.array(GAMMAS)
    # Start near the answer: a won exchange adds about one turn to the rolls, and a law
    # of T concentrated at its mean gives g**E[T].
    turns = solution.value + 1.0
    powers = gammas[None, :] ** turns[:, None]
    kernel.race_values(successors, rules.weights, gammas, SWEEPS, TOLERANCE, turns, powers)
    return RaceTable(solution.keys, turns.astype(np.float32), powers.astype(np.float32), gammas)


def played_on(solution: Solution, rules: Rules) -> np.ndarray:
    """Per live farm, where each of the 25 rolls leaves it after the policy's choice: a
    live row, or ``kernel.FULL_ROW`` or ``kernel.WINNABLE_ROW``."""
    delta = rules.take @ rules.strides - rules.give @ rules.strides
    move = solution.move.astype(np.int64)
    chosen = solution.keys + np.where(move >= 0, delta[move], 0)
    successors = np.empty((len(chosen), len(rules.faces)), np.int32)
    kernel.race_successors(
        chosen,
        rules.box,
        rules.dims,
        rules.strides,
        rules.faces,
        rules.flags,
        solution.keys,
        successors,
    )
    return successors


def compute_law(solution: Solution, box: Any = None) -> np.ndarray:
    """The law table of ``solution`` (``HEAD`` rows of float32, a column per live farm):
    the chance to win in exactly ``t`` turns, ``t = 1..HEAD``, played on by its policy."""
    rules = Rules.of(solution.options, box)
    law = np.empty((HEAD, len(solution.keys)), np.float32)
    kernel.law_head(played_on(solution, rules), rules.weights, law)
    return law


_LOADED: dict[Path, RaceTable] = {}
_LAWS: dict[Path, np.ndarray] = {}
Table = TypeVar("Table", RaceTable, np.ndarray)


def race_path(options: dict[str, str]) -> Path:
    """Where the race table of the policy of ``options`` is cached: beside the policy."""
    return _beside_policy(options, "race")


def law_path(options: dict[str, str]) -> Path:
    """Where the law table of the policy of ``options`` is cached: beside the policy."""
    return _beside_policy(options, "law")


def _beside_policy(options: dict[str, str], kind: str) -> Path:
    policy = cache_path(options)
    return policy.with_name(policy.name.replace("-solitaire-", f"-{kind}-"))


def prepare() -> str | None:
    """Make the race table and the law table of the default rules' policy (which ships)
    if they are not cached: what a server runs once, in a process apart, so that its
    racers race (where solving on demand is off they play ``optimal`` without the first,
    and the ``hard`` racer as ``normal`` without the second). None if both were there,
    else where they were written; OSError if one could not be written.

    Each table is read as the bots read it (:func:`race_table`, :func:`law_table`), so a
    cached one is loaded once and a stale one (another format, another policy) is loaded
    once, then made again; a table was made here when its file changed."""
    solution = cached({})
    made = []
    tables: tuple[tuple[Path, dict[Path, Any], Callable[[Solution], object]], ...] = (
        (race_path(solution.options), _LOADED, race_table),
        (law_path(solution.options), _LAWS, law_table),
    )
    for path, memory, table in tables:
        memory.pop(path, None)  # what matters here is the file, not this process's copy
        before = _written(path)
        table(solution)  # which says on stderr if the cache cannot be written
        if not path.exists():
            raise OSError(f"a race table could not be cached in {path}")
        if _written(path) != before:
            made.append(str(path))
    return " and ".join(made) or None


def _written(path: Path) -> tuple[int, int] | None:
    """When and as which file ``path`` was last written (:func:`_save_whole` replaces
    it by a new file), or None if it is not there (nor can be: a parent is a file)."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns


def _load_law(path: Path, solution: Solution) -> np.ndarray | None:
    with np.load(path) as data:
        law = data["law"]
        if int(data["format"]) != FORMAT or law.shape != (HEAD, len(solution.keys)):
            return None
        return np.asarray(law)


def law_table(solution: Solution) -> np.ndarray:
    """The law table of ``solution`` (:func:`compute_law`): as :func:`race_table` finds
    or makes the race table."""
    return _tabled(
        law_path(solution.options),
        _LAWS,
        lambda law: law.shape[1] == len(solution.keys),
        lambda path: _load_law(path, solution),
        lambda: compute_law(solution),
        lambda law, path: _save_whole(path, format=np.array(FORMAT), law=law),
        ("law table", f"the solitaire policy's first {HEAD} turns", 5, "the hard racer"),
    )


def _tabled(
    path: Path,
    memory: dict[Path, Table],
    fits: Callable[[Table], bool],
    load: Callable[[Path], Table | None],
    make: Callable[[], Table],
    save: Callable[[Table, Path], None],
    words: tuple[str, str, int, str],
) -> Table:
    """A table made from the policy: from ``memory`` (if it ``fits`` the policy), else
    ``load``-ed from ``path``, else made (a line on stderr says so) and saved there,
    unless solving on demand is off (``$RANCHHAND_SOLVE`` is ``never``:
    :class:`NotSolved`). ``words``: what the table is, what is tabled, about how many
    CPU seconds it takes, and which bot to play once to make it."""
    if path in memory and fits(memory[path]):
        return memory[path]
    table = load(path) if path.exists() else None
    name, tabling, seconds, player = words
    if table is None and os.environ.get(SOLVE_ENV, "").strip().lower() == "never":
        raise NotSolved(f"no {name} {path.name}; play {player} once where solving is on")
    if table is None:
        print(
            f"ranchhand: tabling {tabling} once (about {seconds} CPU seconds); cached in {path}",
            file=sys.stderr,
        )
        table = make()
        try:
            save(table, path)
        except OSError as error:
            print(f"ranchhand: could not cache the {name}: {error}", file=sys.stderr)
    memory[path] = table
    return table


def _save_whole(path: Path, **arrays: np.ndarray) -> None:
    """Write ``arrays`` to ``path`` whole or not at all: into a file of its own beside
    it, then renamed, so a process reading the cache meanwhile (a server's bot pool,
    while :func:`prepare` runs) never opens half a table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with part.open("wb") as out:
            np.savez(out, **arrays)  # type: ignore[arg-type]
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def race_table(solution: Solution) -> RaceTable:
    """The race table of ``solution``: from this process's memory, else the cache beside
    the policy's, else computed (a line on stderr says so) and cached there, unless
    solving on demand is off (``$RANCHHAND_SOLVE`` is ``never``: :class:`NotSolved`)."""
    return _tabled(
        race_path(solution.options),
        _LOADED,
        lambda table: len(table.keys) == len(solution.keys),
        lambda path: RaceTable.load(path, solution),
        lambda: compute(solution),
        lambda table, path: table.save(path),
        ("race table", "the solitaire policy's law of turns", 20, "a racer"),
    )


@dataclass
class Race:
    """A race against other farmers, in the solitaire policy's terms: the others' law of
    turns (simulated by the policy) and the deadline it sets, written on the table's
    exponentials so that a farm's chance to finish first is a sum over its row."""

    solution: Solution
    table: RaceTable
    rules: Rules
    basis: np.ndarray  # (HORIZON, 1 + len(GAMMAS)): g**(t - 1), t = 1..HORIZON
    fit: np.ndarray  # (1 + len(GAMMAS), HORIZON): the ridge least squares on the basis
    policy: tuple[Any, ...]  # solve.policy_arrays: what the simulations of the policy take
    head: np.ndarray  # (HEAD, len(GAMMAS)): g**t, t = 1..HEAD
    tail_fit: np.ndarray  # (len(GAMMAS), HORIZON - 1 - HEAD): ridge fit of g**t, t > HEAD

    @classmethod
    def of(cls, solution: Solution) -> Race:
        grid = np.array((0.0, *GAMMAS))
        basis = grid[None, :] ** np.arange(HORIZON)[:, None]
        fit = ridge(basis)
        gammas = np.array(GAMMAS)
        head = gammas[None, :] ** np.arange(1, HEAD + 1)[:, None]
        tail_fit = ridge(gammas[None, :] ** np.arange(HEAD + 1, HORIZON)[:, None])
        rules = Rules.of(solution.options)
        policy = policy_arrays(solution, rules)
        return cls(solution, race_table(solution), rules, basis, fit, policy, head, tail_fit)

    def deadline(self, farms: np.ndarray, games: int, seed: int) -> np.ndarray:
        """``S(t)``, ``t = 1..HORIZON``: the chance that none of the farmers holding
        ``farms`` (each at the start of its next turn) has won in its first ``t - 1``
        turns, each playing the solitaire policy (``games`` simulated solitaires each)."""
        law = kernel.turns_law(np.asarray(farms, np.int64), games, HORIZON, seed, *self.policy)
        won_before = np.cumsum(law, axis=1)[:, :HORIZON] / games  # P(T <= t - 1) at [t - 1]
        return np.prod(1.0 - won_before, axis=0)

    def mixture(self, deadline: np.ndarray) -> np.ndarray:
        """Weights ``a`` with ``S(t) ~ sum_k a[k] * g[k]**(t - 1)`` (``g``: 0 and
        :data:`GAMMAS`), so that ``P(T <= the deadline) = sum_k a[k] E[g[k]**(T - 1)]``."""
        return self.fit @ deadline

    def split(self, deadline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``b`` and ``c`` with ``S(1 + t) = sum_k b[k] g[k]**t + c[t - 1]`` exactly for
        ``t = 1..HEAD`` and ``~ sum_k b[k] g[k]**t`` after (``g``: :data:`GAMMAS`, ``b``
        fitted to the tail alone), so that a live farm's chance to finish first,
        ``E[S(1 + T)]``, is ``sum_k b[k] E[g[k]**T] + sum_t c[t - 1] P(T = t)``: its row
        of the race table and its column of the law table (:func:`law_table`)."""
        tail = self.tail_fit @ deadline[HEAD + 1 :]
        return tail, deadline[1 : HEAD + 1] - self.head @ tail


def ridge(basis: np.ndarray) -> np.ndarray:
    """The ridge least-squares solution of ``basis`` (rows: turns; columns: exponentials),
    as a matrix to apply to a deadline; :data:`RIDGE` keeps the weights small."""
    normal = basis.T @ basis + RIDGE * np.eye(basis.shape[1])
    fit: np.ndarray = np.linalg.solve(normal, basis.T)
    return fit


_RACES: dict[int, Race] = {}


def race(solution: Solution) -> Race:
    """The :class:`Race` of ``solution``, made once per process."""
    if id(solution) not in _RACES:
        _RACES[id(solution)] = Race.of(solution)
    return _RACES[id(solution)]
