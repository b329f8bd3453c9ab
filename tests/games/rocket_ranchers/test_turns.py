"""A turn: the dogship, placing collected cards in corrals, reboots, refill and the end."""

from __future__ import annotations

import pytest

from ranchhand.core import CHANCE, IllegalAction, InvalidAction, OptionError
from ranchhand.games.rocket_ranchers.actions import Dogship, EndTurn, Form, Occupy, Reboot
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.phases import AFTER, PLACE
from tests.games.rocket_ranchers.helpers import cells, endgame, finish_refill, position, table


def test_dogship_swaps_two_cards_of_the_same_biome_then_lies_face_down() -> None:
    state = table({"a1": "kow/tundra/2", "d4": "bako/tundra/2"})
    state.apply_text("dogship d4 a1")
    assert cells(state)["a1"] == "bako/tundra/2" and cells(state)["d4"] == "kow/tundra/2"
    assert state.dogship[0] is False
    assert not any(isinstance(a, Dogship) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="face down until your next reboot"):
        state.apply_text("dogship a1 d4")


def test_dogship_refuses_space_cats() -> None:
    state = table({"a1": "cat", "b1": "kow/tundra/2"})
    with pytest.raises(IllegalAction, match="may not swap Space Cats"):
        state.apply_text("dogship a1 b1")


def test_dogship_refuses_cards_of_different_biomes() -> None:
    state = table({"a1": "kow/desert/2", "b1": "kow/tundra/2"})
    with pytest.raises(IllegalAction, match="a1 is Desert and b1 is Tundra"):
        state.apply_text("dogship a1 b1")
    assert state.dogship[0] is True


def test_dogship_may_be_used_after_the_refill() -> None:
    state = table()
    state.apply_text("beam I2 r0 @a1")
    while state.phase == PLACE:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Form)))
    finish_refill(state)
    assert state.phase == AFTER and state.current_player() == 0
    actions = state.legal_actions()
    assert EndTurn() in actions and any(isinstance(a, Dogship) for a in actions)
    state.apply(next(a for a in actions if isinstance(a, Dogship)))
    assert state.current_player() == 1 and state.turn == 1  # nothing is left to do
    assert state.dogship[0] is False


def test_end_closes_the_turn_after_the_refill() -> None:
    state = table()
    state.apply_text("beam I2 r0 @a1")
    while state.phase == PLACE:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Form)))
    finish_refill(state)
    state.apply_text("end")
    assert state.current_player() == 1 and state.turn == 1 and state.dogship[0] is True


def test_collected_cards_form_and_occupy_corrals() -> None:
    named = {
        "a1": "kow/tundra/2",
        "b1": "kow/desert/2",
        "a2": "bako/jungle/1",
        "b2": "bako/tundra/2",
    }
    state = table(named)
    kind = state.tables.kind_by_text
    state.apply_text("beam O4 r0 @a1")
    assert state.phase == PLACE
    assert state.legal_actions() == [Form(card) for card in named.values()]
    state.apply_text("form bako/jungle/1")
    state.apply_text("occupy kow/tundra/2 in 1")  # an empty corral takes any species
    with pytest.raises(IllegalAction, match="corral 1 holds Kow"):
        state.apply_text("occupy bako/tundra/2 in 1")
    state.apply_text("occupy kow/desert/2 in 1")
    state.apply_text("form bako/tundra/2")
    assert state.corrals[0] == [
        (kind["bako/jungle/1"], (kind["kow/tundra/2"], kind["kow/desert/2"])),
        (kind["bako/tundra/2"], ()),
    ]
    assert state.current_player() == CHANCE


def test_a_mixed_species_corral_is_refused() -> None:
    kow_corral = {"founder": "kow/tundra/2", "face_up": ["kow/desert/3"]}
    state = position({"a1": "bako/desert/3"}, seats=[{"corrals": [kow_corral]}])
    state.apply_text("beam I2 r0 @a1")
    assert Occupy("bako/desert/3", 1) not in state.legal_actions()
    with pytest.raises(IllegalAction, match="holds Kow"):
        state.apply_text("occupy bako/desert/3 in 1")
    with pytest.raises(IllegalAction, match="you have 1 corral;"):
        state.apply_text("occupy bako/desert/3 in 2")
    with pytest.raises(IllegalAction, match="not among your collected cards"):
        state.apply_text("form kow/jungle/1")


def test_manual_reboot_needs_a_face_down_beam_and_ends_the_turn() -> None:
    state = table()
    with pytest.raises(IllegalAction, match="needs one face down"):
        state.apply_text("reboot")
    state = position(seats=[{"beams_up": ["I2", "L3"], "dogship_up": False}])
    assert Reboot() in state.legal_actions()
    state.apply_text("reboot")
    assert state.beams[0] == 0b1111 and state.dogship[0] is True
    assert state.current_player() == 1 and state.turn == 1


def test_automatic_reboot_after_the_fourth_beam() -> None:
    state = position(seats=[{"beams_up": ["O4"], "dogship_up": False}])  # only the square is up
    state.apply_text("beam O4 r0 @a1")
    while state.phase == PLACE:
        state.apply(state.legal_actions()[0])
    assert state.beams[0] == 0b1111 and state.dogship[0] is True


def test_refill_runs_top_to_bottom_left_to_right() -> None:
    state = table()
    state.apply_text("beam I2 r90 @b1")  # empties b1 and b2
    while state.phase == PLACE:
        state.apply(state.legal_actions()[0])
    state.apply_text("draw kow/tundra/2")
    state.apply_text("draw cat")
    assert cells(state)["b1"] == "kow/tundra/2" and cells(state)["b2"] == "cat"


def _run_out(players: int, seat: int) -> None:
    """Let the deck run out during ``seat``'s turn; check who still plays."""
    state = endgame(players, seat, deck=["kow/tundra/2"])
    state.apply_text("beam I2 r0 @a1")
    while state.phase == PLACE:
        state.apply(state.legal_actions()[0])
    state.apply_text("draw kow/tundra/2")
    assert state.deck_size == 0 and "a1" in cells(state) and "b1" not in cells(state)
    if state.phase == AFTER:
        state.apply_text("end")
    turns_after = 0
    while not state.is_terminal():
        assert state.current_player() == seat + 1 + turns_after
        before = state.turn
        state.apply_text("beam O4 r0 @c3")  # may collect nothing: no refill any more
        while state.phase == PLACE:
            state.apply(state.legal_actions()[0])
        if state.phase == AFTER:
            state.apply_text("end")
        assert state.turn == before + 1
        turns_after += 1
    assert turns_after == players - 1 - seat
    assert state.turn % players == 0  # every player had the same number of turns


@pytest.mark.parametrize(("players", "seat"), [(n, s) for n in range(2, 6) for s in range(n)])
def test_the_game_ends_when_every_player_had_the_same_number_of_turns(
    players: int, seat: int
) -> None:
    _run_out(players, seat)


def test_after_the_deck_runs_out_empty_cells_give_nothing() -> None:
    state = endgame(2, 1, empty=["a1", "b1", "a2", "b2"])
    floof = list(state.floof)
    state.apply_text("beam O4 r0 @a1")  # the last player's beam finds only empty cells
    assert state.floof == floof and not state.pending
    if state.phase == AFTER:
        state.apply_text("end")
    assert state.is_terminal()


def test_actions_out_of_their_phase_are_refused_with_the_reason() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "bako/tundra/2"})
    with pytest.raises(IllegalAction, match="'end' follows the refill"):
        state.apply_text("end")
    with pytest.raises(IllegalAction, match="no collected card to place"):
        state.apply_text("form kow/tundra/2")
    state.apply_text("beam I2 r0 @a1")
    with pytest.raises(IllegalAction, match="now is the place phase"):
        state.apply_text("beam O4 r0 @c3")
    with pytest.raises(IllegalAction, match="before the beam or after the refill"):
        state.apply_text("dogship c1 d1")
    with pytest.raises(IllegalAction, match="not possible in the place phase"):
        state.apply_text("reboot")
    with pytest.raises(IllegalAction, match="only chance draws cards"):
        state.apply_text("draw cat")


def test_bad_texts_say_what_was_expected() -> None:
    state = table()
    for text, reason in [
        ("beam Z9 @a1", "expected a beam name"),
        ("beam L3 r45 @a1", "beams turn by r0, r90, r180 or r270"),
        ("beam L3 r90", "say where the beam goes"),
        ("dogship a1", "expected two cells"),
        ("form cow/tundra/2", "is no Wildlife card"),
        ("fly away", "expected one of"),
    ]:
        with pytest.raises(InvalidAction, match=reason):
            state.parse_action(text)


def test_bad_option_values_are_refused() -> None:
    with pytest.raises(OptionError, match="abundance_table"):
        RocketGame(2, abundance_table="generous")
    with pytest.raises(OptionError, match="a game of 6 players is not allowed"):
        RocketGame(6)
