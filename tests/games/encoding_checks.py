"""Checks shared by the per-game encoding tests (Rocket Ranchers, Glory Ranch).

``play_by_index`` plays a random game through action indices only, checking at
every decision what an encoding promises (each legal action one index, round
trips, the mask is the legal list, an index naming nothing is refused, chance
numbers round-trip) and returns the states it met. ``tensor_keeps_secrets``
compares a player's tensor on a state and on tables resampled from that
player's observation, which differ in exactly what the player cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

import numpy as np
import pytest

from ranchhand.core import CHANCE, Game, State
from ranchhand.core.errors import InvalidAction


def check_decision(state: State, player: int) -> list[int]:
    """Every promise of the index space for ``player`` here; returns the legal indices."""
    encoding = state.game.encoding()
    legal = state.legal_actions(player)
    indices = [state.action_to_index(action, player) for action in legal]
    assert len(set(indices)) == len(indices), "two legal actions share an index"
    for action, index in zip(legal, indices, strict=True):
        assert 0 <= index < encoding.num_actions
        assert state.index_to_action(index, player) == action
    mask = state.legal_action_mask(player)
    assert mask.dtype == np.int8 and mask.shape == (encoding.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
    assert encoding.legal_indices(state, player) == sorted(indices)
    illegal = next((i for i in range(encoding.num_actions) if not mask[i]), None)
    if illegal is not None:
        with pytest.raises(InvalidAction):
            state.index_to_action(illegal, player)
    return indices


def check_chance(state: State, rng: random.Random) -> Hashable:
    """The chance numbering round-trips here; returns a sampled outcome."""
    encoding = state.game.encoding()
    outcomes = state.chance_outcomes().actions
    numbers = [encoding.chance_to_index(state, outcome) for outcome in outcomes]
    assert len(set(numbers)) == len(numbers)
    assert all(0 <= n < encoding.max_chance_outcomes for n in numbers)
    for outcome, number in zip(outcomes, numbers, strict=True):
        assert encoding.index_to_chance(state, number) == outcome
    return state.chance_outcomes().sample(rng)


def play_by_index(game: Game, seed: int, keep: float = 0.1) -> tuple[list[State], int]:
    """A random game played through indices; (states kept along it, decisions made)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    kept: list[State] = []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(check_chance(state, rng), CHANCE)
            continue
        if rng.random() < keep:
            kept.append(state.clone())
        legal = {player: check_decision(state, player) for player in state.acting_players()}
        player = rng.choice(sorted(legal))  # at a simultaneous node, either may choose first
        state.apply(state.index_to_action(rng.choice(legal[player]), player), player)
        decisions += 1
    kept.append(state)
    assert decisions <= game.encoding().max_game_length
    return kept, decisions


def tensor_keeps_secrets(
    state: State, player: int, rng: random.Random, samples: int = 4
) -> list[State]:
    """Tables ``player`` cannot tell from ``state`` give the same tensor; returns them."""
    encoding = state.game.encoding()
    tensor = state.observation_tensor(player)
    assert tensor.dtype == np.float32 and tensor.shape == encoding.observation_shape
    assert int(np.prod(tensor.shape)) == sum(size for _, size in encoding.observation_layout())
    twins = []
    for _ in range(samples):
        twin = state.resample(player, rng)
        assert twin.observe(player).to_json() == state.observe(player).to_json()
        assert np.array_equal(twin.observation_tensor(player), tensor)
        twins.append(twin)
    return twins


def tensors_tell_apart(states: list[State], player: int, seen: Callable[[State], object]) -> None:
    """Two states with the same tensor for ``player`` show ``player`` the same ``seen``.

    ``seen`` is the observation in a form the tensor keeps (what it drops on purpose,
    such as an order scoring never reads, normalised away): the tensor holds the
    observation's information, not less.
    """
    by_tensor: dict[bytes, object] = {}
    for state in states:
        key = state.observation_tensor(player).tobytes()
        view = seen(state)
        assert by_tensor.setdefault(key, view) == view


def check_tensor(
    game: Game,
    differs: Callable[[State, State], bool],
    seen: Callable[[State, int], object],
    keep: float = 0.08,
) -> None:
    """The tensor on states of two random games: the same for resampled tables, some of
    which ``differs`` (hidden information changed), and never the same for two states
    whose ``seen`` differs."""
    rng = random.Random(game.players)
    states: list[State] = []
    for seed in range(2):
        states += play_by_index(game, seed, keep=keep)[0]
    redrawn = 0
    for state in states[::3]:
        for player in range(game.players):
            for twin in tensor_keeps_secrets(state, player, rng, samples=2):
                redrawn += differs(twin, state)
    assert redrawn, "no resampled table differed in what the player cannot see"
    for player in range(game.players):
        tensors_tell_apart(states, player, lambda s, p=player: seen(s, p))  # type: ignore[misc]


def labels_of(game: Game, actions: int, entries: int) -> list[str]:
    """Checks the sizes the docs page gives and the blocks; returns every index's label,
    each different."""
    encoding = game.encoding()
    assert game.num_distinct_actions() == actions
    assert game.observation_tensor_shape() == (entries,)
    assert sum(size for _, size in encoding.blocks()) == actions  # type: ignore[attr-defined]
    labels = [encoding.action_label(i) for i in range(actions)]
    assert len(set(labels)) == len(labels)
    return labels
