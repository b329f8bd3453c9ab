"""The arena: every bot against every other, seats rotated, rated with Bradley-Terry.

For each pair of bots the arena plays one *lineup* per seat: one bot in that seat and
the other in every other seat (with two players, the pair in both seat orders), and
each bot against copies of itself. Each lineup is a :class:`Simulation` with a seed
derived from the arena's seed and the lineup's number, and each game of it has its
own derived seed (``simulate``), so the results are the same whatever ``jobs`` is.

Every game between two different bots counts as one match between them: the lone bot
won, lost, or drew (a shared win, a truncated game). Bradley-Terry strengths are fitted
to those matches (Hunter's MM iteration, with half a win each way per pair so that a
bot that never loses keeps a finite rating) and shown on the Elo scale, ``random`` at 0
when it plays (else the mean at 0), with 95% intervals from a seeded bootstrap of the
games, and from the same resamples an interval on every pair's rating gap. Seat effects
are each seat's share of wins in the games of identical bots, and
"luck and skill" sets the strongest bot's win-rate gap over ``random`` (its head-to-head
rate minus random's) next to the first seat's gap over the second in identical-bot games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.runner import derive_seed
from ranchhand.sim.simulate import Report, Simulation, StopControl, simulate

ELO = 400 / math.log(10)
"""Elo points per unit of log strength."""
BOOTSTRAP = 200
"""Bootstrap resamples behind each rating's 95% interval."""
PRIOR = 0.5
"""Virtual wins each way per pair of bots (keeps an unbeaten bot's rating finite)."""


@dataclass(frozen=True)
class Lineup:
    """One bot name per seat, and its results: wins by seat, ties (shared or truncated)."""

    seats: tuple[str, ...]
    games: int = 0
    wins: tuple[int, ...] = ()
    ties: int = 0


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every pair with one bot in each seat in turn and the other in the rest, then each
    bot against copies of itself; no lineup twice."""
    found: dict[tuple[str, ...], None] = {}
    for i, a in enumerate(bots):
        for b in bots[i + 1 :]:
            for lone, rest in ((a, b), (b, a)):
                for seat in range(players):
                    found[tuple(lone if s == seat else rest for s in range(players))] = None
    for bot in bots:
        found[(bot,) * players] = None
    return list(found)


def _pair_results(table: Sequence[Lineup]) -> dict[tuple[str, str], list[float]]:
    """(a, b) -> [a's wins, b's wins, draws] over games between two different bots."""
    pairs: dict[tuple[str, str], list[float]] = {}
    for lineup in table:
        names = set(lineup.seats)
        if len(names) != 2:
            continue
        lone = next(n for n in names if lineup.seats.count(n) == 1)
        other = next(n for n in names if n != lone)
        seat = lineup.seats.index(lone)
        a, b = sorted((lone, other))
        row = pairs.setdefault((a, b), [0.0, 0.0, 0.0])
        lone_wins = lineup.wins[seat]
        other_wins = sum(lineup.wins) - lone_wins
        row[0 if a == lone else 1] += lone_wins
        row[1 if a == lone else 0] += other_wins
        row[2] += lineup.ties
    return pairs


def bradley_terry(
    bots: Sequence[str], pairs: dict[tuple[str, str], list[float]], iterations: int = 500
) -> dict[str, float]:
    """Log strengths fitted to the pair results (a draw is half a win each way)."""
    wins = {bot: 0.0 for bot in bots}
    games: dict[tuple[str, str], float] = {}
    for (a, b), (wa, wb, draws) in pairs.items():
        wins[a] += wa + draws / 2 + PRIOR
        wins[b] += wb + draws / 2 + PRIOR
        games[(a, b)] = wa + wb + draws + 2 * PRIOR
    strength = {bot: 1.0 for bot in bots}
    for _ in range(iterations):
        updated = {}
        for bot in bots:
            total = sum(
                n / (strength[a] + strength[b]) for (a, b), n in games.items() if bot in (a, b)
            )
            updated[bot] = wins[bot] / total if total else 1.0
        scale = math.exp(sum(math.log(s) for s in updated.values()) / len(updated))
        done = all(abs(updated[b] / scale - strength[b]) < 1e-10 for b in bots)
        strength = {b: s / scale for b, s in updated.items()}
        if done:
            break
    return {bot: math.log(s) for bot, s in strength.items()}


def elo(bots: Sequence[str], logs: dict[str, float]) -> dict[str, float]:
    """Log strengths on the Elo scale: ``random`` at 0 if it plays, else the mean at 0."""
    zero = logs["random"] if "random" in logs else sum(logs.values()) / len(logs)
    return {bot: ELO * (logs[bot] - zero) for bot in bots}


def _bootstrap(
    bots: Sequence[str], pairs: dict[tuple[str, str], list[float]], rng: random.Random
) -> tuple[dict[str, tuple[float, float]], dict[tuple[str, str], tuple[float, float]]]:
    """95% intervals of the Elo ratings and of every pair's rating gap: the games of each
    pair redrawn with replacement (with the prior's half win each way, so a pair one bot
    always won still varies). A gap's interval comes from the same resamples, so it is
    narrower than the two ratings' intervals side by side suggest."""
    samples: dict[str, list[float]] = {bot: [] for bot in bots}
    for _ in range(BOOTSTRAP):
        redrawn = {}
        for key, (wa, wb, draws) in pairs.items():
            n = int(wa + wb + draws)
            picks = (
                rng.choices((0, 1, 2), weights=(wa + PRIOR, wb + PRIOR, draws), k=n) if n else []
            )
            redrawn[key] = [float(picks.count(k)) for k in (0, 1, 2)]
        for bot, rating in elo(bots, bradley_terry(bots, redrawn, 200)).items():
            samples[bot].append(rating)
    intervals = {bot: _percentiles(values) for bot, values in samples.items()}
    gaps = {
        (a, b): _percentiles([x - y for x, y in zip(samples[a], samples[b], strict=True)])
        for i, a in enumerate(bots)
        for b in bots[i + 1 :]
    }
    return intervals, gaps


def _percentiles(values: list[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles, as the ratings' intervals have always been read."""
    ordered = sorted(values)
    return ordered[int(0.025 * len(ordered))], ordered[int(0.975 * len(ordered)) - 1]


@dataclass
class ArenaReport:
    game: str
    players: int
    bots: list[str]
    seed: int
    table: list[Lineup]
    ratings: dict[str, float] = field(default_factory=dict)
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    gaps: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    """(a, b) -> the 95% interval of a's rating minus b's (bots in the order given)."""
    counts: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    """(a, b) sorted -> [a's wins, b's wins, draws] in their games against each other."""
    head_to_head: dict[str, dict[str, float]] = field(default_factory=dict)
    seats: list[float] = field(default_factory=list)
    luck_and_skill: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "ratings": [
                {
                    "bot": bot,
                    "elo": round(self.ratings[bot], 1),
                    "ci95": [round(x, 1) for x in self.intervals[bot]],
                }
                for bot in sorted(self.bots, key=lambda b: -self.ratings[b])
            ],
            "head_to_head": {
                a: {b: round(r, 4) for b, r in row.items()} for a, row in self.head_to_head.items()
            },
            "gaps": [
                {
                    "a": a,
                    "b": b,
                    "elo_gap": round(self.ratings[a] - self.ratings[b], 1),
                    "ci95": [round(low, 1), round(high, 1)],
                }
                for (a, b), (low, high) in self.gaps.items()
            ],
            "head_to_head_counts": [
                {"a": a, "b": b, "a_wins": wa, "b_wins": wb, "draws": d}
                for (a, b), (wa, wb, d) in self.counts.items()
            ],
            "seat_win_rates": [round(x, 4) for x in self.seats],
            "luck_and_skill": self.luck_and_skill,
            "lineups": [
                {"seats": list(x.seats), "games": x.games, "wins": list(x.wins), "ties": x.ties}
                for x in self.table
            ],
        }


def analyse(
    game: str, players: int, bots: Sequence[str], seed: int, table: list[Lineup]
) -> ArenaReport:
    """Ratings, head-to-head rates, seat effects and luck-and-skill from a result table."""
    bots = list(bots)
    pairs = _pair_results(table)
    report = ArenaReport(game, players, bots, seed, table)
    report.ratings = elo(bots, bradley_terry(bots, pairs))
    report.intervals, report.gaps = _bootstrap(
        bots, pairs, random.Random(derive_seed(seed, "bootstrap"))
    )
    report.counts = pairs
    for (a, b), (wa, wb, draws) in pairs.items():
        n = wa + wb + draws
        if n:
            report.head_to_head.setdefault(a, {})[b] = (wa + draws / 2) / n
            report.head_to_head.setdefault(b, {})[a] = (wb + draws / 2) / n
    mirrors = [x for x in table if len(set(x.seats)) == 1]
    mirror_games = sum(x.games for x in mirrors)
    seat_wins = [sum(x.wins[s] for x in mirrors) for s in range(players)]
    report.seats = [w / mirror_games if mirror_games else 0.0 for w in seat_wins]
    strongest = max(bots, key=lambda b: report.ratings[b])
    luck: dict[str, Any] = {"strongest": strongest}
    if "random" in bots and strongest != "random":
        rate = report.head_to_head.get(strongest, {}).get("random")
        if rate is not None:
            luck["skill_gap"] = round(rate - (1 - rate), 4)
    if players >= 2 and mirror_games:
        luck["seat_gap"] = round(report.seats[0] - report.seats[1], 4)
    report.luck_and_skill = luck
    return report


def arena(
    game: str,
    bots: Sequence[str],
    games: int,
    players: int,
    seed: int = 0,
    jobs: int | None = None,
    options: tuple[tuple[str, Any], ...] = (),
    control: StopControl | None = None,
    progress: Callable[[int], None] | None = None,
    run: Callable[..., Report] = simulate,
) -> ArenaReport:
    """Play ``games`` games of every lineup (see :func:`lineups`) and rate the bots.

    ``run`` plays each lineup as ``simulate`` does (the lab's Ray backend passes its own).
    """
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise OptionError("the arena needs at least two different bots, e.g. random,greedy")
    if players < 2:
        raise OptionError(f"bots meet at a table of two or more players, not {players}")
    table = []
    for number, seats in enumerate(lineups(bots, players)):
        sim = Simulation(game, seats, games, derive_seed(seed, "arena", number), options)
        sim.check()
        report = run(sim, jobs, progress, control or StopControl())
        tally = report.tally
        draws = tally.games - sum(tally.wins)  # shared wins and truncated games
        table.append(Lineup(seats, tally.games, tuple(tally.wins), draws))
        if control is not None and control.requested:
            break
    return analyse(game, players, bots, seed, table)


def print_arena(report: ArenaReport, console: Any) -> None:
    """The report as tables: the ladder, head-to-head rates, seats, luck and skill."""
    from rich.table import Table

    from ranchhand.cli.safe import plain

    ladder = Table(
        title=f"{plain(report.game)} arena, {report.players} players, seed {report.seed}",
        title_justify="left",
    )
    for column in ("bot", "Elo", "95% interval"):
        ladder.add_column(column, justify="left" if column == "bot" else "right")
    for bot in sorted(report.bots, key=lambda b: -report.ratings[b]):
        low, high = report.intervals[bot]
        ladder.add_row(plain(bot), f"{report.ratings[bot]:+.0f}", f"{low:+.0f} .. {high:+.0f}")
    console.print(ladder)
    rates = Table(title="head to head: the row bot's win rate", title_justify="left")
    rates.add_column("")
    for bot in report.bots:
        rates.add_column(plain(bot), justify="right")
    for a in report.bots:
        row = report.head_to_head.get(a, {})
        rates.add_row(plain(a), *(f"{row[b]:.0%}" if b in row else "-" for b in report.bots))
    console.print(rates)
    seats = ", ".join(f"seat {s}: {r:.0%}" for s, r in enumerate(report.seats))
    console.print(f"seats (identical bots): {seats}")
    luck = report.luck_and_skill
    if "skill_gap" in luck:
        console.print(
            f"luck and skill: {plain(luck['strongest'])} over random: "
            f"{luck['skill_gap']:+.0%} win-rate gap; first seat over second with "
            f"identical bots: {luck.get('seat_gap', 0.0):+.0%}"
        )
