"""Constructed Rancho positions for rule tests: set animals, land and arrangements directly."""

from __future__ import annotations

from typing import Any

from ranchhand.games.rancho.actions import Arrange
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.notation import parse, parse_animals
from ranchhand.games.rancho.state import RanchoState


def position(players: int = 2, **options: Any) -> RanchoState:
    """A fresh game whose players start with nothing (their start animals back in the herd)."""
    state = RanchoGame(players, **options).new_initial_state()
    for p in range(players):
        give(state, p, "nothing")
    return state


def give(state: RanchoState, player: int, animals: str) -> None:
    """Set exactly what ``player`` owns (from and to the herd) and place it safest.

    Animals that do not fit yet are placed by a later :func:`own`.
    """
    counts = parse_animals(animals, "test")
    for kind in range(6):
        state.herd[kind] += state.animals[player][kind] - counts[kind]
        assert state.herd[kind] >= 0, f"the herd lacks {kind}"
        state.animals[player][kind] = counts[kind]
    if state.safest(player) is not None:
        state.place(player)
    state._legal_cache.clear()


def own(state: RanchoState, player: int, *ids: str) -> None:
    """Give ``player`` the pastures ``ids`` (no payment) and re-place their animals."""
    board = state.game.board
    for space_id in ids:
        index = board.by_id[space_id]
        assert state.owner[index] < 0, f"{space_id} is taken"
        state.land[player] |= 1 << index
        state.taken |= 1 << index
        state.owner[index] = player
    state.place(player)
    state._legal_cache.clear()


def arrange(state: RanchoState, player: int, pieces: str) -> None:
    """Set ``player``'s arrangement from text, checking it like the rules do."""
    action = parse(f"arrange {pieces}", state._is_space)
    assert isinstance(action, Arrange)
    resolved, problem = state.resolve(action)
    assert problem is None, problem
    problem = state.game.grazing.check(state.region(player), state.animals[player], resolved)
    assert problem is None, problem
    state.pieces[player] = resolved
    state._legal_cache.clear()


def box(state: RanchoState) -> list[int]:
    """Everything in the herd and every player's hands, by species (must never change)."""
    totals = list(state.herd)
    for mine in state.animals:
        for kind in range(6):
            totals[kind] += mine[kind]
    return totals


def counts(text: str) -> tuple[int, ...]:
    return parse_animals(text, "test")
