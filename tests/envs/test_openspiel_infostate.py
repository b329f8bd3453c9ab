"""Perfect-recall information states (``ranchhand.core.recall``) through the OpenSpiel
adapter, and OpenSpiel's algorithms that need them, on small configurations of every game.

* Two histories a player cannot tell apart (the same observations in the same order, the
  same own actions) give one information state, and two it can tell apart give two: checked
  against a fresh reading of the nodes, for histories that differ in one chance outcome.
* Every observation is a function of the information state (its last line).
* The record read step by step, from clones (copy on write), equals a fresh replay.
* IS-MCTS, outcome-sampling MCCFR, full CFR where the tree is small, and
  ``rl_environment`` run to the end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
cfr = pytest.importorskip("open_spiel.python.algorithms.cfr")
mccfr = pytest.importorskip("open_spiel.python.algorithms.outcome_sampling_mccfr")
rl_environment = pytest.importorskip("open_spiel.python.rl_environment")

from ranchhand.core.recall import Recall  # noqa: E402
from ranchhand.envs.openspiel import OpenSpielState, register  # noqa: E402

NAMES = [
    "ranchhand_rancho",
    "ranchhand_rocket_ranchers",
    "ranchhand_glory_ranch",
    "ranchhand_super_farmer",
]


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register()


def _random_history(game: Any, steps: int, rng: random.Random) -> list[int]:
    state, history = game.new_initial_state(), []
    while not state.is_terminal() and len(history) < steps:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        history.append(action)
    return history


def _replay(game: Any, history: list[int]) -> Any | None:
    """The state after ``history``, or None where an action is not legal there."""
    state = game.new_initial_state()
    for action in history:
        if state.is_terminal():
            return None
        legal = (
            [o for o, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        if action not in legal:
            return None
        state.apply_action(action)
    return state


def _seen(state: OpenSpielState, player: int) -> list[tuple[str, Any]]:
    """The oracle: ``player``'s observation before every node and now, and the player's
    own actions, read from a fresh replay of the engine's nodes, equal moments merged."""
    engine = state._engine
    ranch = engine.game.new_initial_state()
    out: list[tuple[str, Any]] = []
    for node in engine.recall.nodes:
        text = json.dumps(ranch.observe(player).to_json(), sort_keys=True)
        mine = [str(a) for who, a in node if who == player]
        if out and out[-1] == (text, None):
            out.pop()
        out.append((text, mine[0] if mine else None))
        for who, action in node:
            ranch.apply(action, who)
    text = json.dumps(ranch.observe(player).to_json(), sort_keys=True)
    if not out or out[-1] != (text, None):
        out.append((text, None))
    return out


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", range(2))
def test_one_information_state_exactly_for_histories_a_player_cannot_tell_apart(
    name: str, seed: int
) -> None:
    game = pyspiel.load_game(name, {"players": 2, "max_turns": 6})
    rng = random.Random(seed)
    history = _random_history(game, 40, rng)
    state = _replay(game, history)
    assert state is not None
    chances = [i for i in range(len(history)) if _replay(game, history[:i]).is_chance_node()]  # type: ignore[union-attr]
    same = differ = 0
    for at in rng.sample(chances, min(4, len(chances))):
        node = _replay(game, history[:at])
        for outcome, _ in node.chance_outcomes()[:12]:  # type: ignore[union-attr]
            other = _replay(game, [*history[:at], outcome, *history[at + 1 :]])
            if other is None:
                continue
            for player in range(2):
                told_apart = _seen(state, player) != _seen(other, player)
                mine = state.information_state_string(player)
                theirs = other.information_state_string(player)
                assert (mine != theirs) == told_apart, (name, at, outcome, player)
                same += not told_apart
                differ += told_apart
    assert same + differ  # some other history was played and compared


@pytest.mark.parametrize("name", NAMES)
def test_every_observation_is_a_function_of_the_information_state(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2, "max_turns": 6})
    rng = random.Random(5)
    state = game.new_initial_state()
    seen: dict[str, str] = {}
    while not state.is_terminal():
        for player in range(2):
            info = state.information_state_string(player)
            observation = state.observation_string(player)
            assert info.splitlines()[-1] == observation
            assert seen.setdefault(info, observation) == observation
            tensor = state.information_state_tensor(player)
            assert len(tensor) == game.information_state_tensor_size()
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", NAMES)
def test_records_read_step_by_step_and_from_clones_equal_a_fresh_replay(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2, "max_turns": 6})
    rng = random.Random(2)
    state = game.new_initial_state()
    for step in range(60):
        if state.is_terminal():
            break
        if step % 3 == 0:
            state.information_state_string(step % 2)  # read part way: cursors move
            state = state.clone()  # and are shared with the clone
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    fresh = Recall(state.ranch.game)
    fresh.nodes = list(state._engine.recall.nodes)
    for player in range(2):
        assert state.information_state_string(player) == fresh.string(player)


@pytest.mark.parametrize("name", NAMES)
def test_a_resampled_state_keeps_the_resampling_players_information_state(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2, "max_turns": 40})
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 15:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    twin = state.resample_from_infostate(player, rng.random)
    assert twin.information_state_string(player) == state.information_state_string(player)
    assert twin.observation_string(player) == state.observation_string(player)


@pytest.mark.parametrize("name", NAMES)
def test_outcome_sampling_mccfr_runs_on_a_small_configuration(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2, "max_decisions": 6})
    solver = mccfr.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    policy = solver.average_policy().action_probabilities(state)
    assert set(policy) == set(state.legal_actions())
    assert sum(policy.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["ranchhand_rancho", "ranchhand_super_farmer"])
def test_full_cfr_solves_a_two_decision_game(name: str) -> None:
    """Whole-tree CFR where the tree is small: two decisions (Rocket Ranchers' and Glory
    Ranch's opening deals alone are too many chance outcomes to enumerate)."""
    game = pyspiel.load_game(name, {"players": 2, "max_decisions": 2})
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    assert solver.average_policy().state_lookup


@pytest.mark.parametrize("name", NAMES)
def test_rl_environment_plays_every_game_with_information_state_tensors(name: str) -> None:
    """Glory Ranch asks its contests one player after another by default, so
    ``rl_environment`` sees ordinary turns (the simultaneous form gave other players
    empty legal lists at ordinary nodes)."""
    game = pyspiel.load_game(name, {"players": 2, "max_decisions": 30})
    environment = rl_environment.Environment(game)
    rng = np.random.RandomState(0)
    step = environment.reset()
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        assert legal, "the player to act has a legal action"
        step = environment.step([int(rng.choice(legal))])
        assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
