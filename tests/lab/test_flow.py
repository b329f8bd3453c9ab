"""Flow facts of one game, on small constructed timelines (standings after each turn)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ranchhand.lab.flow import deficit, ever_last, flow, lead_changes, lead_from, leader


def test_the_leader_is_the_one_player_strictly_ahead() -> None:
    assert leader([1, 4, 2]) == 1
    assert leader([4, 4, 2]) is None
    assert leader([-1, -3]) == 0


def test_ties_at_the_top_neither_make_nor_break_a_lead() -> None:
    # P0 leads, a tie, P0 again: no change; then P1 takes over, then P0 back: two changes.
    timeline = [[0, 0], [2, 0], [2, 2], [3, 2], [3, 5], [7, 5]]
    assert lead_changes(timeline) == 2
    assert lead_changes([[0, 0], [0, 0]]) == 0


def test_ever_last_is_strictly_behind_everyone() -> None:
    timeline = [[0, 0, 0], [0, 1, 0], [1, 2, 0], [5, 2, 1]]
    assert not ever_last(timeline, 0)  # level with player 2 at worst
    assert ever_last(timeline, 2)
    assert not ever_last([[0, 0]], 0)


def test_deficit_is_the_largest_gap_to_the_top() -> None:
    assert deficit([[0, 0], [1, 5], [6, 7], [9, 7]], 0) == 4
    assert deficit([[3, 1], [4, 1]], 0) == 0


def test_lead_from_and_decisiveness() -> None:
    # points 0..4; player 0 leads for good from point 2: decisiveness (4 - 2) / 4.
    timeline = [[0, 0], [0, 1], [2, 1], [3, 1], [5, 1]]
    assert lead_from(timeline, 0) == 2
    facts = flow(timeline, (0,))
    assert facts.decisiveness == 0.5
    assert facts.winner_last is True and facts.winner_deficit == 1 and facts.winner_final == 5
    # a winner level at the end (won on a tie-break) never led for good: decisiveness 0.
    assert flow([[0, 0], [1, 0], [2, 2]], (0,)).decisiveness == 0.0


def test_a_shared_win_has_no_winner_facts() -> None:
    facts = flow([[0, 0], [1, 0], [1, 1]], (0, 1))
    assert facts.lead_changes == 0 and facts.winner_last is None and facts.decisiveness is None
    assert flow([], (0,)).points == 0


timelines = st.integers(2, 4).flatmap(
    lambda n: st.lists(st.lists(st.integers(-5, 20), min_size=n, max_size=n), min_size=1)
)


@given(timelines, st.data())
def test_flow_invariants(timeline: list[list[int]], data: st.DataObject) -> None:
    winner = data.draw(st.integers(0, len(timeline[0]) - 1))
    facts = flow(timeline, (winner,))
    assert 0 <= facts.lead_changes <= max(0, len(timeline) - 1)
    start = lead_from(timeline, winner)
    if leader(timeline[-1]) == winner:
        assert all(leader(s) == winner for s in timeline[start:])
    decisive = facts.decisiveness
    assert decisive is None or 0 <= decisive <= 1
    assert facts.winner_deficit is not None and facts.winner_deficit >= 0
