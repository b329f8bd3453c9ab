"""Self-play: any policy as an opponent (a callable on tensor and mask, or a model with
SB3's ``predict``), and a league of past checkpoints drawn from each episode."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="needs the gymnasium extra: pip install -e '.[gymnasium]'")

import random
from typing import Any

import numpy as np

from ranchhand.envs.gymnasium import env
from ranchhand.envs.league import League, choose
from tests.envs.cases import random_index


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


class MaskedModel:
    """Duck-typed like sb3-contrib's MaskablePPO: ``predict`` with ``action_masks``."""

    def __init__(self) -> None:
        self.calls = 0

    def predict(
        self, observation: np.ndarray, action_masks: np.ndarray, deterministic: bool = False
    ) -> tuple[np.ndarray, None]:
        self.calls += 1
        assert action_masks.dtype == bool and action_masks.any()
        return np.array(int(np.flatnonzero(action_masks)[-1])), None


def _play(table: Any, seed: int) -> float:
    rng = random.Random(seed)
    _, info = table.reset(seed=seed)
    reward, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, info = table.step(random_index(info["action_mask"], rng))
        done = terminated or truncated
    return reward


@pytest.mark.parametrize("name", ["rancho", "rocket-ranchers", "glory-ranch", "super-farmer"])
def test_a_callable_and_a_model_sit_as_opponents(name: str) -> None:
    model = MaskedModel()
    table = env(name, 3, opponents=[first_legal, model], seat=0, max_decisions=60)
    _play(table, 1)
    assert model.calls > 0


def test_a_policy_choosing_an_illegal_index_is_named() -> None:
    table = env("rancho", 2, opponents=lambda observation, mask: 10_000, seat=1)
    with pytest.raises(ValueError, match="seat 0 chose index 10000"):
        table.reset(seed=0)


def test_a_plain_model_without_masks_is_asked_without_them() -> None:
    class Plain:
        def predict(self, observation: np.ndarray, deterministic: bool = False) -> Any:
            return np.array([3]), None

    assert choose(Plain(), np.zeros(2), np.ones(5, dtype=np.int8), True) == 3


def test_a_league_keeps_copies_and_draws_one_per_episode() -> None:
    league = League(size=2, latest=0.0)
    models = [MaskedModel() for _ in range(3)]
    for model in models:
        league.add(model)
    assert len(league.policies) == 2  # the oldest dropped
    assert all(kept is not model for kept, model in zip(league.policies, models[1:], strict=True))
    table = env("rocket-ranchers", 2, opponents=league, seat=0, max_decisions=40)
    drawn = set()
    for seed in range(6):
        _play(table, seed)
        drawn.add(id(table._bots[1]))
    assert drawn == {id(p) for p in league.policies}
    with pytest.raises(ValueError, match="empty"):
        League().sample(np.random.default_rng(0))
    with pytest.raises(TypeError, match="not a policy"):
        League().add(42)
