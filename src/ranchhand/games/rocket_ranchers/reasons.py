"""Why an action is refused: the reasons shown to players, in the rulebook's words.

Called by the engine only for actions outside the legal list, so each function
may assume the action is not allowed and only has to say why.
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
    cell_index,
)
from ranchhand.games.rocket_ranchers.phases import AFTER, PHASES, PLACE, START
from ranchhand.games.rocket_ranchers.tables import CAT, EMPTY

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.state import RocketState


def why_illegal(state: RocketState, action: Hashable, player: int) -> str | None:
    """Why ``action`` (not in the legal list) is refused: the rule, in the game's words."""
    phase = PHASES[state.phase]
    if isinstance(action, Beam):
        return _why_not_beam(state, action, player)
    if isinstance(action, Reboot):
        if state.phase != START:
            return f"a reboot takes a whole turn; it is not possible in the {phase} phase"
        return "all your tractor beams are face up; a manual reboot needs one face down"
    if isinstance(action, Dogship):
        return _why_not_swap(state, action, player)
    if isinstance(action, Form | Occupy):
        return _why_not_place(state, action, player)
    if isinstance(action, EndTurn):
        return "your turn ends by using a beam or rebooting; 'end' follows the refill"
    if isinstance(action, Draw):
        return "only chance draws cards"
    return f"{action!r} is not a Rocket Ranchers action"


def _why_not_beam(state: RocketState, action: Beam, player: int) -> str:
    if state.phase != START:
        return f"a beam starts a turn; now is the {PHASES[state.phase]} phase"
    index = state.tables.beam_index.get(action.shape.lower())
    if index is None:
        names = ", ".join(b.name for b in state.tables.beams)
        return f"there is no beam {action.shape}; beams are {names}"
    if not state.beams[player] >> index & 1:
        return f"your {action.shape} beam is face down until your next reboot"
    return (
        f"{action.shape} r{action.rotation} anchored at {action.cell} would reach outside "
        "the 4x4 display; a beam must lie wholly inside it"
    )


def _why_not_swap(state: RocketState, action: Dogship, player: int) -> str:
    if state.phase not in (START, AFTER):
        return "the dogship may be used before the beam or after the refill"
    if not state.dogship[player]:
        return "your dogship is face down until your next reboot"
    first, second = cell_index(action.first), cell_index(action.second)
    if first is None or second is None or first == second:
        return "the dogship swaps two different display cells"
    cards = (state.display[first], state.display[second])
    if CAT in cards:
        return "the dogship may not swap Space Cats"
    if EMPTY in cards:
        return "the dogship swaps two cards; one of these cells is empty"
    biomes = [state.tables.deck.biomes[state.tables.biome[c]] for c in cards]
    return (
        f"{action.first} is {biomes[0]} and {action.second} is {biomes[1]}; "
        "the dogship swaps two cards of the same biome"
    )


def _why_not_place(state: RocketState, action: Form | Occupy, player: int) -> str:
    if state.phase != PLACE:
        return "there is no collected card to place now"
    kind = state.tables.kind_by_text.get(action.card)
    if kind not in state.pending:
        waiting = ", ".join(state.tables.text[k] for k in state.pending)
        return f"{action.card} is not among your collected cards ({waiting})"
    assert isinstance(action, Occupy)
    corrals = state.corrals[player]
    if not 1 <= action.corral <= len(corrals):
        have = "no corral" if not corrals else f"{len(corrals)} corral{'s' * (len(corrals) > 1)}"
        return f"you have {have}; form a new one with 'form {action.card}'"
    face_up = corrals[action.corral - 1][1]
    held = state.tables.deck.species[state.tables.species[face_up[0]]]
    return (
        f"corral {action.corral} holds {held}; a {action.card.split('/')[0]} card must go "
        "to an empty corral, one of its species, or form a new corral"
    )
