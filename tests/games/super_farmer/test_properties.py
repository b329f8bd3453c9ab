"""Invariants of Super Farmer over random games, every reading of the options."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE
from ranchhand.core.registry import load
from ranchhand.games.super_farmer.state import SuperFarmerState
from ranchhand.games.super_farmer.tables import FARM

OPTIONS = st.fixed_dictionaries(
    {
        "exchanges": st.sampled_from(["one", "many"]),
        "trade": st.sampled_from(["mixed", "one-kind"]),
        "fox": st.sampled_from(["all", "leave-one"]),
        "wolf": st.sampled_from(["spares-small-dog", "takes-small-dog"]),
        "dog": st.sampled_from(["always", "if-needed"]),
        "predators": st.sampled_from(["fox-first", "wolf-first"]),
    }
)


def _conserved(state: SuperFarmerState) -> None:
    box = state.game.box
    for kind, total in enumerate(box):
        held = [mine[kind] for mine in state.animals]
        assert state.herd[kind] >= 0 and min(held) >= 0
        assert state.herd[kind] + sum(held) == total, "animals are conserved"


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 6), OPTIONS, st.integers(0, 2**32))
def test_animals_are_conserved_between_the_herds_and_the_bank(
    players: int, options: dict[str, str], seed: int
) -> None:
    game = load("super-farmer", players, max_turns=120, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        _conserved(state)
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
            continue
        player = state.current_player()
        state.apply(rng.choice(state.legal_actions(player)), player)
        if not state.is_terminal():
            full = [all(mine[k] for k in FARM) for mine in state.animals]
            assert not any(full), "a full herd ends the game at once"
    _conserved(state)
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winners:
        (winner,) = outcome.winners
        assert all(state.animals[winner][k] for k in FARM), "a winner holds the five species"


@settings(max_examples=8, deadline=None)
@given(OPTIONS, st.integers(0, 2**32))
def test_every_offered_exchange_is_fair_and_within_reach(
    options: dict[str, str], seed: int
) -> None:
    game = load("super-farmer", 2, max_turns=60, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    values = game.values
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
            continue
        player = state.current_player()
        for action in state.legal_actions(player):
            give = getattr(action, "give", None)
            if give is None:
                continue
            take = action.take  # type: ignore[attr-defined]
            assert sum(g * v for g, v in zip(give, values, strict=True)) == sum(
                t * v for t, v in zip(take, values, strict=True)
            )
            assert all(g <= m for g, m in zip(give, state.animals[player], strict=True))
            assert all(t <= h for t, h in zip(take, state.herd, strict=True))
            assert sum(give) == 1 or sum(take) == 1
        state.apply(rng.choice(state.legal_actions(player)), player)
