"""Rounds, scoring and the end of the game, with the rulebook's FAQ cases."""

from __future__ import annotations

import pytest

from ranchhand.core import CHANCE, TERMINAL, IllegalAction, InvalidAction
from ranchhand.games.glory_ranch import GloryRanch
from tests.games.glory_ranch.helpers import do, hand, table


def test_the_deal_gives_five_cards_each_from_the_first_player() -> None:
    game = GloryRanch(3)
    state = game.new_initial_state()
    receivers = []
    while state.current_player() == CHANCE:
        receivers.append(state.stack[-1][1])
        outcomes = state.chance_outcomes()
        state.apply(outcomes.actions[0])
    assert receivers == [0, 1, 2] * 5
    assert [sum(h) for h in state.hands] == [5, 5, 5]
    assert state.current_player() == 0
    assert sum(state.deck) == game.deck.size - 15


def test_round_ends_when_a_hand_is_empty_and_scores_it() -> None:
    state = table(2, hands={0: ["plain"], 1: ["fairy", "plain"]}, ranches={1: ["plain"]})
    do(state, "play plain")
    record = state.rounds[-1]
    assert record["points"] == [3, 3 - 4 - 2]
    assert record["winners"] == [0]
    assert record["turns"] == 1
    assert state.totals == [3, 0]  # the running total never goes below 0
    assert state.round == 2
    assert state.current_player() == CHANCE  # the new deal


def test_faq_playing_your_last_card_then_receiving_cards_is_not_going_out() -> None:
    state = table(2, hands={0: ["draw-you"]})
    do(state, "play draw-you", "draw fairy", "draw plain")
    assert state.round == 1
    assert hand(state, 0) == ["fairy", "plain"]
    assert state.current_player() == 1


def test_faq_an_action_that_cannot_be_done_is_skipped() -> None:
    # give with nothing left to give: the card is still played, the round ends (hand empty)
    state = table(2, hands={0: ["give"]})
    do(state, "play give")
    assert state.rounds[-1]["ranches"][0] == ["give"]
    # discard two with one card left: discards what it can
    state = table(2, hands={0: ["discard-you", "fairy"]})
    do(state, "play discard-you")
    assert state.rounds[-1]["points"][0] == 1


def test_round_ends_when_a_ranch_holds_seven_cards() -> None:
    state = table(2, hands={0: ["plain", "plain", "plain"]}, ranches={0: ["plain"] * 6})
    do(state, "play plain")
    assert state.rounds[-1]["points"][0] == 7 * 3 - 2 * 2
    assert state.round == 2


def test_a_seventh_card_played_ends_the_round_even_if_a_card_leaves_the_ranch() -> None:
    # The rulebook: the round ends if "a player played a 7th card in their Ranch". Here
    # the 7th card's own action returns a ranch card to the hand, leaving six in the ranch.
    state = table(
        2,
        hands={0: ["return-yours", "fairy"], 1: ["plain", "plain"]},
        ranches={0: ["plain"] * 3 + ["fairy"] * 3},
    )
    do(state, "play return-yours")
    assert len(state.ranches[0]) == 7
    do(state, "pick 0:1 plain")
    assert state.round == 2
    record = state.rounds[-1]
    assert record["ranches"][0] == ["plain"] * 2 + ["fairy"] * 3 + ["return-yours"]
    assert record["turns"] == 1
    # the seventh card is counted in the turn it is played, not in later turns
    state = table(2, hands={0: ["plain", "fairy"]}, ranches={0: ["fairy"] * 5})
    do(state, "play plain")
    assert state.round == 1 and not state.seventh


def test_round_ends_when_a_draw_finds_deck_and_discard_empty() -> None:
    state = table(2, hands={0: ["draw-you", "plain"]}, stock=["fairy"])
    do(state, "play draw-you", "draw fairy")
    assert state.round == 2
    assert state.rounds[-1]["points"][0] == 1 - 2 - 4


def test_an_empty_deck_takes_in_the_discard_pile() -> None:
    state = table(2, hands={0: ["draw-you", "plain"]}, stock=[], discard=["fairy", "skip", "skip"])
    do(state, "play draw-you")
    assert state.current_player() == CHANCE
    assert sum(state.discard) == 0
    assert sorted(map(str, state.chance_outcomes().actions)) == ["draw fairy", "draw skip"]
    do(state, "draw skip", "draw skip")
    assert hand(state, 0) == ["plain", "skip", "skip"]
    assert state.round == 1


def test_each_round_starts_with_the_next_seat_clockwise() -> None:
    state = table(3, hands={0: ["plain"]})
    do(state, "play plain")
    assert (state.round, state.first, state.current) == (2, 1, 1)
    state = table(3, hands={2: ["plain"]}, current=2)
    state.first = 2
    do(state, "play plain")
    assert (state.first, state.current) == (0, 0)


def test_hour_glass_bonuses() -> None:
    cases = {
        ("per-beast", "plain", "fairy"): 0 + 3 + 1 + 2 * 2,
        ("per-card", "fairy", "fairy"): 0 + 1 + 1 + 3,
        ("fairy", "near-fae", "fairy"): 1 + 0 + 1 + 3 * 2,
        ("near-any", "plain"): 0 + 3 + 1,
        ("leftmost", "plain"): 5 + 3,
        ("plain", "leftmost"): 3,
        ("plain", "rightmost"): 3 + 4,
        ("rightmost", "plain"): 3,
        ("variety", "fairy", "plain"): 0 + 1 + 3 + 2 * 2,
    }
    for cards, points in cases.items():
        state = table(2, hands={0: ["plain"]}, ranches={0: list(cards)})
        state.hands[0] = [0] * state.game.kinds
        state._end_round()
        assert state.rounds[-1]["points"][0] == points, cards


def test_most_and_empty_hand_bonuses_compare_the_table() -> None:
    state = table(2, hands={0: [], 1: ["fairy"]}, ranches={0: ["most-beasts"], 1: ["plain"]})
    state._end_round()
    assert state.rounds[-1]["points"] == [6, 3 - 4]  # a tie for the most counts
    state = table(2, hands={0: [], 1: []}, ranches={0: ["most-beasts"], 1: ["plain", "plain"]})
    state._end_round()
    assert state.rounds[-1]["points"] == [0, 6]
    state = table(2, hands={0: [], 1: []}, ranches={0: ["most-cards", "empty"], 1: ["plain"]})
    state._end_round()
    assert state.rounds[-1]["points"] == [7 + 8, 3]
    state = table(2, hands={0: ["fairy"], 1: []}, ranches={0: ["empty"]})
    state._end_round()
    assert state.rounds[-1]["points"][0] == -4


def test_game_ends_at_the_end_of_the_round_in_which_the_target_is_reached() -> None:
    state = table(2, hands={0: ["plain"]}, target=10)
    state.totals = [8, 9]
    do(state, "play plain")
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.scores == (11.0, 5.0)  # 8 + 3 for the plain; 9 - 4 for two plains in hand
    assert state.returns() == [1.0, -1.0]
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply_text("play plain")


def test_a_tie_at_the_target_plays_another_round_by_default() -> None:
    state = table(2, hands={0: ["plain"], 1: ["fairy"]}, ranches={1: ["plain"]}, target=10)
    state.totals = [7, 11]
    do(state, "play plain")  # 7 + 3 = 10; 11 + 3 - 4 = 10
    assert state.totals == [10, 10]
    assert state.outcome() is None
    assert state.round == 2


def test_a_tie_at_the_target_can_be_shared() -> None:
    state = table(
        2, hands={0: ["plain"], 1: ["fairy"]}, ranches={1: ["plain"]}, target=10, tie="share"
    )
    state.totals = [7, 11]
    do(state, "play plain")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)
    assert state.returns() == [1.0, 1.0]


@pytest.mark.parametrize(("players", "target"), [(2, 50), (3, 50), (4, 50), (5, 30), (6, 30)])
def test_default_target_depends_on_the_player_count(players: int, target: int) -> None:
    assert GloryRanch(players).target == target
    assert GloryRanch(players, target=25).target == 25
    assert GloryRanch(players).new_initial_state().observe(0).target == target


def test_observation_shows_own_hand_and_hides_others() -> None:
    state = table(3, hands={0: ["plain", "fairy"], 1: ["skip", "skip", "again"]})
    seen = state.observe(0).to_json()
    assert seen["hand"] == ["plain", "fairy"]
    assert seen["hand_sizes"] == [2, 3, 2]
    assert "skip" not in str(seen)
    assert seen["direction"] == "clockwise"
    assert seen["deck"] == sum(state.deck)


def test_parse_errors_name_what_was_wrong() -> None:
    state = table(2, hands={0: ["plain", "fairy"]})
    with pytest.raises(InvalidAction, match="no card named 'dragon'"):
        state.parse_action("play dragon")
    with pytest.raises(IllegalAction, match="you have no skip in your hand"):
        state.parse_action("play skip")
    with pytest.raises(InvalidAction, match="unknown action 'fly'"):
        state.parse_action("fly away")
    with pytest.raises(IllegalAction, match="does not answer"):
        state.parse_action("target 1")
    assert state.parse_action("play Plain") == state.parse_action("play plain")


def test_pick_text_checks_the_named_card() -> None:
    state = table(2, hands={0: ["banish-any", "plain"]}, ranches={1: ["fairy", "plain"]})
    do(state, "play banish-any")
    with pytest.raises(InvalidAction, match="the card at 1:1 is fairy, not plain"):
        state.parse_action("pick 1:1 plain")
    with pytest.raises(InvalidAction, match="no card at 1:5"):
        state.parse_action("pick 1:5")
    assert str(state.parse_action("pick 1:2")) == "pick 1:2 plain"


def test_another_players_hand_never_changes_what_you_see() -> None:
    one = table(3, hands={0: ["plain"], 1: ["skip", "fairy"]})
    two = table(3, hands={0: ["plain"], 1: ["again", "trade"]})
    assert one.observe(0).to_json() == two.observe(0).to_json()
    assert one.observe(2).to_json() == two.observe(2).to_json()
    assert one.observe(1).to_json() != two.observe(1).to_json()
