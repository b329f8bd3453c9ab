"""The bot interface shared by every game.

A bot sees what its player may see (the observation), the legal actions and a
seeded generator; never the full state, so a bot cannot peek at hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar


class Bot:
    """Base of all bots; subclasses override :meth:`act`."""

    name: ClassVar[str] = "bot"

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
