"""Simulation summary of Rancho: game length, wins by seat, predator losses, dogs given.

:class:`RanchoSummary` adds up the ``State.details()`` of finished games one at a
time, so a simulation of any length holds a handful of numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ranchhand.core.game import Summary


class RanchoSummary(Summary):
    """Running totals of Rancho games; :meth:`result` turns them into means."""

    def __init__(self, players: int) -> None:
        self.games = 0
        self.turns = 0
        self.wins = [0] * players
        self.eaten_value = 0
        self.dogs_given = 0
        self.won_games = 0
        self.winner_pastures = 0

    def add(self, details: Mapping[str, Any]) -> None:
        self.games += 1
        self.turns += details["turns"]
        self.eaten_value += details["eaten_value"]
        self.dogs_given += details["dogs_given"]
        if details.get("winner") is not None:
            self.wins[details["winner"]] += 1
            self.won_games += 1
            self.winner_pastures += details["winner_pastures"]

    def result(self) -> dict[str, Any]:
        games = self.games
        if not games:
            return {}
        average = {
            "eaten_value": self.eaten_value / games,
            "dogs_given": self.dogs_given / games,
            "winner_pastures": self.winner_pastures / max(1, self.won_games),
        }
        return {
            "games": games,
            "mean_turns": self.turns / games,
            "wins_by_seat": list(self.wins),
            "mean_eaten_value": average["eaten_value"],
            "mean_dogs_given": average["dogs_given"],
            "mean_pastures_of_winner": average["winner_pastures"],
            "average": average,
        }
