"""What one player sees of a Rocket Ranchers table.

Public: the display, every face-up corral card, floof piles, beam and dogship
sides, the cards just collected and waiting for a corral, the deck's size and
how many Space Cats are left in it (everyone can count those: the Space Cats
shuffled in are known and every drawn Space Cat is face up). Secret: the
deck's Wildlife cards by identity, and the face-down card that formed each of
another player's corrals (shown as ``hidden``). The spectator's view (``player``
None: what the table shows to nobody in particular) hides every founding card
until the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ranchhand.games.rocket_ranchers.scoring import Corral, PlayerScore, score_players
from ranchhand.games.rocket_ranchers.tables import Tables


@dataclass(frozen=True)
class RocketObservation:
    """One player's view (``player`` None: a spectator's); cards are kinds (ints) with
    CAT, EMPTY and HIDDEN markers."""

    player: int | None
    tables: Tables
    options: Mapping[str, Any]
    current: int
    phase: str
    display: tuple[int, ...]
    corrals: tuple[tuple[Corral, ...], ...]
    floof: tuple[int, ...]
    beams: tuple[int, ...]
    dogship: tuple[bool, ...]
    pending: tuple[int, ...]
    deck_size: int
    deck_cats: int
    turn: int
    over: bool

    @classmethod
    def made_of(cls, **fields: Any) -> RocketObservation:
        """The observation holding ``fields``, every one of them named.

        Made without the frozen dataclass's ``__init__``, which sets its fifteen fields one
        ``object.__setattr__`` at a time and was about a third of the cost of each
        ``observe``; the state that calls this names every field (a test checks that the
        result equals the one ``__init__`` makes).
        """
        made = object.__new__(cls)
        made.__dict__.update(fields)
        return made

    @property
    def seat(self) -> int:
        """The observing player's seat (a bot always observes as a player)."""
        if self.player is None:
            raise ValueError("the spectator's view belongs to no seat")
        return self.player

    def scores(self) -> list[PlayerScore]:
        """Every player's score if the game ended now, from what this player sees."""
        return score_players(self.tables, self.options, self.corrals, self.floof)

    def beam_names(self, player: int) -> list[str]:
        """The names of ``player``'s face-up beams."""
        up = self.beams[player]
        return [b.name for i, b in enumerate(self.tables.beams) if up >> i & 1]

    def to_json(self) -> dict[str, Any]:
        text = self.tables.card_text
        return {
            "player": self.player,
            "current": self.current,
            "phase": self.phase,
            "turn": self.turn,
            "display": [text(c) for c in self.display],
            "corrals": [
                [{"founder": text(f), "face_up": [text(k) for k in up]} for f, up in mine]
                for mine in self.corrals
            ],
            "floof": list(self.floof),
            "beams_up": [self.beam_names(p) for p in range(len(self.beams))],
            "dogship_up": list(self.dogship),
            "pending": [text(k) for k in self.pending],
            "deck_size": self.deck_size,
            "deck_cats": self.deck_cats,
            "scores": [s.total for s in self.scores()],
            "over": self.over,
        }
