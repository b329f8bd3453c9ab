"""Each player is told what happened to their hand, by name; the others that a card moved."""

from __future__ import annotations

from ranchhand.core import CHANCE
from ranchhand.games.glory_ranch import GloryRanch
from ranchhand.games.glory_ranch.actions import HandCard, Target
from tests.games.glory_ranch.helpers import do, table


def _told(state, action, player):  # type: ignore[no-untyped-def]
    return {v: state.describe_for(v, action, player) for v in (*range(state.game.players), None)}


def test_a_card_given_is_named_to_the_giver_and_the_receiver_only() -> None:
    state = table(3, hands={2: ["selkie", "kraken", "roc"]}, current=2, vocabulary=False)
    do(state, "play selkie", "target 0")
    told = _told(state, HandCard("give", "kraken"), 2)
    assert told[0] == "gives you Kraken"
    assert told[1] == told[None] == "gives P0 a card"
    assert told[2] == "give kraken to P0"


def test_a_card_given_without_a_choice_is_told_after_the_target() -> None:
    state = table(3, hands={2: ["selkie", "kraken"]}, current=2, vocabulary=False)
    do(state, "play selkie")
    told = _told(state, Target(0), 2)  # P2's hand is then empty: the round ends too
    assert told[0].startswith("target 0; P2 gives you Kraken; round 1 ends: ")
    assert told[1].startswith("target 0; P2 gives P0 a card; round 1 ends: ")
    assert told[2].startswith("target 0; you give Kraken to P0; round 1 ends: ")


def test_a_card_stolen_is_named_to_the_thief_and_the_robbed_player() -> None:
    state = table(
        3, hands={1: ["peryton", "roc"], 0: ["selkie", "selkie"]}, current=1, vocabulary=False
    )
    do(state, "play peryton", "target 0")
    steal = state.legal_actions(CHANCE)[0]
    told = _told(state, steal, CHANCE)
    assert told[0] == "P1 steals your Selkie"
    assert told[1] == "P1 steals Selkie from P0"
    assert told[2] == told[None] == "P1 steals a card from P0"


def test_traded_hands_are_listed_to_the_traders_and_counted_for_the_others() -> None:
    state = table(
        3,
        hands={0: ["puck", "roc", "roc"], 1: ["kraken"], 2: ["pixie", "brownie"]},
        vocabulary=False,
    )
    do(state, "play puck")
    told = _told(state, Target(1), 0)
    assert told[0] == "target 1; you trade hands with P1: you get Kraken"
    assert told[1] == "target 1; P0 trades hands with you: you get Roc x2"
    assert told[2] == "target 1; P0 trades hands with P1 (2 cards for 1 card)"


def test_passed_cards_are_named_to_whoever_receives_them() -> None:
    state = table(
        3,
        hands={0: ["tanuki", "roc", "kraken"], 1: ["selkie"], 2: ["pixie", "brownie"]},
        vocabulary=False,
    )
    do(state, "play tanuki", "pass kraken")  # P1 passes its only card without a choice
    told = _told(state, HandCard("pass", "pixie"), 2)
    assert told[0] == "passes a card; P2 passes you Pixie"
    assert told[1] == "passes a card; P0 passes you Kraken"
    assert told[2] == "pass pixie to P0; P1 passes you Selkie"
    assert told[None] == "passes a card; the passed cards change hands"


def test_the_round_end_gives_every_score_and_the_game_end_the_winner() -> None:
    state = GloryRanch(2, target=10).setup(
        {"player": [{"hand": ["roc"], "ranch": ["lindworm"]}, {"hand": ["kraken", "puck"]}]}
    )
    line = state.describe_for(1, HandCard("play", "roc"), 0)
    assert line == "play roc; round 1 ends: P0 +12→12, P1 -7→0; P0 wins with 12"
    state = GloryRanch(2).setup(
        {"player": [{"hand": ["roc"], "ranch": ["lindworm"]}, {"hand": ["kraken", "puck"]}]}
    )
    assert state.describe_for(None, HandCard("play", "roc"), 0) == (
        "play roc; round 1 ends: P0 +12→12, P1 -7→0"
    )


def test_public_events_follow_the_action_and_an_illegal_one_is_told_plainly() -> None:
    state = table(
        2, hands={0: ["cinder-wyrm", "roc"]}, ranches={1: ["selkie", "roc"]}, vocabulary=False
    )
    do(state, "play cinder-wyrm")
    assert state.describe_for(1, state.parse_action("pick 1:2"), 0) == (
        "pick 1:2 roc; P0 discards P1's Roc"
    )
    assert state.describe_for(1, HandCard("play", "kraken"), 0) == "play kraken"
