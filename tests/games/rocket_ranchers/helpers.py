"""Building constructed Rocket Ranchers positions for rule tests.

Positions are reached through the public API only: ``table`` fills the display
by applying chance draws of named cards, ``position`` describes a later moment
of a game through ``Game.setup`` (which refuses positions the rules cannot reach).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ranchhand.core import CHANCE
from ranchhand.games.rocket_ranchers.actions import cell_index
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState

FILLERS = [
    f"{species}/{biome}/{dots}"
    for dots in (3, 2, 1)
    for biome in ("desert", "grassland", "jungle", "mountains", "tundra")
    for species in ("bako", "canis", "capiwata", "chicken", "eleplant")
]
"""Cards to fill cells a test does not name (those in the deck for the player count)."""


def table(
    cards: Mapping[str, str] | None = None, players: int = 2, **options: object
) -> RocketState:
    """A state at the first player's first turn with ``cards`` (cell -> card) in the display.

    Unnamed cells get distinct filler cards not named elsewhere.
    """
    cards = {k.lower(): v.lower() for k, v in (cards or {}).items()}
    game = RocketGame(players, **options)
    state = game.new_initial_state()
    named = set(cards.values())
    fillers = iter(f for f in FILLERS if f not in named and _in_deck(state, f))
    for index in range(16):
        assert state.current_player() == CHANCE
        card = next((v for k, v in cards.items() if cell_index(k) == index), None)
        state.apply_text(f"draw {card or next(fillers)}")
    assert state.current_player() == 0
    return state


def position(
    cards: Mapping[str, str] | None = None,
    players: int = 2,
    seats: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    **spec: Any,
) -> RocketState:
    """A position described through ``Game.setup`` (no private attribute touched).

    ``cards`` (cell -> card) go in the display and distinct fillers elsewhere;
    ``seats`` are the per-seat tables (corrals, floof, beams_up, dogship_up) and
    ``spec`` any other setup key (``player``, ``turn``).
    """
    cards = {k.lower(): v.lower() for k, v in (cards or {}).items()}
    game = RocketGame(players, **(options or {}))
    box, _ = game.tables.deck_counts(players)
    used = set(cards.values())
    for seat in seats:
        for corral in seat.get("corrals", []):
            used.update([corral["founder"], *corral.get("face_up", [])])
    fillers = iter(f for f in FILLERS if f not in used and box[game.tables.kind_by_text[f]])
    display = [
        next((v for k, v in cards.items() if cell_index(k) == index), None) or next(fillers)
        for index in range(16)
    ]
    return game.setup({"display": display, "players": list(seats), **spec})


def _in_deck(state: RocketState, text: str) -> bool:
    kind = state.tables.kind_by_text[text]
    return state.deck[kind] > 0


def cells(state: RocketState) -> dict[str, str]:
    """The display as cell -> card text (empty cells left out)."""
    from ranchhand.games.rocket_ranchers.actions import cell_name

    return {cell_name(i): state.tables.card_text(c) for i, c in enumerate(state.display) if c != -1}


def finish_refill(state: RocketState, card: str = "") -> None:
    """Apply chance draws until the refill is over (drawing ``card`` first if given)."""
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        wanted = [a for a in outcomes.actions if str(a) == f"draw {card}"]
        state.apply(wanted[0] if wanted else outcomes.actions[0])
        card = ""


def endgame(
    players: int = 2, player: int = 0, deck: Sequence[str] = (), empty: Sequence[str] = ()
) -> RocketState:
    """A late position: only the cards ``deck`` left to draw, ``empty`` display cells empty.

    Every other card of the box is on the table: filler cards in the display, the
    rest founding corrals dealt round the seats, every Space Cat in seat 0's floof pile.
    """
    game = RocketGame(players)
    box, cats = game.tables.deck_counts(players)
    empty_cells = {cell_index(c) for c in empty}
    spare = [f for f in FILLERS if f not in deck and box[game.tables.kind_by_text[f]]]
    display = ["empty" if i in empty_cells else spare.pop(0) for i in range(16)]
    left = [game.tables.text[k] for k, n in enumerate(box) for _ in range(n)]
    for card in (*display, *deck):
        if card != "empty":
            left.remove(card)
    seats: list[dict[str, Any]] = [{"corrals": []} for _ in range(players)]
    for index, card in enumerate(left):
        seats[index % players]["corrals"].append({"founder": card})
    seats[0]["floof"] = cats
    return game.setup(
        {"player": player, "turn": 3 * players + player, "display": display, "players": seats}
    )
