"""Tuning: find option values that meet a designer's targets, with games added until each
decision is clear.

``ranchhand tune glory-ranch --option target=30..80 --target 'balance>=0.9' --target
'turns<=100'`` evaluates the settings of the searched options (every combination, or an
evenly spaced subset when there are more than ``max_points``) by *racing*, then
*refines*: between two neighbouring settings of which one met the targets and the other
failed, the value halfway between (of those asked for) is raced too, and so on until the
boundary is found to one value or ``refine`` more settings have been raced. Racing: every open
setting plays a first batch of games, and each target's 95% interval then decides it.
A target is *met* when its whole interval satisfies it and *failed* when its whole
interval violates it; a setting fails as soon as one target fails and is met when all
are. Open settings (an interval across a bound) play twice as many games, again and
again, up to ``max_games``; decided settings stop. So games go where the decision is
hard, and a setting far from the targets costs a first batch only.

Every setting is a cell of one stored run (kind ``tune``) with the run's seed, so game
``i`` of every setting starts from the same seed (differences come from the rules, not
the luck), rerunning the same command reuses every game, and ``ranchhand report`` and
``export`` read the run like a sweep. Racing was chosen over Optuna or NTBEA because the
designer's questions here are constraints ("is balance at least 0.95?") on a handful of
options with few values each, which racing answers exhaustively with a stated error,
rather than an optimum of one noisy score; docs/lab.md has its measured cost.
"""

from __future__ import annotations

import itertools
import math
import re
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ranchhand.core.errors import OptionError
from ranchhand.core.game import Summary
from ranchhand.core.registry import canonical_name, game_class
from ranchhand.lab.backends import Backend, Progress
from ranchhand.lab.cells import run_cell, store_cell
from ranchhand.lab.estimate import Estimate
from ranchhand.lab.evaluation import GAME, Evaluation
from ranchhand.lab.export import column
from ranchhand.lab.metrics import CellMetrics, measure
from ranchhand.lab.store import Store
from ranchhand.sim.simulate import Simulation
from ranchhand.sim.workers import StopControl

MAX_VALUES = 200
"""The most values a range may expand to (``--vary`` and ``tune``)."""

RANGE = re.compile(r"^\s*([+-]?[0-9]{1,9})\s*\.\.\s*([+-]?[0-9]{1,9})\s*(?::\s*([0-9]{1,9}))?\s*$")


def expand(text: str) -> list[str]:
    """Comma-separated values, where ``LO..HI`` is every integer from LO to HI and
    ``LO..HI:STEP`` every STEP-th (HI included when the steps land on it).

    >>> expand("30..34"), expand("10..30:10,45"), expand("twin, farmer")
    (['30', '31', '32', '33', '34'], ['10', '20', '30', '45'], ['twin', 'farmer'])
    """
    values: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        found = RANGE.match(part)
        if not found:
            values.append(part)
            continue
        low, high, step = int(found[1]), int(found[2]), int(found[3] or 1)
        if high < low or step < 1:
            raise OptionError(f"{part!r} is not a range: write LO..HI (LO <= HI) or LO..HI:STEP")
        count = (high - low) // step + 1
        if count > MAX_VALUES:
            raise OptionError(f"{part!r} makes {count} values; at most {MAX_VALUES} (add :STEP)")
        values += [str(v) for v in range(low, high + 1, step)]
    return list(dict.fromkeys(values))


# ---------------------------------------------------------------------- targets
OPERATORS = {">=": lambda v, b: v >= b, "<=": lambda v, b: v <= b,
             ">": lambda v, b: v > b, "<": lambda v, b: v < b}  # fmt: skip
TARGET = re.compile(r"^\s*(.+?)\s*(>=|<=|>|<)\s*([-+]?[0-9]*\.?[0-9]+)\s*(%?)\s*$")
ALIASES = {
    "turns": "Duration (turns)",
    "moves": "Duration (moves)",
    "drama": "Drama (average)",
    "length": "Duration (turns)",
}


def metric_names() -> dict[str, str]:
    """Every name a target may use (snake case, as in the export) -> the metric's name."""
    from ranchhand.lab.metrics import LUDII, OWN_PER_GAME

    names = {column(n): n for n in (*LUDII, *OWN_PER_GAME)}
    names.update(ALIASES)
    return names


@dataclass(frozen=True)
class Target:
    """``metric op bound``, e.g. ``balance >= 0.95`` (``seat_N`` for a seat's win rate)."""

    text: str
    metric: str
    op: str
    bound: float

    def estimate(self, m: CellMetrics) -> Estimate | None:
        if self.metric.startswith("seat "):
            seat = int(self.metric.split()[1])
            return m.seats.rates[seat] if seat < len(m.seats.rates) else None
        return m.ludii.get(self.metric) or m.own.get(self.metric)

    def verdict(self, e: Estimate | None) -> str:
        """``met`` (the whole interval satisfies), ``failed`` (none of it) or ``open``."""
        if e is None:
            return "open"
        holds = OPERATORS[self.op]
        if holds(e.low, self.bound) and holds(e.high, self.bound):
            return "met"
        if not holds(e.low, self.bound) and not holds(e.high, self.bound):
            return "failed"
        return "open"


def parse_target(text: str) -> Target:
    """``'balance>=0.95'``, ``'turns <= 40'``, ``'completion>=95%'``, ``'seat_0<=0.3'``."""
    found = TARGET.match(text)
    if not found:
        raise OptionError(f"--target takes METRIC>=VALUE (or <=, >, <), got {text!r}")
    name, op, number, percent = found.groups()
    key = column(name)
    bound = float(number) / (100 if percent else 1)
    seat = re.fullmatch(r"seat_([0-9]{1,2})", key)
    if seat:
        return Target(text, f"seat {seat[1]}", op, bound)
    names = metric_names()
    if key not in names:
        raise OptionError(
            f"--target: unknown metric {name!r}; metrics are: {', '.join(sorted(names))}, seat_N"
        )
    return Target(text, names[key], op, bound)


def parse_until(text: str) -> tuple[str, float]:
    """``'turns:0.5'`` (play until the interval of turns is at most ±0.5) as the metric's
    name and the half-width; ``'completion:1%'`` means ±0.01."""
    name, sep, number = text.rpartition(":")
    found = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(%?)\s*", number)
    key = column(name)
    names = metric_names()
    if not sep or not found or key not in names:
        raise OptionError(
            f"--until takes METRIC:HALF-WIDTH (e.g. turns:0.5, balance:0.02), got {text!r}; "
            f"metrics are: {', '.join(sorted(names))}"
        )
    half = float(found[1]) / (100 if found[2] else 1)
    if half <= 0:
        raise OptionError(f"--until needs a half-width above 0, got {text!r}")
    return names[key], half


# ------------------------------------------------------------------------ plan
@dataclass(frozen=True)
class TunePlan:
    game: str
    seats: tuple[str, ...]
    searched: tuple[tuple[str, tuple[str, ...]], ...]
    fixed: tuple[tuple[str, str], ...]
    targets: tuple[Target, ...]
    seed: int = 0
    first: int = 32
    max_games: int = 1024
    max_points: int = 24
    evaluation: Evaluation = GAME
    refine: int = 12
    """Settings raced at most, after the first grid, between a met and a failed one."""

    def points(self) -> list[dict[str, str]]:
        """The settings to race: every combination, or evenly spaced values of each option
        when the grid has more than ``max_points``."""
        if not self.searched:
            raise OptionError("tune needs an option to search: --option NAME=LO..HI")
        full = [list(v) for _, v in self.searched]
        counts = [len(v) for v in full]
        while math.prod(counts) > self.max_points:
            widest = max(range(len(counts)), key=lambda i: counts[i])
            others = math.prod(counts) // counts[widest]
            counts[widest] = min(counts[widest] - 1, max(2, self.max_points // others))
        values = [_spaced(v, n) for v, n in zip(full, counts, strict=True)]
        names = [n for n, _ in self.searched]
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]

    def simulation(self, point: dict[str, str], games: int) -> Simulation:
        options = tuple(sorted({**dict(self.fixed), **point}.items()))
        return Simulation(self.game, self.seats, games, self.seed, options)

    def command(self) -> str:
        words = ["ranchhand", "tune", self.game, "--seats", ",".join(self.seats)]
        for name, values in self.searched:
            words += ["--option", f"{name}={','.join(values)}"]
        for name, value in self.fixed:
            words += ["--option", f"{name}={value}"]
        for t in self.targets:
            words += ["--target", t.text]
        words += ["--seed", str(self.seed), "--first", str(self.first),
                  "--max-games", str(self.max_games), "--max-points", str(self.max_points),
                  "--refine", str(self.refine)]  # fmt: skip
        if self.evaluation != GAME:
            words += ["--evaluation", self.evaluation.text()]
        return shlex.join(words)


def _spaced(values: list[str], count: int) -> list[str]:
    """``count`` values spread evenly over ``values``, both ends kept."""
    if count >= len(values):
        return values
    if count <= 1:
        return values[:1]
    picks = sorted({round(i * (len(values) - 1) / (count - 1)) for i in range(count)})
    return [values[i] for i in picks]


def split_options(game: str, texts: Sequence[str]) -> tuple[list[tuple[str, tuple[str, ...]]],
                                                            list[tuple[str, str]]]:  # fmt: skip
    """``--option`` texts as searched options (a range or several values) and fixed ones."""
    names = {o.name for o in game_class(game).option_specs()}
    searched, fixed = [], []
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not value.strip():
            raise OptionError(f"--option takes NAME=VALUE or NAME=LO..HI, got {text!r}")
        if name not in names:
            raise OptionError(f"{canonical_name(game)} has no option {name!r}; options are: "
                              f"{', '.join(sorted(names))}")  # fmt: skip
        values = expand(value)
        if len(values) > 1:
            searched.append((name, tuple(values)))
        else:
            fixed.append((name, values[0]))
    return searched, fixed


# ---------------------------------------------------------------------- racing
@dataclass
class Point:
    """One raced setting: its options, games played so far, estimates and verdict."""

    options: dict[str, str]
    games: int = 0
    estimates: list[Estimate | None] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        if "failed" in self.verdicts:
            return "failed"
        if self.verdicts and all(v == "met" for v in self.verdicts):
            return "met"
        return "open"


@dataclass
class TuneResult:
    run: int
    points: list[Point]
    played: int = 0
    reused: int = 0
    seconds: float = 0.0
    rounds: int = 0

    @property
    def met(self) -> list[Point]:
        return [p for p in self.points if p.verdict == "met"]


def race(
    plan: TunePlan,
    backend: Backend,
    store: Store,
    control: StopControl,
    progress: Progress = None,
) -> TuneResult:
    """Race every point of ``plan`` into ``store`` as one run (see the module), then
    refine: between two neighbouring settings of which one met the targets and the other
    failed, race the value halfway between them (of the values asked for), until the
    boundary lies between adjacent values or ``plan.refine`` more settings were raced."""
    run = store.start_run("tune", plan.game, plan.max_games, backend.name, plan.command())
    result = TuneResult(run, [])
    start = time.perf_counter()
    try:
        batch = [Point(p) for p in plan.points()]
        added = 0
        while batch and not control.requested:
            _enter(plan, store, run, result, batch)
            _race_batch(plan, backend, store, control, progress, result, batch)
            batch = [Point(p) for p in _between(plan, result.points)][: plan.refine - added]
            added += len(batch)
    finally:
        result.seconds = time.perf_counter() - start
        result.reused = max(0, sum(p.games for p in result.points) - result.played)
        status = "stopped" if control.requested else "done"
        reached = max((p.games for p in result.points), default=0)
        store.finish_run(run, status, result.played, result.reused, result.seconds, reached)
    return result


def _enter(plan: TunePlan, store: Store, run: int, result: TuneResult, batch: list[Point]) -> None:
    """Name the batch's settings as cells of the run (checked before any game)."""
    for point in batch:
        sim = plan.simulation(point.options, plan.max_games)
        kept = store_cell(store, sim, sim.check(), plan.evaluation)
        store.add_run_cell(run, kept, len(result.points), dict(point.options))
        result.points.append(point)


def _race_batch(
    plan: TunePlan,
    backend: Backend,
    store: Store,
    control: StopControl,
    progress: Progress,
    result: TuneResult,
    points: list[Point],
) -> None:
    """Double the games of the open points until every one is decided or at the cap."""
    games = plan.first
    while not control.requested:
        todo = [p for p in points if p.verdict == "open"]
        if not todo:
            break
        result.rounds += 1
        for point in todo:
            sim = plan.simulation(point.options, games)
            cell = run_cell(sim, backend, store, control, progress, plan.evaluation)
            result.played += cell.played
            if control.requested or cell.cell is None:
                break
            metrics = measure(store.games(cell.cell, games), len(plan.seats), Summary())
            point.games = games
            point.estimates = [t.estimate(metrics) for t in plan.targets]
            point.verdicts = [
                t.verdict(e) for t, e in zip(plan.targets, point.estimates, strict=True)
            ]
        if games >= plan.max_games:
            break
        games = min(plan.max_games, games * 2)


def _between(plan: TunePlan, points: Sequence[Point]) -> list[dict[str, str]]:
    """Settings halfway between neighbours (along one option, the others equal) of which
    one met every target and the other failed one, not raced yet."""
    seen = {tuple(p.options.values()) for p in points}
    decided = {tuple(p.options.values()): p.verdict for p in points}
    found: dict[tuple[str, ...], None] = {}
    for axis, (_, values) in enumerate(plan.searched):
        lines: dict[tuple[str, ...], list[tuple[int, str]]] = {}
        for key, verdict in decided.items():
            rest = key[:axis] + key[axis + 1 :]
            lines.setdefault(rest, []).append((values.index(key[axis]), verdict))
        for rest, line in lines.items():
            line.sort()
            for (i, a), (j, b) in itertools.pairwise(line):
                if {a, b} == {"met", "failed"} and j - i > 1:
                    middle = (*rest[:axis], values[(i + j) // 2], *rest[axis:])
                    if middle not in seen:
                        found[middle] = None
    names = [n for n, _ in plan.searched]
    return [dict(zip(names, key, strict=True)) for key in found]
