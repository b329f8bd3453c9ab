"""``observe`` builds its observation without the dataclass's ``__init__`` (for speed): the
result must be the very observation ``__init__`` makes, every field set, for every seat and
the spectator, at every step of a game (the terminal reveal included)."""

from __future__ import annotations

import random
from dataclasses import fields

from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.observation import RocketObservation


def _same_as_init(observation: RocketObservation) -> None:
    named = {f.name: getattr(observation, f.name) for f in fields(observation)}
    assert vars(observation) == named  # every field set, nothing else
    made = RocketObservation(**named)
    assert observation == made
    assert observation.to_json() == made.to_json()


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_observe_equals_the_dataclass_made_by_init(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = RocketGame(players).new_initial_state()
    while True:
        for viewer in [None, *range(players)]:
            _same_as_init(state.observe(viewer))
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
