"""Glory Ranch's static data for the browser table (``ui.catalog`` in glory-ranch.js).

Everything here is public knowledge, like the printed cards: every creature of the
loaded deck (id, name, family, Glory, penalty, copies, rules text, the Hour Glass
bonus in words) and the families with their short codes (``D`` dragon, ``Sp``
spirit...), so a card's family is shown by name and letter, never by colour alone.
The rules text comes from the same data the engine runs (``card_text``).

>>> from ranchhand.games.glory_ranch import GloryRanch
>>> data = catalog(GloryRanch(3))
>>> data["families"][0]
{'id': 'dragon', 'name': 'Dragon', 'code': 'D'}
>>> data["cards"]["hearth-drake"]["hourglass"]
'Hour Glass: +1 Glory for each Dragon in your ranch.'
"""

from __future__ import annotations

from typing import Any

from ranchhand.games.glory_ranch.cards import Card, bonus_text, effect_text
from ranchhand.games.glory_ranch.shorttext import family_codes, short_bonus, short_text


def catalog(game: Any) -> dict[str, Any]:
    """The deck of ``game`` (a GloryRanch) as JSON-ready data for the page."""
    deck = game.deck
    codes = family_codes(deck.families)
    return {
        "families": [
            {"id": family, "name": family.capitalize(), "code": codes[family]}
            for family in deck.families
        ],
        "cards": {card.id: _card(card) for card in deck.cards},
        "order": [card.id for card in deck.cards],
        "size": deck.size,
        "target": game.target,
    }


def _card(card: Card) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": card.name,
        "family": card.family,
        "glory": card.glory,
        "penalty": card.penalty,
        "copies": card.copies,
        "text": card.text,
        "actions": [effect_text(e) for e in card.actions],
        "effects": [e.to_json() for e in card.actions],
        "hourglass": None if card.bonus is None else "Hour Glass: " + bonus_text(card.bonus),
        "short": short_text(card),
        "hourglass_short": None if card.bonus is None else short_bonus(card.bonus),
    }
