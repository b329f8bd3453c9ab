"""The lab's metrics of one cell, from its games: balance, length, flow, branching.

Every figure has a 95% interval (``Estimate``); the formulas are in docs/lab.md, and
each function here is the one definition the report uses. Games cut off by
``max_turns`` (truncated) count only toward completion; flow figures about the winner
need a game won by one player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ranchhand.core.game import Summary
from ranchhand.lab.estimate import Estimate, mean, proportion
from ranchhand.lab.trace import LabGame

MARGIN = 0.25
"""Drama: the winner was behind by at least this share of their own final standing."""

BOOTSTRAP = 200
"""Resamples behind the balance interval."""


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


def balance_of(wins: Sequence[float]) -> float | None:
    """1 when every seat wins as often, 0 when one seat wins every game.

    ``1 - P / (2 (P - 1)) * sum |q_s - 1/P|`` with ``q_s`` seat s's share of all wins.

    >>> balance_of([10, 10, 10]), balance_of([30, 0, 0]), balance_of([20, 10])
    (1.0, 0.0, 0.6666666666666667)
    """
    players, total = len(wins), sum(wins)
    if players < 2 or not total:
        return None
    spread = sum(abs(w / total - 1 / players) for w in wins)
    return 1 - players / (2 * (players - 1)) * spread


def balance(games: Sequence[LabGame], players: int, seed: int = 0) -> Estimate | None:
    """:func:`balance_of` the seat wins, with a 95% interval from a seeded bootstrap of games.

    Balance depends on the games only through how many were won by each set of winners,
    so a resample of the games is drawn as a multinomial over those sets: the same
    distribution as redrawing every game, at a cost that does not grow with the games.
    """
    patterns = Counter(g.winners for g in games if not g.truncated and g.winners)
    value = balance_of(_wins(patterns.elements(), players))
    if value is None:
        return None
    kinds = list(patterns)
    n = sum(patterns.values())
    shares = np.array([patterns[k] for k in kinds], dtype=float) / n
    seats_won = np.array([[int(s in k) for s in range(players)] for k in kinds], dtype=float)
    draws = np.random.default_rng(seed).multinomial(n, shares, size=BOOTSTRAP) @ seats_won
    samples = sorted(b for row in draws if (b := balance_of(list(row))) is not None)
    low = samples[int(0.025 * len(samples))]
    high = samples[int(0.975 * len(samples)) - 1]
    return Estimate(value, min(low, value), max(high, value), n)


def _wins(winners: Iterable[tuple[int, ...]], players: int) -> list[int]:
    wins = [0] * players
    for won in winners:
        for w in won:
            wins[w] += 1
    return wins


def drama_margin(g: LabGame, margin: float = MARGIN) -> bool | None:
    """Whether the winner was ever behind the leader by ``margin`` of their final standing
    (at least one unit)."""
    f = g.flow
    if f.winner_deficit is None or f.winner_final is None:
        return None
    return f.winner_deficit >= margin * max(abs(f.winner_final), 1.0)


def branching(g: LabGame) -> float | None:
    """The mean number of legal actions at this game's decisions."""
    return g.choices / g.decisions if g.decisions else None


def _share(flags: Iterable[bool | None]) -> Estimate | None:
    known = [f for f in flags if f is not None]
    return proportion(sum(known), len(known))


def _present(values: Iterable[float | None]) -> list[float]:
    return [v for v in values if v is not None]


@dataclass
class CellMetrics:
    """Every metric of one cell, and the per-game values its plots draw."""

    games: int
    players: int
    completion: Estimate | None
    seats: Seats
    balance: Estimate | None
    turns: Estimate | None
    decisions: Estimate | None
    branching: Estimate | None
    lead_changes: Estimate | None
    drama_last: Estimate | None
    drama_margin: Estimate | None
    decisiveness: Estimate | None
    summary: dict[str, Any]
    lengths: list[int] = field(default_factory=list)
    decision_counts: list[int] = field(default_factory=list)
    changes: list[int] = field(default_factory=list)
    deficits: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        def e(x: Estimate | None) -> Any:
            return None if x is None else x.to_json()

        return {
            "games": self.games,
            "completion": e(self.completion),
            "seat_win_rates": [e(r) for r in self.seats.rates],
            "fair_share": self.seats.fair,
            "seat_advantage": self.seats.advantage,
            "balance": e(self.balance),
            "turns": e(self.turns),
            "decisions": e(self.decisions),
            "branching": e(self.branching),
            "lead_changes": e(self.lead_changes),
            "drama_last": e(self.drama_last),
            "drama_margin": e(self.drama_margin),
            "decisiveness": e(self.decisiveness),
            "summary": self.summary,
        }


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
    flowing = [g for g in done if g.flow.points >= 2]
    won = [g for g in flowing if g.flow.winner_last is not None]
    return CellMetrics(
        games=len(played),
        players=players,
        completion=proportion(len(done), len(played)),
        seats=seats(played, players),
        balance=balance(played, players),
        turns=mean([g.turns for g in done]),
        decisions=mean([g.decisions for g in done]),
        branching=mean(_present(branching(g) for g in done)),
        lead_changes=mean([g.flow.lead_changes for g in flowing]),
        drama_last=_share(g.flow.winner_last for g in won),
        drama_margin=_share(drama_margin(g) for g in won),
        decisiveness=mean(_present(g.flow.decisiveness for g in won)),
        summary=summary.result(),
        lengths=[g.turns for g in done],
        decision_counts=[g.decisions for g in done],
        changes=[g.flow.lead_changes for g in flowing],
        deficits=[
            g.flow.winner_deficit / max(abs(g.flow.winner_final), 1.0)
            for g in won
            if g.flow.winner_deficit is not None and g.flow.winner_final is not None
        ],
    )
