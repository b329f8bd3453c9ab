"""The log in words: every Rancho action and chance event said in plain sentences, players
by name and the viewer as "you", nothing of the notation."""

from __future__ import annotations

import random
import re

import pytest

from ranchhand.core import CHANCE
from ranchhand.games.rancho.actions import Return
from ranchhand.games.rancho.state import RanchoState
from tests.games.rancho.test_blocked import PURPLE, walled_in
from tests.games.rancho.test_describe import P1_OUT, ROOMY, table

NAMES = ("Ann", "Bob", "Cy")
NOTATION = re.compile(
    r"\b([2-9]|\d\d+) (rabbit|cow|horse|small dog|large dog)\b|\b(roll|strike) \w+\+|[>@]|\bvia\b"
)
"""Fragments of the notation ("3 rabbit", "roll cow+fox", "@2.1", ">") no sentence holds."""


def said(state: RanchoState, text: str, viewer: int | None = None) -> str:
    """What ``text`` (the next action) tells ``viewer`` in words; then it is applied."""
    player = state.current_player()
    action = state.parse_action(text, player)
    before = state.to_json()
    words = state.describe_words(viewer, action, player, NAMES[: state.game.players])
    assert state.to_json() == before, "telling an action must not change the state"
    assert not NOTATION.search(words), words
    state.apply(action, player)
    return words


def test_a_quiet_roll_and_breeding_in_one_sentence() -> None:
    p0 = {"animals": {"rabbit": 5, "sheep": 2}, "pastures": ["4.1", "3.1", "2.1"]}
    state = table(p0, {})
    assert said(state, "roll", viewer=1) == "Ann rolled the dice."
    assert said(state, "roll rabbit+sheep", viewer=0) == (
        "You rolled a rabbit and a sheep and bred 3 rabbits and a sheep."
    )
    assert said(state, "end turn", viewer=1) == "Ann ended the turn. It is your turn."


def test_roll_and_end_turn_says_whose_turn_follows() -> None:
    state = table(ROOMY, P1_OUT)
    assert said(state, "roll and end turn", viewer=None) == (
        "Ann rolled the dice, to end the turn right after breeding."
    )
    assert said(state, "roll cow+horse", viewer=1) == (
        "Ann rolled a cow and a horse and bred nothing. It is your turn."
    )


def test_the_fox_took_rabbits_from_the_victim_who_reads_you() -> None:
    state = table(ROOMY, P1_OUT)
    state.apply_text("roll")
    assert said(state.clone(), "roll cow+fox", viewer=0) == (
        "You rolled a cow and a fox. The fox strikes next."
    )
    state.apply_text("roll cow+fox")
    assert said(state.clone(), "strike 1", viewer=1) == (
        "The fox struck the pastures costing 1 and took 10 rabbits from you. Ann bred nothing."
    )
    assert said(state, "strike 1", viewer=None) == (
        "The fox struck the pastures costing 1 and took 10 rabbits from Bob. Ann bred nothing."
    )


def test_the_wolf_takes_from_every_player_it_finds() -> None:
    p0 = {"animals": {"rabbit": 1, "sheep": 2}, "pastures": ["4.1", "3.1"]}
    p0["arrangement"] = "rabbit @5.1; sheep @3.1; sheep @4.1"
    state = table(p0, P1_OUT)
    state.apply_text("roll")
    assert said(state, "roll rabbit+wolf", viewer=1) == (
        "Ann rolled a rabbit and a wolf. The wolf strikes next."
    )
    assert said(state, "strike 2", viewer=0) == (
        "The wolf struck the pastures costing 2 and took a sheep from you and a sheep from "
        "Bob. You bred a rabbit."
    )


def test_a_strike_on_empty_pastures_and_two_wolves() -> None:
    state = table(ROOMY, P1_OUT)
    state.apply_text("roll")
    assert said(state, "roll wolf+wolf") == "Ann rolled two wolves. The wolf strikes twice."
    assert said(state, "strike 4") == "The wolf struck the pastures costing 4 and found nothing."


def test_dogs_given_up_or_kept() -> None:
    guarded = {**P1_OUT, "animals": {**P1_OUT["animals"], "small_dog": 1}}
    state = table(ROOMY, guarded)
    state.apply_text("roll")
    state.apply_text("roll sheep+fox")
    assert said(state, "strike 1", viewer=1) == (
        "The fox struck the pastures costing 1. You may give up a small dog to save 10 rabbits."
    )
    kept = state.clone()
    assert said(state, "give small dog", viewer=0) == (
        "Bob gave up a small dog to the herd to save 10 rabbits from the fox. You bred a sheep."
    )
    assert said(kept, "keep small dog", viewer=1) == (
        "You kept the small dog, and the fox took 10 rabbits. Ann bred a sheep."
    )


def test_the_order_of_a_fox_and_a_wolf() -> None:
    state = table(ROOMY, P1_OUT)
    state.apply_text("roll")
    assert said(state, "roll fox+wolf", viewer=1) == (
        "Ann rolled a fox and a wolf. Ann chooses whether the fox or the wolf strikes first."
    )
    assert said(state, "wolf first", viewer=0) == "You let the wolf strike first."


def test_newborns_that_do_not_fit_go_back() -> None:
    crowded = {"animals": {"rabbit": 11}, "arrangement": "6 rabbit @5.1; 5 rabbit @5.2"}
    state = table(crowded, {})
    state.apply_text("roll")
    assert said(state, "roll rabbit+rabbit", viewer=None) == (
        "Ann rolled two rabbits and bred 6 rabbits. Not all of Ann's animals fit: some go back "
        "to the herd."
    )
    returned = state.legal_actions()[0]
    assert isinstance(returned, Return)
    assert said(state, str(returned), viewer=0) == (
        "You sent 5 rabbits back to the herd: not all fit."
    )


def test_trades_and_purchases_with_the_herd() -> None:
    p0 = {"animals": {"rabbit": 12, "sheep": 1}, "pastures": ["4.1", "3.1"]}
    state = table(p0, {})
    assert said(state, "trade 6 rabbit > sheep", viewer=1) == (
        "Ann traded 6 rabbits for a sheep with the herd."
    )
    assert said(state, "buy 2.1 with rabbit", viewer=0) == "You bought pasture 2.1 for a rabbit."
    assert said(state, "buy 4.2 + 2 rabbit with sheep", viewer=1) == (
        "Ann bought pasture 4.2 and 2 rabbits for a sheep."
    )


def test_tolls_say_who_was_paid_and_what_found_no_room() -> None:
    state = walled_in()
    assert said(state, "buy 3.17 via 3.18 with 2 rabbit") == (
        "Ann bought pasture 3.17 for 2 rabbits, crossing others' land for a toll of 2 rabbits "
        "to Cy."
    )
    state = walled_in()
    from tests.games.rancho.helpers import give

    give(state, PURPLE, "5 sheep")
    assert said(state, "buy 3.17 via 3.18 with 2 rabbit", viewer=PURPLE) == (
        "Ann bought pasture 3.17 for 2 rabbits, crossing others' land for a toll of 2 rabbits "
        "to you (2 went back to the herd: no room)."
    )


def test_moving_animals_on_the_board() -> None:
    p1 = {**P1_OUT, "arrangement": "6 rabbit @2.8; 4 rabbit @2.7; sheep @3.10; cow @5.16-5.17"}
    state = table(ROOMY, p1)
    state.apply_text("roll")
    state.apply_text("roll cow+horse")
    state.apply_text("end turn")
    safest = state.clone()
    assert (
        said(safest, "arrange safest", viewer=0) == "Bob moved the animals to their safest places."
    )
    assert said(state, "arrange 6 rabbit @2.7; 4 rabbit @2.8; sheep @3.10; cow @5.16-5.17") == (
        "Bob placed 6 rabbits on 2.7, 4 rabbits on 2.8, a sheep on 3.10 and a cow on 5.16 and 5.17."
    )


def test_a_win_is_told() -> None:
    ranch = ["4.1", "4.2", "4.24", "3.1", "4.23", "3.18"]
    p0 = {"animals": {"sheep": 1, "cow": 1, "horse": 1}, "pastures": ranch}
    state = table(p0, {})
    state.apply_text("roll")
    assert said(state, "roll rabbit+rabbit", viewer=0) == (
        "You rolled two rabbits and bred a rabbit. You won with a full herd!"
    )
    p0 = {"animals": {"rabbit": 1, "sheep": 1, "cow": 3}, "pastures": ranch}
    state = table(p0, {})
    assert said(state, "trade 2 cow > horse", viewer=1) == (
        "Ann traded 2 cows for a horse with the herd. Ann won with a full herd!"
    )


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_are_told_in_sentences_that_name_no_seat_number(players: int) -> None:
    from ranchhand.games.rancho.game import RanchoGame

    rng = random.Random(players)
    names = ("Ann", "Bob", "Cy", "Di")[:players]
    for _ in range(3):
        state = RanchoGame(players).new_initial_state()
        for _ in range(600):
            if state.is_terminal():
                break
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions(player))
            for viewer in (None, *range(players)):
                words = state.describe_words(viewer, action, player, names)
                assert words[0].isupper() and words[-1] in ".!", words
                assert not re.search(r"\bP\d\b", words), words
                assert not NOTATION.search(words), words
                if viewer is None:
                    assert "you" not in words.lower().split(), words
            state.apply(action, player)
