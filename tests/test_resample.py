"""Determinization, run against every registered game: ``state.resample(player, rng)``.

A resampled state must look the same to ``player`` as the state it came from, play on
legally to the end, and come out the same from the same seed. A game whose
``sample_state`` still raises GameDefinitionError is skipped, saying so.
"""

from __future__ import annotations

import random

import pytest

from ranchhand.core import CHANCE, TERMINAL, State
from ranchhand.core.errors import GameDefinitionError
from ranchhand.core.registry import GAME_MODULES, game_class, load, register

register("toy", "tests.core.toy")
GAMES = sorted(GAME_MODULES)
STATES_PER_GAME = 12
MAX_STEPS = 300


def _step(state: State, rng: random.Random) -> None:
    """One random move: a chance outcome, or a random legal action of the first actor."""
    if state.current_player() == CHANCE:
        state.apply(state.chance_outcomes().sample(rng), CHANCE)
    else:
        player = state.acting_players()[0]
        state.apply(rng.choice(state.legal_actions(player)), player)


def _random_states(game_id: str, players: int, seed: str) -> list[State]:
    """States met along random games, a few from each stage."""
    game = load(game_id, players, max_turns=200)
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < STATES_PER_GAME:
        state = game.new_initial_state()
        steps = 0
        while state.current_player() != TERMINAL and steps < MAX_STEPS:
            if rng.random() < 0.08:
                found.append(state.clone())
            _step(state, rng)
            steps += 1
    return found[:STATES_PER_GAME]


def _searchable(game_id: str, players: int) -> None:
    game = load(game_id, players)
    state = game.new_initial_state()
    try:
        state.resample(0, random.Random(0))
    except GameDefinitionError as error:
        pytest.skip(f"{game_id} does not define sample_state ({error})")


def _cases() -> list[tuple[str, int]]:
    cases = []
    for game_id in GAMES:
        cls = game_class(game_id)
        cases += [(game_id, cls.min_players), (game_id, cls.max_players)]
    return sorted(set(cases))


@pytest.mark.parametrize(("game_id", "players"), _cases())
def test_resampled_state_looks_the_same_to_the_player(game_id: str, players: int) -> None:
    _searchable(game_id, players)
    rng = random.Random(1)
    for state in _random_states(game_id, players, f"{game_id}/{players}"):
        before = state.to_json()
        observers = sorted({*state.acting_players(), *range(players)})
        for player in observers:
            seen = state.observe(player).to_json()
            sampled = state.resample(player, rng)
            assert sampled is not state
            assert sampled.observe(player).to_json() == seen, f"player {player} sees a change"
            assert sampled.current_player() == state.current_player()
            assert sampled.acting_players() == state.acting_players()
        assert state.to_json() == before, "resampling must not change the state"


@pytest.mark.parametrize(("game_id", "players"), _cases())
def test_resampled_state_plays_on_legally(game_id: str, players: int) -> None:
    _searchable(game_id, players)
    rng = random.Random(2)
    for state in _random_states(game_id, players, f"{game_id}/{players}/play"):
        player = (state.acting_players() or (0,))[0]
        sampled = state.resample(player, rng)
        steps = 0
        while sampled.current_player() != TERMINAL and steps < MAX_STEPS * 4:
            _step(sampled, rng)
            steps += 1


@pytest.mark.parametrize(("game_id", "players"), _cases())
def test_resampling_is_reproducible_from_the_seed(game_id: str, players: int) -> None:
    _searchable(game_id, players)
    for state in _random_states(game_id, players, f"{game_id}/{players}/seed")[:4]:
        player = (state.acting_players() or (0,))[0]
        first = [state.resample(player, random.Random(7)).to_json() for _ in range(2)]
        assert first[0] == first[1]


def test_the_default_names_the_game() -> None:
    from ranchhand.core import Game
    from tests.core.toy import GAME as Toy

    game = Toy()
    observation = game.new_initial_state().observe(0)
    with pytest.raises(GameDefinitionError, match=game.id):
        Game.sample_state(game, observation, random.Random(0))
