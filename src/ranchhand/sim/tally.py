"""Running totals of a simulation: what the report needs, in memory that does not grow.

A million games must not mean a million kept results. :class:`Tally` takes each
finished game as it arrives and keeps only counts and sums; game lengths go into a
:class:`TurnHistogram` (exact for whole turns, sized by the longest game, not by the
number of games) and each game's details into the game's own
:class:`~ranchhand.core.game.Summary`. Figures are the same as reducing a list of
every result at the end would give.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from ranchhand.core.game import GameSummary, Summary


class TurnHistogram:
    """Game lengths as counts per turn number: mean, median and p90 without the list.

    The figures equal numpy's ``mean``, ``median`` and ``percentile(..., 90)``
    (linear interpolation) of the full list of lengths.

    >>> lengths = TurnHistogram()
    >>> for turns in (1, 2, 3, 4, 100):
    ...     lengths.add(turns)
    >>> {k: round(v, 3) for k, v in lengths.describe().items()}
    {'mean': 22.0, 'median': 3.0, 'p90': 61.6}
    """

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self.n = 0
        self.total = 0

    def add(self, turns: int) -> None:
        self.counts[turns] += 1
        self.n += 1
        self.total += turns

    def __len__(self) -> int:
        return self.n

    def _at(self, positions: Sequence[int]) -> list[float]:
        """The values at sorted 0-based ``positions`` of the sorted lengths."""
        found: list[float] = []
        wanted = iter(positions)
        position = next(wanted, None)
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            while position is not None and position < seen:
                found.append(float(value))
                position = next(wanted, None)
            if position is None:
                break
        return found

    def quantile(self, q: float) -> float:
        """numpy's ``quantile(lengths, q)`` with the default linear method."""
        if not self.n:
            return 0.0
        virtual = (self.n - 1) * q
        low = min(max(math.floor(virtual), 0), self.n - 1)
        high = min(low + 1, self.n - 1)
        gamma = virtual - low
        a, b = self._at([low, high])
        diff = b - a
        if gamma >= 0.5:  # numpy's _lerp, which is exact at both ends
            return b - diff * (1 - gamma)
        return a + diff * gamma

    def median(self) -> float:
        """numpy's ``median``: the middle value, or the mean of the middle two."""
        if not self.n:
            return 0.0
        half = self.n // 2
        if self.n % 2:
            return self._at([half])[0]
        a, b = self._at([half - 1, half])
        return (a + b) / 2

    def describe(self) -> dict[str, float]:
        """Mean, median and 90th percentile (zeros when empty), as ``stats.describe``."""
        if not self.n:
            return {"mean": 0.0, "median": 0.0, "p90": 0.0}
        return {"mean": self.total / self.n, "median": self.median(), "p90": self.quantile(0.9)}


class IndexRanges:
    """Which game indices finished, as a few ``[first, last]`` runs (usually one)."""

    def __init__(self) -> None:
        self._runs: list[list[int]] = []  # sorted, disjoint, half-open [start, stop)

    def add(self, start: int, stop: int) -> None:
        """Mark games ``start`` to ``stop - 1`` as finished."""
        if stop <= start:
            return
        runs = self._runs
        if runs and runs[-1][1] == start:  # the usual case: the next games in order
            runs[-1][1] = stop
            return
        runs.append([start, stop])
        runs.sort()
        merged = [runs[0]]
        for run in runs[1:]:
            if run[0] <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], run[1])
            else:
                merged.append(run)
        self._runs = merged

    def __contains__(self, index: object) -> bool:
        if not isinstance(index, int):
            return False
        at = bisect.bisect_right(self._runs, [index, math.inf]) - 1
        return at >= 0 and self._runs[at][0] <= index < self._runs[at][1]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        """Inclusive ``(first, last)`` pairs."""
        return ((start, stop - 1) for start, stop in self._runs)

    def text(self) -> str:
        """``0-1233, 1400-1417`` (or ``none``)."""
        parts = [str(a) if a == b else f"{a}-{b}" for a, b in self]
        return ", ".join(parts) or "none"


class Tally:
    """Wins, ties, truncations, scores, lengths and the game's summary, game by game.

    Games must be added in index order for float sums to be the same whatever the
    number of processes; :class:`InOrder` sees to that.
    """

    def __init__(self, players: int, summary: Summary) -> None:
        self.games = 0
        self.truncated = 0
        self.wins = [0] * players
        self.ties = 0
        self.score_totals: list[Any] = [0] * players
        self.scored = 0
        self.turns = TurnHistogram()
        self.summary = summary
        self.indices = IndexRanges()

    def add(self, result: GameSummary) -> None:
        self.games += 1
        self.indices.add(result.index, result.index + 1)
        if len(result.winners) == 1:
            self.wins[result.winners[0]] += 1
        elif len(result.winners) > 1:
            self.ties += 1
        if result.truncated:
            self.truncated += 1
            return
        self.turns.add(result.turns)
        if result.scores is not None:
            self.scored += 1
            for seat in range(len(self.score_totals)):
                self.score_totals[seat] += result.scores[seat]
        self.summary.add(result.details)

    def mean_scores(self) -> list[float] | None:
        if not self.scored:
            return None
        return [total / self.scored for total in self.score_totals]


class InOrder:
    """Feeds a :class:`Tally` in game-index order from chunks that finish in any order.

    Chunks that finish early wait in a buffer until the games before them arrive;
    the caller bounds how far ahead work is handed out, which bounds the buffer.
    """

    def __init__(self, tally: Tally, start: int = 0) -> None:
        self.tally = tally
        self.next = start
        self._waiting: dict[int, list[GameSummary]] = {}

    def offer(self, start: int, results: list[GameSummary]) -> None:
        """The games ``start``, ``start + 1``... of one chunk (all of it, or its head)."""
        if not results:
            return
        self._waiting[start] = results
        while self.next in self._waiting:
            chunk = self._waiting.pop(self.next)
            for result in chunk:
                self.tally.add(result)
            self.next += len(chunk)

    def flush(self) -> None:
        """Add what still waits (after a stop), in index order, leaving gaps."""
        for start in sorted(self._waiting):
            for result in self._waiting.pop(start):
                self.tally.add(result)

    @property
    def waiting(self) -> int:
        return len(self._waiting)
