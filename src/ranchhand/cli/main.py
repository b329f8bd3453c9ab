"""The ``ranchhand`` command: games, play, simulate, replay, bench."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ranchhand.cli.play import (
    HumanSeat,
    QuitGame,
    Table,
    private_screen,
    record_path,
    save_record,
)
from ranchhand.cli.safe import plain
from ranchhand.cli.view import GameView
from ranchhand.core.errors import OptionError, RanchhandError, RecordError
from ranchhand.core.game import CHANCE, Outcome, State
from ranchhand.core.options import parse_assignments
from ranchhand.core.records import Record, replay, replay_steps
from ranchhand.core.registry import (
    bot_factory,
    canonical_name,
    game_class,
    game_module,
    games,
    load,
)
from ranchhand.core.runner import play
from ranchhand.sim.bench import bench, default_player_counts
from ranchhand.sim.compare import compare, option_values
from ranchhand.sim.simulate import Report, Simulation, simulate

app = typer.Typer(
    help="Play, study and simulate Rancho, Rocket Ranchers and Glory Ranch.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as key=value; repeat for several."),
]


def _fail(message: str) -> None:
    console.print(f"[bold red]error:[/] {plain(message)}")
    raise typer.Exit(2)


def _progress() -> Progress:
    """The progress bar of long runs; it disappears when done, leaving the report."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def _view(game: str) -> GameView:
    return getattr(game_module(game), "VIEW", GameView())


@app.command("games")
def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the games, their player counts, bots and options."""
    listing = games()
    if as_json:
        print(json.dumps(listing, indent=2))
        return
    for entry in listing:
        table = RichTable(
            title=f"{entry['name']} ({entry['id']} v{entry['version']})", title_justify="left"
        )
        table.caption = (
            f"{entry['min_players']}-{entry['max_players']} players; "
            f"{entry['information']} information; "
            f"bots: {', '.join(entry['bots'])}"
        )
        for column in ("option", "default", "allowed", "meaning"):
            table.add_column(column, overflow="fold")
        for option in entry["options"]:
            table.add_row(option["name"], str(option["default"]), option["allowed"], option["doc"])
        console.print(table)


@app.command("play")
def play_command(
    game: Annotated[str, typer.Argument(help="rancho, rocket-ranchers or glory-ranch")],
    seats: Annotated[
        str, typer.Option(help="One per player: human, random, greedy (comma separated).")
    ] = "human,greedy,greedy",
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed for dice, draws and bots. Default: a fresh secret one, shown when the "
            "game is over (a seed reveals every hidden card)."
        ),
    ] = None,
    option: OptionList = None,
    record: Annotated[
        Path | None,
        typer.Option(help="A new file for the record (default records/GAME-DATE-TIME.json)."),
    ] = None,
) -> None:
    """Play in the terminal against bots or friends (hot-seat)."""
    try:
        names = [s.strip() for s in seats.split(",") if s.strip()]
        if not names:
            raise OptionError("--seats names no seat; e.g. --seats human,greedy")
        loaded = load(game, len(names), **parse_assignments(option or []))
        factories = {n: bot_factory(game, n) for n in set(names) if n != "human"}
        path = record_path(record, loaded.id)
    except RanchhandError as error:
        _fail(str(error))
        return
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    humans = {i for i, n in enumerate(names) if n == "human"}
    table = Table(console, _view(game), loaded, humans, names)
    seat_objects = [
        HumanSeat(table, console.input) if n == "human" else factories[n]() for n in names
    ]
    log = Record.start(loaded, names, seed)

    def listen(state: State, player: int, action: Hashable) -> None:
        log.add(player, action)
        table.note(state, player, action)

    console.print(f"[bold]{loaded.name}[/] with {_count(len(names), 'player')}.")
    console.print("Type 'help' at any prompt.")
    state = loaded.new_initial_state()
    try:
        with private_screen(console, len(humans)):
            result = play(
                loaded, seat_objects, seed, listener=listen, seat_names=names, state=state
            )
    except (QuitGame, KeyboardInterrupt, EOFError):
        console.print("\nGame stopped.")
        _save_or_fail(log, path, record is not None)
        raise typer.Exit(0) from None
    except Exception as error:  # a bug must not lose the game: save it, then say so
        saved = _save_or_fail(log, path, record is not None)
        console.print(
            f"[bold red]ranchhand failed with {type(error).__name__}[/]: this is a bug. "
            f"The game so far is in {plain(saved)}; please report it with that file."
        )
        if os.environ.get("RANCHHAND_DEBUG"):
            raise
        raise typer.Exit(70) from None
    log.finish(state)
    console.print(table.view.render(state.observe(table.last_human or min(humans, default=0))))
    _print_outcome(result.outcome, names)
    console.print(f"The game's seed was {seed} (replay it with the record below).")
    _save_or_fail(log, path, record is not None)


def _save_or_fail(log: Record, path: Path, chosen: bool) -> Path:
    try:
        return save_record(log, path, console, chosen=chosen)
    except RecordError as error:
        console.print(f"[bold red]error:[/] {plain(error)}")
        raise typer.Exit(74) from None


def _count(n: int, noun: str) -> str:
    """``1 player``, ``3 players``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _print_outcome(outcome: Outcome, names: list[str]) -> None:
    if outcome.truncated:
        console.print("[yellow]The game was stopped by max_turns: no winner.[/]")
        return
    winners = ", ".join(f"P{w} {plain(names[w])}" for w in outcome.winners) or "nobody"
    scores = "" if outcome.scores is None else f"  scores: {list(outcome.scores)}"
    console.print(f"[bold green]Winner: {winners}[/] ({outcome.reason}){scores}")


@app.command("simulate")
def simulate_command(
    game: Annotated[str, typer.Argument(help="rancho, rocket-ranchers or glory-ranch")],
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seats: Annotated[
        str | None, typer.Option(help="Bots per seat, comma separated; one name fills every seat.")
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="How many games.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    jobs: Annotated[int | None, typer.Option(help="Processes (default: every core).")] = None,
    option: OptionList = None,
    record: Annotated[
        Path | None, typer.Option(help="Folder to save every game's record in.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Simulate many games in parallel and report wins, ties and game lengths."""
    try:
        sim = _simulation(game, players, seats, games_, seed, option or [], record)
        sim.check()
    except RanchhandError as error:
        _fail(str(error))
        return
    if as_json:
        report = simulate(sim, jobs)
        print(json.dumps(report.to_json(), indent=2))
        return
    with _progress() as progress:
        task = progress.add_task(f"simulating {sim.game}", total=sim.games)
        report = simulate(sim, jobs, lambda n: progress.advance(task, n))
    _print_report(report)


def _simulation(
    game: str,
    players: int | None,
    seats: str | None,
    games_: int,
    seed: int,
    option: list[str],
    record: Path | None,
) -> Simulation:
    names = [s.strip() for s in (seats or "greedy").split(",") if s.strip()]
    if players is None:
        players = len(names) if len(names) > 1 else game_class(game).min_players
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise RanchhandError(f"--seats names {len(names)} bots but --players is {players}")
    options = parse_assignments(option)
    options.setdefault("max_turns", str(_default_max_turns(game)))
    return Simulation(
        canonical_name(game),
        tuple(names),
        games_,
        seed,
        tuple(sorted(options.items())),
        None if record is None else str(record),
    )


def _default_max_turns(game: str) -> int:
    return int(getattr(game_module(game), "SIMULATION_MAX_TURNS", 1000))


def _print_report(report: Report) -> None:
    data = report.to_json()
    title = f"{data['game']}: {data['games']} games, {data['players']} players, seed {data['seed']}"
    table = RichTable(title=title, title_justify="left")
    for column in ("seat", "bot", "wins", "win rate", "95% CI"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    if data["mean_scores"] is not None:
        table.add_column("mean score", justify="right")
    for seat, name in enumerate(data["seats"]):
        low, high = data["win_ci95"][seat]
        row = [
            str(seat),
            name,
            str(data["wins"][seat]),
            f"{data['win_rate'][seat]:.1%}",
            f"{low:.1%} - {high:.1%}",
        ]
        if data["mean_scores"] is not None:
            row.append(f"{data['mean_scores'][seat]:.1f}")
        table.add_row(*row)
    turns = data["turns"]
    console.print(table)
    console.print(
        f"ties {data['ties']} · truncated {data['truncated']} "
        f"(max_turns {data['options']['max_turns']}) · "
        f"turns mean {turns['mean']:.1f}, median {turns['median']:.0f}, p90 {turns['p90']:.0f} · "
        f"{data['games_per_s']:.1f} games/s"
    )
    extra = _view(data["game"]).render_summary(data["summary"]) if data["summary"] else None
    if extra is not None:
        console.print(extra)


@app.command("compare")
def compare_command(
    game: Annotated[str, typer.Argument(help="rancho, rocket-ranchers or glory-ranch")],
    vary: Annotated[str, typer.Option(help="The option whose readings are compared.")],
    players: Annotated[
        list[int] | None, typer.Option(help="Player counts (default: every allowed count).")
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="Games per row.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of every row (same games, other rule).")] = 0,
    bot: Annotated[str, typer.Option(help="The bot in every seat.")] = "greedy",
    jobs: Annotated[int | None, typer.Option(help="Processes (default: every core).")] = None,
    option: OptionList = None,
) -> None:
    """Simulate every reading of one option side by side (score split, lengths, ties)."""
    try:
        values = option_values(game, vary)
        cls = game_class(game)
        counts = players or list(range(cls.min_players, cls.max_players + 1))
        base = parse_assignments(option or [])
        base.setdefault("max_turns", str(_default_max_turns(game)))
        total = len(counts) * len(values) * games_
        with _progress() as progress:
            task = progress.add_task(f"comparing {vary}", total=total)
            rows = compare(
                game,
                vary,
                counts,
                games_,
                seed,
                bot,
                tuple(base.items()),
                jobs,
                lambda n: progress.advance(task, n),
            )
    except RanchhandError as error:
        _fail(str(error))
        return
    headline = list(dict.fromkeys(k for row in rows for k in row.headline))
    table = RichTable(
        title=f"{canonical_name(game)}: {vary} compared, {games_} {bot} games per row, seed {seed}",
        title_justify="left",
    )
    for column in ("players", vary, "turns", "ties", "trunc", *headline):
        table.add_column(column, justify="left" if column == vary else "right", no_wrap=True)
    table.caption = "turns: mean per game; trunc: games stopped by max_turns; the rest: means"
    for row in rows:
        report = row.report
        table.add_row(
            str(row.players),
            str(row.value).lower() if isinstance(row.value, bool) else str(row.value),
            f"{report['turns']['mean']:.1f}",
            str(report["ties"]),
            str(report["truncated"]),
            *(f"{row.headline.get(k, float('nan')):.1f}" for k in headline),
        )
    console.print(table)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    show: Annotated[bool, typer.Option(help="Step through the game, drawing the table.")] = False,
    pause: Annotated[
        bool, typer.Option(help="With --show: wait for Enter after each step.")
    ] = True,
    allow_files: Annotated[
        bool,
        typer.Option(
            help="Let the record's options name data files on this machine (a deck, a board). "
            "Off by default: a record from someone else must not make ranchhand read files."
        ),
    ] = False,
) -> None:
    """Replay a record, checking every action against the rules."""
    try:
        record = Record.load(file)
        if show:
            _show_replay(record, pause and sys.stdin.isatty(), allow_files)
        state = replay(record, allow_files=allow_files)
    except (RanchhandError, OSError) as error:
        _fail(str(error))
        return
    console.print(
        f"[bold green]verified[/] {len(record.steps)} actions of {plain(record.game)} "
        f"({_count(record.players, 'player')}, seed {record.seed}); {state.turn} turns."
    )
    outcome = state.outcome()
    if outcome is not None:
        _print_outcome(outcome, record.seats or [f"seat{i}" for i in range(record.players)])
    else:
        console.print("The record stops before the end of the game.")


def _show_replay(record: Record, pause: bool, allow_files: bool) -> None:
    view = _view(record.game)
    for index, (state, step) in enumerate(replay_steps(record, allow_files=allow_files)):
        if step is None:
            console.print(view.render(state.observe(0)))
            break
        if step.player == CHANCE:
            console.print(f"[dim]{index}: chance: {plain(step.action)}[/]")
            continue
        console.print(view.render(state.observe(step.player)))
        console.print(f"[bold]{index}: P{step.player} {plain(step.action)}[/]")
        if pause:
            console.input("[dim]Enter for the next step[/] ")


@app.command("bench")
def bench_command(
    game: Annotated[list[str] | None, typer.Argument(help="Games to time (default: all).")] = None,
    players: Annotated[
        list[int] | None, typer.Option(help="Player counts (default: smallest, middle, largest).")
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="Games per configuration.")] = 200,
    bot: Annotated[str, typer.Option(help="The bot in every seat.")] = "greedy",
) -> None:
    """Print games per second on one core for greedy games of each size."""
    from ranchhand.core.registry import GAME_MODULES

    chosen = [canonical_name(g) for g in game] if game else list(GAME_MODULES)
    table = RichTable(title=f"ranchhand bench: {bot} bots, one core", title_justify="left")
    for column in ("game", "players", "games", "seconds", "games/s", "turns/s", "truncated"):
        table.add_column(column, justify="right" if column != "game" else "left")
    for name in chosen:
        for count in players or default_player_counts(name):
            result = bench(name, count, games_, bot)
            table.add_row(
                name,
                str(count),
                str(result.games),
                f"{result.seconds:.2f}",
                f"{result.games_per_s:.1f}",
                f"{result.turns_per_s:.0f}",
                str(result.truncated),
            )
    console.print(table)


def main() -> None:
    try:
        app()
    except RanchhandError as error:
        console.print(f"[bold red]error:[/] {plain(error)}")
        sys.exit(2)


if __name__ == "__main__":
    main()
