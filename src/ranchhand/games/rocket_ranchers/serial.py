"""Rocket Ranchers states as JSON: every card by its text, the deck as counts.

The full state, hidden parts included (observations are what hide things).
Loading trusts nothing: each field is checked for its shape here, naming it
(``data.corrals[1][0].founder: ...``); whether the position as a whole could
arise (cards conserved, phases consistent) is :mod:`.validate`'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ranchhand.core.errors import StateError, shorten
from ranchhand.games.rocket_ranchers.phases import PHASES
from ranchhand.games.rocket_ranchers.tables import CELLS, EMPTY, HIDDEN, Tables

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.state import RocketState

KEYS = (
    *("deck", "deck_cats", "display", "corrals", "floof", "beams", "dogship"),
    *("player", "phase", "setting_up", "pending"),
)
MAX_COUNT = 10**6
"""A bound on any count read (the box's bound is checked later, with the reason)."""


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
    """Fill a fresh ``state`` from :func:`state_to_json` data; StateError naming the field."""
    tables = state.tables
    players = state.game.players
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise StateError(f"data.{missing[0]}", "missing")
    extra = sorted(str(k) for k in data if k not in KEYS)
    if extra:
        raise StateError(f"data.{shorten(extra[0])}", f"unknown field; fields: {', '.join(KEYS)}")

    deck = data["deck"]
    if not isinstance(deck, Mapping):
        raise StateError("data.deck", f"expected an object of card: copies, got {_kind(deck)}")
    state.deck = [0] * tables.kinds
    for card, count in deck.items():
        kind = kind_of(tables, card, "data.deck")
        state.deck[kind] = read_count(count, f"data.deck.{card}")
    state.deck_cats = read_count(data["deck_cats"], "data.deck_cats")
    state.deck_size = sum(state.deck) + state.deck_cats
    state.left = [k for k, n in enumerate(state.deck) if n]

    display = read_list(data["display"], "data.display", CELLS)
    state.display = [display_card(tables, c, f"data.display[{i}]") for i, c in enumerate(display)]

    corrals = read_list(data["corrals"], "data.corrals", players)
    state.corrals = []
    for seat, mine in enumerate(corrals):
        where = f"data.corrals[{seat}]"
        state.corrals.append(
            [read_corral(tables, c, f"{where}[{i}]") for i, c in enumerate(read_list(mine, where))]
        )
    state.public = [tuple((HIDDEN, up) for _, up in mine) for mine in state.corrals]

    floof = read_list(data["floof"], "data.floof", players)
    state.floof = [read_count(n, f"data.floof[{p}]") for p, n in enumerate(floof)]
    beams = read_list(data["beams"], "data.beams", players)
    state.beams = [read_beams(tables, b, f"data.beams[{p}]") for p, b in enumerate(beams)]
    dogship = read_list(data["dogship"], "data.dogship", players)
    state.dogship = [read_flag(d, f"data.dogship[{p}]") for p, d in enumerate(dogship)]

    player = data["player"]
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise StateError("data.player", f"expected a seat 0..{players - 1}, got {player!r}")
    state.player = player
    phase = data["phase"]
    if phase not in PHASES:
        raise StateError("data.phase", f"expected one of {', '.join(PHASES)}, got {phase!r}")
    state.phase = PHASES.index(phase)
    state.setting_up = read_flag(data["setting_up"], "data.setting_up")
    pending = read_list(data["pending"], "data.pending")
    state.pending = [kind_of(tables, k, f"data.pending[{i}]") for i, k in enumerate(pending)]


def _kind(value: object) -> str:
    return type(value).__name__


def read_list(value: Any, where: str, length: int | None = None) -> list[Any]:
    """``value`` as a list (of ``length`` items if given), or StateError at ``where``."""
    if not isinstance(value, list):
        raise StateError(where, f"expected a list, got {_kind(value)}")
    if length is not None and len(value) != length:
        raise StateError(where, f"expected {length} entries, got {len(value)}")
    return value


def read_count(value: Any, where: str) -> int:
    """A whole number 0..MAX_COUNT (never a bool, a float or a text)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise StateError(where, f"expected a whole number 0..{MAX_COUNT:,}, got {value!r}")
    return value


def read_flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(where, f"expected true or false, got {value!r}")
    return value


def kind_of(tables: Tables, text: Any, where: str) -> int:
    """The Wildlife card a text names (never a Space Cat), or StateError at ``where``."""
    kind = tables.kind_by_text.get(text) if isinstance(text, str) else None
    if kind is None:
        shown = shorten(text) if isinstance(text, str) else text
        raise StateError(
            where, f"expected a Wildlife card SPECIES/BIOME/DOTS of this deck, got {shown!r}"
        )
    return kind


def display_card(tables: Tables, text: Any, where: str) -> int:
    """A display cell: a Wildlife card, ``cat`` or ``empty``."""
    if text == "empty":
        return EMPTY
    card = tables.card_of(text) if isinstance(text, str) else None
    if card is None:
        shown = shorten(text) if isinstance(text, str) else text
        raise StateError(
            where, f"expected a Wildlife card SPECIES/BIOME/DOTS, cat or empty, got {shown!r}"
        )
    return card


def read_corral(tables: Tables, value: Any, where: str) -> tuple[int, tuple[int, ...]]:
    """``{"founder": CARD, "face_up": [CARD, ...]}`` as a corral (kinds)."""
    if not isinstance(value, Mapping) or set(value) != {"founder", "face_up"}:
        raise StateError(where, f"expected an object with founder and face_up, got {value!r}")
    founder = kind_of(tables, value["founder"], f"{where}.founder")
    face_up = read_list(value["face_up"], f"{where}.face_up")
    return founder, tuple(
        kind_of(tables, k, f"{where}.face_up[{i}]") for i, k in enumerate(face_up)
    )


def read_beams(tables: Tables, value: Any, where: str) -> int:
    """A player's beams as one flag per beam (true: face up), as a bitmask."""
    flags = read_list(value, where, len(tables.beams))
    return sum(1 << i for i, up in enumerate(flags) if read_flag(up, f"{where}[{i}]"))
