"""Honest statistics for simulation reports: proportions with confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    It behaves where the normal approximation does not: at 0 or all successes,
    and with few trials.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def describe(values: Sequence[float]) -> dict[str, float]:
    """Mean, median and 90th percentile of ``values`` (zeros when empty)."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "p90": 0.0}
    array = np.asarray(values, dtype=float)
    return {
        "mean": float(array.mean()),
        "median": float(np.median(array)),
        "p90": float(np.percentile(array, 90)),
    }
