"""An observation made by the state holds exactly the dataclass's fields.

``GloryState.observe`` fills the observation's fields by name without the generated
``__init__`` (it is made at every decision a bot looks at), and leaves the fields of
``LATER`` to be made on first read; a field added to the class but not to ``observe``, or a
name mistyped, would otherwise surface only when read. A late field read after the game
moved on still shows the position the observation was made at.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE, TERMINAL
from ranchhand.games.glory_ranch import GloryRanch
from ranchhand.games.glory_ranch.observation import LATER, GloryObservation

FIELDS = [f.name for f in dataclasses.fields(GloryObservation)]


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_every_observation_holds_the_fields_in_order(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = GloryRanch(players=players).new_initial_state()
    for _ in range(rng.randrange(0, 300)):
        current = state.current_player()
        if current == TERMINAL:
            break
        if current == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        actor = state.acting_players()[0]
        state.apply(rng.choice(state.legal_actions(actor)), actor)
    for viewer in [None, *range(players)]:
        observation = state.observe(viewer)
        again = GloryObservation(**{name: getattr(observation, name) for name in FIELDS})
        assert list(vars(observation)) == FIELDS
        assert again == observation
        assert again.to_json() == observation.to_json()


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_late_fields_read_after_the_game_moved_on_show_the_position_seen(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = GloryRanch(players=players).new_initial_state()
    kept: list[tuple[GloryObservation, dict[str, object]]] = []
    for _ in range(400):
        current = state.current_player()
        if current == TERMINAL:
            break
        if current != CHANCE:
            for viewer in (None, *state.acting_players()):
                unread, read = state.observe(viewer), state.observe(viewer).to_json()
                assert set(LATER) <= set(FIELDS) - set(vars(unread))
                kept.append((unread, read))
        if current == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        actor = state.acting_players()[0]
        state.apply(rng.choice(state.legal_actions(actor)), actor)
    for unread, read in kept:
        assert unread.to_json() == read
        assert list(vars(unread)) == FIELDS
