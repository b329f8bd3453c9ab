"""How strong and how quick the search bot is: ismcts against greedy, in every game.

Prints, for each game:

* 2 players: the search bot against greedy, in the first seat for half the games and
  the second for the other half; its win rate with a 95% (Wilson) interval
  (``--against`` seats another bot than greedy in every other seat);
* 4 players: one search bot against three greedy, its seat rotated; its win rate (a
  fair share is 25%);
* timing: CPU seconds per decision of the search bot at 2 and at 4 players (mean over
  every call, and over the calls with a real choice), measured on one process after the
  games above, with the level's time cap.

::

    .venv/bin/python benchmarks/strength.py                       # every game, level normal
    .venv/bin/python benchmarks/strength.py rancho --games 100 --level hard

Games run through ``ranchhand.sim.simulate`` (one derived seed per game), so the win
figures are reproducible from ``--seed`` whatever ``--jobs`` is, as long as no search
stops on its time cap; ``--uncapped`` lifts the cap for the games (the timing keeps it),
so a busy machine cannot cut a search short and change the figures. ``--interleave`` plays
one game in each seat in turn and prints the running tally, so a run cut short is still
balanced (its games have other seeds). ``--set name=value``
changes one of the level's settings (``--set width=8 --set iterations=400``), to screen a
change before making it the level's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import random
import sys
import time
from collections.abc import Hashable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from ranchhand.bots import ismcts
from ranchhand.core.registry import (
    GAME_MODULES,
    SEARCH_LEVELS,
    bot_factory,
    canonical_name,
    load,
    own_levels,
)
from ranchhand.core.runner import derive_seed, play
from ranchhand.sim.simulate import Simulation, cores, simulate
from ranchhand.sim.stats import wilson_interval

MAX_TURNS = (("max_turns", 1000),)


def win_rate(
    game: str,
    level: str,
    players: int,
    games: int,
    seed: int,
    jobs: int,
    against: str = "greedy",
    interleave: bool = False,
) -> tuple[int, int]:
    """The search bot's wins and games against ``against`` bots, its seat rotated over
    ``players`` lineups (``interleave``: see :func:`_interleaved`)."""
    if interleave:
        return _interleaved(game, level, players, games, seed, against)
    wins = played = 0
    for seat in range(players):
        seats = tuple(level if s == seat else against for s in range(players))
        share = games // players + (1 if seat < games % players else 0)
        if not share:
            continue
        sim = Simulation(game, seats, share, derive_seed(seed, game, players, seat), MAX_TURNS)
        report = simulate(sim, jobs)
        wins += report.tally.wins[seat]
        played += report.tally.games
    return wins, played


def _interleaved(
    game: str, level: str, players: int, games: int, seed: int, against: str
) -> tuple[int, int]:
    """As :func:`win_rate`, on this process, one game in each seat in turn (round ``r``,
    seat ``s`` seeded from both), the running tally printed to stderr after every game:
    a run stopped early (a deadline, a busy machine) still has its seats balanced and
    says how far it got."""
    wins = played = 0
    for index in range(games):
        seat, round_ = index % players, index // players
        seats = tuple(level if s == seat else against for s in range(players))
        sim = Simulation(game, seats, 1, derive_seed(seed, game, players, seat, round_), MAX_TURNS)
        report = simulate(sim, 1)
        wins += report.tally.wins[seat]
        played += report.tally.games
        print(f"{game}: {players} players: {wins}/{played} after seat {seat}", file=sys.stderr)
    return wins, played


@contextlib.contextmanager
def uncapped(lift: bool) -> Iterator[None]:
    """Within, if ``lift``, the search levels have no time cap (workers are forked, so they
    inherit it): a search then always runs its iterations, however busy the machine."""
    if not lift:
        yield
        return
    original = ismcts.level
    ismcts.level = lambda game, name: {**original(game, name), "time_cap": None}
    try:
        yield
    finally:
        ismcts.level = original


def setting(text: str) -> tuple[str, Any]:
    """``name=value`` as a level setting: the value read as JSON (``8``, ``null``,
    ``"random"``), else as the text itself."""
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def set_levels(changes: dict[str, Any]) -> None:
    """From now on (in this process and the workers it forks) every level's settings have
    ``changes`` over them."""
    if changes:
        original = ismcts.level
        ismcts.level = lambda game, name: {**original(game, name), **changes}


def settings(game: str, level: str) -> Any:
    """What ``level`` is in ``game``: the search's settings, or the game's own bot (a
    level the game names its own, or a bot given by its name, as ``racer``)."""
    own = own_levels(game).get(level)
    if own is None and level not in SEARCH_LEVELS:
        own = bot_factory(game, level)
    if own is not None:
        return getattr(own, "name", None) or repr(own)
    return ismcts.level(game, level)


class _Timed:
    """Wraps a bot and times each of its decisions in CPU seconds of this process, which
    other work on the machine sways far less than the clock."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.choices: list[float] = []

    def bind(self, game: Any) -> None:
        bind = getattr(self.bot, "bind", None)  # search bots only (see ``runner.play``)
        if bind is not None:
            bind(game)

    def act(self, observation: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        start = time.process_time()
        action = self.bot.act(observation, legal, rng)
        spent = time.process_time() - start
        self.times.append(spent)
        if len(legal) > 1:
            self.choices.append(spent)
        return action


def timing(
    game: str, level: str, games: int, seed: int, players: int = 2
) -> tuple[float, float, float, int]:
    """Mean seconds per decision, per real choice, the slowest, and decisions timed (the
    search bot against greedy, its seat moving round the table game by game)."""
    loaded = load(game, players, **dict(MAX_TURNS))
    timed = _Timed(bot_factory(loaded, level)())
    for index in range(games):
        seats: list[Any] = [bot_factory(game, "greedy")() for _ in range(players)]
        seats[index % players] = timed
        play(loaded, seats, derive_seed(seed, "timing", players, index))
    mean = sum(timed.times) / len(timed.times)
    per_choice = sum(timed.choices) / max(1, len(timed.choices))
    return mean, per_choice, max(timed.times), len(timed.times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="*", help="games (default: all)")
    parser.add_argument("--level", default="normal", help="search level or bot name")
    parser.add_argument("--games", type=int, default=40, help="games at 2 players")
    parser.add_argument("--games4", type=int, default=40, help="games at 4 players (0: skip)")
    parser.add_argument("--timing-games", type=int, default=2, help="games timed alone")
    parser.add_argument(
        "--timing-players",
        default="2,4",
        help="table sizes timed, comma separated (default: 2,4)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--against", default="greedy", help="the bot in every other seat (default: greedy)"
    )
    parser.add_argument("--jobs", type=int, default=cores())
    parser.add_argument(
        "--uncapped", action="store_true", help="no time cap in the games (the timing keeps it)"
    )
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="one game a seat in turn, the tally after each on stderr (other seeds; jobs 1)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        type=setting,
        metavar="NAME=VALUE",
        help="change a setting of the level (screening a change; repeatable)",
    )
    args = parser.parse_args()
    set_levels(dict(args.set))
    names = [canonical_name(g) for g in args.game] or list(GAME_MODULES)
    print(
        f"# benchmarks/strength.py {' '.join(names)} --level {args.level} --games {args.games} "
        f"--games4 {args.games4} --seed {args.seed} --jobs {args.jobs}"
        + (f" --against {args.against}" if args.against != "greedy" else "")
    )
    print(
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"{cores()} cores, Python {platform.python_version()}, level {args.level}: "
        f"{ {g: settings(g, args.level) for g in names} }"
        + (" (no time cap in the games)" if args.uncapped else "")
    )
    for game in names:
        started = time.perf_counter()
        rows = ((2, args.games, args.against), (4, args.games4, f"3 {args.against}"))
        for players, games, against in rows:
            if not games:
                continue
            with uncapped(args.uncapped):
                wins, played = win_rate(
                    game,
                    args.level,
                    players,
                    games,
                    args.seed,
                    args.jobs,
                    args.against,
                    args.interleave,
                )
            low, high = wilson_interval(wins, played)
            print(
                f"{game}: {players} players, {args.level} vs {against}: {wins}/{played} = "
                f"{wins / played:.0%} (95% {low:.0%}..{high:.0%})",
                flush=True,
            )
        sizes = [int(size) for size in args.timing_players.split(",")]
        for players in sizes if args.timing_games else ():
            mean, per_choice, slowest, count = timing(
                game, args.level, args.timing_games, args.seed, players
            )
            print(
                f"{game}: {players} players: {mean:.3f} s per decision ({count} timed alone), "
                f"{per_choice:.3f} s per real choice, slowest {slowest:.2f} s",
                flush=True,
            )
        print(f"{game}: {time.perf_counter() - started:.0f} s in all", flush=True)


if __name__ == "__main__":
    main()
