"""Building constructed Rocket Ranchers positions for rule tests.

Positions are reached through the public API only: the display is filled by
applying chance draws of named cards, so every test starts from a state the
rules themselves could produce.
"""

from __future__ import annotations

from collections.abc import Mapping

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
