"""Log lines of Rocket Ranchers: an action as one viewer may read it, before it is applied.

The terminal prefixes each line with the acting player ("P1 greedy: "), so a
line starts with the action as typed and goes on to say what it does:

- ``beam L3 r90 @b2, taking kow/tundra/2, bako/desert/1 and a Space Cat`` for
  the player who beams, ``…, taking 2 cards and a Space Cat`` for the others (a
  card taken may go face down: the log does not follow it there)
- ``dogship a1 c3, swapping kow/tundra/2 and kow/desert/1``
- ``form kow/tundra/2, face down as corral 3`` for its owner, and for everyone
  else ``forms corral 3 with a face-down card`` (the card stays secret)
- ``occupy kow/tundra/2 in 1 (3 cards face up there)``
- ``reboot, turning every beam and the dogship face up``;
  ``end (the dogship stays face up)``
- ``draw kow/tundra/2 into c3`` (draws land face up, so everyone reads them)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ranchhand.games.rocket_ranchers.actions import (
    Beam,
    Dogship,
    Draw,
    EndTurn,
    Form,
    Occupy,
    Reboot,
    cell_name,
)
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.state import RocketState


def describe(state: RocketState, viewer: int | None, action: Hashable, player: int) -> str:
    """``action`` (about to be applied by ``player``) as ``viewer`` may read it."""
    tables = state.tables
    if isinstance(action, Form):
        number = len(state.corrals[player]) + 1
        if viewer != player:
            return f"forms corral {number} with a face-down card"
        return f"{action}, face down as corral {number}"
    if isinstance(action, Beam) and action in tables.placement_of:
        mask = state._catch(action)
        cards = [state.display[c] for c in range(CELLS) if mask >> c & 1]
        return f"{action}, taking {_catch_text(state, cards, named=viewer == player)}"
    if isinstance(action, Dogship) and action in tables.swap_cells:
        first, second = (state.display[c] for c in tables.swap_cells[action])
        return f"{action}, swapping {tables.card_text(first)} and {tables.card_text(second)}"
    if isinstance(action, Occupy):
        corrals = state.corrals[player]
        if 0 < action.corral <= len(corrals):
            there = len(corrals[action.corral - 1][1]) + 1
            return f"{action} ({there} {'card' if there == 1 else 'cards'} face up there)"
    if isinstance(action, Reboot):
        return f"{action}, turning every beam and the dogship face up"
    if isinstance(action, EndTurn):
        return f"{action} (the dogship stays face up)" if state.dogship[player] else str(action)
    if isinstance(action, Draw) and EMPTY in state.display:
        return f"{action} into {cell_name(state.display.index(EMPTY))}"
    return str(action)


def _catch_text(state: RocketState, cards: list[int], named: bool) -> str:
    """``kow/tundra/2, bako/desert/1 and 2 Space Cats``; ``nothing`` from empty cells.

    Only the player who beams reads the Wildlife cards by name; the others read
    how many (``2 cards and a Space Cat``), so the log never leads them to a card
    its owner then puts face down (the observation does not either).
    """
    wild = [c for c in cards if c >= 0]
    if named:
        names = [state.tables.card_text(c) for c in wild]
    else:
        names = [f"{len(wild)} {'card' if len(wild) == 1 else 'cards'}"] if wild else []
    cats = sum(c == CAT for c in cards)
    if cats:
        names.append("a Space Cat" if cats == 1 else f"{cats} Space Cats")
    if not names:
        return "nothing (the cells are empty)"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
