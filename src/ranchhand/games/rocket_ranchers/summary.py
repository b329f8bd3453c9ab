"""Simulation summary of Rocket Ranchers: the average score split per seat and overall.

:class:`RocketSummary` adds up the ``State.details()`` of finished games one at a
time, so a simulation of any length holds a few numbers per seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ranchhand.core.game import Summary

PARTS = ("abundance", "variety", "cats", "score", "space_cats", "corrals")
"""The per-seat figures of ``details()`` that are averaged."""


class RocketSummary(Summary):
    """Per-seat totals of each score part and win counts; :meth:`result` averages them.

    Games without a score (none so far) are skipped; the seat count is the first
    scored game's.
    """

    def __init__(self) -> None:
        self.games = 0
        self.totals: dict[str, list[Any]] = {}
        self.wins: list[int] = []

    def add(self, details: Mapping[str, Any]) -> None:
        if not details.get("score"):
            return
        if not self.games:
            seats = len(details["score"])
            self.totals = {part: [0] * seats for part in PARTS}
            self.wins = [0] * seats
        self.games += 1
        for part, totals in self.totals.items():
            values = details[part]
            for seat in range(len(totals)):
                totals[seat] += values[seat]
        winner = details["winner"]
        if winner is not None and 0 <= winner < len(self.wins):
            self.wins[winner] += 1

    def result(self) -> dict[str, Any]:
        games = self.games
        if not games:
            return {}
        seats = len(self.wins)
        per_seat = {part: [total / games for total in self.totals[part]] for part in PARTS}
        overall = {part: sum(per_seat[part]) / seats for part in PARTS}
        wins = [won / games for won in self.wins]
        return {"games": games, "per_seat": per_seat, "average": overall, "win_rate": wins}
