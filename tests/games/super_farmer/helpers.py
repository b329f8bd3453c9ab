"""Positions for Super Farmer tests, built with the game's own ``setup``."""

from __future__ import annotations

from typing import Any

from ranchhand.core.registry import load
from ranchhand.games.super_farmer.actions import DiceRoll, Trade
from ranchhand.games.super_farmer.state import SuperFarmerState
from ranchhand.games.super_farmer.tables import FACES, KEYS


def table(*farmers: dict[str, int], players: int | None = None, **options: Any) -> SuperFarmerState:
    """A position in the exchange step of farmer 0 holding ``farmers[i]`` for each seat."""
    count = players or max(1, len(farmers))
    game = load("super-farmer", count, **options)
    spec = {"farmers": [*farmers, *({} for _ in range(count - len(farmers)))]}
    state = game.setup(spec)
    assert isinstance(state, SuperFarmerState)
    return state


def holding(state: SuperFarmerState, player: int = 0) -> dict[str, int]:
    """The animals a farmer holds, by name, leaving out the species they have none of."""
    return {key: n for key, n in zip(KEYS, state.animals[player], strict=True) if n}


def roll(state: SuperFarmerState, wolf_die: str, fox_die: str) -> None:
    """Say 'roll' (if still trading) and let the dice show ``wolf_die`` and ``fox_die``."""
    if not state.is_chance_node():
        state.apply_text("roll")
    state.apply(DiceRoll(FACES.index(wolf_die), FACES.index(fox_die)))


def trade(state: SuperFarmerState, text: str) -> Trade:
    action = state.apply_text(text)
    assert isinstance(action, Trade)
    return action
