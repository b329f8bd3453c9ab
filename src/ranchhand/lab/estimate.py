"""A figure with its 95% interval: a mean (Student t), a proportion (Wilson) or a median
(distribution-free, from order statistics)."""

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


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.stats import t  # type: ignore[import-untyped]

    return float(t.ppf(0.975, df))


def mean(values: Sequence[float]) -> Estimate | None:
    """The mean with a Student t 95% interval (``mean ± t sd / √n``, sample sd); None if
    empty. One value gives a point (no spread is known).

    >>> e = mean([1.0, 2.0, 3.0, 4.0])
    >>> round(e.value, 3), round(e.sd, 3), round(e.low, 3), round(e.high, 3)
    (2.5, 1.291, 0.446, 4.554)
    """
    n = len(values)
    if not n:
        return None
    centre = math.fsum(values) / n
    if n == 1:
        return Estimate(centre, centre, centre, 1, 0.0)
    sd = math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (n - 1))
    half = t95(n - 1) * sd / math.sqrt(n)
    return Estimate(centre, centre - half, centre + half, n, sd)


def proportion(successes: int, trials: int) -> Estimate | None:
    """The share of successes with its Wilson 95% interval; None without trials.

    The interval always holds the share: at no success its low end is exactly 0 and at
    all successes its high end exactly 1 (floating point would otherwise leave them a
    hair inside, and an error bar of negative length).
    """
    if not trials:
        return None
    low, high = wilson_interval(successes, trials)
    share = successes / trials
    if successes == 0:
        low = 0.0
    if successes == trials:
        high = 1.0
    return Estimate(share, min(low, share), max(high, share), trials)


def median(values: Sequence[float]) -> Estimate | None:
    """The median with a distribution-free 95% interval: the order statistics ``j`` and
    ``k`` that hold the true median with probability at least 95% (the count of values
    below it is binomial(n, 1/2)); the whole range when ``n`` is too small for 95%.

    >>> e = median([float(x) for x in range(1, 21)])
    >>> e.value, e.low, e.high
    (10.5, 6.0, 15.0)
    """
    n = len(values)
    if not n:
        return None
    from scipy.stats import binom  # type: ignore[import-untyped]

    ordered = sorted(values)
    middle = n // 2
    centre = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    j = int(binom.ppf(0.025, n, 0.5))  # P(B < j) <= 2.5%: values[j - 1] is the low end
    while j > 0 and binom.cdf(j - 1, n, 0.5) > 0.025:
        j -= 1
    if j < 1:
        return Estimate(centre, ordered[0], ordered[-1], n)
    return Estimate(centre, ordered[j - 1], ordered[n - j], n)
