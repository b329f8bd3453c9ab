"""What a player sees: everything (Rancho is a game of perfect information).

The observation wraps the state read-only so bots read the table without copying
it; ``to_json`` gives the whole public table from the observing player's seat
(``observer`` null for a spectator, who sees the same table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ranchhand.games.rancho.state import RanchoState


class RanchoObservation:
    """A read-only view of the table for one player (``player`` None: a spectator).

    Bots must not mutate ``state``.
    """

    __slots__ = ("player", "state")

    def __init__(self, state: RanchoState, player: int | None) -> None:
        self.state = state
        self.player = player

    @property
    def game(self) -> Any:
        return self.state.game

    def to_json(self) -> dict[str, Any]:
        return {"observer": self.player, "turn": self.state.turn, **self.state._to_json()}
