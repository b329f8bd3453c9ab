"""Super Farmer's fixed action space and tensor (the shared promises are in
tests/test_encoding_conformance.py; here, its own layout)."""

from __future__ import annotations

import numpy as np
import pytest

from ranchhand.core import InvalidAction
from ranchhand.core.registry import load
from ranchhand.games.super_farmer.actions import DiceRoll
from tests.games.super_farmer.helpers import table


def test_every_exchange_of_the_table_has_its_index() -> None:
    encoding = load("super-farmer", 2).encoding()
    assert encoding.num_actions == 1 + 2 * (1 + 6 + 47 + 276 + 1 + 47) + 4
    assert encoding.action_label(0) == "roll"
    one_kind = load("super-farmer", 2, trade="one-kind").encoding()
    assert one_kind.num_actions < encoding.num_actions


def test_an_exchange_goes_to_its_index_and_back() -> None:
    state = table({"rabbit": 1, "sheep": 1, "pig": 1, "cow": 2}, {}, players=2)
    trade = state.parse_action("trade 2 cow > horse")
    index = state.action_to_index(trade)
    assert state.index_to_action(index) == trade
    assert state.legal_action_mask().sum() == len(state.legal_actions())
    with pytest.raises(InvalidAction, match="not legal"):
        state.index_to_action(state.action_to_index(state.parse_action("roll")) + 1)


def test_rolls_are_numbered_by_their_faces() -> None:
    state = table({}, players=1)
    state.apply_text("roll")
    encoding = state.game.encoding()
    assert encoding.chance_to_index(state, DiceRoll(6, 5)) == 6 * 7 + 5
    assert encoding.index_to_chance(state, 0) == DiceRoll(0, 0)
    with pytest.raises(InvalidAction, match="no such faces"):
        encoding.index_to_chance(state, 6 * 7 + 6)  # the wolf die has no wolf-and-wolf pair


def test_the_tensor_starts_with_the_observer() -> None:
    state = table({"rabbit": 6}, {"horse": 3}, players=2)
    encoding = state.game.encoding()
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    assert mine.shape == encoding.observation_shape
    assert mine[7] == pytest.approx(0.1) and mine[7 + 7 + 4] == pytest.approx(0.5)
    assert theirs[7 + 4] == pytest.approx(0.5) and theirs[7 + 7] == pytest.approx(0.1)
    assert not np.array_equal(mine, theirs)


def test_length_is_one_decision_a_turn_and_assumes_twenty_exchanges_under_many() -> None:
    assert load("super-farmer", 3, max_turns=50).encoding().max_game_length == 50
    # exchanges=many bounds nothing by the rules: the adapters enforce the assumed bound
    assert load("super-farmer", 3, exchanges="many", max_turns=50).encoding().max_game_length == (
        50 * 21
    )
