"""The ``ranchhand`` command: games, play, simulate, arena, replay, bench; the lab's sweep,
runs and report join it from :mod:`ranchhand.cli.lab`."""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table as RichTable

from ranchhand.cli.browser import TableOpener, local_base, table_request
from ranchhand.cli.keyboard import keyboard_for_terminal
from ranchhand.cli.play import (
    HumanSeat,
    QuitGame,
    Table,
    announce_record,
    private_screen,
    record_path,
    save_record,
)
from ranchhand.cli.safe import plain
from ranchhand.core.errors import OptionError, RanchhandError, RecordError, plural
from ranchhand.core.game import CHANCE, Game, Outcome, State
from ranchhand.core.options import parse_assignments
from ranchhand.core.records import SEED_MAX, SEED_MIN, Record, Step, replay, replay_steps
from ranchhand.core.registry import (
    GAME_MODULES,
    bot_factory,
    canonical_name,
    game_class,
    game_module,
    games,
    load,
)
from ranchhand.core.runner import play
from ranchhand.core.undo import is_undo
from ranchhand.core.view import GameView
from ranchhand.sim.bench import bench, default_player_counts
from ranchhand.sim.compare import compare, option_values
from ranchhand.sim.simulate import Report, Simulation, StopControl, simulate

app = typer.Typer(
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish, pwsh)
    pretty_exceptions_enable=False,
)
console = Console()


def _version(asked: bool) -> None:
    if asked:
        from ranchhand import __version__

        print(f"ranchhand {__version__}")
        raise typer.Exit(0)


@app.callback()
def _top(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Play, study and simulate four ranch-building games: Rancho, Rocket Ranchers, Glory
    Ranch and Super Farmer."""


GAME_HELP = "rancho, rocket-ranchers, glory-ranch or super-farmer"
OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as key=value; repeat for several."),
]


def _fail(message: str) -> None:
    console.print(f"[bold red]error:[/] {plain(message)}", soft_wrap=True)
    raise typer.Exit(2)


def _progress() -> Progress:
    """The progress bar of long runs; it disappears when done, leaving the report.

    It redraws only when advanced (:func:`_advancer`), never from a thread of its own:
    simulation workers are forked while it shows, and a fork must not copy another
    thread's hold on the console.
    """
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        auto_refresh=False,
    )


def _advancer(progress: Progress, task: TaskID) -> Callable[[int], None]:
    """Advance ``task`` by the games just finished, redrawing at most ten times a second."""
    last = [-1.0]

    def advance(games: int) -> None:
        progress.advance(task, games)
        now = progress.get_time()
        if now - last[0] >= 0.1:
            last[0] = now
            progress.refresh()

    return advance


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
            title=f"{entry['name']} ({entry['id']} v{entry['version']})",
            title_justify="left",
            caption_justify="left",  # centred, a wrapped caption's last word sat mid-screen
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
    game: Annotated[str | None, typer.Argument(help=GAME_HELP)] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help="One per player, comma separated: human, or a bot: random, greedy, ismcts, "
            "or a level: easy, normal, hard. Default: human,greedy,greedy."
        ),
    ] = None,
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
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue a stopped game from its record, with the same seats and seed; "
            "the record is brought up to date as you play."
        ),
    ] = None,
    allow_files: Annotated[
        bool, typer.Option(help="With --resume: let the record's options name data files.")
    ] = False,
    names: Annotated[
        str | None,
        typer.Option(
            help="What to call the people at the table, comma separated: one name per human "
            "seat in seat order (or one per seat), e.g. --names Ann,Bob. Kept in the record."
        ),
    ] = None,
    browser: Annotated[
        bool,
        typer.Option(
            "--browser",
            help="Play in your browser instead: serves here (tables in ./ranchhand.db), makes "
            "this table, opens your seat's page and prints its link. Ctrl-C stops the server.",
        ),
    ] = False,
    port: Annotated[int, typer.Option(help="With --browser: the port to serve on.")] = 8000,
) -> None:
    """Play in the terminal (or with --browser, in your browser) against bots or friends.

    Several human seats share the keyboard (hot seat): each hand-off clears the screen.
    """
    if browser:
        _play_in_browser(game, seats, seed, option, record, resume, names, port)
        return
    try:
        if resume is not None:
            if names is not None:
                raise OptionError("--resume takes the names from the record; drop --names")
            sitting = _resumed_sitting(resume, game, seats, seed, option, record, allow_files)
        else:
            sitting = _new_sitting(game, seats, seed, option, record, names)
    except RanchhandError as error:
        _fail(str(error))
        return
    _sit_down(sitting)


def _play_in_browser(
    game: str | None,
    seats: str | None,
    seed: int | None,
    option: list[str] | None,
    record: Path | None,
    resume: Path | None,
    names: str | None,
    port: int,
) -> None:
    """``play --browser``: the table is made on a server started here, through its HTTP API,
    and played in the browser; the server keeps the record (its replay page shows it)."""
    try:
        given = [f for f, v in (("--seed", seed), ("--record", record), ("--resume", resume)) if v]
        if given:
            raise OptionError(
                f"--browser plays on the server, which draws the seed and keeps the record: "
                f"drop {', '.join(given)}"
            )
        if game is None:
            raise OptionError(f"name a game: {', '.join(GAME_MODULES)}")
        kinds = _seat_kinds(seats)
        options = parse_assignments(option or [])
        loaded = load(game, len(kinds), **options)
        for kind in set(kinds) - {"human"}:
            bot_factory(game, kind)
        labels = _seat_labels(kinds, names) if names is not None else None
    except RanchhandError as error:
        _fail(str(error))
        return
    body = table_request(loaded.id, kinds, options, labels)
    opener = TableOpener(local_base("127.0.0.1", port), body, console)
    banner = (
        f"Serving {plain(loaded.name)} at {local_base('127.0.0.1', port)}/ "
        "(tables in ./ranchhand.db)..."
    )
    # A server for the person at this keyboard, on the loopback only: the cap on a client's
    # unfinished tables (there against strangers) would stop someone who left 20 games.
    limits = ("max_open_tables_per_client=1000000",)
    _serve(opener, banner, host="127.0.0.1", port=port, log_level="warning", limits=limits)


def _seat_kinds(seats: str | None) -> list[str]:
    kinds = [s.strip() for s in (seats or "human,greedy,greedy").split(",") if s.strip()]
    if not kinds:
        raise OptionError("--seats names no seat; e.g. --seats human,greedy")
    return kinds


MAX_NAME = 32
"""The longest name ``--names`` takes (the server allows as much)."""


def _seat_labels(kinds: list[str], names: str) -> list[str]:
    """Each seat's name: ``--names`` gives the human seats' (in order) or every seat's; a
    seat not named is called by its kind (``greedy``)."""
    given = [n.strip() for n in names.split(",")]
    for name in given:
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise OptionError(
                f"--names: {name!r} is not a name (1 to {MAX_NAME} printable characters, no commas)"
            )
    humans = [i for i, kind in enumerate(kinds) if kind == "human"]
    if len(given) == len(kinds):
        return given
    if len(given) == len(humans):
        labels = list(kinds)
        for seat, name in zip(humans, given, strict=True):
            labels[seat] = name
        return labels
    raise OptionError(
        f"--names gives {plural(len(given), 'name')}: give one per human seat "
        f"({len(humans)}) or one per seat ({len(kinds)})"
    )


@dataclass
class _Sitting:
    """One session at the terminal: a new game, or a stopped one taken up again."""

    game: Game
    names: list[str]
    """Each seat's kind: ``human`` or a bot's name."""
    seed: int
    path: Path
    chosen: bool
    """The record's file was named by the user (never renamed to avoid a clash)."""
    steps: list[Step] = field(default_factory=list)
    """What was played before, when resuming."""
    labels: list[str] = field(default_factory=list)
    """What each seat is called on screen (``--names``); empty: by its kind."""
    resumed: bool = False
    """Taken up from its record, which is brought up to date in place (even when the
    record held no step yet)."""


def _new_sitting(
    game: str | None,
    seats: str | None,
    seed: int | None,
    option: list[str] | None,
    record: Path | None,
    labels: str | None = None,
) -> _Sitting:
    if game is None:
        raise OptionError(f"name a game ({', '.join(GAME_MODULES)}) or --resume RECORD")
    names = _seat_kinds(seats)
    named = _seat_labels(names, labels) if labels is not None else []
    loaded = load(game, len(names), **parse_assignments(option or []))
    for name in set(names) - {"human"}:
        bot_factory(game, name)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if not SEED_MIN <= seed <= SEED_MAX:
        raise OptionError(f"--seed must be {SEED_MIN} to {SEED_MAX} (what a record holds)")
    path = record_path(record, loaded.id)
    return _Sitting(loaded, names, seed, path, record is not None, labels=named)


def _resumed_sitting(
    resume: Path,
    game: str | None,
    seats: str | None,
    seed: int | None,
    option: list[str] | None,
    record: Path | None,
    allow_files: bool,
) -> _Sitting:
    given = [f for f, v in (("GAME", game), ("--seats", seats), ("--seed", seed)) if v is not None]
    given += [f for f, v in (("--option", option), ("--record", record)) if v]
    if given:
        raise OptionError(
            f"--resume takes the game, seats, seed and options from the record; "
            f"drop {', '.join(given)}"
        )
    saved = Record.load(resume)
    if saved.outcome is not None:
        raise RecordError(f"{resume}: that game is over; replay it with: ranchhand replay")
    if saved.seed is None or not saved.seats:
        raise RecordError(f"{resume}: the record names no seed or seats, so it cannot go on")
    loaded = saved.load_game(allow_files=allow_files)
    for name in set(saved.seats) - {"human"}:
        bot_factory(loaded.id, name)
    return _Sitting(
        loaded,
        list(saved.seats),
        saved.seed,
        resume,
        True,
        list(saved.steps),
        list(saved.names),
        resumed=True,
    )


def _sit_down(sitting: _Sitting) -> None:
    """Play the sitting to its end or until someone quits; the record is saved either way."""
    loaded, names, seed = sitting.game, sitting.names, sitting.seed
    humans = {i for i, n in enumerate(names) if n == "human"}
    table = Table(console, _view(loaded.id), loaded, humans, sitting.labels or names)
    keyboard = keyboard_for_terminal()
    seat_objects = [
        HumanSeat(table, console.input, keyboard) if n == "human" else bot_factory(loaded.id, n)()
        for n in names
    ]
    log = Record.start(loaded, names, seed, sitting.labels)

    def listen(state: State, player: int, action: Hashable) -> None:
        log.add(player, action)
        table.note(state, player, action)

    def undo(state: State) -> None:
        log.steps.pop()
        table.undo(state)

    def save(announce: bool = True) -> Path:
        try:
            return save_record(
                log,
                sitting.path,
                console,
                chosen=sitting.chosen,
                overwrite=sitting.resumed,
                announce=announce,
            )
        except RecordError as error:
            console.print(f"[bold red]error:[/] {plain(error)}", soft_wrap=True)
            raise typer.Exit(74) from None

    again = f", resumed after {plural(len(sitting.steps), 'step')}" if sitting.resumed else ""
    console.print(f"[bold]{loaded.name}[/] with {plural(len(names), 'player')}{again}.")
    console.print("Type 'help' at any prompt.")
    try:
        with private_screen(console, len(humans)):
            result = play(
                loaded,
                seat_objects,
                seed,
                listener=listen,
                seat_names=names,
                on_undo=undo,
                resume=sitting.steps,
            )
    except (QuitGame, KeyboardInterrupt, EOFError):
        console.print("\nGame stopped.")
        saved = save()
        console.print(f"Continue it with: ranchhand play --resume {plain(saved)}")
        raise typer.Exit(0) from None
    except RecordError as error:  # the record to resume does not fit: leave it as it was
        _fail(str(error))
        return
    except Exception as error:  # a bug must not lose the game: save it, then say so
        saved = save()
        console.print(
            f"[bold red]ranchhand failed with {type(error).__name__}[/]: this is a bug. "
            f"The game so far is in {plain(saved)}; please report it with that file."
        )
        if os.environ.get("RANCHHAND_DEBUG"):
            raise
        raise typer.Exit(70) from None
    state = result.state
    assert state is not None
    log.finish(state)
    saved = save(announce=False)  # first: nothing after the last move may lose the game
    viewer = table.last_human if len(humans) == 1 else None  # several people: nobody's secrets
    console.print(table.view.render(state.observe(viewer)))
    _print_outcome(result.outcome, sitting.labels or names)
    announce_record(console, saved)
    console.print(f"The game's seed was {seed}.")


def _rate(value: float) -> str:
    """A rate with three significant figures however slow (a search bot: 0.0213 games/s)."""
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 1 else f"{value:.3g}"


def _number(value: float) -> str:
    """A score as people write it: ``12``, not ``12.0``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _print_outcome(outcome: Outcome, names: list[str]) -> None:
    if outcome.truncated:
        console.print("[yellow]The game was stopped by max_turns: no winner.[/]")
        return
    winners = ", ".join(f"P{w} {plain(names[w])}" for w in outcome.winners) or "nobody"
    scores = (
        "" if outcome.scores is None else f"  scores: {', '.join(map(_number, outcome.scores))}"
    )
    console.print(f"[bold green]Winner: {winners}[/] ({outcome.reason}){scores}")


@app.command("simulate")
def simulate_command(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seats: Annotated[
        str | None, typer.Option(help="Bots per seat, comma separated; one name fills every seat.")
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="How many games.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    jobs: Annotated[
        int | None,
        typer.Option(help="Processes (default: every core; never more than cores or games)."),
    ] = None,
    option: OptionList = None,
    record: Annotated[
        Path | None,
        typer.Option(help="Folder to save every game's record in (must not hold this run's)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    store: Annotated[
        Path | None,
        typer.Option(
            help="Also keep every game in this lab store (reused when run again).",
            envvar="RANCHHAND_STORE",
        ),
    ] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster (--backend ray).")] = None,
    engine: Annotated[
        str,
        typer.Option(
            help="reference, or fast: the game's compiled engine (random and greedy seats, "
            "and daring in Super Farmer; one process; needs the fast extra)."
        ),
    ] = "reference",
) -> None:
    """Simulate many games in parallel and report wins, ties and game lengths.

    Ctrl-C (SIGINT) or SIGTERM stops the run within a game's time: the report of the
    games that finished is printed, marked partial, and the exit code is 130 or 143.
    """
    from ranchhand.cli.lab import simulation_runner

    control = StopControl()  # signals only set flags: a second Ctrl-C cannot cut the report
    with control.catching(leaving=True):
        try:
            _at_least_one("games", games_)
            _at_least_one("jobs", jobs)
            _at_least_one("players", players)
            sim = _simulation(game, players, seats, games_, seed, option or [], record)
            sim.check()
            if record is not None and (store is not None or backend != "local"):
                raise OptionError("--record works only on the local backend without a store")
            games_of = _simulator(engine, store is not None or backend != "local", sim.game)
            with simulation_runner(store, backend, address, jobs, games_of) as run:
                if as_json:
                    report = run(sim, jobs, None, control)
                else:
                    with _progress() as progress:
                        task = progress.add_task(f"simulating {plain(sim.game)}", total=sim.games)
                        report = run(sim, jobs, _advancer(progress, task), control)
        except RanchhandError as error:
            _fail(str(error))
            return
        if as_json:
            print(json.dumps(report.to_json(), indent=2))
        else:
            _print_report(report)
    code = report.exit_code or (128 + control.signal if control.signal else 0)
    if code:
        raise typer.Exit(code)


def _simulator(engine: str, elsewhere: bool, game: str) -> Callable[..., Report]:
    """What plays a simulation's games: ``simulate``, or the game's compiled engine (loaded
    here, before any progress is drawn, so a missing extra is one line)."""
    if engine == "reference":
        return simulate
    if engine != "fast":
        raise OptionError(f"no engine {engine!r}; engines are: reference, fast")
    if elsewhere:
        raise OptionError("--engine fast runs on the local backend without a store")
    from ranchhand.sim.fast import fast_engine, simulate_fast

    fast_engine(game)
    return simulate_fast


def _at_least_one(name: str, value: int | None) -> None:
    """Refuse a count below one (``--games 0``, ``--jobs -1``) with the option's name."""
    if value is not None and value < 1:
        raise OptionError(f"--{name} must be at least 1, got {value}")


def _player_range(game: str, players: int) -> None:
    """Refuse a player count outside the game's range before anything is built for it."""
    cls = game_class(game)
    if not cls.min_players <= players <= cls.max_players:
        raise OptionError(
            f"{canonical_name(game)} is for {cls.min_players} to {cls.max_players} players, "
            f"not {players}"
        )


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
    if not names:
        raise OptionError("--seats names no bot; e.g. --seats greedy,random")
    if players is None:
        players = len(names) if len(names) > 1 else game_class(game).min_players
    _player_range(game, players)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise OptionError(f"--seats names {plural(len(names), 'bot')} but --players is {players}")
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
    played = plural(data["games"], "game")
    if report.partial:
        played = f"{data['games']} of {plural(data['requested'], 'game')} (partial)"
    title = f"{data['game']}: {played}, {plural(data['players'], 'player')}, seed {data['seed']}"
    table = RichTable(title=title, title_justify="left")
    for column in ("seat", "bot", "wins", "win rate", "95% CI"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    if data["mean_scores"] is not None:
        table.add_column("mean score", justify="right")
    for seat, name in enumerate(data["seats"]):
        low, high = data["win_ci95"][seat]
        row = [
            str(seat),
            plain(name),
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
        f"(max_turns {plain(data['options']['max_turns'])}) · "
        f"turns mean {turns['mean']:.1f}, median {turns['median']:.0f}, p90 {turns['p90']:.0f} · "
        f"{data['games_per_s']:.1f} games/s"
    )
    extra = _view(data["game"]).render_summary(data["summary"]) if data["summary"] else None
    if extra is not None:
        console.print(extra)
    if report.partial:
        _print_stop(report)


def _print_stop(report: Report) -> None:
    """Say that the report is partial, why, which games it covers and where their records are."""
    tally, sim = report.tally, report.simulation
    console.print(
        f"[bold yellow]partial report:[/] stopped ({plain(report.stopped)}) after "
        f"{plural(tally.games, 'game')} of {sim.games}; games finished: {tally.indices.text()}"
    )
    if sim.record_dir is not None:
        console.print(f"their records are in {plain(sim.record_dir)}")
        if report.uncounted_records:
            extra = ", ".join(map(str, report.uncounted_records))
            console.print(f"records of games not counted above (a worker was killed): {extra}")


@app.command("arena")
def arena_command(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    bots: Annotated[
        str, typer.Option(help="Bots to rate, comma separated.")
    ] = "random,greedy,ismcts",
    games_: Annotated[int, typer.Option("--games", help="Games per lineup.")] = 100,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    jobs: Annotated[
        int | None,
        typer.Option(help="Processes (default: every core; results do not depend on it)."),
    ] = None,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster (--backend ray).")] = None,
    store: Annotated[
        Path | None,
        typer.Option(
            help="Keep every lineup as one arena run in this lab store (a rerun replays "
            "nothing; ranchhand report shows its ladder).",
            envvar="RANCHHAND_STORE",
        ),
    ] = None,
) -> None:
    """Every bot against every other, seats rotated: ratings, head-to-head, seat effects."""
    from ranchhand.cli.lab import arena_runner
    from ranchhand.sim.arena import arena, print_arena

    control = StopControl()
    with control.catching(leaving=True):
        try:
            _at_least_one("games", games_)
            _at_least_one("jobs", jobs)
            _at_least_one("players", players)
            names = [b.strip() for b in bots.split(",") if b.strip()]
            # bots meet at a table of two at least (Super Farmer's smallest table is one)
            count = players or max(2, game_class(game).min_players)
            _player_range(game, count)
            options = parse_assignments(option or [])
            options.setdefault("max_turns", str(_default_max_turns(game)))
            command = shlex.join(
                ["ranchhand", "arena", canonical_name(game), "--bots", ",".join(names),
                 "--games", str(games_), "--players", str(count), "--seed", str(seed),
                 *(w for k, v in sorted(options.items()) for w in ("--option", f"{k}={v}"))]
            )  # fmt: skip
            with arena_runner(store, backend, address, jobs, command) as run:
                report = arena(
                    canonical_name(game), names, games_, count, seed, jobs,
                    tuple(sorted(options.items())), control, run=run,
                )  # fmt: skip
        except RanchhandError as error:
            _fail(str(error))
            return
    if as_json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print_arena(report, console)
    if control.signal:
        raise typer.Exit(128 + control.signal)


@app.command("compare")
def compare_command(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    vary: Annotated[str, typer.Option(help="The option whose readings are compared.")],
    players: Annotated[
        list[int] | None, typer.Option(help="Player counts (default: every allowed count).")
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="Games per row.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of every row (same games, other rule).")] = 0,
    bot: Annotated[str, typer.Option(help="The bot in every seat.")] = "greedy",
    jobs: Annotated[
        int | None,
        typer.Option(help="Processes (default: every core; never more than cores or games)."),
    ] = None,
    option: OptionList = None,
) -> None:
    """Simulate every reading of one option side by side (score split, lengths, ties).

    Ctrl-C (SIGINT) or SIGTERM stops it: the rows so far are printed (the last one
    partial) and the exit code is 130 or 143.
    """
    try:
        _at_least_one("games", games_)
        _at_least_one("jobs", jobs)
        for count in players or []:
            _at_least_one("players", count)
            _player_range(game, count)
        values = option_values(game, vary)
        cls = game_class(game)
        counts = players or list(range(cls.min_players, cls.max_players + 1))
        base = parse_assignments(option or [])
        base.setdefault("max_turns", str(_default_max_turns(game)))
        total = len(counts) * len(values) * games_
        control = StopControl()
        with control.catching(leaving=True), _progress() as progress:
            task = progress.add_task(f"comparing {plain(vary)}", total=total)
            rows = compare(
                game,
                vary,
                counts,
                games_,
                seed,
                bot,
                tuple(base.items()),
                jobs,
                _advancer(progress, task),
                control,
            )
    except RanchhandError as error:
        _fail(str(error))
        return
    headline = list(dict.fromkeys(k for row in rows for k in row.headline))
    title = (
        f"{canonical_name(game)}: {plain(vary)} compared, "
        f"{plural(games_, f'{plain(bot)} game')} per row, seed {seed}"
    )
    cells: list[dict[str, str]] = []
    for row in rows:
        report = row.report
        value = str(row.value).lower() if isinstance(row.value, bool) else str(row.value)
        if row.partial:
            value += f" (partial: {report['games']} of {report['requested']})"
        cells.append(
            {
                "players": str(row.players),
                vary: plain(value),
                "turns": f"{report['turns']['mean']:.1f}",
                "ties": str(report["ties"]),
                "trunc": str(report["truncated"]),
                **{k: f"{row.headline.get(k, float('nan')):.1f}" for k in headline},
            }
        )
    for table in _compare_tables(
        title, ["players", vary], ["turns", "ties", "trunc", *headline], cells
    ):
        console.print(table)
    console.print(
        "turns: mean per game; trunc: games stopped by max_turns; the rest: means", style="dim"
    )
    stopped = next((row for row in rows if row.exit_code), None)
    if stopped is not None:
        console.print(
            f"[bold yellow]partial comparison:[/] stopped ({plain(stopped.report['stopped'])}); "
            f"{plural(len(rows), 'row')} of {len(counts) * len(values)}"
        )
        raise typer.Exit(stopped.exit_code)


def _compare_tables(
    title: str, keys: list[str], measures: list[str], cells: list[dict[str, str]]
) -> list[RichTable]:
    """The comparison as tables no wider than the terminal: each repeats the key
    columns (players, the option's reading) and takes as many measures as fit, so
    no column is cut to an ellipsis at 80 columns."""

    def table(columns: list[str], first: bool) -> RichTable:
        made = RichTable(title=title if first else None, title_justify="left")
        for column in keys + columns:
            made.add_column(
                plain(column), justify="left" if column == keys[1] else "right", no_wrap=True
            )
        for row in cells:
            made.add_row(*(row[column] for column in keys + columns))
        return made

    def width(made: RichTable) -> int:
        return console.measure(made, options=console.options.update_width(10_000)).maximum

    tables: list[RichTable] = []
    chunk: list[str] = []
    for column in measures:
        if chunk and width(table([*chunk, column], not tables)) > console.width:
            tables.append(table(chunk, not tables))
            chunk = []
        chunk.append(column)
    return [*tables, table(chunk, not tables)]


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
        f"({plural(record.players, 'player')}, seed {record.seed}); {state.turn} turns."
    )
    outcome = state.outcome()
    if outcome is not None:
        seats = record.names or record.seats or [f"seat{i}" for i in range(record.players)]
        _print_outcome(outcome, seats)
    else:
        console.print("The record stops before the end of the game.")


def _show_replay(record: Record, pause: bool, allow_files: bool) -> None:
    view = _view(record.game)
    for index, (state, step) in enumerate(replay_steps(record, allow_files=allow_files)):
        if step is None:
            console.print(view.render(state.observe(None)))
            break
        if step.player == CHANCE:
            console.print(f"[dim]{index}: chance: {plain(step.action)}[/]")
            continue
        if is_undo(step.player):  # the state shown next is the one before the undone action
            console.print(f"[bold]{index}: undo: the last action is taken back[/]")
            continue
        console.print(view.render(state.observe(step.player)))
        console.print(f"[bold]{index}: P{step.player} {plain(step.action)}[/]")
        if pause:
            try:
                answer = console.input("[dim]Enter for the next step, q to stop[/] ")
            except (EOFError, KeyboardInterrupt):
                answer = "q"
            if answer.strip().lower() in ("q", "quit"):
                console.print(f"\nReplay stopped at step {index}.")
                raise typer.Exit(0)


@app.command("bench")
def bench_command(
    game: Annotated[list[str] | None, typer.Argument(help="Games to time (default: all).")] = None,
    players: Annotated[
        list[int] | None, typer.Option(help="Player counts (default: smallest, middle, largest).")
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="Games per configuration.")] = 200,
    bot: Annotated[
        list[str] | None, typer.Option(help="The bot in every seat; repeat for several.")
    ] = None,
    engine: Annotated[
        list[str] | None,
        typer.Option(help="reference (default) or fast (a compiled engine); repeat for both."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Print games and steps per second on one core for each game, size, bot and engine."""
    from ranchhand.sim.bench import ENGINES, bench_json, cores, fast_timer

    bots, engines = bot or ["greedy"], engine or ["reference"]
    try:
        _at_least_one("games", games_)
        for count in players or []:
            _at_least_one("players", count)
        for name in engines:
            if name not in ENGINES:
                raise OptionError(f"no engine {name!r}; engines are: {', '.join(ENGINES)}")
        chosen = [canonical_name(g) for g in game] if game else list(GAME_MODULES)
        plan: list[tuple[str, int, str, str]] = []
        for name in chosen:
            for one in bots:
                bot_factory(name, one)
            if "fast" in engines:
                fast_timer(name)
            for count in players or default_player_counts(name):
                _player_range(name, count)
                plan.extend((name, count, one, how) for one in bots for how in engines)
    except RanchhandError as error:
        _fail(str(error))
        return
    title = f"ranchhand bench: one core of {cores()}"
    table = RichTable(title=title, title_justify="left")
    columns = ("game", "players", "bot", "engine", "games", "seconds", "games/s", "steps/s")
    for column in (*columns, "truncated"):
        table.add_column(column, justify="left" if column in ("game", "bot", "engine") else "right")
    results = []
    try:
        for name, count, one, how in plan:
            result = bench(name, count, games_, one, engine=how)
            results.append(result)
            table.add_row(
                name,
                str(count),
                plain(one),
                how,
                str(result.games),
                f"{result.seconds:.2f}",
                _rate(result.games_per_s),
                _rate(result.steps_per_s),
                str(result.truncated),
            )
    except KeyboardInterrupt:
        if as_json:
            print(json.dumps({**bench_json(results), "partial": True}))
        else:
            table.caption = "partial: stopped by SIGINT"
            console.print(table)
        raise typer.Exit(130) from None
    except RanchhandError as error:
        _fail(str(error))
        return
    if as_json:
        print(json.dumps(bench_json(results)))
    else:
        console.print(table)


@app.command("serve")
def serve_command(
    host: Annotated[
        str, typer.Option(help="Address to listen on, e.g. 127.0.0.1, 0.0.0.0 (all IPv4) or ::.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on, 1 to 65535.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///FILE (default sqlite:///ranchhand.db, in this "
            "folder) or postgresql+psycopg://user@host/db."
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Server processes, 1 to 64 (above 1 needs PostgreSQL).")
    ] = 1,
    bot_delay: Annotated[
        float,
        typer.Option(help="Seconds a bot waits before moving unless a table says, 0 to 60."),
    ] = 0.0,
    log_level: Annotated[
        str,
        typer.Option(
            help="critical, error, warning, info, debug (logs actions) or trace (uvicorn's)."
        ),
    ] = "info",
    proxy_headers: Annotated[
        bool,
        typer.Option(help="Trust X-Forwarded-For/-Proto from --forwarded-allow-ips (a proxy)."),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(help="Proxies trusted with --proxy-headers, comma separated (or '*')."),
    ] = None,
    root_path: Annotated[
        str, typer.Option(help="The path prefix a proxy serves this under, e.g. /ranchhand.")
    ] = "",
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address people use, for the links a new table hands out: http:// or "
            "https://, a host, maybe a port and a path; no user, query or fragment."
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=VALUE, repeatable: a limit other than its default, e.g. "
            "tables=5/min, actions=off, body_timeout=20, max_open_tables_per_client=5, "
            "ws_per_address=16. docs/server.md lists every limit.",
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="https://host[:port], repeatable: another site whose pages may act here "
            "(the server's own address and --public-url's always may).",
        ),
    ] = None,
    prepare_bots: Annotated[
        bool | None,
        typer.Option(
            "--prepare-bots/--no-prepare-bots",
            help="Make, once and in a process apart at the lowest priority, the tables "
            "bots read to play their best (Super Farmer's racer: 20-45 CPU s, 520 MB, "
            "cached). Default: on, unless RANCHHAND_PREPARE_BOTS=0.",
            show_default=False,
        ),
    ] = None,
    open_: Annotated[
        bool,
        typer.Option(
            "--open",
            help="Open the lobby in your browser once the server answers (the "
            "address is printed too). To open a ready table: ranchhand play GAME --browser.",
        ),
    ] = False,
) -> None:
    """Run the games server: tables where friends and bots play, over HTTP and WebSockets.

    The schema is created or upgraded on start; SIGTERM or Ctrl-C stops it cleanly
    (requests in flight finish, WebSockets close) and it exits 0. A bad flag or a
    database that cannot be opened: one line, exit 2, nothing served. With --workers,
    the workers stop when the parent process dies, even of SIGKILL. Every move is
    committed before anyone hears of it, so a restart loses nothing.

    Behind a proxy (nginx, Caddy) that terminates TLS: keep --host 127.0.0.1, add
    --proxy-headers --forwarded-allow-ips 127.0.0.1 (the proxy's address) and
    --public-url https://games.example.org, and have the proxy pass WebSocket
    upgrades on /ws/ (nginx: proxy_http_version 1.1; proxy_set_header Upgrade
    $http_upgrade; proxy_set_header Connection "upgrade"; a proxy_read_timeout
    longer than a game's pauses). docs/server.md has a full example.
    """
    opener = None
    if open_:
        opener = TableOpener(local_base(host, port, root_path), None, console)
    _serve(
        opener,
        host=host,
        port=port,
        db=db,
        workers=workers,
        bot_delay=bot_delay,
        log_level=log_level.lower(),
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
        root_path=root_path,
        public_url=public_url,
        limits=tuple(limit or ()),
        allowed_origins=tuple(allowed_origin or ()),
        prepare_bots=prepare_bots,
    )


def _serve(opener: TableOpener | None, banner: str | None = None, **flags: Any) -> None:
    """Run the server (:func:`ranchhand.server.run`), with ``opener`` beside it to make the
    table and open the browser once it answers; a table the server refused ends in exit 2.
    A missing server extra is one line from :func:`main`, as for every command."""
    # The server's parts are imported first, so that a missing extra is one line before
    # anything is printed or started.
    import alembic  # noqa: F401
    import uvicorn  # noqa: F401

    import ranchhand.server.app  # noqa: F401
    from ranchhand.server import run

    if banner is not None:
        console.print(banner)
    if opener is not None:
        opener.start()
    try:
        run(**flags)
    except RanchhandError as error:
        _fail(str(error))
    if opener is not None and opener.failed:
        raise typer.Exit(2)


EXTRA_OF_MODULE = {
    **dict.fromkeys(
        ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg", "httpx"),
        "server",
    ),
    **dict.fromkeys(("scipy", "matplotlib"), "lab"),
    **dict.fromkeys(("numba", "llvmlite"), "fast"),
    "ray": "cluster",
    "playwright": "web",
    "pettingzoo": "pettingzoo",
    "gymnasium": "gymnasium",
    "pyspiel": "openspiel",
    **dict.fromkeys(("torch", "stable_baselines3", "sb3_contrib"), "rl"),
}
"""The extra (pyproject's optional-dependencies) that installs each optional module."""


def missing_extra(error: ImportError) -> str | None:
    """The one line that says which extra to install, when ``error`` is an optional
    module missing (None for anything else: a real bug keeps its traceback)."""
    module = (error.name or "").partition(".")[0]
    extra = EXTRA_OF_MODULE.get(module)
    if extra is None:
        return None
    return (
        f"this command needs the {extra} extra ({module} is not installed): "
        f"pip install 'ranchhand[{extra}]' (in a clone: pip install -e '.[{extra}]')"
    )


from ranchhand.cli import lab as _lab  # noqa: E402, F401  (registers sweep, runs and report)
from ranchhand.cli import solve as _solve  # noqa: E402, F401  (registers solve)


def main() -> None:
    """The ``ranchhand`` command. A refusal (RanchhandError) or an optional dependency
    that is not installed ends in one line and exit 2, never a traceback."""
    try:
        app()
    except RanchhandError as error:
        console.print(f"[bold red]error:[/] {plain(error)}", soft_wrap=True)
        sys.exit(2)
    except ImportError as error:
        line = missing_extra(error)
        if line is None:
            raise
        console.print(f"[bold red]error:[/] {plain(line)}", soft_wrap=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
