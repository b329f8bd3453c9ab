"""The uniform random bot: every game's baseline."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ranchhand.bots.base import Bot


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"
    reads_observation = False

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        return legal_actions[rng.randrange(len(legal_actions))]
