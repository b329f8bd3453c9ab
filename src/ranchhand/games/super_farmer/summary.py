"""Simulation summary of Super Farmer: turns to win with quartiles, wins by seat, predators.

The published figures for this game are turns to win in solitaire games (median,
quartiles), so the summary keeps histograms of the won games' lengths (one count per
length, a few hundred numbers at most) rather than every game's details: in turns as
ranchhand counts them, and in rolls of the dice (the whole table's), which is what the
published studies count as a solitaire's turns (see ``state.STATS``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ranchhand.core.game import Summary

COUNTED = ("fox_strikes", "wolf_strikes", "rabbits_lost", "value_lost", "dogs_given", "trades")
"""The running counts of ``details`` averaged over games."""


def quantile(histogram: Mapping[int, int], q: float) -> float:
    """The ``q`` quantile of the values counted in ``histogram`` (numpy's default
    'linear' rule: interpolate between the two nearest ranks).

    >>> quantile({1: 1, 2: 1, 3: 1, 4: 1}, 0.5)
    2.5
    """
    position = q * (sum(histogram.values()) - 1)
    low = _nth(histogram, int(position))
    high = _nth(histogram, math.ceil(position))
    return low + (high - low) * (position - int(position))


def _nth(histogram: Mapping[int, int], rank: int) -> int:
    """The value of rank ``rank`` (from 0) among the values counted, in order."""
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen > rank:
            return value
    raise ValueError(f"rank {rank} of {seen} values")


class SuperFarmerSummary(Summary):
    """Running totals of Super Farmer games; :meth:`result` turns them into figures."""

    def __init__(self, players: int) -> None:
        self.games = 0
        self.wins = [0] * players
        self.won_lengths: Counter[int] = Counter()
        self.won_rolls: Counter[int] = Counter()
        self.totals = dict.fromkeys(COUNTED, 0)

    def add(self, details: Mapping[str, Any]) -> None:
        self.games += 1
        for key in COUNTED:
            self.totals[key] += details[key]
        if details.get("winner") is not None:
            self.wins[details["winner"]] += 1
            self.won_lengths[details["turns"]] += 1
            self.won_rolls[details["rolls"]] += 1

    def result(self) -> dict[str, Any]:
        games = self.games
        if not games:
            return {}
        average = {key: total / games for key, total in self.totals.items()}
        turns_to_win = _describe(self.won_lengths)
        rolls_to_win = _describe(self.won_rolls)
        medians = {
            "median_turns_to_win": turns_to_win.get("median", 0.0),
            "median_rolls_to_win": rolls_to_win.get("median", 0.0),
        }
        return {
            "games": games,
            "wins_by_seat": list(self.wins),
            "turns_to_win": turns_to_win,
            "rolls_to_win": rolls_to_win,
            **{f"mean_{key}": value for key, value in average.items()},
            "average": {**average, **medians},
        }


def _describe(histogram: Mapping[int, int]) -> dict[str, float]:
    """Mean, quartiles and p90 of the values counted in ``histogram`` ({} if none)."""
    if not histogram:
        return {}
    count = sum(histogram.values())
    return {
        "mean": sum(value * n for value, n in histogram.items()) / count,
        "q1": quantile(histogram, 0.25),
        "median": quantile(histogram, 0.5),
        "q3": quantile(histogram, 0.75),
        "p90": quantile(histogram, 0.9),
    }
