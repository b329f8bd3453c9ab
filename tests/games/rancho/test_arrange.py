"""Arranging animals: the rulebook's cow-into-the-pen example and every refusal."""

from __future__ import annotations

import json

import pytest

from ranchhand.core import ActionError, IllegalAction
from ranchhand.games.rancho.actions import ArrangeSafest, DiceRoll, EndTurn, Roll, Strike
from ranchhand.games.rancho.state import SETTLE
from ranchhand.games.rancho.tables import COW, RABBIT, WOLF
from tests.games.rancho.helpers import arrange, give, own, position


def cow_farm():  # type: ignore[no-untyped-def]
    """Pen full (a sheep, 6 rabbits), 6 rabbits on 4.1; only 3.1 and 2.1 are free."""
    state = position()
    own(state, 0, "4.1", "3.1", "2.1")
    give(state, 0, "sheep + 12 rabbit")
    arrange(state, 0, "sheep @5.1; 6 rabbit @5.2; 6 rabbit @4.1")
    return state


def test_rearranging_a_cow_into_the_pen() -> None:
    state = cow_farm()
    state.apply(Roll())
    state.apply(DiceRoll(COW, COW))
    assert state.animals[0][COW] == 1 and state.phase == SETTLE
    # Where the cow would have to go without rearranging: the inner and middle rings.
    arrange(state, 0, "sheep @5.1; 6 rabbit @5.2; 6 rabbit @4.1; cow @3.1-2.1")
    state.apply_text("arrange cow @5.1-5.2; sheep @3.1; 6 rabbit @2.1; 6 rabbit @4.1")
    assert state.arrangement_text(0) == "6 rabbit @2.1; sheep @3.1; 6 rabbit @4.1; cow @5.1-5.2"
    state.apply(EndTurn())
    # Player 1 rolls a wolf striking the middle ring: the cow in the pen is safe.
    state.apply(Roll())
    state.apply(DiceRoll(RABBIT, WOLF))
    state.apply(Strike(2))
    assert state.animals[0][COW] == 1 and state.animals[0][1] == 0


def test_the_engine_safest_arrangement_also_puts_the_cow_in_the_pen() -> None:
    state = cow_farm()
    state.apply(Roll())
    state.apply(DiceRoll(COW, COW))
    arrange(state, 0, "sheep @5.1; 6 rabbit @5.2; 6 rabbit @4.1; cow @3.1-2.1")
    assert ArrangeSafest() in state.legal_actions()
    state.apply(ArrangeSafest())
    assert "cow @5.1-5.2" in state.arrangement_text(0)
    assert ArrangeSafest() not in state.legal_actions()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("arrange sheep @5.1; 6 rabbit @5.2; 6 rabbit @4.1; 2 rabbit @3.1", "have 12 rabbits"),
        ("arrange sheep @5.1; 6 rabbit @5.2; 6 rabbit @5.2", "5.2 holds two pieces"),
        ("arrange sheep @5.1; 12 rabbit @5.2", r"a rabbit stack: expected a number 1\.\.6, got 12"),
        ("arrange 2 sheep @5.1; 6 rabbit @5.2; 6 rabbit @4.1", "only rabbits stack"),
        ("arrange sheep @4.2; 6 rabbit @5.2; 6 rabbit @4.1", "4.2 is not your pen or pasture"),
        ("arrange sheep @5.1-5.2; 6 rabbit @3.1; 6 rabbit @4.1", "a sheep stands on one space"),
        ("arrange sheep @7.7; 6 rabbit @5.2; 6 rabbit @4.1", "7.7 is not a space of the board"),
    ],
)
def test_bad_arrangements_are_refused_and_change_nothing(text: str, reason: str) -> None:
    state = cow_farm()
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(ActionError, match=reason):
        state.apply_text(text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_cows_need_adjacent_and_horses_connected_spaces() -> None:
    state = position()
    own(state, 0, "4.1", "3.1", "2.1", "4.2", "4.24")
    give(state, 0, "cow + horse")
    with pytest.raises(IllegalAction, match=r"a cow needs two adjacent spaces; 2.1-5.1 are not"):
        state.apply_text("arrange cow @5.1-2.1; horse @4.1-3.1-4.2")
    with pytest.raises(IllegalAction, match=r"a horse needs three connected spaces"):
        state.apply_text("arrange cow @5.1-5.2; horse @4.2-2.1-4.24")
    state.apply_text("arrange cow @5.1-5.2; horse @4.1-3.1-2.1")
    assert state.animals[0][RABBIT] == 0


def test_rearranging_only_in_your_own_expand_or_settle_step() -> None:
    state = cow_farm()
    state.apply(Roll())
    with pytest.raises(IllegalAction, match=r"not player 1.s turn"):
        state.apply_text("arrange sheep @5.2; 6 rabbit @5.1; 6 rabbit @4.1", 1)
