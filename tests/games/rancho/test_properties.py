"""Properties over random play: conservation, legality, notation, JSON and records."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.bots import RandomBot
from ranchhand.core import CHANCE, play, replay
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.grazing import counts_of
from ranchhand.games.rancho.state import RETURN
from tests.games.rancho.helpers import box

OPTIONS = st.fixed_dictionaries(
    {
        "board": st.sampled_from(["hex-rings", "hex-compact"]),
        "dice": st.sampled_from(["twin", "farmer"]),
        "dogs": st.sampled_from(["by-players", "all", "none"]),
    }
)


def walk(players: int, options: dict[str, str], seed: int, check_every: int = 1):  # type: ignore[no-untyped-def]
    """Random play from the start, checking invariants at every step; yields states."""
    game = RanchoGame(players, max_turns=400, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    total = box(state)
    step = 0
    while not state.is_terminal():
        if step % check_every == 0:
            yield state
        if state.current_player() == CHANCE:
            action = state.chance_outcomes().sample(rng)
        else:
            actions = state.legal_actions()
            assert actions, "a player to act always has a legal action"
            action = rng.choice(actions)
        state.apply(action)
        step += 1
        assert box(state) == total, f"animals created or lost after {action}"
        assert all(n >= 0 for n in state.herd)
        for p in range(players):
            assert all(n >= 0 for n in state.animals[p])
    yield state


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), OPTIONS, st.integers(0, 2**32))
def test_random_play_conserves_animals_and_keeps_arrangements_true(
    players: int, options: dict[str, str], seed: int
) -> None:
    last = None
    for state in walk(players, options, seed):
        grazing = state.game.grazing
        for p in range(players):
            if state.phase != RETURN or p != state.player:  # newborns wait for room
                assert counts_of(state.pieces[p]) == state.animals[p][:4]
                region = state.region(p)
                assert grazing.check(region, state.animals[p], state.pieces[p]) is None
            assert state.land[p].bit_count() <= 12
        last = state
    assert last is not None and last.is_terminal()


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), OPTIONS, st.integers(0, 2**32))
def test_every_offered_action_is_legal_and_its_text_parses_back(
    players: int, options: dict[str, str], seed: int
) -> None:
    for state in walk(players, options, seed, check_every=3):
        if state.is_terminal():
            break
        player = state.current_player()
        for action in state.legal_actions():
            assert state.is_legal(action, player)
            assert state.parse_action(str(action), player) == action


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), OPTIONS, st.integers(0, 2**32))
def test_states_round_trip_through_json(players: int, options: dict[str, str], seed: int) -> None:
    for state in walk(players, options, seed, check_every=7):
        data = json.loads(json.dumps(state.to_json()))
        again = state.game.state_from_json(data)
        assert again.to_json() == state.to_json()
        assert again.owner == state.owner and again.pieces == state.pieces
        assert again.legal_actions(state.current_player() if not state.is_terminal() else 0) == (
            state.legal_actions(state.current_player() if not state.is_terminal() else 0)
        )
        twin = state.clone()
        assert twin.to_json() == state.to_json()


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), OPTIONS, st.integers(0, 2**32))
def test_records_replay_to_the_same_end(players: int, options: dict[str, str], seed: int) -> None:
    game = RanchoGame(players, max_turns=400, **options)
    result = play(game, [RandomBot() for _ in range(players)], seed, record=True)
    assert result.record is not None
    final = replay(result.record)
    assert final.outcome() == result.outcome
