"""Common random numbers: keyed draws, the same dice for every move a search compares."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranchhand.core import CHANCE
from ranchhand.core.registry import load
from ranchhand.core.streams import MASK, ChanceStream, mix, point, sample

BIG = st.integers(min_value=0, max_value=(1 << 63) - 1)


def test_mix_is_splitmix64() -> None:
    # SplitMix64's first outputs from seed 0 (the generator adds GOLDEN before mixing).
    assert mix(0) == 0xE220A8397B1DCDAF
    assert mix(0x9E3779B97F4A7C15) == 0x6E789E6AA1B965F4


@given(BIG, BIG, BIG, st.integers(min_value=1, max_value=1 << 40))
def test_a_point_is_a_pure_function_in_range(stream: int, turn: int, k: int, total: int) -> None:
    drawn = point(stream, turn, k, total)
    assert 0 <= drawn < total
    assert drawn == point(stream, turn, k, total)
    assert mix(stream) <= MASK


def test_points_are_uniform_over_a_die() -> None:
    faces = Counter(point(stream, 3, 0, 6) for stream in range(6000))
    chi_square = sum((n - 1000) ** 2 / 1000 for n in faces.values())
    assert len(faces) == 6 and chi_square < 20.5  # p = 0.001 at 5 degrees of freedom


def test_a_turn_keeps_its_draws_whatever_came_before() -> None:
    one, other = ChanceStream(7), ChanceStream(7)
    one.at(1)
    [one.randrange(36) for _ in range(3)]  # one drew three times in turn 1, other never
    one.at(2)
    other.at(2)
    assert [one.randrange(36) for _ in range(4)] == [other.randrange(36) for _ in range(4)]
    assert [ChanceStream(8).randrange(36) for _ in range(4)] != [
        ChanceStream(7).randrange(36) for _ in range(4)
    ]


def test_other_draws_come_from_the_seeded_generator() -> None:
    assert ChanceStream(5).randrange(10, 20) == random.Random(5).randrange(10, 20)
    deck = list(range(20))
    ChanceStream(5).shuffle(deck)
    expected = list(range(20))
    random.Random(5).shuffle(expected)
    assert deck == expected


class _Fixed(random.Random):
    """A generator whose ``randrange`` gives one number."""

    def __init__(self, drawn: int) -> None:
        super().__init__(0)
        self.drawn = drawn

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        return self.drawn


@pytest.mark.parametrize("game_id", ["rancho", "rocket-ranchers", "glory-ranch"])
def test_sample_draws_the_outcome_at_its_point(game_id: str) -> None:
    """The outcome drawn is the chance node's outcome at ``point(stream, turn, k, total)``."""
    game = load(game_id, 2)
    state = game.new_initial_state()
    rng = random.Random(1)
    checked = 0
    while not state.is_terminal() and checked < 30:
        if state.current_player() == CHANCE:
            stream = ChanceStream(checked)
            node = state.chance_outcomes()
            drawn = point(checked, state.turn, 0, node.total)

            assert sample(state, stream) == node.sample(_Fixed(drawn))
            checked += 1
            state.apply(node.sample(rng), CHANCE)
        else:
            player = state.acting_players()[0]
            state.apply(rng.choice(state.legal_actions(player)), player)
    assert checked
