"""The OpenSpiel adapter under OpenSpiel's own tools: random_sim_test, MCTS and IS-MCTS.

Every registered game with an encoding is tested at its smallest and largest
table, plus the toy game (tests/core/toy.py), which has a simultaneous node.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from ranchhand.core.errors import GameDefinitionError, OptionError
from ranchhand.core.game import CHANCE
from ranchhand.core.registry import GAME_MODULES, game_class
from tests.envs.toy_encoding import BoundedToyGame

pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")

from ranchhand.envs.openspiel import (  # noqa: E402
    OpenSpielState,
    register,
    register_game,
    short_name,
)

TOY = register_game(BoundedToyGame)
MCTS_TURNS = 12
"""Turn limit of the games the search bots play in full: rollouts of whole random games of
Rancho or Glory Ranch would take minutes at this budget, and the cut-off is the game's own
``max_turns`` option, so the bots still play a game to its (truncated) end."""


def _game_names() -> list[Any]:
    names: list[Any] = []
    for game_id in GAME_MODULES:
        cls = game_class(game_id)
        if short_name(cls.id) == TOY:  # other tests register the toy; the bounded one is ours
            continue
        try:
            cls(cls.min_players).encoding()
        except GameDefinitionError:
            names.append(
                pytest.param(
                    short_name(cls.id),
                    marks=pytest.mark.skip(reason=f"{cls.id} has no encoding yet"),
                )
            )
            continue
        names.append(short_name(cls.id))
    return [*names, TOY]


GAMES = _game_names()


def _ranch_class(name: str) -> Any:
    return BoundedToyGame if name == TOY else game_class(name.removeprefix("ranchhand_"))


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register()


def test_register_names_every_encoded_game_and_is_idempotent() -> None:
    first = register()
    assert register() == first
    assert set(first) <= set(pyspiel.registered_names())
    assert all(name.startswith("ranchhand_") and "-" not in name for name in first)


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_passes_with_serialization_at_smallest_and_largest_table(name: str) -> None:
    cls = _ranch_class(name)
    for players in sorted({cls.min_players, cls.max_players}):
        game = pyspiel.load_game(name, {"players": players})
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_game_type_and_parameters_follow_the_game(name: str) -> None:
    cls = _ranch_class(name)
    game = pyspiel.load_game(name, {"players": cls.max_players, "max_turns": 7})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL  # contests one by one
    perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert perfect == (cls.information == "perfect")
    assert game.num_players() == cls.max_players
    assert game.ranch.options["max_turns"] == 7
    extra = {"simultaneous"} if cls.simultaneous else set()
    extra |= {"information"} if cls.information == "perfect" else set()
    assert set(kind.parameter_specification) == {"players", "max_decisions", "recall"} | extra | {
        o.name for o in cls.option_specs()
    }
    encoding = game.ranch.encoding()
    assert game.num_distinct_actions() == encoding.num_actions
    if cls.simultaneous:
        at_once = pyspiel.load_game(name, {"simultaneous": True})
        assert at_once.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        wait = at_once.ranch.encoding().num_actions
        assert at_once.num_distinct_actions() == wait + 1
    assert game.max_chance_outcomes() == encoding.max_chance_outcomes
    assert tuple(game.observation_tensor_shape()) == (int(np.prod(encoding.observation_shape)),)


@pytest.mark.parametrize("name", GAMES)
def test_observations_are_the_players_own(name: str) -> None:
    """Tensor and string come from observe(player): they equal the encoding's, seat by seat."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(40):
        if state.is_terminal():
            break
        for player in range(game.num_players()):
            seen = state.ranch.observe(player)
            expected = state.ranch.game.encoding().observation_tensor(seen, player)
            assert np.array_equal(state.observation_tensor(player), expected.reshape(-1))
            assert json.loads(state.observation_string(player)) == json.loads(
                json.dumps(seen.to_json())
            )
        _random_step(state, rng)


def test_players_outside_a_contest_wait_and_cannot_see_the_sign_chosen() -> None:
    """Mid-node (player 0 has bet), player 0 only waits and player 1's view is the same
    whichever bet player 0 made."""
    game = pyspiel.load_game(TOY, {"players": 3, "simultaneous": True})
    views = []
    for bet in (0, 1):
        ranch = game.ranch.new_initial_state()
        ranch.apply(ranch.chance_outcomes().actions[0], CHANCE)
        ranch.apply(ranch.game.encoding().index_to_action(ranch, bet, 0), 0)
        state = OpenSpielState(game, ranch)
        wait = game.num_distinct_actions() - 1
        assert state.legal_actions(0) == [wait]
        assert state.legal_actions(1) == [0, 1]
        assert state.action_to_string(0, wait) == "wait"
        views.append((state.observation_tensor(1), state.observation_string(1)))
        state.apply_actions([wait, 1, 0])
        assert state.is_chance_node()
    assert views[0] == views[1]


def test_clones_are_independent() -> None:
    game = pyspiel.load_game(TOY, {"simultaneous": True})
    state = game.new_initial_state()
    state.apply_action(2)
    twin = state.clone()
    twin.apply_actions([0, 0])
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert twin.is_chance_node()
    assert str(twin) != str(state)


@pytest.mark.parametrize("name", GAMES)
def test_mcts_plays_a_game_to_its_end(name: str) -> None:
    """OpenSpiel's MCTS bot takes every seat; simultaneous games play in turn-based form."""
    game = pyspiel.load_game(name, {"max_turns": MCTS_TURNS})
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, 1.4, 4, mcts.RandomRolloutEvaluator(1, random_state=rng), random_state=rng
    )
    _play_to_end(game, bot, rng)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("key", ["information_state", "observation"])
def test_ismcts_plays_a_game_to_its_end(name: str, key: str) -> None:
    """OpenSpiel's Python IS-MCTS on every game, keyed on perfect-recall information
    states (its default) or on observations, determinizing through
    ``resample_from_infostate`` (the engine's ``resample``). Contests are asked one
    player after another (the default form); a perfect-information game is declared
    ``information=imperfect``, since IS-MCTS accepts no other."""
    cls = _ranch_class(name)
    params: dict[str, Any] = {"max_turns": MCTS_TURNS}
    if cls.information == "perfect":
        params["information"] = "imperfect"
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, random_state=rng),
        1.4,
        4,
        random_state=rng,
        use_observation_string=key == "observation",
        allow_inconsistent_action_sets=True,
    )
    _play_to_end(game, bot, rng)


def _play_to_end(game: Any, bot: Any, rng: np.random.RandomState) -> None:
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > 0
    assert len(state.returns()) == game.num_players()


def _random_step(state: Any, rng: np.random.Generator) -> None:
    if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    elif state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
        state.apply_actions(
            [int(rng.choice(state.legal_actions(p))) for p in range(state.num_players())]
        )
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_bad_parameter_is_refused_with_the_games_own_reason() -> None:
    with pytest.raises(OptionError, match="a game of 9 players is not allowed"):
        pyspiel.load_game(TOY, {"players": 9})
    with pytest.raises(OptionError, match="target: 0 is below the minimum 1"):
        pyspiel.load_game(TOY, {"target": 0})
