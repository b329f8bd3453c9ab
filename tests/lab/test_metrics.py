"""Cell metrics on small constructed game logs, each against its formula (docs/lab.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranchhand.core.game import Summary
from ranchhand.lab.estimate import mean, proportion
from ranchhand.lab.flow import Flow, flow
from ranchhand.lab.metrics import PER_GAME, balance, balance_of, drama_margin, measure, seats
from ranchhand.lab.trace import LabGame


def game(
    winners: tuple[int, ...],
    timeline: list[list[float]] | None = None,
    *,
    turns: int = 10,
    truncated: bool = False,
    decisions: int = 4,
    choices: int = 12,
) -> LabGame:
    facts = flow(timeline, () if truncated else winners) if timeline else Flow(0, 0)
    return LabGame(0, winners, truncated, turns, None, {}, 1, decisions, choices, facts)


def test_seat_rates_count_a_shared_win_for_each_winner() -> None:
    log = [game((0,)), game((0,)), game((1,)), game((0, 1)), game((), truncated=True)]
    s = seats(log, 2)
    assert s.completed == 4 and s.wins == (3, 2)
    assert s.rates[0] is not None and s.rates[0].value == 0.75
    assert s.fair == pytest.approx(5 / 8)  # 5 winners over 4 games, 2 seats
    assert s.advantage[0] == pytest.approx(0.75 - 5 / 8)


def test_balance_is_ludiis_formula_with_an_honest_interval() -> None:
    assert balance_of([5, 5], 10) == 1.0
    assert balance_of([10, 0, 0, 0], 10) == 0.0
    assert balance_of([6, 3], 10) == pytest.approx(0.7)  # rates over every game
    assert balance_of([3], 3) is None
    e = balance([game((0,)), game((0,)), game((1,))] * 10, 2)
    assert e is not None and e.value == pytest.approx(1 - (20 - 10) / 30) and e.n == 30
    assert e.low < e.value < e.high == 1.0  # 20 to 10 of 30: not clearly unbalanced
    lopsided = balance([game((0,))] * 25 + [game((1,))] * 5, 2)
    assert lopsided is not None and lopsided.low < lopsided.value < lopsided.high < 1
    even = balance([game((0,)), game((1,))] * 15 + [game((0,))], 2)
    assert even is not None and even.value < 1 and even.high == 1.0  # not clamped to it


def test_the_balance_interval_covers_the_truth() -> None:
    """Over 300 simulated cells of 200 games the interval holds the true balance at least
    95% of the time, for even seats (true balance 1) and uneven ones (0.8)."""
    import numpy as np

    rng = np.random.default_rng(3)
    for shares, truth in (([0.25] * 4, 1.0), ([0.4, 0.2, 0.2, 0.2], 0.8)):
        held = 0
        for _ in range(300):
            seats_won = rng.choice(4, size=200, p=shares)
            e = balance([game((int(s),)) for s in seats_won], 4)
            assert e is not None
            held += e.low <= truth <= e.high
        assert held >= 0.95 * 300


def test_drama_margin_is_relative_to_the_winners_final_standing() -> None:
    behind_a_lot = game((0,), [[0, 0], [0, 3], [8, 3]])  # trailed by 3 of a final 8
    behind_a_little = game((0,), [[0, 0], [0, 1], [8, 3]])  # trailed by 1 of 8
    assert drama_margin(behind_a_lot) is True
    assert drama_margin(behind_a_little) is False
    assert drama_margin(game((0, 1), [[0, 0], [1, 1]])) is None


def test_branching_is_choices_per_decision() -> None:
    branching = PER_GAME["Branching factor"]
    assert branching(game((0,), decisions=4, choices=10)) == 2.5
    assert branching(game((0,), decisions=0, choices=0)) is None


def test_estimates() -> None:
    e = mean([2.0, 4.0])
    assert (
        e is not None and e.value == 3.0 and e.low < 3.0 < e.high and e.sd == pytest.approx(2**0.5)
    )
    assert mean([]) is None
    p = proportion(0, 10)
    assert p is not None and p.value == 0.0 and p.low == 0.0 and 0 < p.high < 0.35


def test_measure_a_small_log() -> None:
    log = [
        game((0,), [[0, 0], [2, 0], [2, 3], [5, 3]], turns=3),  # 2 changes, last once, led at end
        game((1,), [[0, 0], [0, 2], [1, 4]], turns=2),  # 0 changes, led from point 1
        game((), [[0, 0], [1, 0]], turns=50, truncated=True),
    ]
    m = measure(log, 2, Summary())
    assert m.games == 3
    ludii, own = m.ludii, m.own
    assert ludii["Completion"] is not None and ludii["Completion"].value == pytest.approx(2 / 3)
    assert ludii["Timeouts"] is not None and ludii["Timeouts"].value == pytest.approx(1 / 3)
    assert ludii["Duration (turns)"] is not None
    assert ludii["Duration (turns)"].value == pytest.approx(55 / 3)  # every game, as Ludii
    turns = own["turns (completed games)"]
    assert turns is not None and turns.value == 2.5 and m.lengths == [3, 2]
    changes = own["lead changes per game"]
    assert changes is not None and changes.value == 1.0
    last = own["winner ever last"]
    assert last is not None and last.value == 0.5
    held = own["lead held for good"]
    assert held is not None and held.value == pytest.approx((0 / 3 + 1 / 2) / 2)
    assert ludii["Branching factor"] is not None and ludii["Branching factor"].value == 3.0
    assert m.to_json()["seat_win_rates"][0]["value"] == 0.5


@given(st.lists(st.integers(0, 1000), min_size=2, max_size=6), st.integers(0, 500))
def test_balance_is_between_0_and_1_and_ignores_seat_order(wins: list[int], extra: int) -> None:
    games = sum(wins) + extra
    value = balance_of(wins, games)
    if games == 0:
        assert value is None
        return
    assert value is not None and 0 <= value <= 1
    assert balance_of(list(reversed(wins)), games) == pytest.approx(value)
