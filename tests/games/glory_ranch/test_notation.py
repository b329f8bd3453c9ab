"""Typed numbers and any typed text: parsed to a legal action or refused by name, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranchhand.core import ActionError, IllegalAction, InvalidAction
from ranchhand.games.glory_ranch import GloryState
from tests.games.glory_ranch.helpers import do, table


def _target_position() -> GloryState:
    state = table(3, hands={0: ["draw-chosen", "plain"]})
    return do(state, "play draw-chosen")


def _pick_position() -> GloryState:
    state = table(2, hands={0: ["banish-any", "plain"]}, ranches={1: ["fairy", "plain"]})
    return do(state, "play banish-any")


def _place_position() -> GloryState:
    state = table(2, hands={0: ["anywhere", "plain"]}, ranches={0: ["plain", "fairy"]})
    return do(state, "play anywhere")


def _rps_position() -> GloryState:
    state = table(2, hands={0: ["duel", "plain", "fairy"]})
    return do(state, "play duel")


POSITIONS = {
    "play": lambda: table(3, hands={0: ["plain", "fairy"]}),
    "target": _target_position,
    "pick": _pick_position,
    "place": _place_position,
    "rps": _rps_position,
}


@pytest.mark.parametrize(
    ("position", "text", "message"),
    [
        ("target", "target ²", "target: one of 1, 2, got '²'"),
        ("target", "target ١", "target: one of 1, 2, got '١'"),
        ("target", "target 𝟐", "target: one of 1, 2"),
        ("target", "target 3", "target: one of 1, 2, got '3'"),
        ("target", "target -1", "target: one of 1, 2"),
        ("target", "target " + "9" * 150, "target: one of 1, 2, got '999"),
        ("play", "target ²", "target: expected a seat number 0..2, got '²'"),
        ("pick", "pick ¹:1", "pick: one of 0:1, 1:1, 1:2, got '¹:1'"),
        ("pick", "pick 1:²", "pick: one of 0:1, 1:1, 1:2"),
        ("pick", "pick 1:" + "1" * 100, "pick: one of 0:1, 1:1, 1:2"),
        ("pick", "pick 1:5", "there is no card at 1:5; pick one of 0:1, 1:1, 1:2"),
        ("pick", "pick 1", "pick: one of 0:1, 1:1, 1:2, got '1'"),
        ("play", "pick 1:1", "there is no card at 1:1; expected pick SEAT:POSITION"),
        ("play", "pick ¹:1", "pick: seat: expected a number 0..2, got '¹'"),
        ("place", "place ³", "place: one of 1, 2, 3, got '³'"),
        ("place", "place 0", "place: one of 1, 2, 3, got '0'"),
        ("play", "place ٣", "place: expected a number 1..7, got '٣'"),
        ("rps", "choose ROCK²", "choose rock, paper or scissors, not 'rock²'"),
    ],
)
def test_numbers_are_ascii_digits_in_range(position: str, text: str, message: str) -> None:
    state = POSITIONS[position]()
    before = state.to_json()
    with pytest.raises(InvalidAction) as caught:
        state.parse_action(text, state.acting_players()[0])
    assert message in str(caught.value)
    assert state.to_json() == before


def test_a_five_thousand_digit_number_is_refused_without_reading_it() -> None:
    state = _target_position()
    with pytest.raises(InvalidAction, match="at most 200 characters, this text has 5,007"):
        state.parse_action("target " + "2" * 5000)


def test_good_numbers_still_parse() -> None:
    assert str(_target_position().parse_action(" target  2 ")) == "target 2"
    assert str(_pick_position().parse_action("PICK 1:2")) == "pick 1:2 plain"
    assert str(_place_position().parse_action("place 03")) == "place 3"


def test_seats_are_read_as_the_screen_labels_them() -> None:
    target = _target_position()
    assert target.parse_action("target P2") == target.parse_action("target 2")
    assert str(target.parse_action("target p1")) == "target 1"
    pick = _pick_position()
    assert str(pick.parse_action("pick P1:2")) == "pick 1:2 plain"
    assert str(pick.parse_action("pick p1 2 plain")) == "pick 1:2 plain"
    with pytest.raises(InvalidAction, match="target: one of 1, 2, got 'p7'"):
        target.parse_action("target P7")


def test_a_refused_choice_says_which_are_allowed() -> None:
    target = _target_position()
    with pytest.raises(IllegalAction, match="choose another player, not yourself: P1 or P2"):
        target.parse_action("target P0")
    place = _place_position()
    with pytest.raises(IllegalAction, match=r"your ranch has positions 1 to 3: place 1\.\.3"):
        place.parse_action("place 6")
    play = table(3, hands={0: ["plain", "fairy"]})
    with pytest.raises(IllegalAction, match=r"asked now: player 0 plays .*\(e\.g\. play"):
        play.parse_action("choose rock")


def test_a_protected_card_is_refused_as_protected() -> None:
    state = table(
        2,
        hands={0: ["cinder-wyrm", "roc"]},
        ranches={0: ["kraken"], 1: ["selkie", "roc", "wyvern"]},
        vocabulary=False,
    )
    state.shields[1] = [1, 0, 0]
    do(state, "play cinder-wyrm")
    with pytest.raises(IllegalAction, match="Selkie in P1's ranch is protected; pick one of 1:2"):
        state.parse_action("pick P1:1")
    with pytest.raises(IllegalAction, match="Kraken in P0's ranch cannot be picked: the card"):
        state.parse_action("pick 0:1")


WORDS = [
    "play", "discard", "give", "pass", "target", "pick", "place", "choose", "draw", "steal",
    "rock", "paper", "scissors", "plain", "fairy", "Plain", "0", "1", "2", "3", "7", "99",
    "1:1", "0:2", "1:2", "2:1", "¹:1", "²", "١", "𝟐", "-1", ":", "x", "", "９",
    "P1", "p2", "P1:2", "p0:1", "P", "p:1", "P¹",
]  # fmt: skip


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_any_text_is_a_legal_round_tripping_action_or_refused_harmlessly(position: str) -> None:
    state = POSITIONS[position]()
    player = state.acting_players()[0]
    snapshot = state.to_json()

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join) | st.text(max_size=40))
    def typed(text: str) -> None:
        try:
            action = state.parse_action(text, player)
        except ActionError:
            assert state.to_json() == snapshot
            return
        assert state.is_legal(action, player)
        assert state.parse_action(str(action), player) == action
        assert state.to_json() == snapshot

    typed()
