"""JSON framing of states: the header that says which game and options wrote it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ranchhand.core.errors import RecordError

if TYPE_CHECKING:
    from ranchhand.core.game import Game, State

STATE_FORMAT = "ranchhand-state/1"


def state_header(state: State) -> dict[str, Any]:
    game = state.game
    return {
        "format": STATE_FORMAT,
        "game": game.id,
        "version": game.version,
        "players": game.players,
        "options": dict(game.options),
        "turn": state.turn,
    }


def check_state_header(game: Game, data: Mapping[str, Any]) -> None:
    """Refuse JSON written for another game, version, player count or options."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a state must be a JSON object, got {type(data).__name__}")
    expected = {
        "format": STATE_FORMAT,
        "game": game.id,
        "version": game.version,
        "players": game.players,
        "options": dict(game.options),
    }
    for key, value in expected.items():
        if key not in data:
            raise RecordError(f"state JSON has no {key!r}")
        if data[key] != value:
            raise RecordError(f"state JSON {key}: expected {value!r}, got {data[key]!r}")
    for key in ("turn", "data"):
        if key not in data:
            raise RecordError(f"state JSON has no {key!r}")
