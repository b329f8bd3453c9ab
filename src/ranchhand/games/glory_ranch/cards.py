"""The card language of Glory Ranch: cards as data, their rules text generated from it.

A deck file (TOML) lists families and cards. Each card has a Glory value, a
penalty, an optional Hour Glass bonus and a list of actions from a small
vocabulary (:data:`VOCABULARY`). Loading validates every field and names the card
and field in errors. The rules text a player reads is :func:`card_text`, built
from the same data the engine executes, so the two cannot disagree.

>>> deck = load_deck()
>>> len(deck.cards) >= 25 and deck.size >= 60
True
>>> effect_text(Effect("draw", n=2, who="chosen"))
'Choose another player: they draw 2 cards.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ranchhand.core.data import Fields, parse_data, read_data
from ranchhand.core.errors import DataError, shorten

PACKAGE = "ranchhand.games.glory_ranch"
DECK_FILE = "cards.toml"

# Each action word with the fields it takes and the values allowed for them.
# "chosen" asks the acting player to choose another player (a decision);
# "rival" is the other player of a rock-paper-scissors contest (only inside rps).
VOCABULARY: dict[str, dict[str, tuple[str, ...]]] = {
    "draw": {"who": ("you", "each", "others", "chosen", "rival")},
    "discard": {"who": ("you", "each", "others", "chosen", "rival")},
    "give": {"to": ("chosen", "rival")},
    "pass": {"to": ("left", "right")},
    "trade": {"with": ("chosen", "rival")},
    "steal": {"from": ("chosen", "rival")},
    "reverse": {},
    "skip": {},
    "play": {},
    "place": {"at": ("left", "any")},
    "banish": {"from": ("opponent", "any")},
    "return": {"from": ("opponent", "yours", "any")},
    "protect": {},
    "rps": {"against": ("chosen",)},
}
COUNTED = frozenset({"draw", "discard", "give", "pass", "steal"})
BONUS_KINDS: dict[str, tuple[str, ...]] = {
    "family": ("family",),
    "neighbour": ("family",),
    "position": ("at",),
    "most": ("of",),
    "empty-hand": (),
    "variety": (),
}
MAX_COUNT = 3
MAX_KINDS = 200
"""The most creatures a deck lists: each is a column of every state's counts."""
MAX_NAME = 40
ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
"""Ids and family names: typed in actions (``play hearth-drake``), so lower-case ASCII."""
RESERVED_FAMILIES = ("any", "cards")
"""Words an Hour Glass bonus uses for "every card"; a family may not be called so."""


@dataclass(frozen=True)
class Effect:
    """One action of a card: ``do`` is the action word, the rest its parameters."""

    do: str
    n: int = 1
    who: str = "you"
    to: str = ""
    target: str = ""
    at: str = ""
    win: tuple[Effect, ...] = ()
    lose: tuple[Effect, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"do": self.do}
        for key in VOCABULARY[self.do]:
            data[key] = self.param(key)
        if self.do in COUNTED:
            data["n"] = self.n
        if self.do == "rps":
            data["win"] = [e.to_json() for e in self.win]
            data["lose"] = [e.to_json() for e in self.lose]
        return data

    def param(self, key: str) -> str:
        """The value of a vocabulary field (``with``/``from``/``against`` share ``target``)."""
        if key == "who":
            return self.who
        if key == "to":
            return self.to
        if key == "at":
            return self.at
        return self.target


@dataclass(frozen=True)
class Bonus:
    """An Hour Glass bonus, scored at round end for each copy of the card in a ranch."""

    kind: str
    glory: int
    family: str = ""
    at: str = ""
    of: str = ""


@dataclass(frozen=True)
class Card:
    index: int
    id: str
    name: str
    family: str
    glory: int
    penalty: int
    copies: int
    actions: tuple[Effect, ...]
    bonus: Bonus | None

    @property
    def text(self) -> str:
        return card_text(self)


@dataclass(frozen=True)
class Deck:
    """All card kinds of a deck, indexed, with lookups the engine needs fast."""

    families: tuple[str, ...]
    cards: tuple[Card, ...]

    @property
    def size(self) -> int:
        return sum(c.copies for c in self.cards)

    @property
    def copies(self) -> tuple[int, ...]:
        return tuple(c.copies for c in self.cards)

    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def find(self, word: str) -> Card | None:
        """The card named ``word`` (its id, or its name in any case)."""
        key = name_key(word)
        for card in self.cards:
            if card.id == key or name_key(card.name) == key:
                return card
        return None


# ------------------------------------------------------------------ loading
@cache
def load_deck(name: str = DECK_FILE) -> Deck:
    """The deck from data file ``name`` in this package (or a path), validated."""
    return deck_from_data(read_data(PACKAGE, name), name)


def deck_from_text(text: str, source: str = "deck.toml") -> Deck:
    return deck_from_data(parse_data(text, source), source)


def deck_from_data(data: Mapping[str, Any], source: str) -> Deck:
    top = Fields(source, "", data)
    top.only(("families", "card"))
    families = tuple(top.items("families"))
    if not families or not all(isinstance(f, str) and f for f in families):
        top.fail("families", f"expected a list of family names, got {shorten(repr(families))}")
    for i, family in enumerate(families):
        if not ID.fullmatch(family) or len(family) > MAX_NAME:
            top.fail(
                f"families[{i}]", f"expected lower-case letters, digits and '-', got {family!r}"
            )
        if family in RESERVED_FAMILIES:
            top.fail(f"families[{i}]", f"{family!r} means every card in a bonus; choose another")
        if family in families[:i]:
            top.fail(f"families[{i}]", f"duplicate family {family!r}")
    tables = top.tables("card")
    if len(tables) > MAX_KINDS:
        top.fail("card", f"at most {MAX_KINDS} creatures, got {len(tables)}")
    cards: list[Card] = []
    names: dict[str, str] = {}  # what a player may type for a card (id or name) -> its id
    for index, fields in enumerate(tables):
        card = _card(index, fields, families)
        if card.id in names:
            other = names[card.id]
            if other == card.id:
                fields.fail("id", f"duplicate card id {card.id!r}")
            fields.fail("id", f"{card.id!r} is already the name of card {other!r}")
        names[card.id] = card.id
        key = name_key(card.name)
        if names.get(key, card.id) != card.id:
            fields.fail(
                "name", f"{card.name!r} reads as {key!r}, already card {names[key]!r}'s id or name"
            )
        names[key] = card.id
        cards.append(card)
    if not cards:
        top.fail("card", "the deck has no cards")
    return Deck(families, tuple(cards))


def name_key(name: str) -> str:
    """What a card name reads as in typed text: ``Will-o'-Wisp`` is ``will-o-wisp``."""
    return name.strip().lower().replace(" ", "-").replace("'", "")


def _card(index: int, fields: Fields, families: Sequence[str]) -> Card:
    card_id = fields.text("id")
    if not ID.fullmatch(card_id) or len(card_id) > MAX_NAME:
        fields.fail(
            "id", f"expected lower-case letters, digits and '-', got {shorten(repr(card_id))}"
        )
    fields.where = f"{fields.where} {card_id!r}"
    fields.only(("id", "name", "family", "glory", "penalty", "copies", "actions", "hourglass"))
    actions = tuple(
        _effect(Fields(fields.source, f"{fields.where}.actions[{i}]", raw), nested=False)
        for i, raw in enumerate(fields.items("actions", []))
    )
    for i, effect in enumerate(actions):
        if effect.do == "place" and i != 0:
            fields.fail(f"actions[{i}]", "place must be the card's first action")
    name = fields.text("name")
    if not name.strip() or len(name) > MAX_NAME or not name.isprintable() or not name_key(name):
        fields.fail(
            "name", f"expected 1 to {MAX_NAME} printable characters, got {shorten(repr(name))}"
        )
    if any(ch.isspace() and ch != " " for ch in name) or "  " in name or name != name.strip():
        fields.fail("name", f"single spaces between words only (it is typed), got {name!r}")
    bonus = None
    if fields.has("hourglass"):
        bonus = _bonus(fields.table_of("hourglass"), families)
    return Card(
        index=index,
        id=card_id,
        name=name,
        family=fields.text("family", families),
        glory=fields.integer("glory", 0, 10),
        penalty=fields.integer("penalty", 0, 10),
        copies=fields.integer("copies", 1, 6, default=1),
        actions=actions,
        bonus=bonus,
    )


def _effect(fields: Fields, nested: bool) -> Effect:
    do = fields.text("do", VOCABULARY)
    params = VOCABULARY[do]
    allowed = {"do", *params}
    if do in COUNTED:
        allowed.add("n")
    if do == "rps":
        allowed |= {"win", "lose"}
        if nested:
            fields.fail("do", "rock-paper-scissors cannot be a consequence of another contest")
    fields.only(allowed)
    values: dict[str, str] = {}
    for key, choices in params.items():
        value = fields.text(key, choices, default="you" if key == "who" else ...)
        if value == "rival" and not nested:
            fields.fail(key, "'rival' is only allowed inside an rps win or lose list")
        values[key] = value
    n = fields.integer("n", 1, MAX_COUNT, default=1) if do in COUNTED else 1
    win: tuple[Effect, ...] = ()
    lose: tuple[Effect, ...] = ()
    if do == "rps":
        win = tuple(
            _effect(Fields(fields.source, f"{fields.where}.win[{i}]", raw), nested=True)
            for i, raw in enumerate(fields.items("win", []))
        )
        lose = tuple(
            _effect(Fields(fields.source, f"{fields.where}.lose[{i}]", raw), nested=True)
            for i, raw in enumerate(fields.items("lose", []))
        )
        if not win and not lose:
            fields.fail("win", "a contest needs a consequence for the winner or the loser")
        for effect in (*win, *lose):
            if effect.do in ("place", "play"):
                fields.fail("win", f"{effect.do} cannot be a consequence of a contest")
    target = values.get("with") or values.get("from") or values.get("against") or ""
    return Effect(
        do,
        n,
        values.get("who", "you"),
        values.get("to", ""),
        target,
        values.get("at", ""),
        win,
        lose,
    )


def _bonus(fields: Fields, families: Sequence[str]) -> Bonus:
    kind = fields.text("per", BONUS_KINDS)
    fields.only(("per", "glory", *BONUS_KINDS[kind]))
    glory = fields.integer("glory", 1, 10)
    if kind in ("family", "neighbour"):
        return Bonus(kind, glory, family=fields.text("family", (*families, "any")))
    if kind == "position":
        return Bonus(kind, glory, at=fields.text("at", ("left", "right")))
    if kind == "most":
        return Bonus(kind, glory, of=fields.text("of", (*families, "cards")))
    return Bonus(kind, glory)


def check_deck(deck: Deck, source: str = DECK_FILE) -> None:
    """Raise DataError if a deck cannot make a game (too few cards to deal 6 hands)."""
    if deck.size < 30:
        raise DataError(source, "card", f"a deck needs at least 30 cards, has {deck.size}")


# ------------------------------------------------------------ rules text
def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def _subject(role: str) -> tuple[str, str]:
    """(subject, other) for an action done by ``role``: you, the winner, the loser."""
    if role == "you":
        return "you", "another player"
    return role, "the loser" if role == "the winner" else "the winner"


def _say(role: str, imperative: str, third: str) -> str:
    """'Draw 2 cards' for you; 'the winner draws 2 cards' for a contestant."""
    return imperative if role == "you" else f"{role} {third}"


def effect_text(effect: Effect, role: str = "you") -> str:
    """The rules text of one action, as done by ``role`` (you, the winner, the loser)."""
    return _capital(_effect_phrase(effect, role)) + "."


def _effect_phrase(e: Effect, role: str) -> str:
    _me, other = _subject(role)
    n = e.n
    if e.do in ("draw", "discard"):
        verb = e.do
        third = "draws" if verb == "draw" else "discards"
        if e.who == "you":
            return _say(role, f"{verb} {_cards(n)}", f"{third} {_cards(n)}")
        if e.who == "each":
            return f"each player {third} {_cards(n)}"
        if e.who == "others":
            return f"each other player {third} {_cards(n)}"
        if e.who == "rival":
            return f"{other} {third} {_cards(n)}"
        chooser = _say(role, "choose another player", "chooses another player")
        return f"{chooser}: they {verb} {_cards(n)}"
    if e.do == "give":
        cards = "a card" if n == 1 else f"{n} cards"
        if e.to == "rival":
            return _say(
                role,
                f"give {other} {cards} from your hand",
                f"gives {other} {cards} from their hand",
            )
        return _say(
            role,
            f"give {cards} from your hand to another player",
            f"gives {cards} from their hand to another player",
        )
    if e.do == "pass":
        side = "left" if e.to == "left" else "right"
        return f"every player passes {_cards(n)} to the player on their {side}"
    if e.do == "trade":
        if e.target == "rival":
            return _say(role, f"trade hands with {other}", f"trades hands with {other}")
        return _say(role, "trade hands with another player", "trades hands with another player")
    if e.do == "steal":
        what = "a random card" if n == 1 else f"{n} random cards"
        if e.target == "rival":
            return _say(
                role, f"steal {what} from {other}'s hand", f"steals {what} from {other}'s hand"
            )
        return _say(
            role,
            f"steal {what} from another player's hand",
            f"steals {what} from another player's hand",
        )
    if e.do == "reverse":
        return "reverse the direction of play"
    if e.do == "skip":
        return "the next player loses their turn"
    if e.do == "play":
        return _say(role, "play another card", "plays another card")
    if e.do == "place":
        if e.at == "left":
            return "place this card at the left end of your ranch"
        return "place this card anywhere in your ranch"
    if e.do == "banish":
        whose = "another player's ranch" if e.target == "opponent" else "any ranch"
        return _say(
            role,
            f"discard a card from {whose}",
            f"discards a card from {whose}",
        )
    if e.do == "return":
        if e.target == "yours":
            return _say(
                role,
                "return a card from your ranch to your hand",
                "returns a card from their ranch to their hand",
            )
        whose = "another player's ranch" if e.target == "opponent" else "any ranch"
        return _say(
            role,
            f"return a card from {whose} to its owner's hand",
            f"returns a card from {whose} to its owner's hand",
        )
    if e.do == "protect":
        return _say(
            role,
            "protect a card in your ranch: it cannot be discarded or returned this round",
            "protects a card in their ranch",
        )
    if e.do == "rps":
        then = [_effect_phrase(w, "the winner") for w in e.win]
        then += [_effect_phrase(x, "the loser") for x in e.lose]
        return "play rock-paper-scissors with another player; then " + " and ".join(then)
    raise DataError(DECK_FILE, e.do, "unknown action")  # pragma: no cover - validated on load


def bonus_text(bonus: Bonus) -> str:
    """The Hour Glass text of a bonus."""
    plus = f"+{bonus.glory} Glory"
    if bonus.kind == "family":
        what = "card" if bonus.family == "any" else f"{bonus.family.capitalize()}"
        return f"{plus} for each {what} in your ranch."
    if bonus.kind == "neighbour":
        what = "card" if bonus.family == "any" else f"{bonus.family.capitalize()}"
        return f"{plus} for each {what} next to this card."
    if bonus.kind == "position":
        return f"{plus} if this card is the {bonus.at}most card of your ranch."
    if bonus.kind == "most":
        what = "cards" if bonus.of == "cards" else f"{bonus.of.capitalize()} cards"
        return f"{plus} if no ranch holds more {what} than yours (at least one)."
    if bonus.kind == "empty-hand":
        return f"{plus} if your hand is empty."
    return f"{plus} for each family in your ranch."


def card_text(card: Card) -> str:
    """The whole rules text of a card, as a player reads it."""
    lines = [effect_text(e) for e in card.actions]
    if card.bonus is not None:
        lines.append("Hour Glass: " + bonus_text(card.bonus))
    return " ".join(lines) if lines else "No action."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
