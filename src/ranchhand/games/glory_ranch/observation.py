"""What one player sees: their own hand, every ranch, the scores; never others' secrets.

Other players' hands appear only as sizes; a pending rock-paper-scissors sign is
shown only to the player who chose it; cards being passed only to their passer.
The spectator (``player`` None) sees what the table shows to nobody in particular:
no hand, no sign, no card being passed.

The public machinery of the turn is in it too (the discard pile, face up; the steps
still pending, which follow from the face-up cards played; how many cards each player
has put face down to pass; the turn counters), so that a full state consistent with
an observation can be rebuilt from it alone (see determinize.py).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

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
    """The last round scored: ``round``, its ``ranches`` (card ids, as they stood when it
    was scored) and ``turns``; per player ``glory`` (the ranch's printed Glory),
    ``bonus`` (Hour Glass), ``penalty`` (of the cards left in hand, subtracted), ``points``
    (the round's score) and ``totals`` (running totals after it); the round's ``winners``.
    The parts are None for a round recorded before they were kept."""
    winners: list[int]
    """Who won the game, once it is over (empty until then)."""
    discard_pile: list[int]
    """The cards on the discard pile (face up: everyone saw them go there)."""
    pending: list[tuple[Any, ...]]
    """Every step still pending, bottom of the stack first (public: they follow from the
    cards played); ``step`` is the top one as far as it is shown."""
    passing_sizes: list[int]
    """How many cards each player has put face down to pass (not which)."""
    turn_state: dict[str, Any]
    """Public counters of the game and the turn: ``turn`` (turns played in the game),
    ``round_turns``, ``lost_turns`` (turns the next player will lose), ``playing`` (a card is
    being resolved), ``exhausted`` (a draw found no card), ``seventh`` (a 7th card was
    played this turn) and ``played_slot`` (where the card being resolved sits)."""
    ids: tuple[str, ...]
    cards: Deck
    """The deck's card data (public knowledge, like the printed cards); not in the JSON."""

    @classmethod
    def of_fields(cls, fields: dict[str, Any]) -> GloryObservation:
        """The observation holding ``fields`` (every field by name, or every field but
        those in :data:`LATER` and their maker under ``_later``), made without the generated
        ``__init__``: the state makes one at every decision a bot looks at, and two dozen
        keyword arguments stored one by one cost a third of the look."""
        observation = cls.__new__(cls)
        observation.__dict__ = fields
        return observation

    if not TYPE_CHECKING:  # every field is declared above; this only makes the late ones

        def __getattr__(self, name: str) -> Any:
            """A field of :data:`LATER` read for the first time: every late field is made
            from the public values kept under ``_later`` (a maker and its arguments), and
            the fields are stored in their declared order."""
            held = self.__dict__
            later = held.get("_later")
            if later is None or name not in LATER:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            made = later[0](*later[1:])
            self.__dict__ = {key: made[key] if key in LATER else held[key] for key in FIELDS}
            return made[name]

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
            "discard_pile": [ids[k] for k in self.discard_pile],
            "pending": [list(step) for step in self.pending],
            "passing_sizes": list(self.passing_sizes),
            "turn_state": dict(self.turn_state),
        }


FIELDS = tuple(field.name for field in fields(GloryObservation))
"""The observation's fields in their declared order."""

LATER = frozenset(FIELDS) - {
    "player",
    "players",
    "totals",
    "hand",
    "hand_sizes",
    "ranches",
    "shields",
    "step",
    "effect",
    "cards",
}
"""The fields ``GloryState.observe`` leaves to be made on first read: the greedy bot, which
looks at most decisions of a simulated game, reads only the others (and a dictionary of two
dozen fields costs more to fill than most of them). They are made from public values taken
when the observation was, never from the state (which moves on)."""
