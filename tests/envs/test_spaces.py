"""Observation spaces: bounded Boxes where an encoding proves bounds, the block layout as
slices, and every tensor met in play inside its space."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="needs the gymnasium extra: pip install -e '.[gymnasium]'")

import itertools
import random
import warnings

import numpy as np
from gymnasium.utils.env_checker import check_env

from ranchhand.envs.gymnasium import env
from ranchhand.envs.table import observation_slices
from tests.envs.cases import GAMES, encoded, random_index

UNIT = ("rancho", "super-farmer")
"""Games whose encodings prove every entry lies in 0..1."""
BOUNDED = (*UNIT, "glory-ranch", "rocket-ranchers")
"""Every game: the card games bound each entry by itself (copies of a kind, capped
scores and counters), so their Box's bounds are arrays."""


@pytest.mark.parametrize("name", BOUNDED)
@pytest.mark.parametrize("players", [2, 4])
def test_bounded_games_stay_inside_their_box_in_play(name: str, players: int) -> None:
    table = env(name, players, opponents="random", seat=0, max_turns=40)
    box = table.observation_space
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    if name in UNIT:
        assert (box.low == 0).all() and (box.high == 1).all()
    else:  # mostly flags and shares; a few counts, scores and totals beyond
        assert (box.low <= 0).all() and (box.high >= 1).all()
        assert np.mean(box.high == 1) > 0.5
    state_box = table.unwrapped.table.state_space()
    assert state_box.shape == (players * box.shape[0],)
    rng = random.Random(players)
    for seed in range(3):
        observation, info = table.reset(seed=seed)
        done = False
        while not done:
            assert box.contains(observation), (name, seed)
            for player in range(players):  # every seat's view, not only the learner's
                assert box.contains(table.table.tensor(player))
            assert state_box.contains(table.table.state_tensor())
            observation, _, terminated, truncated, info = table.step(
                random_index(info["action_mask"], rng)
            )
            done = terminated or truncated


@pytest.mark.parametrize("name", BOUNDED)
def test_check_env_no_longer_warns_of_an_unbounded_box(name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env(name, 2, opponents="random").unwrapped, skip_render_check=True)
    assert not [w for w in caught if "infinity" in str(w.message)]


@pytest.mark.parametrize("name", GAMES)
def test_the_layout_slices_cover_the_tensor_in_order(name: str) -> None:
    game = encoded(name, 2)
    slices = list(observation_slices(game).values())
    size = int(np.prod(game.observation_tensor_shape()))
    assert slices[0].start == 0 and slices[-1].stop == size
    assert all(a.stop == b.start for a, b in itertools.pairwise(slices))
