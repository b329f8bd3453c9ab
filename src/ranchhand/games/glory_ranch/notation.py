"""Parsing action texts: ``play wyvern``, ``target 2``, ``pick 1:3``, ``choose rock``.

Cards may be named by id or by name (``play hearth-drake``, ``play Hearth Drake``);
a ranch card is ``pick SEAT:POSITION`` with an optional card name that must match.
Seats may be typed as the screen shows them: ``target P2``, ``pick P1:3`` (or
``pick P1 3``).

Numbers are typed by people, so they are read with :func:`read_number`: ASCII
digits only, bounded. ``int()`` would take ``²`` or a five-thousand-digit string;
here both are refused with what is allowed, the legal choices when there are any:

>>> from ranchhand.games.glory_ranch import GloryRanch
>>> state = GloryRanch(3).new_initial_state()
>>> _seat(state, "²")
Traceback (most recent call last):
...
ranchhand.core.errors.InvalidAction: target: expected a seat number 0..2, got '²'
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from ranchhand.core import InvalidAction
from ranchhand.core.errors import shorten
from ranchhand.core.notation import read_number
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
from ranchhand.games.glory_ranch.game import RANCH_LIMIT

if TYPE_CHECKING:
    from ranchhand.games.glory_ranch.state import GloryState

FORMS = (
    "play CARD, discard CARD, give CARD, pass CARD (a card from your hand); "
    "target SEAT (2 or P2); pick SEAT:POSITION [CARD] (P2:3); place POSITION; "
    "choose rock|paper|scissors"
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
            raise InvalidAction(f"choose rock, paper or scissors, not {shorten(rest)!r}")
        return Choose(rest)
    if verb in HAND_VERBS or verb in ("draw", "steal"):
        card = _card(state, rest)
        if verb == "draw":
            return Draw(card)
        if verb == "steal":
            return Steal(card)
        return HandCard(verb, card)
    if verb == "target":
        return Target(_seat(state, rest, player))
    if verb == "place":
        return Place(_position(state, rest, player))
    if verb == "pick":
        return _pick(state, words[1:], player)
    raise InvalidAction(f"unknown action {shorten(verb)!r}; expected {FORMS}")


def _card(state: GloryState, word: str) -> str:
    if not word:
        raise InvalidAction("name a card, e.g. play wyvern")
    card = state.game.deck.find(word)
    if card is None:
        raise InvalidAction(
            f"no card named {shorten(word)!r} in this deck (name a card by id or name)"
        )
    return card.id


def _offered(state: GloryState, player: int, kind: type) -> list[str]:
    """The legal actions of ``kind`` now, as their number part (for error messages)."""
    return [str(a).split(" ", 1)[1] for a in state.legal_actions(player) if isinstance(a, kind)]


def _refuse(what: str, word: str, offered: Sequence[str], error: InvalidAction) -> InvalidAction:
    """The error for a bad number: the legal choices if there are any, else the bounds."""
    if offered:
        return InvalidAction(f"{what}: one of {', '.join(offered)}, got {shorten(word)!r}")
    return error


def _label(word: str) -> str:
    """A seat as the screen labels it (``P1``, ``p1``) or as a bare number (``1``)."""
    return word[1:] if len(word) > 1 and word[0] in "pP" else word


def _seat(state: GloryState, word: str, player: int = -1) -> int:
    """A seat typed after ``target``: 0..players-1 or P0..; legality decides the rest."""
    try:
        return read_number(_label(word), "target", 0, state.game.players - 1)
    except InvalidAction as error:
        raise _refuse("target", word, _offered(state, player, Target), _seat_error(error)) from None


def _seat_error(error: InvalidAction) -> InvalidAction:
    return InvalidAction(error.reason.replace("expected a number", "expected a seat number"))


def _position(state: GloryState, word: str, player: int) -> int:
    """A ranch position typed after ``place``: 1..7 (legality decides the rest)."""
    try:
        return read_number(word, "place", 1, RANCH_LIMIT)
    except InvalidAction as error:
        raise _refuse("place", word, _offered(state, player, Place), error) from None


def _pick(state: GloryState, words: list[str], player: int) -> Pick:
    expected = "pick SEAT:POSITION, e.g. pick P2:3 (P2's third card from the left)"
    offered = [f"{a.seat}:{a.slot}" for a in state.legal_actions(player) if isinstance(a, Pick)]
    if not words:
        raise InvalidAction(f"expected {expected}")
    seat_text, sep, slot_text = words[0].partition(":")
    if not sep and len(words) > 1 and words[1].isascii() and words[1].isdigit():
        seat_text, sep, slot_text = words[0], ":", words[1]  # pick P1 3
        words = [f"{seat_text}:{slot_text}", *words[2:]]
    seat_text = _label(seat_text)
    if not sep:
        raise _refuse("pick", words[0], offered, InvalidAction(f"expected {expected}"))
    try:
        seat = read_number(seat_text, "pick: seat", 0, state.game.players - 1)
        slot = read_number(slot_text, "pick: position", 1, RANCH_LIMIT)
    except InvalidAction as error:
        raise _refuse("pick", words[0], offered, error) from None
    if not 1 <= slot <= len(state.ranches[seat]):
        choices = f"; pick one of {', '.join(offered)}" if offered else f"; expected {expected}"
        raise InvalidAction(f"there is no card at {seat}:{slot}{choices}")
    card = state.game.ids[state.ranches[seat][slot - 1]]
    if len(words) > 1:
        named = _card(state, " ".join(words[1:]))
        if named != card:
            raise InvalidAction(f"the card at {seat}:{slot} is {card}, not {named}")
    return Pick(seat, slot, card)
