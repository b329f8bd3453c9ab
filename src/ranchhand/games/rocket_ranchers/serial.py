"""Rocket Ranchers states as JSON: every card by its text, the deck as counts.

The full state, hidden parts included (observations are what hide things);
loading checks the shape and names the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ranchhand.core import RecordError
from ranchhand.games.rocket_ranchers.phases import PHASES
from ranchhand.games.rocket_ranchers.tables import CELLS, EMPTY, HIDDEN

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.state import RocketState


def state_to_json(state: RocketState) -> dict[str, Any]:
    """The game-specific part of a state as plain JSON (cards as text)."""
    text = state.tables.card_text
    return {
        "deck": {state.tables.text[k]: n for k, n in enumerate(state.deck) if n},
        "deck_cats": state.deck_cats,
        "display": [text(c) for c in state.display],
        "corrals": [
            [{"founder": text(f), "face_up": [text(k) for k in up]} for f, up in mine]
            for mine in state.corrals
        ],
        "floof": list(state.floof),
        "beams": [[bool(b >> i & 1) for i in range(len(state.tables.beams))] for b in state.beams],
        "dogship": list(state.dogship),
        "player": state.player,
        "phase": PHASES[state.phase],
        "setting_up": state.setting_up,
        "pending": [text(k) for k in state.pending],
    }


def load_state_json(state: RocketState, data: Mapping[str, Any]) -> None:
    """Fill a fresh ``state`` from :func:`state_to_json` data; RecordError if malformed."""
    tables = state.tables
    try:
        state.deck = [0] * tables.kinds
        for card, count in data["deck"].items():
            state.deck[tables.kind_by_text[card]] = int(count)
        state.deck_cats = int(data["deck_cats"])
        state.deck_size = sum(state.deck) + state.deck_cats
        state.left = [k for k, n in enumerate(state.deck) if n]
        state.display = [_card(tables.card_of, c) for c in data["display"]]
        state.corrals = [
            [
                (
                    _card(tables.card_of, c["founder"]),
                    tuple(tables.kind_by_text[k] for k in c["face_up"]),
                )
                for c in mine
            ]
            for mine in data["corrals"]
        ]
        state.public = [tuple((HIDDEN, up) for _, up in mine) for mine in state.corrals]
        state.floof = [int(n) for n in data["floof"]]
        state.beams = [sum(1 << i for i, up in enumerate(b) if up) for b in data["beams"]]
        state.dogship = [bool(d) for d in data["dogship"]]
        state.player = int(data["player"])
        state.phase = PHASES.index(data["phase"])
        state.setting_up = bool(data["setting_up"])
        state.pending = [tables.kind_by_text[k] for k in data["pending"]]
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"rocket-ranchers state JSON is malformed: {error!r}") from None
    if len(state.display) != CELLS or len(state.corrals) != state.game.players:
        raise RecordError("rocket-ranchers state JSON: wrong display size or player count")


def _card(card_of: Any, text: str) -> int:
    if text == "empty":
        return EMPTY
    card = card_of(text)
    if card is None:
        raise ValueError(f"unknown card {text!r}")
    return card
