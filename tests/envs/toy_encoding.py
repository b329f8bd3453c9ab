"""Odds and Evens (tests/core/toy.py) with a turn limit, so OpenSpiel can load it.

OpenSpiel asks every game for a bound on its length. The toy is endless in
principle (everyone may keep guessing wrong), so this version turns
``max_turns`` on by default and its encoding derives the bound from it.
"""

from __future__ import annotations

import dataclasses

from ranchhand.core import Option
from ranchhand.core.options import MAX_TURNS
from tests.core.toy import ToyEncoding, ToyGame

ROUNDS = 60
"""The default turn limit: a toy game rarely needs more than a dozen rounds."""


class BoundedToyEncoding(ToyEncoding):
    @property
    def max_game_length(self) -> int:
        return self.game.players * self.game.max_turns


class BoundedToyGame(ToyGame):
    """The toy game with a turn limit on by default (at least one turn)."""

    id = "toy"

    @classmethod
    def option_specs(cls) -> tuple[Option, ...]:
        return (*cls.OPTIONS, dataclasses.replace(MAX_TURNS, default=ROUNDS, minimum=1))

    def _encoding(self) -> BoundedToyEncoding:
        return BoundedToyEncoding(self)
