"""What one player sees: their own hand, every ranch, the scores; never others' secrets.

Other players' hands appear only as sizes; a pending rock-paper-scissors sign is
shown only to the player who chose it; cards being passed only to their passer.
The spectator (``player`` None) sees what the table shows to nobody in particular:
no hand, no sign, no card being passed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ranchhand.games.glory_ranch.cards import Deck, Effect


@dataclass
class GloryObservation:
    player: int | None
    """The seat observing, or None for the spectator."""
    players: int
    round: int
    target: int
    totals: list[int]
    current: int
    first: int
    direction: int
    deck: int
    discard: int
    hand: list[int]
    hand_sizes: list[int]
    ranches: list[list[int]]
    shields: list[list[int]]
    acting: list[int]
    step: tuple[Any, ...] | None
    effect: Effect | None
    asking: str
    my_sign: str | None
    passing: list[int]
    log: list[str]
    last_round: dict[str, Any] | None
    """The last round scored: ``round``; per player ``glory`` (the ranch's printed Glory),
    ``bonus`` (Hour Glass), ``penalty`` (of the cards left in hand, subtracted), ``points``
    (the round's score) and ``totals`` (running totals after it); the round's ``winners``.
    The parts are None for a round recorded before they were kept."""
    winners: list[int]
    """Who won the game, once it is over (empty until then)."""
    ids: tuple[str, ...]
    cards: Deck
    """The deck's card data (public knowledge, like the printed cards); not in the JSON."""

    def to_json(self) -> dict[str, Any]:
        ids = self.ids
        return {
            "player": self.player,
            "players": self.players,
            "round": self.round,
            "target": self.target,
            "totals": list(self.totals),
            "current": self.current,
            "first": self.first,
            "direction": "clockwise" if self.direction == 1 else "counter-clockwise",
            "deck": self.deck,
            "discard": self.discard,
            "hand": [ids[k] for k in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "ranches": [[ids[k] for k in r] for r in self.ranches],
            "shields": [list(s) for s in self.shields],
            "acting": list(self.acting),
            "asking": self.asking,
            "effect": None if self.effect is None else self.effect.to_json(),
            "my_sign": self.my_sign,
            "passing": [ids[k] for k in self.passing],
            "log": list(self.log),
            "last_round": self.last_round,
            "winners": list(self.winners),
        }
