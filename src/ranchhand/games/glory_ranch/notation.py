"""Parsing action texts: ``play wyvern``, ``target 2``, ``pick 1:3``, ``choose rock``.

Cards may be named by id or by name (``play hearth-drake``, ``play Hearth Drake``);
a ranch card is ``pick SEAT:POSITION`` with an optional card name that must match.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ranchhand.core import InvalidAction
from ranchhand.games.glory_ranch.actions import (
    HAND_VERBS,
    SIGNS,
    Choose,
    Draw,
    HandCard,
    Pick,
    Place,
    Steal,
    Target,
)

if TYPE_CHECKING:
    from ranchhand.games.glory_ranch.state import GloryState

FORMS = (
    "play CARD, discard CARD, give CARD, pass CARD (a card from your hand); "
    "target SEAT; pick SEAT:POSITION [CARD]; place POSITION; choose rock|paper|scissors"
)


def parse_action(state: GloryState, text: str, player: int) -> Hashable:
    words = text.lower().split()
    if not words:
        raise InvalidAction(f"empty text; expected {FORMS}")
    verb, rest = words[0], " ".join(words[1:])
    if verb in SIGNS and not rest:
        return Choose(verb)
    if verb == "choose":
        if rest not in SIGNS:
            raise InvalidAction(f"choose rock, paper or scissors, not {rest!r}")
        return Choose(rest)
    if verb in HAND_VERBS or verb in ("draw", "steal"):
        card = _card(state, rest)
        if verb == "draw":
            return Draw(card)
        if verb == "steal":
            return Steal(card)
        return HandCard(verb, card)
    if verb == "target":
        return Target(_number(rest, "a seat number, e.g. target 2"))
    if verb == "place":
        return Place(_number(rest, "a position in your ranch, 1 = left end, e.g. place 1"))
    if verb == "pick":
        return _pick(state, words[1:])
    raise InvalidAction(f"unknown action {verb!r}; expected {FORMS}")


def _card(state: GloryState, word: str) -> str:
    if not word:
        raise InvalidAction("name a card, e.g. play wyvern")
    card = state.game.deck.find(word)
    if card is None:
        raise InvalidAction(f"no card named {word!r} in this deck (name a card by id or name)")
    return card.id


def _number(word: str, expected: str) -> int:
    if not word.isdigit():
        raise InvalidAction(f"expected {expected}, got {word!r}")
    return int(word)


def _pick(state: GloryState, words: list[str]) -> Pick:
    expected = "pick SEAT:POSITION, e.g. pick 2:3 (player 2's third card from the left)"
    if not words:
        raise InvalidAction(f"expected {expected}")
    seat_text, sep, slot_text = words[0].partition(":")
    if not sep or not seat_text.isdigit() or not slot_text.isdigit():
        raise InvalidAction(f"expected {expected}, got {words[0]!r}")
    seat, slot = int(seat_text), int(slot_text)
    if seat >= state.game.players or not 1 <= slot <= len(state.ranches[seat]):
        raise InvalidAction(f"there is no card at {seat}:{slot}; {expected}")
    card = state.game.ids[state.ranches[seat][slot - 1]]
    if len(words) > 1:
        named = _card(state, " ".join(words[1:]))
        if named != card:
            raise InvalidAction(f"the card at {seat}:{slot} is {card}, not {named}")
    return Pick(seat, slot, card)
