"""The designer's lab on the command line: ``sweep``, ``runs``, ``report``, ``export`` and
``tune``, and the store and backend choices ``simulate`` and ``arena`` share with them.

Imported at the end of :mod:`ranchhand.cli.main`, whose app these commands join.
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from ranchhand.cli.main import (
    OptionList,
    _advancer,
    _at_least_one,
    _default_max_turns,
    _fail,
    _progress,
    _simulation,
    app,
    console,
)
from ranchhand.cli.safe import plain
from ranchhand.core.errors import OptionError, RanchhandError, plural
from ranchhand.core.options import parse_assignments
from ranchhand.core.registry import canonical_name, game_class
from ranchhand.lab.backends import Backend, Progress, backend
from ranchhand.lab.cells import runner
from ranchhand.lab.store import Store, default_path
from ranchhand.sim.simulate import Report, Simulation, simulate
from ranchhand.sim.workers import StopControl

Run = Callable[[Simulation, int | None, Progress, StopControl], Report]

StoreOption = Annotated[
    Path | None,
    typer.Option(
        help="The lab store (SQLite); default $RANCHHAND_STORE or "
        "~/.local/share/ranchhand/lab.sqlite."
    ),
]
EvaluationOption = Annotated[
    str,
    typer.Option(
        help="What Ludii's metrics read: game (State.evaluate before every move) or "
        "search[:ROLLOUTS[:EVERY]] (greedy playouts every EVERY-th move; default 32, 10)."
    ),
]
AddressOption = Annotated[
    str | None, typer.Option(help="The Ray cluster to join (default: start a local Ray).")
]


def simulate_text(sim: Simulation) -> str:
    """The ``ranchhand simulate`` command that plays exactly ``sim``'s games."""
    words = ["ranchhand", "simulate", sim.game, "--seats", ",".join(sim.seats)]
    for name, value in sim.options:
        words += ["--option", f"{name}={value}"]
    words += ["--games", str(sim.games), "--seed", str(sim.seed)]
    return shlex.join(words)


@contextlib.contextmanager
def simulation_runner(
    store_path: Path | None,
    backend_name: str,
    address: str | None,
    jobs: int | None,
    local: Run = simulate,
) -> Iterator[Run]:
    """What plays a simulation: ``local`` (``simulate``), unless a store or Ray is asked
    for; with a store, every simulation is kept as a run of one cell."""
    if store_path is None and backend_name == "local":
        yield local
        return
    with backend(backend_name, jobs, address) as chosen:
        if store_path is None:
            yield runner(chosen)
            return
        with Store(store_path) as store:
            yield _stored(chosen, store)


@contextlib.contextmanager
def arena_runner(
    store_path: Path | None,
    backend_name: str,
    address: str | None,
    jobs: int | None,
    command: str,
) -> Iterator[Run]:
    """What plays ``ranchhand arena``'s lineups: as :func:`simulation_runner` without a
    store; with one, every lineup becomes a cell of one stored run of kind ``arena`` (its
    label the seats), which ``report`` shows as a ladder with intervals on every gap.

    ``arena`` takes it as its ``run``: ``with arena_runner(store, backend, address, jobs,
    command) as run: arena(..., run=run)``.
    """
    if store_path is None:
        with simulation_runner(None, backend_name, address, jobs) as plain_run:
            yield plain_run
        return
    with backend(backend_name, jobs, address) as chosen, Store(store_path) as store:
        yield _arena_cells(chosen, store, command)


def _arena_cells(chosen: Backend, store: Store, command: str) -> Run:
    """A runner that keeps each lineup as a cell of one arena run (started at the first)."""
    from ranchhand.lab.cells import run_cell, store_cell

    state: dict[str, int] = {"cells": 0}

    def run(sim: Simulation, jobs: int | None, progress: Progress, control: StopControl) -> Report:
        game = sim.check()
        if "run" not in state:
            state["run"] = store.start_run("arena", sim.game, sim.games, chosen.name, command)
        run_id = state["run"]
        cell = store_cell(store, sim, game)
        store.add_run_cell(run_id, cell, state["cells"], {"seats": ",".join(sim.seats)})
        state["cells"] += 1
        result = run_cell(sim, chosen, store, control, progress)
        state["played"] = state.get("played", 0) + result.played
        state["reused"] = state.get("reused", 0) + result.reused
        status = "stopped" if control.requested or result.report.partial else "done"
        store.finish_run(run_id, status, state["played"], state["reused"], 0.0)
        return result.report

    return run


def _stored(chosen: Backend, store: Store) -> Run:
    """A runner that keeps each simulation in ``store`` as a run of one cell."""
    from ranchhand.lab.sweep import Setting, run_settings

    def run(sim: Simulation, jobs: int | None, progress: Progress, control: StopControl) -> Report:
        setting = Setting({}, sim)
        result = run_settings([setting], chosen, store, "simulate", simulate_text(sim), control,
                              progress)  # fmt: skip
        return result.cells[0][1].report

    return run


def _lineups(game: str, players: int | None, seats: list[str] | None) -> list[tuple[str, ...]]:
    """Each ``--seats`` as a full lineup (one name fills every seat)."""
    return [
        _simulation(game, players, text, 1, 0, [], None).seats for text in (seats or ["greedy"])
    ]


@app.command("sweep")
def sweep_command(
    game: Annotated[str, typer.Argument(help="The game to sweep.")],
    vary: Annotated[
        list[str] | None,
        typer.Option(help="OPTION=V1,V2: the values of one option; repeat for a grid."),
    ] = None,
    seats: Annotated[
        list[str] | None,
        typer.Option(help="Bots per seat, comma separated; repeat to sweep lineups too."),
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="Games per cell.")] = 1000,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of every cell (same games, other rules).")] = 0,
    jobs: Annotated[int | None, typer.Option(help="Processes or Ray CPUs.")] = None,
    option: OptionList = None,
    store: StoreOption = None,
    backend_: Annotated[
        str, typer.Option("--backend", help="Where games run: local (process pool) or ray.")
    ] = "local",
    address: AddressOption = None,
    arena: Annotated[
        str | None,
        typer.Option(help="BOT1,BOT2,...: sweep the arena's lineups (kept as an arena run)."),
    ] = None,
    until: Annotated[
        list[str] | None,
        typer.Option(
            help="METRIC:HALF-WIDTH, e.g. turns:0.5: double each cell's games (from --first) "
            "until the 95% interval is that narrow, --games at most; repeat."
        ),
    ] = None,
    first: Annotated[int, typer.Option(help="Games per cell to start from with --until.")] = 100,
    evaluation: EvaluationOption = "game",
) -> None:
    """Simulate every combination of option values into the store, with the same seeds.

    With ``--arena`` the lineups are the arena's (every pair of bots, one in each seat in
    turn; each bot against itself), and the report rates the bots with intervals on every
    pair's gap and the head-to-head counts.

    Games already in the store are reused, so an interrupted sweep resumes when run
    again. Ctrl-C stops cleanly, keeping every finished game (exit code 130).
    """
    from ranchhand.lab.sweep import Plan, parse_vary, run_settings

    control = StopControl()
    with control.catching(leaving=True):
        try:
            _at_least_one("games", games_)
            _at_least_one("jobs", jobs)
            _at_least_one("players", players)
            name = canonical_name(game)
            base = parse_assignments(option or [])
            varied = parse_vary(vary or [], name)
            if "max_turns" not in dict(varied):  # the simulation cap, unless it is swept
                base.setdefault("max_turns", str(_default_max_turns(name)))
            bots: tuple[str, ...] = ()
            if arena:
                from ranchhand.sim.arena import lineups as arena_lineups

                bots = tuple(dict.fromkeys(b.strip() for b in arena.split(",") if b.strip()))
                if len(bots) < 2 or seats:
                    raise OptionError("--arena takes two bots or more, and no --seats")
                count = players or max(2, game_class(name).min_players)
                lineups = tuple(arena_lineups(bots, count))
            else:
                lineups = tuple(_lineups(name, players, seats))
            from ranchhand.lab.evaluation import parse_evaluation
            from ranchhand.lab.tune import parse_until

            _at_least_one("first", first)
            precision = tuple(parse_until(u) for u in until or [])
            reading = parse_evaluation(evaluation)
            plan = Plan(name, lineups, varied, tuple(sorted(base.items())), games_, seed, bots,
                        tuple(until or []), first if until else None, reading)  # fmt: skip
            settings = plan.settings()
            path = store or default_path()
            with (
                Store(path) as kept,
                backend(backend_, jobs, address) as chosen,
                _progress() as progress,
            ):
                task = progress.add_task(
                    f"sweeping {plural(len(settings), 'cell')}", total=len(settings) * games_
                )
                kind = "arena" if bots else "sweep"
                result = run_settings(settings, chosen, kept, kind, plan.command(), control,
                                      _advancer(progress, task), precision, first,
                                      reading)  # fmt: skip
        except RanchhandError as error:
            _fail(str(error))
            return
    console.print(
        f"run {result.run}: {plural(len(result.cells), 'cell')} of {len(settings)}, "
        f"{result.played} games played, {result.reused} reused from {plain(str(path))} "
        f"in {result.seconds:.1f} s"
    )
    console.print(f"report: ranchhand report {result.run} --out report.html")
    if control.signal:
        console.print("[bold yellow]stopped:[/] finished games are kept; run it again to resume")
        raise typer.Exit(128 + control.signal)


def _existing(store: Path | None) -> Path:
    """The store to read; reading never creates one (a typo in --store would go unseen)."""
    path = store or default_path()
    if not path.exists():
        _fail(f"no lab store at {path} yet: ranchhand sweep (or simulate --store) makes it")
    return path


@app.command("runs")
def runs_command(store: StoreOption = None) -> None:
    """List the runs kept in the lab store."""
    path = _existing(store)
    try:
        with Store(path) as kept:
            runs = kept.runs()
            cells = {r.id: len(kept.run_cells(r.id)) for r in runs}
    except RanchhandError as error:
        _fail(str(error))
        return
    table = RichTable(title=f"runs in {plain(str(path))}", title_justify="left")
    columns = ("run", "started (UTC)", "kind", "game", "cells", "games/cell", "played", "reused")
    for column in (*columns, "status"):
        table.add_column(column, justify="left" if column in ("kind", "game") else "right")
    for r in runs:
        numbers = (r.id, r.started, r.kind, plain(r.game), cells[r.id], r.games, r.played, r.reused)
        table.add_row(*map(str, numbers), r.status)
    console.print(table)
    for r in runs:
        console.print(f"run {r.id}: {plain(r.command)}", soft_wrap=True)


@app.command("report")
def report_command(
    runs: Annotated[
        list[int] | None, typer.Argument(help="Run numbers (default: the latest run).")
    ] = None,
    out: Annotated[Path, typer.Option(help="The HTML file to write.")] = Path("report.html"),
    store: StoreOption = None,
) -> None:
    """Write one self-contained HTML report (metrics, plots, commands) of stored runs."""
    try:
        from ranchhand.lab.report import render
    except ImportError as missing:
        _fail(f'reports need matplotlib ({missing}): pip install "ranchhand[lab]"')
        return

    path = _existing(store)
    try:
        with Store(path) as kept:
            chosen = _chosen_runs(kept, runs, path)
            page = render(kept, chosen)
        out.write_text(page, encoding="utf-8")
    except OSError as error:
        _fail(f"cannot write {out}: {error.strerror or error}")
        return
    except RanchhandError as error:
        _fail(str(error))
        return
    size = len(page.encode()) // 1024
    console.print(f"wrote {plain(str(out))} ({size} KiB) from {plural(len(chosen), 'run')}")


@app.command("export")
def export_command(
    runs: Annotated[
        list[int] | None, typer.Argument(help="Run numbers (default: the latest run).")
    ] = None,
    format_: Annotated[
        str, typer.Option("--format", help="csv, json, or parquet (needs pyarrow).")
    ] = "csv",
    out: Annotated[Path, typer.Option(help="The file to write.")] = Path("games.csv"),
    store: StoreOption = None,
) -> None:
    """Write every game of stored runs as one flat row per game (see docs/lab.md)."""
    from ranchhand.lab.export import collect, write

    path = _existing(store)
    try:
        with Store(path) as kept:
            found = collect(kept, _chosen_runs(kept, runs, path))
        write(found, format_, out)
    except OSError as error:
        _fail(f"cannot write {out}: {error.strerror or error}")
        return
    except RanchhandError as error:
        _fail(str(error))
        return
    console.print(f"wrote {plain(str(out))}: {plural(len(found), 'game')} as {format_}")


def _order(plan: Any, options: dict[str, str]) -> tuple[int, ...]:
    """A tuned setting's place in the grid asked for (refined values fall in between)."""
    return tuple(values.index(options[name]) for name, values in plan.searched)


def _chosen_runs(kept: Store, runs: list[int] | None, path: Path) -> list[int]:
    """The runs asked for, or the latest; an empty store says how to fill it."""
    chosen = list(runs or [])
    if not chosen:
        every = kept.runs()
        if not every:
            raise OptionError(f"the store {path} holds no runs yet; run a sweep first")
        chosen = [every[-1].id]
    return chosen


@app.command("tune")
def tune_command(
    game: Annotated[str, typer.Argument(help="The game to tune.")],
    option: Annotated[
        list[str] | None,
        typer.Option(help="NAME=LO..HI[:STEP] or NAME=V1,V2 to search; NAME=V to fix."),
    ] = None,
    target: Annotated[
        list[str] | None,
        typer.Option(help="METRIC>=VALUE (or <=, >, <), e.g. 'balance>=0.95'; repeat."),
    ] = None,
    seats: Annotated[
        str | None, typer.Option(help="Bots per seat, comma separated (one name fills all).")
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of every setting (same games, other rules).")] = 0,
    first: Annotated[int, typer.Option(help="Games per setting in the first round.")] = 32,
    max_games: Annotated[
        int, typer.Option(help="Games per setting at most (doubling from --first).")
    ] = 1024,
    max_points: Annotated[int, typer.Option(help="Settings of the first grid at most.")] = 24,
    refine: Annotated[
        int, typer.Option(help="Settings raced at most between a met and a failed one.")
    ] = 12,
    evaluation: EvaluationOption = "game",
    jobs: Annotated[int | None, typer.Option(help="Processes or Ray CPUs.")] = None,
    store: StoreOption = None,
    backend_: Annotated[
        str, typer.Option("--backend", help="Where games run: local (process pool) or ray.")
    ] = "local",
    address: AddressOption = None,
) -> None:
    """Find option values that meet targets: race every setting, adding games (same seeds)
    to each until its targets are clearly met or missed; every game is stored."""
    from ranchhand.lab.evaluation import parse_evaluation
    from ranchhand.lab.tune import TunePlan, parse_target, race, split_options

    control = StopControl()
    with control.catching(leaving=True):
        try:
            for name, value in (("first", first), ("max-games", max_games),
                                ("max-points", max_points), ("jobs", jobs),
                                ("players", players)):  # fmt: skip
                _at_least_one(name, value)
            if refine < 0:
                raise OptionError(f"--refine must be at least 0, got {refine}")
            if not target:
                raise OptionError("tune needs a --target, e.g. --target 'balance>=0.95'")
            name = canonical_name(game)
            targets = tuple(parse_target(t) for t in target)
            searched, fixed = split_options(name, option or [])
            if "max_turns" not in dict(searched) and "max_turns" not in dict(fixed):
                fixed.append(("max_turns", str(_default_max_turns(name))))
            lineup = _lineups(name, players, [seats] if seats else None)[0]
            plan = TunePlan(name, lineup, tuple(searched), tuple(sorted(fixed)), targets, seed,
                            first, max(first, max_games), max_points,
                            parse_evaluation(evaluation), refine)  # fmt: skip
            points = plan.points()
            for setting in points:
                plan.simulation(setting, 1).check()
            path = store or default_path()
            with (
                Store(path) as kept,
                backend(backend_, jobs, address) as chosen,
                _progress() as progress,
            ):
                task = progress.add_task(f"racing {plural(len(points), 'setting')}", total=None)
                result = race(plan, chosen, kept, control, _advancer(progress, task))
        except RanchhandError as error:
            _fail(str(error))
            return
    table = RichTable(title=f"tune run {result.run}: {plain(name)}", title_justify="left")
    for column in (*result.points[0].options, "games", *(t.text for t in targets), "verdict"):
        table.add_column(plain(column), justify="right")
    for point in sorted(result.points, key=lambda p: _order(plan, p.options)):
        shown = [
            "–" if e is None else f"{e.value:.3g} [{e.low:.3g}, {e.high:.3g}] {v}"
            for e, v in zip(point.estimates, point.verdicts, strict=True)
        ]
        table.add_row(*map(plain, point.options.values()), str(point.games), *shown,
                      point.verdict)  # fmt: skip
    console.print(table)
    met = result.met
    named = "; ".join(", ".join(f"{k}={v}" for k, v in p.options.items()) for p in met)
    console.print(
        f"{plural(len(met), 'setting')} of {len(result.points)} clearly "
        f"{'meets' if len(met) == 1 else 'meet'} every target"
        + (f": {plain(named)}." if met else ".")
    )
    console.print(
        f"{result.played} games played, {result.reused} reused, {result.rounds} rounds, "
        f"{result.seconds:.1f} s. report: ranchhand report {result.run} --out tune.html"
    )
    if control.signal:
        console.print("[bold yellow]stopped:[/] finished games are kept; run it again to resume")
        raise typer.Exit(128 + control.signal)
