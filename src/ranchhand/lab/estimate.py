"""A figure with its 95% interval: a mean (normal interval) or a proportion (Wilson)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ranchhand.sim.stats import wilson_interval

Z95 = 1.959964


@dataclass(frozen=True)
class Estimate:
    """``value`` with a 95% interval ``low .. high`` from ``n`` games (``sd`` for means)."""

    value: float
    low: float
    high: float
    n: int
    sd: float | None = None

    def to_json(self) -> dict[str, float | int | None]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n, "sd": self.sd}


def mean(values: Sequence[float]) -> Estimate | None:
    """The mean with a normal 95% interval (``mean ± 1.96 sd / √n``, sample sd); None if empty.

    >>> e = mean([1.0, 2.0, 3.0, 4.0])
    >>> round(e.value, 3), round(e.sd, 3), round(e.low, 3), round(e.high, 3)
    (2.5, 1.291, 1.235, 3.765)
    """
    n = len(values)
    if not n:
        return None
    centre = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return Estimate(centre, centre - half, centre + half, n, sd)


def proportion(successes: int, trials: int) -> Estimate | None:
    """The share of successes with its Wilson 95% interval; None without trials."""
    if not trials:
        return None
    low, high = wilson_interval(successes, trials)
    return Estimate(successes / trials, low, high, trials)
