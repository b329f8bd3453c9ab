"""Exchanges and pasture purchases: the rulebook's examples and every refusal."""

from __future__ import annotations

import json

import pytest

from ranchhand.core import IllegalAction
from ranchhand.games.rancho.actions import Deal
from tests.games.rancho.helpers import box, counts, give, own, position


def deal(text: str, state=None) -> Deal:  # type: ignore[no-untyped-def]
    state = state or position()
    action = state.parse_action(text) if state else None
    assert isinstance(action, Deal)
    return action


def test_sheep_for_a_small_dog_and_three_rabbits() -> None:
    state = position()
    give(state, 0, "sheep")
    state.apply_text("trade sheep > small dog + 3 rabbit")
    assert state.animals[0] == list(counts("3 rabbit + small dog"))


def test_two_sheep_dogs_and_rabbits_for_a_horse() -> None:
    state = position()
    give(state, 0, "2 sheep + small dog + large dog + 3 rabbit")
    own(state, 0, "4.1")
    state.apply_text("trade 2 sheep + small dog + large dog + 3 rabbit > horse")
    assert state.animals[0] == list(counts("horse"))
    assert state.herd[3] == 1


def test_exchanges_run_both_ways_along_the_ladder() -> None:
    state = position()
    give(state, 0, "12 rabbit")
    state.apply_text("trade 6 rabbit > sheep")
    state.apply_text("trade 6 rabbits for a sheep")
    state.apply_text("trade 2 sheep > cow")
    state.apply_text("trade cow > 2 sheep")
    state.apply_text("trade sheep > 6 rabbit")
    assert state.animals[0] == list(counts("6 rabbit + sheep"))


def test_one_sheep_buys_a_pasture_for_two_and_one_for_four() -> None:
    state = position()
    give(state, 0, "sheep")
    state.apply_text("buy 4.1 + 3.1 with sheep")
    assert sorted(state.game.board.ids(state.land[0])) == ["3.1", "4.1"]
    assert state.animals[0] == [0] * 6


def test_a_cow_buys_a_sheep_and_three_pastures_worth_two() -> None:
    state = position()
    give(state, 0, "cow")
    own(state, 0, "4.1", "4.2")
    state.apply_text("buy 3.1 + 3.2 + 3.18 + sheep with cow")
    assert state.animals[0] == list(counts("sheep"))
    assert state.land[0].bit_count() == 5


def test_trade_may_take_pastures_too() -> None:
    state = position()
    give(state, 0, "sheep")
    action = state.parse_action("trade sheep > 4.1 + 2 rabbit")
    assert str(action) == "buy 4.1 + 2 rabbit with sheep"


@pytest.mark.parametrize(
    ("holding", "text", "reason"),
    [
        ("sheep", "trade sheep > 5 rabbit", "values differ: you give 6 rabbits' worth"),
        ("sheep", "trade sheep > 7 rabbit", "the herd gives no change"),
        ("rabbit", "trade 6 rabbit > sheep", "you give 6 rabbit but have 1"),
        ("12 rabbit", "trade 12 rabbit > 2 sheep", "the herd has 1 sheep, you take 2"),
        ("sheep", "trade sheep > sheep", "both given and taken"),
        ("6 rabbit", "buy 3.1 with 2 rabbit", "does not touch your pen or pastures"),
        ("6 rabbit", "buy 4.1 with 5 rabbit", "values differ"),
        ("6 rabbit", "buy 5.6 with 4 rabbit", "is a pen, not a pasture"),
        ("6 rabbit", "buy 9.9 with 4 rabbit", "is not a space of the board"),
        ("6 rabbit", "buy 4.1 via 4.2 with 4 rabbit", "you are not blocked"),
        ("12 rabbit + large dog", "trade large dog > sheep", "cannot all be placed: they need 3"),
    ],
)
def test_refused_deals_give_the_reason_and_change_nothing(
    holding: str, text: str, reason: str
) -> None:
    state = position()
    give(state, 0, holding)
    # The other player holds the rest of the sheep so the herd has exactly one.
    give(state, 1, "5 sheep")
    own(state, 1, "4.10", "4.11", "4.12")
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match=reason):
        state.apply_text(text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_a_taken_pasture_cannot_be_bought() -> None:
    state = position()
    give(state, 0, "6 rabbit")
    own(state, 1, "4.1")
    with pytest.raises(IllegalAction, match=r"4.1 already belongs to player 1"):
        state.apply_text("buy 4.1 with 4 rabbit")


def test_at_most_twelve_pastures() -> None:
    state = position()
    give(state, 0, "6 rabbit")
    own(state, 0, *[f"4.{i}" for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)])
    with pytest.raises(IllegalAction, match=r"at most 12"):
        state.apply_text("buy 4.13 with 4 rabbit")
    assert all(not isinstance(a, Deal) or not a.pastures for a in state.legal_actions())


def test_pastures_bought_together_may_join_through_each_other() -> None:
    state = position()
    give(state, 0, "sheep")
    state.apply_text("buy 4.1 + 3.1 with sheep")  # 3.1 touches 4.1, which touches the pen
    state2 = position()
    give(state2, 0, "sheep")
    with pytest.raises(IllegalAction, match=r"3.3 does not touch"):
        state2.apply_text("buy 4.1 + 3.3 with sheep")


def test_a_trade_that_gives_away_a_species_does_not_win() -> None:
    state = position()
    give(state, 0, "2 cow + sheep + 7 rabbit")
    own(state, 0, "4.1", "4.2", "4.3", "4.24", "4.23")
    state.apply_text("trade 2 cow > horse")
    assert not state.is_terminal()  # a horse, but no cow left


def test_full_herd_by_exchange_ends_the_game() -> None:
    state = position()
    give(state, 0, "cow + 2 sheep + horse")
    own(state, 0, "4.1", "4.2", "4.3", "4.4", "4.24", "4.23")
    before = box(state)
    state.apply_text("trade sheep > 6 rabbit")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "full herd"
    assert state.current_player() < -1 and box(state) == before


def test_every_offered_deal_is_legal_and_round_trips() -> None:
    state = position(4)
    give(state, 0, "13 rabbit + 2 sheep + small dog")
    own(state, 0, "4.1", "4.2", "3.1")
    for action in state.legal_actions():
        assert state.is_legal(action)
        assert state.parse_action(str(action)) == action
