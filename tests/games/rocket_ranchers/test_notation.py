"""Typed numbers and cells: ASCII digits in range, or a refusal saying what is allowed."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE, ActionError, AmbiguousAction, IllegalAction, InvalidAction
from ranchhand.games.rocket_ranchers.actions import cell_index
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.notation import parse_action
from ranchhand.games.rocket_ranchers.phases import PLACE
from ranchhand.games.rocket_ranchers.state import RocketState
from tests.games.rocket_ranchers.helpers import position, table

HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        ("beam I2 r² @a1", r"rotation: expected r0, r90, r180 or r270, got 'r²'"),
        ("beam I2 r٩٠ @a1", "rotation: expected r0, r90, r180 or r270"),
        (f"beam I2 r{HUGE} @a1", r"rotation: expected r0, r90, r180 or r270, got 'r9+… \(5,001"),
        ("beam L3 r45 @a1", "rotation r45: beams turn by r0, r90, r180 or r270"),
        ("beam I2 r0 @a²", r"neither a rotation .* nor a cell \(a1 to d4\)"),
        ("beam I2 r0 @b٢", "nor a cell"),
        ("beam I2 r0 @e1", "nor a cell"),
        ("beam I2 r0 @a1 @b1", "give one rotation and one cell"),
        ("dogship a1 b²", r"expected two cells \(a1 to d4\)"),
        ("dogship a1 b" + HUGE, "expected two cells"),
        ("occupy kow/tundra/2 in ²", r"corral number: expected a number 1\.\.150, got '²'"),
        (f"occupy kow/tundra/2 in {HUGE}", r"corral number: expected a number 1\.\.150"),
        ("occupy kow/tundra/2 in 0", r"corral number: expected a number 1\.\.150, got 0"),
        ("occupy kow/tundra/2 in -1", "corral number: expected a number"),
        ("occupy X in ²", "'x' is no Wildlife card"),
    ],
)
def test_bad_numbers_and_cells_are_refused_naming_what_is_allowed(text: str, allowed: str) -> None:
    tables = RocketGame(2).tables
    with pytest.raises(InvalidAction, match=allowed):
        parse_action(text, tables)


def test_typed_texts_over_the_limit_are_refused_before_parsing() -> None:
    state = table()
    with pytest.raises(InvalidAction, match="at most 200 characters"):
        state.parse_action(f"occupy kow/tundra/2 in {HUGE}")


def test_cells_are_ascii_only() -> None:
    assert cell_index("b2") == 5 and cell_index("@D4") == 15
    for text in ("b²", "b٢", "b０", "ｂ2", "b22", "b0", "b5", ""):
        assert cell_index(text) is None


def test_forgiving_forms_still_parse() -> None:
    tables = RocketGame(2).tables
    assert str(parse_action("BEAM l3 at B2 R90", tables)) == "beam L3 r90 @b2"
    assert str(parse_action("beam I2 r180 @b2", tables)) == "beam I2 r0 @b2"
    assert str(parse_action("occupy kow/tundra/2 corral 3", tables)) == "occupy kow/tundra/2 in 3"
    assert str(parse_action("swap c3, a1", tables)) == "dogship a1 c3"


def _decision(players: int, seed: int, place: bool) -> RocketState:
    """A random position where a player (not chance) decides; in the place phase if asked."""
    state = RocketGame(players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(rng.randrange(20, 200)):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        if place and state.phase == PLACE:
            break
    while not state.is_terminal() and state.current_player() == CHANCE:
        state.apply(state.chance_outcomes().sample(rng))
    return state


WORDS = [
    *("beam", "I2", "I3", "L3", "O4", "r0", "r90", "r180", "r270", "r45", "r²", "@", "at"),
    *("a1", "b2", "d4", "e5", "b²", "dogship", "swap", "form", "occupy", "in", "corral"),
    *("kow/tundra/2", "bako/desert/1", "cat", "draw", "reboot", "end", "done", "turn"),
    *("0", "1", "2", "²", "٣", "-1", "99", HUGE[:30], "", ",", "KOW/TUNDRA/2"),
    *("kow", "capiwata", "tundra", "kow/tundra", "3/bako", "bako/bako", "/", "kow//2"),
]
STATES = {
    (p, seed, place): _decision(p, seed, place)
    for p in (2, 5)
    for seed in (1, 2)
    for place in (False, True)
}


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    key=st.sampled_from(sorted(STATES)),
    text=st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join) | st.text(max_size=40),
)
def test_any_text_parses_to_a_legal_action_or_is_refused_without_harm(
    key: tuple[int, int, bool], text: str
) -> None:
    state = STATES[key]
    if state.is_terminal():
        return
    before = state.to_json()
    try:
        action = state.parse_action(text)
    except ActionError:
        assert state.to_json() == before
        return
    assert state.is_legal(action)
    assert state.parse_action(str(action)) == action
    assert state.to_json() == before


def test_a_beam_without_rotation_where_several_fit_lists_the_cells_of_each() -> None:
    state = table()
    with pytest.raises(AmbiguousAction) as caught:
        state.parse_action("beam L3 @c2")
    error = caught.value
    assert "r0 takes c2 c3 d3" in error.reason
    assert "r90 takes c2 d2 c3" in error.reason
    assert len(error.suggestions) == 4 and "beam L3 r0 @c2" in error.suggestions
    for suggestion in error.suggestions:
        assert state.is_legal(state.parse_action(suggestion))
    with pytest.raises(AmbiguousAction):
        parse_action("beam L3 @c2", state.tables)  # without the position too


def test_a_beam_without_rotation_is_the_one_that_fits() -> None:
    state = table()
    assert str(state.parse_action("beam I3 @c1")) == "beam I3 r90 @c1"  # r0 leaves the grid
    assert str(state.parse_action("beam I3 at a4")) == "beam I3 r0 @a4"
    assert str(state.parse_action("beam O4 @c3")) == "beam O4 r0 @c3"  # every turn the same
    with pytest.raises(IllegalAction, match="outside the 4x4 display"):
        state.parse_action("beam O4 @d4")
    face_down = position(seats=[{"beams_up": ["I2", "I3", "O4"]}])
    with pytest.raises(IllegalAction, match="face down"):
        face_down.parse_action("beam L3 @c2")


def test_a_card_named_in_part_is_the_one_collected_card_that_fits() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "bako/desert/3", "c1": "kow/mountains/1"})
    with pytest.raises(InvalidAction, match="names no collected card"):
        state.parse_action("form kow")  # nothing collected yet
    state.apply_text("beam I3 r0 @a1")
    assert str(state.parse_action("form bako")) == "form bako/desert/3"
    assert str(state.parse_action("form tundra/kow")) == "form kow/tundra/2"
    assert str(state.parse_action("form Kow/Mountains")) == "form kow/mountains/1"
    with pytest.raises(AmbiguousAction) as caught:
        state.parse_action("form kow")
    assert "'kow' fits 2 collected cards" in caught.value.reason
    assert set(caught.value.suggestions) == {"form kow/tundra/2", "form kow/mountains/1"}
    with pytest.raises(
        InvalidAction, match=r"names no collected card \(collected: kow/tundra/2, bako"
    ):
        state.parse_action("form capiwata")
    with pytest.raises(InvalidAction, match="is no Wildlife card"):
        state.parse_action("form zebra")
    state.apply_text("form bako")
    with pytest.raises(AmbiguousAction):
        state.parse_action("occupy kow in 1")  # corral 1 has no face-up card: both fit
    state.apply_text("occupy kow/mountains in 1")
    assert str(state.parse_action("occupy kow in 1")) == "occupy kow/tundra/2 in 1"
    with pytest.raises(IllegalAction, match="you have 1 corral; form a new one"):
        state.parse_action("occupy kow in 2")  # no corral 2: the rules say so


def test_a_partial_card_without_the_position_must_name_one_card() -> None:
    tables = RocketGame(2).tables
    assert str(parse_action("form 2/tundra/kow", tables)) == "form kow/tundra/2"
    with pytest.raises(InvalidAction, match="names 15 cards"):
        parse_action("form kow", tables)
