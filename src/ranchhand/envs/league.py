"""Opponents for self-play: any policy in a seat, and a league of past checkpoints.

A *policy* here is what a learner becomes, in one of two shapes:

* a callable ``policy(observation, mask) -> index`` on the seat's float32 tensor and its
  int8 legal mask (a function, a bound method, a wrapped network);
* an object with Stable-Baselines3's ``predict``: ``model.predict(observation,
  action_masks=mask, deterministic=...)`` (sb3-contrib's ``MaskablePPO``), or without
  ``action_masks`` for a plain SB3 model, which must then choose legal indices itself.

The Gymnasium environment (``ranchhand.envs.gymnasium``) takes such policies as opponents
beside bot names, and a :class:`League` for all other seats: each episode draws its
opponents from the league, so a learner meets its own earlier selves. Nothing here imports
torch or SB3: a model is used through the method it has.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

Policy = Callable[[np.ndarray, np.ndarray], int] | Any
"""A callable on (observation, mask), or a model with SB3's ``predict``."""


def is_policy(candidate: Any) -> bool:
    """Whether ``candidate`` can choose an action (a callable or a ``predict`` model)."""
    return callable(candidate) or callable(getattr(candidate, "predict", None))


def choose(policy: Policy, observation: np.ndarray, mask: np.ndarray, deterministic: bool) -> int:
    """``policy``'s index for ``observation`` with legal ``mask``."""
    predict = getattr(policy, "predict", None)
    if callable(predict):
        try:
            action, _ = predict(
                observation, action_masks=mask.astype(bool), deterministic=deterministic
            )
        except TypeError:  # a plain SB3 model has no action_masks
            action, _ = predict(observation, deterministic=deterministic)
        return int(np.asarray(action).reshape(-1)[0])
    return int(policy(observation, mask))


class League:
    """Past checkpoints of a learner, to draw opponents from (fictitious self-play).

    ``add`` keeps a policy (a model is deep-copied unless ``copy=False``, so training on
    after adding does not change the kept one); at most ``size`` are kept, the oldest
    dropped first, and each draw takes the latest with probability ``latest`` and
    otherwise any kept one uniformly. Seeded by the environment's generator.
    """

    def __init__(self, size: int = 10, latest: float = 0.5, deterministic: bool = True) -> None:
        if size < 1:
            raise ValueError(f"a league keeps at least 1 policy, got size={size}")
        if not 0.0 <= latest <= 1.0:
            raise ValueError(f"latest is a probability 0..1, got {latest}")
        self.size = size
        self.latest = latest
        self.deterministic = deterministic
        self.policies: list[Policy] = []

    def add(self, policy: Policy, *, copy_it: bool = True) -> None:
        """Keep ``policy`` as the latest checkpoint."""
        if not is_policy(policy):
            raise TypeError(f"not a policy: {type(policy).__name__} (a callable or a model)")
        self.policies.append(copy.deepcopy(policy) if copy_it else policy)
        del self.policies[: -self.size]

    def sample(self, rng: np.random.Generator) -> Policy:
        """One kept policy: the latest with probability ``latest``, else any."""
        if not self.policies:
            raise ValueError("the league is empty: add a policy first")
        if rng.random() < self.latest:
            return self.policies[-1]
        return self.policies[int(rng.integers(len(self.policies)))]
