"""Tractor beams: every shape in every rotation, the grid's edge, and the Space Cats."""

from __future__ import annotations

import pytest

from ranchhand.core import IllegalAction
from ranchhand.games.rocket_ranchers.actions import Beam
from tests.games.rocket_ranchers.helpers import cells, position, table

# Each beam at anchor b2 (the top-left cell of the box its turned pattern fills).
SHAPES_AT_B2 = {
    "beam I2 r0 @b2": {"b2", "c2"},
    "beam I2 r90 @b2": {"b2", "b3"},
    "beam I3 r0 @b2": {"b2", "c2", "d2"},
    "beam I3 r90 @b2": {"b2", "b3", "b4"},
    "beam L3 r0 @b2": {"b2", "b3", "c3"},
    "beam L3 r90 @b2": {"b2", "c2", "b3"},
    "beam L3 r180 @b2": {"b2", "c2", "c3"},
    "beam L3 r270 @b2": {"c2", "b3", "c3"},
    "beam O4 r0 @b2": {"b2", "c2", "b3", "c3"},
}


@pytest.mark.parametrize(("text", "taken"), SHAPES_AT_B2.items())
def test_each_beam_in_each_rotation_collects_its_pattern(text: str, taken: set[str]) -> None:
    state = table()
    before = cells(state)
    state.apply_text(text)
    assert sorted(state.tables.text[k] for k in state.pending) == sorted(before[c] for c in taken)
    assert set(before) - set(cells(state)) == taken


def test_turned_lines_and_squares_are_listed_once() -> None:
    state = table()
    beams = [a for a in state.legal_actions() if isinstance(a, Beam)]
    by_shape = {s: [a for a in beams if a.shape == s] for s in ("I2", "I3", "L3", "O4")}
    # anchors that keep the pattern inside the 4x4 grid, per distinct rotation
    assert len(by_shape["I2"]) == 12 + 12
    assert len(by_shape["I3"]) == 8 + 8
    assert len(by_shape["L3"]) == 4 * 9
    assert len(by_shape["O4"]) == 9
    assert {a.rotation for a in by_shape["I2"]} == {0, 90}
    assert state.parse_action("beam I2 r180 @b2") == Beam("I2", 0, "b2")
    assert state.parse_action("beam o4 r270 at a1") == Beam("O4", 0, "a1")


@pytest.mark.parametrize(
    "text", ["beam I3 r0 @c1", "beam I2 r90 @a4", "beam O4 r0 @d1", "beam L3 r0 @a4"]
)
def test_a_beam_may_not_reach_outside_the_grid(text: str) -> None:
    state = table()
    with pytest.raises(IllegalAction, match="outside the 4x4 display"):
        state.apply_text(text)


def test_beams_along_the_edges_are_legal() -> None:
    state = table()
    state.apply_text("beam I3 r90 @d2")
    assert state.phase == 2 and len(state.pending) == 3


def test_a_space_cat_under_the_beam_is_collected() -> None:
    state = table({"a1": "cat"})
    state.apply_text("beam I2 r0 @a1")
    assert state.floof[0] == 1 and len(state.pending) == 1


def test_a_cat_next_to_several_collected_cards_is_collected_once() -> None:
    state = table({"b2": "cat"})
    state.apply_text("beam L3 r90 @a1")  # a1, b1, a2: the cat at b2 touches b1 and a2
    assert state.floof[0] == 1 and len(state.pending) == 3


def test_adjacent_cats_are_collected_but_diagonal_ones_are_not() -> None:
    state = table({"c1": "cat", "a3": "cat", "c3": "cat"})
    state.apply_text("beam O4 r0 @a1")  # a1 b1 a2 b2; c1 and a3 touch it, c3 only diagonally
    assert state.floof[0] == 2
    assert cells(state)["c3"] == "cat"


def test_cat_chain_false_stops_after_one_step() -> None:
    state = table({"c1": "cat", "d1": "cat"})
    state.apply_text("beam I2 r0 @a1")
    assert state.floof[0] == 1
    assert cells(state)["d1"] == "cat"


def test_cat_chain_true_keeps_collecting() -> None:
    state = table({"c1": "cat", "d1": "cat", "d2": "cat", "a4": "cat"}, cat_chain=True)
    state.apply_text("beam I2 r0 @a1")
    assert state.floof[0] == 3
    assert cells(state)["a4"] == "cat"


def test_cats_next_to_a_cat_under_the_beam_are_collected() -> None:
    state = table({"b1": "cat", "c1": "cat", "d1": "cat"})
    state.apply_text("beam I2 r0 @a1")  # a1 and the cat b1; c1 touches b1; d1 is one too far
    assert state.floof[0] == 2
    assert cells(state)["d1"] == "cat"


def test_a_beam_of_only_cats_places_nothing_and_refills() -> None:
    state = table({"a1": "cat", "b1": "cat"})
    state.apply_text("beam I2 r0 @a1")
    assert state.floof[0] == 2 and not state.pending
    assert state.is_chance_node()


def test_a_face_down_beam_is_refused_with_the_reason() -> None:
    state = position(seats=[{"beams_up": ["I3", "L3", "O4"]}])
    with pytest.raises(IllegalAction, match="face down until your next reboot"):
        state.apply_text("beam I2 r0 @a1")
