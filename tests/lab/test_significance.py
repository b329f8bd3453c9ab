"""The tests that say "significant": seat fairness, paired comparisons, Holm's correction."""

from __future__ import annotations

import numpy as np
import pytest

from ranchhand.lab.significance import compare, corrected, fairness, holm


def test_holm_by_hand() -> None:
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1 -> 0.03, 0.06, 0.04 -> monotone 0.03, 0.06, 0.06
    assert holm([0.04, 0.01, 0.03]) == pytest.approx([0.06, 0.03, 0.06])
    assert holm([0.5, 0.9]) == [1.0, 1.0]


def test_two_seats_use_the_exact_binomial_test() -> None:
    test = fairness([15, 5])
    # two-sided exact binomial, 15 of 20 at 1/2: 2 * P(X >= 15) = 0.04139
    assert test.method == "exact binomial test" and test.p == pytest.approx(0.041389, abs=1e-5)
    assert test.sentences()[0].startswith("Seat 0 wins more often than a fair share (75.0% of 20")


def test_even_seats_are_not_called_unfair() -> None:
    test = fairness([26, 24, 25, 25])
    assert test.method == "chi-square test" and test.p > 0.9 and not test.significant
    assert test.sentences()[0].startswith("No seat wins significantly more or less often")


def test_few_games_use_the_exact_null_distribution() -> None:
    test = fairness([6, 0, 0, 0])  # 1.5 expected wins a seat: no chi-square approximation
    assert test.method.startswith("exact multinomial") and test.p < 0.01
    # the exact p: P(chi-square statistic >= 18) under multinomial(6, 1/4) = 4 / 4096
    assert test.p == pytest.approx(4 / 4096, abs=0.002)


def test_the_seat_test_holds_its_level() -> None:
    """Fair seats are called unfair in about 5% of cells, not more (300 cells of 60 games)."""
    rng = np.random.default_rng(7)
    called = sum(fairness(list(rng.multinomial(60, [1 / 3] * 3)), seed=i).significant
                 for i in range(300))  # fmt: skip
    assert called <= 0.05 * 300 + 3 * (0.05 * 0.95 * 300) ** 0.5


def test_a_paired_comparison_is_tighter_than_an_unpaired_one() -> None:
    rng = np.random.default_rng(1)
    luck = rng.normal(50, 10, 200)  # what the shared seed gives both cells
    a = {i: float(x) for i, x in enumerate(luck + rng.normal(0, 1, 200))}
    b = {i: float(x) for i, x in enumerate(luck - 1 + rng.normal(0, 1, 200))}
    paired = compare("turns", "A", "B", a, b, paired=True)
    unpaired = compare("turns", "A", "B", a, b, paired=False)
    assert paired is not None and unpaired is not None
    assert paired.low < -1 < paired.high and paired.high < 0 and paired.p < 1e-6
    assert unpaired.high - unpaired.low > 5 * (paired.high - paired.low)
    assert unpaired.p > 0.05  # the same difference is lost in the shared luck
    (adjusted,) = corrected([paired])
    assert adjusted.significant
    assert "turns is lower with B than with A" in adjusted.sentence(1)


def test_identical_cells_differ_by_nothing() -> None:
    same = {i: 1.0 for i in range(10)}
    c = compare("Completion", "A", "B", same, dict(same), paired=True)
    assert c is not None and c.diff == 0 and c.p == 1.0


def test_impact_lifts_by_hand() -> None:
    from ranchhand.lab.impact import length_lifts, lifts, newcombe

    d, low, high = newcombe(56, 70, 48, 80)  # Newcombe's (1998) worked example
    assert (round(d, 4), round(low, 4), round(high, 4)) == (0.2, 0.0524, 0.3339)
    # seat 0 always plays "horse" and wins 8 of 10; seat 1 never does and wins 2
    games = [([{"horse": 1}, {}], (0,) if i < 8 else (1,)) for i in range(10)]
    (horse,) = lifts(games)
    assert horse.used == 10 and horse.used_wins == 8 and horse.lift == pytest.approx(0.6)
    assert horse.clear
    solo = [({"cow": 1} if i % 2 else {}, 20 if i % 2 else 30) for i in range(12)]
    (cow,) = length_lifts(solo)
    assert cow.lift == -10 and cow.low == cow.high == -10
