"""The FAQ's blocked player: buying through other players' pastures, paying tolls A to F.

Orange (player 0, pen 5.1-5.2) owns 4.1, 4.2, 4.3 and 4.24 and is walled in by
Blue (player 1: 3.1, 3.2, 3.3, 3.4 and 4.4) and Purple (player 2: 3.18, 2.12, 4.23).
The FAQ's spaces are A = 2.2, B = 3.5, C = 2.3, D = 2.1, E = 3.17, F = 2.11.
"""

from __future__ import annotations

import pytest

from ranchhand.core import IllegalAction
from ranchhand.games.rancho.actions import Deal
from ranchhand.games.rancho.deals import blocked_routes, frontier, tolls_of
from ranchhand.games.rancho.state import RanchoState
from tests.games.rancho.helpers import box, give, own, position

ORANGE, BLUE, PURPLE = 0, 1, 2
FAQ = {
    "A": ("2.2", [{BLUE: 2}]),
    "B": ("3.5", [{BLUE: 4}]),
    "C": ("2.3", [{BLUE: 2}]),
    "D": ("2.1", [{BLUE: 2}, {PURPLE: 2}]),
    "E": ("3.17", [{PURPLE: 2}]),
    "F": ("2.11", [{PURPLE: 3}]),
}


def walled_in() -> RanchoState:
    state = position(3)
    own(state, ORANGE, "4.1", "4.2", "4.3", "4.24")
    own(state, BLUE, "3.1", "3.2", "3.3", "3.4", "4.4")
    own(state, PURPLE, "3.18", "2.12", "4.23")
    give(state, ORANGE, "12 rabbit")
    return state


def test_orange_is_blocked() -> None:
    state = walled_in()
    assert frontier(state, ORANGE) == 0
    with pytest.raises(IllegalAction, match=r"you are blocked"):
        state.apply_text("buy 2.2 with rabbit")


@pytest.mark.parametrize("letter", sorted(FAQ))
def test_faq_tolls(letter: str) -> None:
    state = walled_in()
    space, payments = FAQ[letter]
    routes = blocked_routes(state, ORANGE)[state.game.board.by_id[space]]
    found = sorted(tuple(sorted(tolls_of(state, via).items())) for via in routes)
    assert found == sorted(tuple(sorted(p.items())) for p in payments)


def test_b_crosses_two_blue_spaces_and_f_a_purple_two_and_one() -> None:
    state = walled_in()
    board = state.game.board
    assert blocked_routes(state, ORANGE)[board.by_id["3.5"]] == [("3.3", "3.4")]
    assert blocked_routes(state, ORANGE)[board.by_id["2.11"]] == [("3.18", "2.12")]


def test_buying_e_pays_the_herd_and_purple_then_f_costs_only_its_price() -> None:
    state = walled_in()
    before = box(state)
    state.apply_text("buy 3.17 via 3.18 with 2 rabbit")
    assert state.animals[ORANGE][0] == 12 - 2 - 2
    assert state.animals[PURPLE][0] == 2
    assert state.owner[state.game.board.by_id["3.17"]] == ORANGE
    state.apply_text("buy 2.11 with rabbit")  # now next to Orange's 3.17: no toll
    assert state.animals[ORANGE][0] == 7 and box(state) == before


def test_d_lets_orange_choose_whom_to_pay() -> None:
    for via, paid in (("3.1", BLUE), ("3.18", PURPLE)):
        state = walled_in()
        state.apply_text(f"buy 2.1 via {via} with rabbit")
        assert state.animals[paid][0] == 2


def test_offered_blocked_purchases_are_legal() -> None:
    state = walled_in()
    offered = [a for a in state.legal_actions() if isinstance(a, Deal) and a.via]
    assert {a.pastures[0] for a in offered} >= {"2.2", "3.5", "2.3", "2.1", "3.17", "2.11"}
    for action in offered:
        assert state.is_legal(action)
        assert state.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("buy 2.2 via 3.1 with rabbit", "does not reach 2.2"),
        ("buy 2.2 via 4.1 with rabbit", "4.1 is not another player's pasture"),
        ("buy 3.5 via 3.4 with 2 rabbit", "3.4 does not touch the space before it"),
        ("buy 2.2 + 2.3 via 3.2 with 2 rabbit", "buys one pasture"),
    ],
)
def test_bad_routes_are_refused(text: str, reason: str) -> None:
    state = walled_in()
    with pytest.raises(IllegalAction, match=reason):
        state.apply_text(text)


def test_tolls_are_paid_in_rabbits() -> None:
    state = walled_in()
    give(state, ORANGE, "sheep")
    with pytest.raises(IllegalAction, match=r"the tolls cost 2 rabbits"):
        state.apply_text("buy 2.2 + 5 rabbit via 3.2 with sheep")


def test_toll_rabbits_join_the_owners_stacks_without_moving_other_animals() -> None:
    state = walled_in()
    give(state, PURPLE, "5 rabbit + sheep")
    assert state.arrangement_text(PURPLE) == "sheep @5.21; 5 rabbit @5.22"
    state.apply_text("buy 3.17 via 3.18 with 2 rabbit")
    # One rabbit tops up the stack in the pen, the other starts a stack on a free pasture.
    assert state.arrangement_text(PURPLE) == "rabbit @4.23; sheep @5.21; 6 rabbit @5.22"
    assert state.animals[PURPLE][0] == 7


def test_a_toll_that_completes_the_owners_herd_ends_the_game() -> None:
    state = walled_in()
    give(state, PURPLE, "sheep + cow + horse")  # everything but a rabbit
    own(state, PURPLE, "3.16", "2.10", "2.9")
    state.apply_text("buy 3.17 via 3.18 with 2 rabbit")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (PURPLE,)
