"""Tests that say "significant": seat fairness per cell, paired comparisons between cells.

**Seat fairness.** Over the games won by one player, a fair game gives every seat the
same chance, so the wins by seat are multinomial with equal shares. The whole-cell test
is exact where it can be cheaply (two seats: the binomial test), a chi-square test when
every seat expects at least 5 wins, and otherwise the chi-square statistic's exact null
distribution estimated from 20,000 seeded multinomial draws. Each seat is then tested
alone (two-sided exact binomial against 1/P), the P p-values corrected by Holm's method,
so "seat 1 wins more often than a fair share" is said only of a seat that does at the
5% level with the seats' multiplicity taken into account.

**Paired comparisons.** Game ``i`` of every cell of a run has the same seed, so two cells
differ game by game only through their rules: the difference of a per-game value
(turns, a seat's win, Ludii's lead change...) is taken game by game, and its mean gets a
Student t interval and a paired t-test p-value. Pairing removes the luck the two cells
share and gives a much tighter interval than comparing two independent means. Cells
with different seeds are compared unpaired (Welch). All the comparisons of a run are
corrected together by Holm's method (which holds the chance of any false "significant"
at 5% whatever their dependence).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ALPHA = 0.05
DRAWS = 20_000


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (each at most 1, order kept).

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def p_text(p: float) -> str:
    """``p = 0.012`` / ``p < 0.001``."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


@dataclass(frozen=True)
class SeatTest:
    seat: int
    wins: int
    share: float
    p: float
    """Holm-adjusted over the seats."""


@dataclass(frozen=True)
class Fairness:
    """The seat-fairness test of one cell over its ``n`` single-winner games."""

    n: int
    players: int
    wins: tuple[int, ...]
    p: float
    method: str
    seats: tuple[SeatTest, ...]

    @property
    def significant(self) -> bool:
        return self.p < ALPHA

    def sentences(self) -> list[str]:
        """Plain words: which seats win more or less often than a fair share, if any."""
        fair = 1 / self.players
        if self.n == 0:
            return ["No game was won by a single player, so seat fairness cannot be tested."]
        found = []
        for s in self.seats:
            if s.p < ALPHA and self.significant:
                way = "more" if s.share > fair else "less"
                found.append(
                    f"Seat {s.seat} wins {way} often than a fair share ({s.share:.1%} of "
                    f"{self.n} single-winner games against {fair:.1%}; {p_text(s.p)})."
                )
        if found:
            return found
        if self.significant:
            return [
                f"The seats' wins are not even ({self.method}, {p_text(self.p)}), though "
                f"no single seat stands out after correcting for {self.players} seats."
            ]
        return [
            f"No seat wins significantly more or less often than a fair share "
            f"({self.method} over {self.n} single-winner games, {p_text(self.p)})."
        ]


def fairness(wins: Sequence[int], seed: int = 0) -> Fairness:
    """Test whether single-winner wins by seat (``wins``) could come from even seats."""
    from scipy.stats import binomtest, chisquare  # type: ignore[import-untyped]

    players = len(wins)
    n = int(sum(wins))
    if players < 2 or n == 0:
        return Fairness(n, players, tuple(wins), 1.0, "no test", ())
    expected = n / players
    if players == 2:
        p = float(binomtest(int(wins[0]), n, 0.5).pvalue)
        method = "exact binomial test"
    elif expected >= 5:
        p = float(chisquare(wins).pvalue)
        method = "chi-square test"
    else:
        observed = sum((w - expected) ** 2 for w in wins) / expected
        draws = np.random.default_rng(seed).multinomial(n, [1 / players] * players, DRAWS)
        stats = ((draws - expected) ** 2).sum(axis=1) / expected
        p = float((1 + np.count_nonzero(stats >= observed - 1e-9)) / (DRAWS + 1))
        method = "exact multinomial test (Monte Carlo)"
    raw = [float(binomtest(int(w), n, 1 / players).pvalue) for w in wins]
    adjusted = raw if players == 2 else holm(raw)  # two seats: one hypothesis, not two
    tests = tuple(SeatTest(s, int(w), w / n, adjusted[s]) for s, w in enumerate(wins))
    return Fairness(n, players, tuple(int(w) for w in wins), p, method, tests)


@dataclass(frozen=True)
class Comparison:
    """One metric of cell ``b`` against cell ``a``: the difference ``b - a``."""

    metric: str
    a: str
    b: str
    n: int
    mean_a: float
    mean_b: float
    diff: float
    low: float
    high: float
    p: float
    paired: bool
    p_adjusted: float = math.nan

    @property
    def significant(self) -> bool:
        return self.p_adjusted < ALPHA

    def sentence(self, comparisons: int) -> str:
        how = f"paired over {self.n} games" if self.paired else f"unpaired, {self.n} games"
        way = "higher" if self.diff > 0 else "lower"
        return (
            f"{self.metric} is {way} with {self.b} than with {self.a}: "
            f"{_num(self.mean_b)} against {_num(self.mean_a)}, a difference of "
            f"{_num(self.diff, sign=True)} [{_num(self.low, sign=True)}, "
            f"{_num(self.high, sign=True)}] ({how}; {p_text(self.p_adjusted)} after "
            f"Holm's correction for {comparisons} comparisons)."
        )


def _num(x: float, sign: bool = False) -> str:
    text = f"{x:+.3g}" if sign else f"{x:.3g}"
    return text


def compare(
    metric: str,
    a: str,
    b: str,
    values_a: dict[int, float],
    values_b: dict[int, float],
    paired: bool,
) -> Comparison | None:
    """``b - a`` for one metric from per-game values keyed by game index; paired over the
    indices both have when ``paired`` (same seeds), else Welch. None with too few games."""
    from scipy.stats import t as student  # type: ignore[import-untyped]
    from scipy.stats import ttest_ind, ttest_rel  # type: ignore[import-untyped]

    if paired:
        common = sorted(values_a.keys() & values_b.keys())
        xa = np.array([values_a[i] for i in common])
        xb = np.array([values_b[i] for i in common])
        n = len(common)
        if n < 2:
            return None
        d = xb - xa
        diff, sd = float(d.mean()), float(d.std(ddof=1))
        if sd == 0:
            return Comparison(metric, a, b, n, float(xa.mean()), float(xb.mean()), diff, diff,
                              diff, 1.0 if diff == 0 else 0.0, True)  # fmt: skip
        half = float(student.ppf(0.975, n - 1)) * sd / math.sqrt(n)
        p = float(ttest_rel(xb, xa).pvalue)
        return Comparison(metric, a, b, n, float(xa.mean()), float(xb.mean()), diff,
                          diff - half, diff + half, p, True)  # fmt: skip
    xa = np.array(list(values_a.values()))
    xb = np.array(list(values_b.values()))
    if len(xa) < 2 or len(xb) < 2:
        return None
    diff = float(xb.mean() - xa.mean())
    va, vb = xa.var(ddof=1) / len(xa), xb.var(ddof=1) / len(xb)
    se = math.sqrt(va + vb)
    if se == 0:
        return Comparison(metric, a, b, len(xa) + len(xb), float(xa.mean()), float(xb.mean()),
                          diff, diff, diff, 1.0 if diff == 0 else 0.0, False)  # fmt: skip
    df = (va + vb) ** 2 / (va**2 / (len(xa) - 1) + vb**2 / (len(xb) - 1))
    half = float(student.ppf(0.975, df)) * se
    p = float(ttest_ind(xb, xa, equal_var=False).pvalue)
    return Comparison(metric, a, b, len(xa) + len(xb), float(xa.mean()), float(xb.mean()),
                      diff, diff - half, diff + half, p, False)  # fmt: skip


def corrected(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """The comparisons with Holm-adjusted p-values over all of them."""
    from dataclasses import replace

    adjusted = holm([c.p for c in comparisons])
    return [replace(c, p_adjusted=q) for c, q in zip(comparisons, adjusted, strict=True)]
