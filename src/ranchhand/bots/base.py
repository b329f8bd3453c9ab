"""The bot interface shared by every game.

A bot sees what its player may see (the observation), the legal actions and a
seeded generator; never the full state, so a bot cannot peek at hidden cards.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar


class Bot(ABC):
    """Base of all bots; subclasses choose in :meth:`act`."""

    name: ClassVar[str] = "bot"
    reads_observation: ClassVar[bool] = True
    """False for a bot that chooses without looking (see :meth:`needs_observation`)."""
    thinks: ClassVar[bool] = False
    """True for a bot whose decisions take long enough (tenths of a second and more) that
    a server runs them in its bot pool, off the request path, as it does the search."""

    @classmethod
    def prepare(cls) -> str | None:
        """Make, once, what this bot reads to play its best and would not make for itself
        where solving on demand is off (a server): a table cached on disk. Slow (tens of
        CPU seconds), so a server runs it in a process apart before its tables need it
        (``ranchhand.server.prepare``). None if there is nothing to make or it is made,
        else what was made. The base has nothing to make."""
        return None

    def needs_observation(self, legal_actions: Sequence[Hashable]) -> bool:
        """Whether :meth:`act` will look at the observation to choose among these actions.

        When it will not (a forced move, a random pick), the runner makes none and hands
        ``act`` None: making observations is much of a simulation's time. The base answers
        :attr:`reads_observation`.
        """
        return self.reads_observation

    @abstractmethod
    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        """One of ``legal_actions``, chosen from what the player observes."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
