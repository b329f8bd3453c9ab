"""The lab's metrics of one cell, from its stored games: Ludii's, and the lab's own.

**Ludii's metrics** carry Ludii's names and follow its definitions (docs/lab.md cites
each): Balance, Completion, Drawishness, Timeouts, Duration (turns, moves), Branching
factor, Decision moves, Lead change, Drama (average, max), Decisiveness, Stability and
Uncertainty. Like Ludii, each is computed over every game of the cell (timeouts
included) and the per-game ones are means over games of a per-game value
(:func:`per_game`). **The lab's own measures** say what Ludii's do not (seat win rates
against a fair share, turns of completed games, lead changes per game by standing, the
winner's comebacks) under names of their own.

Every figure has a 95% interval (:class:`Estimate`): Wilson for shares, Student t for
means of per-game values, and for Balance the range that simultaneous (Bonferroni)
Wilson intervals of the seat win rates allow, which holds 1 whenever the seats cannot be
told apart. Each function here is the one definition the report, the export, the tests
of significance and the tuner use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ranchhand.core.game import Summary
from ranchhand.lab.estimate import Estimate, mean, median, proportion
from ranchhand.lab.trace import LabGame
from ranchhand.sim.stats import wilson_interval

MARGIN = 0.25
"""Winner behind: the winner trailed by at least this share of their own final standing."""


@dataclass(frozen=True)
class Seats:
    """Wins by seat (a shared win counts for each winner) against a fair share."""

    wins: tuple[int, ...]
    completed: int
    rates: tuple[Estimate | None, ...]
    fair: float
    """The share each seat would win if seats did not matter: mean winners per game / P."""

    @property
    def advantage(self) -> list[float | None]:
        return [None if r is None else r.value - self.fair for r in self.rates]


def seats(games: Sequence[LabGame], players: int) -> Seats:
    """Each seat's win rate over completed games, and the fair share to hold it against."""
    done = [g for g in games if not g.truncated]
    wins = [0] * players
    for g in done:
        for w in g.winners:
            wins[w] += 1
    fair = sum(len(g.winners) for g in done) / (players * len(done)) if done else 0.0
    rates = tuple(proportion(w, len(done)) for w in wins)
    return Seats(tuple(wins), len(done), rates, fair)


# ---------------------------------------------------------------- Ludii: outcomes
def balance_of(wins: Sequence[int], games: int) -> float | None:
    """Ludii's Balance: ``1 - (largest - smallest seat win rate)``, each rate the seat's
    wins over every game played (a shared win counts for each winner).

    >>> balance_of([10, 10, 10], 30), balance_of([30, 0, 0], 30), balance_of([20, 10], 30)
    (1.0, 0.0, 0.6666666666666667)
    """
    if len(wins) < 2 or not games:
        return None
    return 1 - (max(wins) - min(wins)) / games


def _z(confidence: float) -> float:
    from scipy.stats import norm  # type: ignore[import-untyped]

    return float(norm.ppf(1 - (1 - confidence) / 2))


def balance(games: Sequence[LabGame], players: int) -> Estimate | None:
    """:func:`balance_of` with a 95% interval: every seat's win rate within its Wilson
    interval at ``1 - 5%/P`` (so all P hold together at least 95% of the time, whatever
    their dependence), the balance runs from the worst spread those rates allow to the
    best. Seats that cannot be told apart give an interval reaching 1."""
    n = len(games)
    wins = [0] * players
    for g in games:
        if not g.truncated:
            for w in g.winners:
                wins[w] += 1
    value = balance_of(wins, n)
    if value is None:
        return None
    z = _z(1 - 0.05 / players)
    bounds = [wilson_interval(w, n, z) for w in wins]
    lows = [0.0 if w == 0 else lo for w, (lo, _) in zip(wins, bounds, strict=True)]
    highs = [1.0 if w == n else hi for w, (_, hi) in zip(wins, bounds, strict=True)]
    widest = max(highs) - min(lows)
    narrowest = max(0.0, max(lows) - min(highs))
    return Estimate(value, max(0.0, 1 - widest), 1 - narrowest, n)


def is_draw(g: LabGame, players: int) -> bool:
    """A game that ended (not cut off) with no winner, or with every player winning."""
    return players > 1 and not g.truncated and (not g.winners or len(g.winners) == players)


def has_winner(g: LabGame, players: int) -> bool:
    """Ludii's Completion counts it: ended with a winner (not a draw, not a timeout)."""
    return not g.truncated and bool(g.winners) and not is_draw(g, players)


# ------------------------------------------------------------ per-game values
PerGame = Callable[[LabGame], float | None]

PER_GAME: dict[str, PerGame] = {
    "Duration (turns)": lambda g: float(g.turns),
    "Duration (moves)": lambda g: float(g.decisions),
    "Branching factor": lambda g: g.choices / g.decisions if g.decisions else None,
    "Decision moves": lambda g: g.moves.decision_share,
    "Lead change": lambda g: g.moves.lead_change,
    "Drama (average)": lambda g: g.moves.drama,
    "Drama (max)": lambda g: g.moves.drama_max,
    "Decisiveness": lambda g: g.moves.decisiveness,
    "Stability": lambda g: g.moves.stability,
    "Uncertainty": lambda g: g.moves.uncertainty,
}
"""Ludii's per-game metrics: the cell's figure is the mean over every game of these."""

BOUNDED = frozenset({"Decision moves", "Lead change", "Drama (average)", "Drama (max)",
                     "Decisiveness", "Uncertainty"})  # fmt: skip
"""Per-game values between 0 and 1: their mean is too, so its interval is cut to [0, 1]
(a t interval of values near 1 would otherwise reach past it)."""

SHARES = ("Completion", "Drawishness", "Timeouts")
LUDII = ("Balance", *SHARES, *PER_GAME)
"""Ludii's metrics in the order the report shows them."""

EVALUATED = ("Lead change", "Drama (average)", "Drama (max)", "Decisiveness", "Stability",
             "Uncertainty")  # fmt: skip
"""Those read from the game's evaluation: meaningless alone (shown only with opponents)."""


def drama_margin(g: LabGame, margin: float = MARGIN) -> bool | None:
    """Whether the winner was ever behind the leader by ``margin`` of their final standing
    (at least one unit)."""
    f = g.flow
    if f.winner_deficit is None or f.winner_final is None:
        return None
    return f.winner_deficit >= margin * max(abs(f.winner_final), 1.0)


OWN_PER_GAME: dict[str, PerGame] = {
    "turns (completed games)": lambda g: None if g.truncated else float(g.turns),
    "lead changes per game": lambda g: (
        float(g.flow.lead_changes) if not g.truncated and g.flow.points >= 2 else None
    ),
    "winner ever last": lambda g: None if g.flow.winner_last is None else float(g.flow.winner_last),
    f"winner behind ≥ {MARGIN:.0%}": lambda g: None if (d := drama_margin(g)) is None else float(d),
    "lead held for good": lambda g: g.flow.decisiveness,
}
"""The lab's own per-game measures (docs/lab.md): games without the fact are left out."""

OWN_SHARES = ("winner ever last", f"winner behind ≥ {MARGIN:.0%}")
FLOW = ("lead changes per game", "winner ever last", f"winner behind ≥ {MARGIN:.0%}",
        "lead held for good")  # fmt: skip


def seat_won(seat: int) -> PerGame:
    """1 if ``seat`` won this game (a shared win counts), 0 if not, None if cut off."""
    return lambda g: None if g.truncated else float(seat in g.winners)


def per_game(name: str, players: int) -> PerGame:
    """The per-game value behind a metric (Ludii's, the lab's own, or ``seat N wins``)."""
    if name in PER_GAME:
        return PER_GAME[name]
    if name in OWN_PER_GAME:
        return OWN_PER_GAME[name]
    if name.startswith("seat ") and name.endswith(" wins"):
        return seat_won(int(name.split()[1]))
    if name == "Completion":
        return lambda g: float(has_winner(g, players))
    if name == "Timeouts":
        return lambda g: float(g.truncated)
    if name == "Drawishness":
        return lambda g: float(is_draw(g, players))
    raise KeyError(name)


def _values(games: Iterable[LabGame], pick: PerGame) -> list[float]:
    return [v for g in games if (v := pick(g)) is not None]


@dataclass
class CellMetrics:
    """Every metric of one cell, and the per-game values its plots draw."""

    games: int
    players: int
    seats: Seats
    ludii: dict[str, Estimate | None]
    own: dict[str, Estimate | None]
    summary: dict[str, Any]
    turns_median: Estimate | None = None
    lengths: list[int] = field(default_factory=list)
    changes: list[float] = field(default_factory=list)
    dramas: list[float] = field(default_factory=list)
    played: list[LabGame] = field(default_factory=list, repr=False)
    """The games without their details, for paired comparisons by game index."""

    @property
    def solitaire(self) -> bool:
        return self.players == 1

    def to_json(self) -> dict[str, Any]:
        def e(x: Estimate | None) -> Any:
            return None if x is None else x.to_json()

        return {
            "games": self.games,
            "players": self.players,
            "ludii": {k: e(v) for k, v in self.ludii.items()},
            "own": {k: e(v) for k, v in self.own.items()},
            "seat_win_rates": [e(r) for r in self.seats.rates],
            "fair_share": self.seats.fair,
            "seat_advantage": self.seats.advantage,
            "turns_median": e(self.turns_median),
            "summary": self.summary,
        }


def ludii_metrics(games: Sequence[LabGame], players: int) -> dict[str, Estimate | None]:
    """Ludii's metrics of these games (in :data:`LUDII` order)."""
    n = len(games)
    found: dict[str, Estimate | None] = {"Balance": balance(games, players)}
    found["Completion"] = proportion(sum(has_winner(g, players) for g in games), n)
    found["Drawishness"] = (
        proportion(sum(is_draw(g, players) for g in games), n) if players > 1 else None
    )
    found["Timeouts"] = proportion(sum(g.truncated for g in games), n)
    for name, pick in PER_GAME.items():
        e = mean(_values(games, pick))
        if e is not None and name in BOUNDED:
            e = replace(e, low=max(0.0, e.low), high=min(1.0, e.high))
        found[name] = e
    return found


def own_metrics(games: Sequence[LabGame]) -> dict[str, Estimate | None]:
    """The lab's own measures (shares as Wilson proportions, the rest as means)."""
    found: dict[str, Estimate | None] = {}
    for name, pick in OWN_PER_GAME.items():
        values = _values(games, pick)
        found[name] = (
            proportion(int(sum(values)), len(values)) if name in OWN_SHARES else mean(values)
        )
    return found


def measure(games: Iterable[LabGame], players: int, summary: Summary) -> CellMetrics:
    """Every metric of a cell's games; ``summary`` (the game's own) takes their details.

    Details are handed to the summary as the games stream past and then dropped (a
    Glory Ranch game's run to kilobytes), so only the numbers stay in memory.
    """
    played = []
    for g in games:
        if not g.truncated:
            summary.add(g.details)
        played.append(replace(g, details={}))
    done = [g for g in played if not g.truncated]
    return CellMetrics(
        games=len(played),
        players=players,
        seats=seats(played, players),
        ludii=ludii_metrics(played, players),
        own=own_metrics(played),
        summary=summary.result(),
        turns_median=median([float(g.turns) for g in done]),
        lengths=[g.turns for g in done],
        changes=_values(played, PER_GAME["Lead change"]),
        dramas=_values(played, PER_GAME["Drama (average)"]),
        played=played,
    )
