"""Every action of the card language, on constructed positions (test deck vocabulary.toml)."""

from __future__ import annotations

from fractions import Fraction

from ranchhand.core import CHANCE, SIMULTANEOUS
from tests.games.glory_ranch.helpers import do, hand, ranch, table, texts


def test_a_played_card_goes_to_the_right_end_and_play_passes_clockwise() -> None:
    state = table(3, hands={0: ["fairy", "plain"]}, ranches={0: ["plain"]})
    assert texts(state.legal_actions()) == ["play plain", "play fairy"]
    do(state, "play fairy")
    assert ranch(state, 0) == ["plain", "fairy"]
    assert hand(state, 0) == ["plain"]
    assert state.current_player() == 1
    assert state.turn == 1


def test_draw_you_is_one_chance_outcome_per_card_weighted_by_copies() -> None:
    state = table(2, hands={0: ["draw-you", "plain"]}, stock=["plain", "plain", "fairy"])
    do(state, "play draw-you")
    assert state.current_player() == CHANCE
    assert dict(state.chance_outcomes().probabilities()) == {
        state.game.draws[state.game.index["plain"]]: Fraction(2, 3),
        state.game.draws[state.game.index["fairy"]]: Fraction(1, 3),
    }
    do(state, "draw fairy", "draw plain")
    assert hand(state, 0) == ["fairy", "plain", "plain"]
    assert state.current_player() == 1


def test_each_player_draws_from_the_actor_round_the_table() -> None:
    state = table(3, hands={0: ["draw-each", "plain"]}, current=1, vocabulary=True)
    state.hands[1], state.hands[0] = state.hands[0], state.hands[1]
    do(state, "play draw-each")
    drawers = []
    while state.current_player() == CHANCE:
        drawers.append(state.stack[-1][1])
        do(state, "draw fairy")
    assert drawers == [1, 2, 0]
    assert [hand(state, p).count("fairy") for p in range(3)] == [1, 1, 1]


def test_each_other_player_draws() -> None:
    state = table(3, hands={0: ["draw-others", "plain"]})
    do(state, "play draw-others", "draw fairy", "draw fairy")
    assert state.current_player() == 1
    assert [hand(state, p).count("fairy") for p in range(3)] == [0, 1, 1]


def test_chosen_player_is_a_decision_then_they_draw() -> None:
    state = table(3, hands={0: ["draw-chosen", "plain"]})
    do(state, "play draw-chosen")
    assert state.current_player() == 0
    assert texts(state.legal_actions()) == ["target 1", "target 2"]
    do(state, "target 2", "draw fairy", "draw fairy")
    assert hand(state, 2) == ["fairy", "fairy", "plain", "plain"]


def test_with_two_players_the_only_possible_target_is_taken_without_asking() -> None:
    state = table(2, hands={0: ["draw-chosen", "plain"]})
    do(state, "play draw-chosen")
    assert state.current_player() == CHANCE
    assert state.stack[-1] == ("draw", 1)


def test_discard_you_chooses_each_card() -> None:
    state = table(2, hands={0: ["discard-you", "plain", "fairy", "fairy"]})
    do(state, "play discard-you")
    assert texts(state.legal_actions()) == ["discard plain", "discard fairy"]
    do(state, "discard fairy", "discard fairy")
    assert hand(state, 0) == ["plain"]
    assert state.discard[state.game.index["fairy"]] == 2


def test_each_and_other_players_discard_by_their_own_choice() -> None:
    state = table(3, hands={0: ["discard-each", "plain", "fairy"], 1: ["plain", "fairy"]})
    do(state, "play discard-each")
    assert state.current_player() == 0
    do(state, "discard fairy")
    assert state.current_player() == 1
    do(state, "discard plain")
    # player 2 holds two plains: one choice, made without asking
    assert hand(state, 2) == ["plain"]
    assert state.current_player() == 1  # next turn
    state = table(3, hands={0: ["discard-others", "plain"], 1: ["plain", "fairy"]})
    do(state, "play discard-others", "discard fairy")
    assert hand(state, 0) == ["plain"] and hand(state, 1) == ["plain"]


def test_chosen_player_discards() -> None:
    state = table(3, hands={0: ["discard-chosen", "plain"], 2: ["fairy", "plain"]})
    do(state, "play discard-chosen", "target 2")
    assert state.current_player() == 2
    do(state, "discard fairy")
    assert hand(state, 2) == ["plain"]


def test_give_cards_to_a_chosen_player() -> None:
    state = table(3, hands={0: ["give", "fairy", "plain", "plain"]})
    do(state, "play give", "target 1", "give fairy")  # then only plains: given without asking
    assert hand(state, 0) == ["plain"]
    assert hand(state, 1) == ["fairy", "plain", "plain", "plain"]


def test_pass_left_collects_every_choice_before_delivering() -> None:
    state = table(
        3,
        hands={0: ["pass-left", "fairy", "plain"], 1: ["plain", "fairy"], 2: ["draw-you", "skip"]},
    )
    do(state, "play pass-left", "pass fairy")
    assert state.current_player() == 1
    assert hand(state, 1) == ["fairy", "plain"]  # player 0's card has not arrived yet
    assert state.observe(0).to_json()["passing"] == ["fairy"]
    assert state.observe(1).to_json()["passing"] == []
    do(state, "pass plain", "pass skip")
    assert hand(state, 0) == ["plain", "skip"]
    assert hand(state, 1) == ["fairy", "fairy"]
    assert hand(state, 2) == ["draw-you", "plain"]


def test_pass_right_two_cards() -> None:
    state = table(2, hands={0: ["pass-right", "fairy", "fairy"], 1: ["plain", "plain", "skip"]})
    do(state, "play pass-right", "pass skip")  # every other choice is forced
    assert hand(state, 0) == ["plain", "skip"]
    assert hand(state, 1) == ["fairy", "fairy", "plain"]


def test_trade_hands() -> None:
    state = table(3, hands={0: ["trade", "fairy"], 2: ["plain", "plain", "skip"]})
    do(state, "play trade", "target 2")
    assert hand(state, 0) == ["plain", "plain", "skip"]
    assert hand(state, 2) == ["fairy"]


def test_steal_is_a_chance_outcome_over_the_victims_hand() -> None:
    state = table(2, hands={0: ["steal", "plain"], 1: ["fairy", "plain", "plain"]})
    do(state, "play steal")
    outcomes = dict(state.chance_outcomes().probabilities())
    assert sorted(map(str, outcomes)) == ["steal fairy", "steal plain"]
    assert outcomes[state.game.steals[state.game.index["plain"]]] == Fraction(2, 3)
    do(state, "steal plain", "steal fairy")
    assert hand(state, 0) == ["fairy", "plain", "plain"]
    assert hand(state, 1) == ["plain"]


def test_steal_from_an_empty_hand_is_skipped() -> None:
    state = table(2, hands={0: ["steal", "plain"], 1: ["fairy"]})
    do(state, "play steal", "steal fairy")
    assert hand(state, 1) == []
    assert state.round == 2  # player 1's hand is empty: the round ended after the turn


def test_reverse_changes_the_direction_of_play() -> None:
    state = table(3, hands={0: ["reverse", "plain"]})
    do(state, "play reverse")
    assert state.current_player() == 2
    assert state.observe(1).to_json()["direction"] == "counter-clockwise"
    do(state, "play plain")
    assert state.current_player() == 1


def test_skip_makes_the_next_player_lose_their_turn() -> None:
    state = table(3, hands={0: ["skip", "plain"]})
    do(state, "play skip")
    assert state.current_player() == 2
    state = table(2, hands={0: ["skip", "plain"]})
    do(state, "play skip")
    assert state.current_player() == 0


def test_play_another_card_resolves_it_fully_first() -> None:
    state = table(2, hands={0: ["again", "draw-you", "plain"]})
    do(state, "play again")
    assert texts(state.legal_actions()) == ["play plain", "play draw-you"]
    do(state, "play draw-you", "draw fairy", "draw fairy")
    assert ranch(state, 0) == ["again", "draw-you"]
    assert state.current_player() == 1


def test_play_another_card_is_skipped_when_the_ranch_is_full() -> None:
    state = table(2, hands={0: ["again", "plain"]}, ranches={0: ["plain"] * 6})
    do(state, "play again")
    assert state.round == 2
    assert state.rounds[-1]["ranches"][0] == ["plain"] * 6 + ["again"]


def test_place_at_the_left_end() -> None:
    state = table(2, hands={0: ["left", "plain"]}, ranches={0: ["plain", "fairy"]})
    do(state, "play left")
    assert ranch(state, 0) == ["left", "plain", "fairy"]


def test_place_anywhere_is_a_decision() -> None:
    state = table(2, hands={0: ["anywhere", "plain"]}, ranches={0: ["plain", "fairy"]})
    do(state, "play anywhere")
    assert texts(state.legal_actions()) == ["place 1", "place 2", "place 3"]
    do(state, "place 2")
    assert ranch(state, 0) == ["plain", "anywhere", "fairy"]
    assert state.current_player() == 0  # its second action skipped player 1


def test_banish_a_card_from_another_players_ranch() -> None:
    state = table(3, hands={0: ["banish", "plain"]}, ranches={0: ["plain"], 2: ["fairy", "plain"]})
    do(state, "play banish")
    assert texts(state.legal_actions()) == ["pick 2:1 fairy", "pick 2:2 plain"]
    do(state, "pick 2:1")
    assert ranch(state, 2) == ["plain"]
    assert state.discard[state.game.index["fairy"]] == 1


def test_banish_from_any_ranch_includes_your_own() -> None:
    state = table(2, hands={0: ["banish-any", "plain"]}, ranches={0: ["fairy"], 1: ["plain"]})
    do(state, "play banish-any")
    assert texts(state.legal_actions()) == [
        "pick 0:1 fairy",
        "pick 0:2 banish-any",
        "pick 1:1 plain",
    ]
    do(state, "pick 0:1 fairy")
    assert ranch(state, 0) == ["banish-any"]


def test_return_a_card_to_its_owners_hand() -> None:
    state = table(2, hands={0: ["return", "plain"]}, ranches={1: ["fairy"]})
    do(state, "play return")
    assert ranch(state, 1) == []
    assert hand(state, 1) == ["fairy", "plain", "plain"]


def test_return_from_your_ranch_or_any() -> None:
    state = table(2, hands={0: ["return-yours", "plain"]}, ranches={0: ["fairy"], 1: ["plain"]})
    do(state, "play return-yours")
    assert texts(state.legal_actions()) == ["pick 0:1 fairy", "pick 0:2 return-yours"]
    do(state, "pick 0:1")
    assert hand(state, 0) == ["fairy", "plain"]
    state = table(2, hands={0: ["return-any", "plain"]}, ranches={1: ["fairy"]})
    do(state, "play return-any", "pick 1:1")
    assert hand(state, 1) == ["fairy", "plain", "plain"]


def test_a_protected_card_cannot_be_discarded_or_returned() -> None:
    state = table(2, hands={0: ["guard", "plain"], 1: ["banish", "plain"]}, ranches={0: ["fairy"]})
    do(state, "play guard")
    assert texts(state.legal_actions()) == ["pick 0:1 fairy", "pick 0:2 guard"]
    do(state, "pick 0:1 fairy")
    assert state.shields[0] == [1, 0]
    do(state, "play banish")  # only the unprotected guard may be taken: no question asked
    assert ranch(state, 0) == ["fairy"]
    assert state.observe(1).to_json()["shields"][0] == [1]


def test_nothing_to_banish_is_skipped_without_penalty() -> None:
    state = table(2, hands={0: ["banish", "plain"]})
    do(state, "play banish")
    assert state.current_player() == 1
    assert ranch(state, 0) == ["banish"]


def test_rock_paper_scissors_is_simultaneous_and_hidden() -> None:
    state = table(2, hands={0: ["duel", "plain", "fairy"], 1: ["plain", "plain"]})
    do(state, "play duel")
    assert state.current_player() == SIMULTANEOUS
    assert state.acting_players() == (0, 1)
    assert texts(state.legal_actions(1)) == ["choose rock", "choose paper", "choose scissors"]
    state.apply_text("choose rock", 0)
    assert state.acting_players() == (1,)
    assert state.observe(0).to_json()["my_sign"] == "rock"
    seen_by_1 = state.observe(1).to_json()
    assert seen_by_1["my_sign"] is None
    assert "signs" not in seen_by_1
    state.apply_text("choose rock", 1)  # a tie: play again
    assert state.acting_players() == (0, 1)
    state.apply_text("choose paper", 1)
    state.apply_text("choose rock", 0)
    # player 1 won: gives the loser a card (only plains: no question), then steals one
    assert hand(state, 0) == ["fairy", "plain", "plain"]
    assert state.current_player() == CHANCE
    assert state.stack[-1] == ("steal", 1, 0)


def test_rps_winner_and_loser_consequences() -> None:
    state = table(2, hands={0: ["duel", "fairy", "fairy"], 1: ["plain", "plain", "skip"]})
    do(state, "play duel")
    state.apply_text("choose scissors", 0)
    state.apply_text("choose paper", 1)
    # player 0 won: gives player 1 a card (only fairies: no question), then steals one
    assert hand(state, 1).count("fairy") == 1
    assert state.current_player() == CHANCE
    do(state, "steal skip")
    # the loser (1) draws a card, then the winner (0) discards a card
    do(state, "draw plain")
    assert state.current_player() == 0
    do(state, "discard skip")
    assert hand(state, 0) == ["fairy"]
    assert hand(state, 1) == ["fairy", "plain", "plain", "plain"]


def test_rps_win_can_trade_hands_with_the_loser() -> None:
    state = table(3, hands={0: ["swap-duel", "fairy"], 2: ["plain", "plain", "plain"]})
    do(state, "play swap-duel", "target 2")
    assert state.acting_players() == (0, 2)
    state.apply_text("choose rock", 2)
    state.apply_text("choose scissors", 0)
    assert hand(state, 0) == ["plain", "plain", "plain"]
    assert hand(state, 2) == ["fairy"]
    assert "P2 wins" in state.log[-2]
