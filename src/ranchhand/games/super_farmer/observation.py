"""What a farmer sees: everything (Super Farmer is a game of perfect information).

The observation points at the state read-only, so bots read the table without copying
it. ``to_json`` gives the whole public table from the observing seat (``observer``
null for a spectator, who sees the same table) and, for front ends, the species each
farmer still needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ranchhand.games.super_farmer.tables import FARM, KEYS

if TYPE_CHECKING:
    from ranchhand.games.super_farmer.state import SuperFarmerState


@dataclass(frozen=True, slots=True)
class SuperFarmerObservation:
    """The table as ``player`` sees it (None: a spectator). Bots must not mutate ``state``."""

    state: SuperFarmerState
    player: int | None

    @property
    def game(self) -> Any:
        return self.state.game

    def to_json(self) -> dict[str, Any]:
        table = self.state._to_json()
        needs = [[KEYS[k] for k in FARM if not mine[k]] for mine in self.state.animals]
        return {"observer": self.player, "turn": self.state.turn, **table, "needs": needs}
