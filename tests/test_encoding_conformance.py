"""One conformance suite for every game's fixed action encoding (``core/encoding.py``).

Whatever the game, along a random game played through action indices only (at the
smallest and largest player counts):

* every legal index names one legal action, which maps back to that index, and two
  indices never name the same action; the mask is exactly the legal indices; an index
  that names nothing is refused with ``InvalidAction``;
* every action the engine lists has an index that maps back to it, or is refused with
  ``InvalidAction`` by a game whose ``coverage_note`` says what it leaves out;
* at least one index is legal at every decision, the game reaches its end, and the
  decisions made stay within ``max_game_length``;
* chance outcomes have distinct numbers below ``max_chance_outcomes`` that map back;
* the observation tensor is float32 of the declared shape and layout, and equal for
  any two tables the player cannot tell apart (the state rebuilt from JSON, tables
  resampled from the player's observation): it cannot hold what the player may not see.

Games without an encoding (``_encoding`` raises GameDefinitionError) are skipped.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ranchhand.core import CHANCE, State
from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import GameDefinitionError, InvalidAction
from ranchhand.core.registry import GAME_MODULES, game_class, load

GAMES = sorted(GAME_MODULES)
MAX_TURNS = 40
"""Games are cut at this many turns so each case stays well under a second or two."""
TENSOR_EVERY = 7
"""Check the tensor at every 7th decision (resampling is the slow part)."""


def _cases() -> list[tuple[str, int]]:
    cases = []
    for game in GAMES:
        cls = game_class(game)
        for players in sorted({cls.min_players, cls.max_players}):
            cases.append((game, players))
    return cases


def _encoding(name: str, players: int) -> Encoding:
    game = load(name, players, max_turns=MAX_TURNS)
    try:
        return game.encoding()
    except GameDefinitionError:
        pytest.skip(f"{name} has no fixed action encoding")


def _check_decision(state: State, player: int, encoding: Encoding) -> list[int]:
    indices = encoding.legal_indices(state, player)
    assert indices, "at least one index is legal at every decision"
    assert indices == sorted(set(indices))
    assert all(0 <= i < encoding.num_actions for i in indices)
    mask = state.legal_action_mask(player)
    assert mask.dtype == np.int8 and mask.shape == (encoding.num_actions,)
    assert np.flatnonzero(mask).tolist() == indices
    named = []
    for index in indices:
        action = state.index_to_action(index, player)
        assert state.is_legal(action, player), f"index {index} names an illegal {action}"
        assert state.action_to_index(action, player) == index
        named.append(action)
    assert len(set(named)) == len(named), "two indices name one action"
    complete = type(encoding).coverage_note == Encoding.coverage_note
    for action in state.legal_actions(player):
        try:
            index = state.action_to_index(action, player)
        except InvalidAction:
            assert not complete, f"{action} has no index, yet the encoding claims every one"
            continue
        assert index in indices and state.index_to_action(index, player) == action
    unused = next((i for i in range(encoding.num_actions) if not mask[i]), None)
    if unused is not None:
        with pytest.raises(InvalidAction):
            state.index_to_action(unused, player)
    return indices


def _check_chance(state: State, encoding: Encoding, rng: random.Random) -> None:
    outcomes = list(state.chance_outcomes().actions)
    numbers = [encoding.chance_to_index(state, outcome) for outcome in outcomes]
    assert len(set(numbers)) == len(numbers)
    assert all(0 <= n < encoding.max_chance_outcomes for n in numbers)
    assert [encoding.index_to_chance(state, n) for n in numbers] == outcomes
    chosen = encoding.index_to_chance(state, rng.choice(numbers))
    state.apply(chosen, CHANCE)


def _check_tensor(state: State, encoding: Encoding, rng: random.Random) -> None:
    game = state.game
    shape = encoding.observation_shape
    assert game.observation_tensor_shape() == shape
    assert sum(length for _, length in encoding.observation_layout()) == int(np.prod(shape))
    rebuilt = game.state_from_json(state.to_json())
    for player in range(game.players):
        tensor = state.observation_tensor(player)
        assert tensor.dtype == np.float32 and tensor.shape == shape
        assert np.all(np.isfinite(tensor))
        assert np.array_equal(rebuilt.observation_tensor(player), tensor)
        try:
            twin = state.resample(player, rng)
        except GameDefinitionError:
            continue
        assert np.array_equal(twin.observation_tensor(player), tensor), (
            "a table the player cannot tell apart gives another tensor: it shows a secret"
        )


@pytest.mark.parametrize(("name", "players"), _cases())
def test_a_game_through_indices_keeps_the_encoding_promises(name: str, players: int) -> None:
    encoding = _encoding(name, players)
    game = encoding.game
    assert game.num_distinct_actions() == encoding.num_actions > 0
    labels = [encoding.action_label(i) for i in range(encoding.num_actions)]
    assert all(isinstance(label, str) and label for label in labels)
    rng = random.Random(f"{name}-{players}")
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _check_chance(state, encoding, rng)
            continue
        if decisions % TENSOR_EVERY == 0:
            _check_tensor(state, encoding, rng)
        legal = {
            player: _check_decision(state, player, encoding) for player in state.acting_players()
        }
        player = rng.choice(sorted(legal))
        state.apply(state.index_to_action(rng.choice(legal[player]), player), player)
        decisions += 1
    _check_tensor(state, encoding, rng)
    for player in range(game.players):
        assert encoding.legal_indices(state, player) == [], "nothing is legal once over"
    assert decisions <= encoding.max_game_length
