"""A sweep: the grid of option settings (and seat lineups) of one game, every cell played
with the same seeds, kept in the store as one run.

Game ``i`` of every cell has the seed derived from the run's seed and ``i``, so cells
differ only by their rules: the dice, the deals and the bots' draws start alike. A run
names all its cells before the first game, so a stopped sweep's report shows what it
covered, and the same command run again reuses every stored game and plays the rest.
"""

from __future__ import annotations

import itertools
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import canonical_name, game_class
from ranchhand.lab.backends import Backend, Progress
from ranchhand.lab.cells import CellResult, run_cell, store_cell
from ranchhand.lab.evaluation import GAME, Evaluation
from ranchhand.lab.store import Store
from ranchhand.sim.simulate import Simulation
from ranchhand.sim.workers import StopControl


@dataclass(frozen=True)
class Setting:
    """One cell of a sweep: what sets it apart (``label``) and what to simulate."""

    label: dict[str, Any]
    sim: Simulation


def parse_vary(texts: Sequence[str], game: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``["dice=twin,farmer", "target=30..50:10"]`` as ``(("dice", ("twin", "farmer")),
    ("target", ("30", "40", "50")))``, each option checked against the game's (a range
    ``LO..HI[:STEP]`` is every STEP-th integer, :func:`~ranchhand.lab.tune.expand`)."""
    names = {o.name for o in game_class(game).option_specs()}
    varied: list[tuple[str, tuple[str, ...]]] = []
    for text in texts:
        from ranchhand.lab.tune import expand

        name, sep, values = text.partition("=")
        name = name.strip()
        parts = expand(values)
        if not sep or not parts:
            raise OptionError(f"--vary takes OPTION=VALUE1,VALUE2 or OPTION=LO..HI, got {text!r}")
        if name not in names:
            raise OptionError(
                f"{canonical_name(game)} has no option {name!r}; options are: "
                f"{', '.join(sorted(names))}"
            )
        if any(name == seen for seen, _ in varied):
            raise OptionError(f"--vary names {name} twice")
        varied.append((name, tuple(dict.fromkeys(parts))))
    return tuple(varied)


@dataclass(frozen=True)
class Plan:
    """A sweep as asked for: lineups, varied options, the options held fixed, games, seed."""

    game: str
    lineups: tuple[tuple[str, ...], ...]
    varied: tuple[tuple[str, tuple[str, ...]], ...]
    base: tuple[tuple[str, str], ...]
    games: int
    seed: int
    arena: tuple[str, ...] = ()
    """The bots of an arena sweep: its lineups are the arena's (every pair with one bot in
    each seat in turn, each bot against itself), all on the same seeds."""
    until: tuple[str, ...] = ()
    """``--until`` texts: play each cell until these intervals are narrow enough."""
    first: int | None = None
    evaluation: Evaluation = GAME

    def settings(self) -> list[Setting]:
        """Every combination of lineup and varied option values, in the order given, each
        checked (game, players, bots, option values) so a typo fails before any game."""
        if not self.lineups:
            raise OptionError("a sweep needs at least one lineup of seats")
        names = [name for name, _ in self.varied]
        clash = sorted(set(names) & set(dict(self.base)))
        if clash:
            raise OptionError(f"{', '.join(clash)} is both varied and set with --option")
        settings = []
        for seats, *values in itertools.product(self.lineups, *(v for _, v in self.varied)):
            chosen = dict(zip(names, values, strict=True))
            label: dict[str, Any] = dict(chosen)
            if len(self.lineups) > 1:
                label["seats"] = ",".join(seats)
            options = tuple(sorted({**dict(self.base), **chosen}.items()))
            sim = Simulation(
                canonical_name(self.game), tuple(seats), self.games, self.seed, options
            )
            sim.check()
            settings.append(Setting(label, sim))
        return settings

    def command(self) -> str:
        """The ``ranchhand sweep`` command that reproduces these results exactly."""
        words = ["ranchhand", "sweep", canonical_name(self.game)]
        for name, values in self.varied:
            words += ["--vary", f"{name}={','.join(values)}"]
        if self.arena:
            words += ["--arena", ",".join(self.arena), "--players", str(len(self.lineups[0]))]
        for seats in () if self.arena else self.lineups:
            words += ["--seats", ",".join(seats)]
        for name, value in sorted(self.base):
            words += ["--option", f"{name}={value}"]
        words += ["--games", str(self.games), "--seed", str(self.seed)]
        for text in self.until:
            words += ["--until", text]
        if self.until and self.first is not None:
            words += ["--first", str(self.first)]
        if self.evaluation != GAME:
            words += ["--evaluation", self.evaluation.text()]
        return shlex.join(words)


@dataclass
class SweepResult:
    run: int
    cells: list[tuple[Setting, CellResult]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def played(self) -> int:
        return sum(r.played for _, r in self.cells)

    @property
    def reused(self) -> int:
        return sum(r.reused for _, r in self.cells)


def run_settings(
    settings: Sequence[Setting],
    backend: Backend,
    store: Store,
    kind: str,
    text: str,
    control: StopControl,
    progress: Progress = None,
    until: Sequence[tuple[str, float]] = (),
    first: int = 100,
    evaluation: Evaluation = GAME,
) -> SweepResult:
    """Play every setting into ``store`` as one run (cells named first); stop on request.

    With ``until`` (metric, half-width) pairs each cell starts at ``first`` games and
    doubles them (the same seeds: the first games are reused) until every such metric's
    95% interval is at most twice its half-width, or the settings' games are reached.
    """
    first_sim = settings[0].sim
    games = [s.sim.check() for s in settings]
    run = store.start_run(kind, first_sim.game, first_sim.games, backend.name, text)
    for position, (setting, game) in enumerate(zip(settings, games, strict=True)):
        kept = store_cell(store, setting.sim, game, evaluation)
        store.add_run_cell(run, kept, position, setting.label)
    result = SweepResult(run)
    start = time.perf_counter()
    reached = None
    try:
        if until:
            reached = _until(settings, backend, store, control, progress, until, first, result,
                             evaluation)  # fmt: skip
        else:
            for setting in settings:  # a stop ends the cell at hand (even the first) and the run
                cell = run_cell(setting.sim, backend, store, control, progress, evaluation)
                result.cells.append((setting, cell))
                if control.requested:
                    break
    finally:
        result.seconds = time.perf_counter() - start
        stopped = control.requested or any(r.report.partial for _, r in result.cells)
        status = "stopped" if stopped or len(result.cells) < len(settings) else "done"
        store.finish_run(run, status, result.played, result.reused, result.seconds, reached)
    return result


def _until(
    settings: Sequence[Setting],
    backend: Backend,
    store: Store,
    control: StopControl,
    progress: Progress,
    until: Sequence[tuple[str, float]],
    first: int,
    result: SweepResult,
    evaluation: Evaluation,
) -> int:
    """Double each cell's games until its intervals are narrow enough; the most played."""
    from ranchhand.core.game import Summary
    from ranchhand.lab.metrics import measure

    most = settings[0].sim.games
    done: dict[int, CellResult] = {}
    played = dict.fromkeys(range(len(settings)), 0)
    reused: dict[int, int] = {}
    count = min(max(1, first), most)
    open_ = list(range(len(settings)))
    while open_ and not control.requested:
        still = []
        for i in open_:
            sim = replace(settings[i].sim, games=count)
            cell = run_cell(sim, backend, store, control, progress, evaluation)
            played[i] += cell.played
            reused.setdefault(i, cell.reused)
            done[i] = cell
            if control.requested or cell.cell is None:
                break
            m = measure(store.games(cell.cell, count), sim.players, Summary())
            wide = [
                name for name, half in until
                if (e := m.ludii.get(name) or m.own.get(name)) is None
                or (e.high - e.low) / 2 > half
            ]  # fmt: skip
            if wide:
                still.append(i)
        if count >= most:
            break
        open_ = still
        count = min(most, count * 2)
    for i in sorted(done):
        cell = replace(done[i], played=played[i], reused=reused.get(i, 0))
        result.cells.append((settings[i], cell))
    return max((c.report.tally.games for _, c in result.cells), default=0)
