"""``State.worked_out``: the copy Rancho's describe played an action on is the state that
applying the action gives, so the server may take it instead of applying twice."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE
from ranchhand.core.registry import load


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_the_worked_out_copy_is_the_applied_state(seed: int, players: int) -> None:
    game = load("rancho", players, max_turns=30)
    rng = random.Random(seed)
    state = game.new_initial_state()
    taken = 0
    while not state.is_terminal():
        player = state.current_player()
        action = state.sample_chance(rng) if player == CHANCE else rng.choice(state.legal_actions())
        applied = state.clone()
        applied.apply(action, player)
        state.describe_for(None, action, player)  # works the action out on a copy
        worked = state.worked_out(action, player)
        assert worked is not None and state.worked_out(action, player) is None  # handed once
        assert worked.to_json() == applied.to_json()
        assert worked.current_player() == applied.current_player()
        if not worked.is_terminal() and worked.current_player() != CHANCE:
            assert worked.legal_actions() == applied.legal_actions()
        state = worked
        taken += 1
    assert taken > 0


def test_nothing_is_handed_over_for_another_action() -> None:
    state = load("rancho", 2).new_initial_state()
    rng = random.Random(1)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng), CHANCE)
    first, second = state.legal_actions()[:2]
    state.describe_for(None, first, state.current_player())
    assert state.worked_out(second, state.current_player()) is None
    assert state.worked_out(first, state.current_player()) is not None
