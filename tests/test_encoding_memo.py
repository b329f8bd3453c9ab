"""The encodings' remembered answers equal fresh ones, for every game with an encoding.

Adapters ask an encoding about the same position several times a step (mask, then
the action of the chosen index), so ``Encoding.legal_moves`` remembers the last
position's answer; Rancho and Rocket Ranchers remember each chance outcome's number
(asked one by one or a node at once), and their tensors remember parts of the table
(owners and arrangements, each seat's corrals). Along random games played by index
(with states cloned, as OpenSpiel's searches clone them, and two positions asked about
in turn so the memo must notice the change), every remembered answer is checked against
an encoding made afresh for the same game, whose memos are empty.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE, State
from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import GameDefinitionError
from ranchhand.core.registry import GAME_MODULES, load

MAX_TURNS = 12
"""Games are cut short: the memos are about positions, not about long games."""


def _encodings(name: str) -> tuple[Encoding, type[Encoding]]:
    game = load(name, 2, max_turns=MAX_TURNS)
    try:
        return game.encoding(), type(game.encoding())
    except GameDefinitionError:
        pytest.skip(f"{name} has no fixed action encoding")


def _fresh(kind: type[Encoding], state: State) -> Encoding:
    """An encoding of the state's game with nothing remembered."""
    return kind(state.game)  # type: ignore[call-arg]


def _check(encoding: Encoding, fresh: Encoding, state: State, player: int) -> list[int]:
    moves = encoding.legal_moves(state, player)
    assert encoding.legal_moves(state, player) is moves, "asked twice, answered from memory"
    assert moves == fresh.legal_moves(state, player)
    indices = encoding.legal_indices(state, player)
    assert indices == sorted(moves)
    mask = encoding.legal_mask(state, player)
    assert mask.dtype == np.int8
    assert np.array_equal(mask, fresh.legal_mask(state, player))
    for index in indices:
        assert encoding.index_to_action(state, index, player) == moves[index]
    seen = state.observe(player)
    tensor = encoding.observation_tensor(seen, player)
    assert tensor.dtype == np.float32
    assert np.array_equal(tensor, fresh.observation_tensor(seen, player))
    return indices


@pytest.mark.parametrize("name", sorted(GAME_MODULES))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_remembered_answers_equal_fresh_ones(name: str, seed: int) -> None:
    encoding, kind = _encodings(name)
    rng = random.Random(seed)
    state = encoding.game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            node = state.chance_outcomes()
            fresh = _fresh(kind, state)
            expected = [fresh.chance_to_index(state, outcome) for outcome in node.actions]
            assert encoding.chance_indices(state, node.actions) == expected
            outcome = node.sample(rng)
            index = encoding.chance_to_index(state, outcome)
            assert index == fresh.chance_to_index(state, outcome)
            assert encoding.index_to_chance(state, index) == outcome
            state.apply(outcome, CHANCE)
            continue
        player = state.acting_players()[0]
        twin = state.clone()
        indices = _check(encoding, _fresh(kind, state), state, player)
        _check(encoding, _fresh(kind, twin), twin, player)  # another position in between
        chosen = indices[rng.randrange(len(indices))]
        state.apply(encoding.index_to_action(state, chosen, player), player)
