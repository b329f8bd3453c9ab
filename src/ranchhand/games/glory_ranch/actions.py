"""Glory Ranch actions: small hashable values whose ``str()`` is the canonical text.

Players name cards by id (``wyvern``, ``hearth-drake``) and seats by number:

>>> str(HandCard("play", "wyvern")), str(Target(2)), str(Pick(1, 3, "roc"))
('play wyvern', 'target 2', 'pick 1:3 roc')
>>> str(Place(1)), str(Choose("rock")), str(Draw("pixie")), str(Steal("puck"))
('place 1', 'choose rock', 'draw pixie', 'steal puck')
"""

from __future__ import annotations

from dataclasses import dataclass

HAND_VERBS = ("play", "discard", "give", "pass")
SIGNS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


@dataclass(frozen=True)
class HandCard:
    """A card chosen from your own hand: to play, discard, give or pass it."""

    verb: str
    card: str

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"


@dataclass(frozen=True)
class Target:
    """The player chosen for a card's action ("choose another player")."""

    seat: int

    def __str__(self) -> str:
        return f"target {self.seat}"


@dataclass(frozen=True)
class Pick:
    """A card in a ranch: seat, position from the left (1-based) and its id."""

    seat: int
    slot: int
    card: str

    def __str__(self) -> str:
        return f"pick {self.seat}:{self.slot} {self.card}"


@dataclass(frozen=True)
class Place:
    """Where the card just played goes in your ranch (1 = left end)."""

    slot: int

    def __str__(self) -> str:
        return f"place {self.slot}"


@dataclass(frozen=True)
class Choose:
    """A secret rock-paper-scissors sign."""

    sign: str

    def __str__(self) -> str:
        return f"choose {self.sign}"


@dataclass(frozen=True)
class Draw:
    """Chance: the card a player draws from the deck."""

    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


@dataclass(frozen=True)
class Steal:
    """Chance: the card taken at random from the robbed player's hand."""

    card: str

    def __str__(self) -> str:
        return f"steal {self.card}"


Action = HandCard | Target | Pick | Place | Choose | Draw | Steal
