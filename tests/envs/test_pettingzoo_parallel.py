"""PettingZoo's upstream ``parallel_api_test``, ``max_cycles_test`` and ``render_test``, and
the AEC environment's details: render modes, ``state()``, order enforcement, the mask of
an agent that is not ``agent_selection`` at a contest."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "pettingzoo", reason="needs the pettingzoo extra: pip install -e '.[pettingzoo]'"
)

import random

import numpy as np
from pettingzoo.test import max_cycles_test, parallel_api_test, render_test
from pettingzoo.utils.env_logger import EnvLogger

from ranchhand.core.game import SIMULTANEOUS
from ranchhand.core.registry import game_class
from ranchhand.envs.parallel import module, parallel_env
from ranchhand.envs.pettingzoo import env
from ranchhand.envs.render import CELL_HEIGHT, CELL_WIDTH, ROWS
from tests.envs.cases import GAMES, encoded, random_index

CYCLES = 40
"""Steps each upstream parallel test plays: chance, deals, a few turns; seconds in all."""


def _ends(name: str) -> list[int]:
    cls = game_class(name)
    return sorted({cls.min_players, cls.max_players})


PARALLEL_CASES = [(name, players) for name in GAMES for players in _ends(name)]


@pytest.mark.parametrize(("name", "players"), PARALLEL_CASES)
def test_parallel_api(name: str, players: int) -> None:
    encoded(name, players)
    parallel_api_test(parallel_env(name, players), num_cycles=CYCLES)


@pytest.mark.parametrize("name", [name for name in GAMES if name != "toy"])
def test_max_cycles_is_exact_in_parallel_and_aec_form(name: str) -> None:
    """Upstream's test sends unmasked random actions, so a wrong index plays a random
    legal one (``illegal="random"``) instead of ending the game at the first step. (The
    toy game is left out: a right guess wins it within the test's four decisions, and
    the test, unseeded, asks every game to last longer.)"""
    game = encoded(name)
    max_cycles_test(module(name, game.min_players, illegal="random"))


def test_parallel_forfeit_and_substitute() -> None:
    table = parallel_env("rancho", 2)
    observations, _ = table.reset(seed=0)
    mover = next(a for a, seen in observations.items() if seen["action_mask"].any())
    _, rewards, terminations, _, infos = table.step({mover: 10_000})
    assert infos[mover] == {"illegal_action": True}
    assert all(terminations.values()) and rewards[mover] == -1.0 and table.agents == []
    table = parallel_env("rancho", 2, illegal="random")
    table.reset(seed=0)
    _, _, terminations, _, infos = table.step({mover: 10_000})
    assert infos[mover] == {"illegal_action": True} and not any(terminations.values())
    assert table.table.decisions == 1


def test_parallel_asks_a_contest_at_once() -> None:
    """At Glory Ranch's rock-paper-scissors every contest player's mask is on in the same
    step, and the step takes all their signs: one decision."""
    table = parallel_env("glory-ranch", 2)
    observations, _ = table.reset(seed=0)
    rng = random.Random(0)
    while table.agents:
        deciding = [a for a, seen in observations.items() if seen["action_mask"].any()]
        if len(deciding) > 1:
            before = table.table.decisions
            actions = {a: random_index(observations[a]["action_mask"], rng) for a in deciding}
            table.step(actions)
            assert table.table.decisions == before + 1
            return
        actions = {a: random_index(observations[a]["action_mask"], rng) for a in deciding}
        observations, *_ = table.step(actions)
    pytest.fail("no contest in a whole game")


@pytest.mark.parametrize("name", GAMES)
def test_render_modes_pass_upstream_render_test(name: str) -> None:
    encoded(name)
    render_test(lambda render_mode: env(name, render_mode=render_mode))
    table = env(name, render_mode="rgb_array")
    table.reset(seed=1)
    picture = table.render()
    assert picture.shape == (ROWS * CELL_HEIGHT, 80 * CELL_WIDTH, 3)
    assert len({tuple(c) for c in picture.reshape(-1, 3)[::7]}) > 1  # not a blank
    parallel = parallel_env(name, render_mode="ansi")
    parallel.reset(seed=1)
    assert isinstance(parallel.render(), str)


@pytest.mark.parametrize("name", GAMES)
def test_state_is_every_players_observation(name: str) -> None:
    game = encoded(name)
    table = env(name)
    table.reset(seed=5)
    state = table.state()
    assert table.state_space.contains(state)
    parts = np.split(state, game.players)
    for player, part in enumerate(parts):
        assert np.array_equal(part, table.table.tensor(player).reshape(-1))


def test_order_is_enforced_before_reset() -> None:
    table = env("rancho", 2)
    with pytest.raises(AttributeError, match="before reset"):
        _ = table.agent_selection
    EnvLogger.suppress_output()
    try:
        with pytest.raises(Exception, match="reset"):
            table.step(0)
        with pytest.raises(Exception, match="reset"):
            table.observe("player_0")
    finally:
        EnvLogger.unsuppress_output()


@pytest.mark.parametrize("seed", range(2))
def test_only_agent_selection_has_a_mask_at_a_contest(seed: int) -> None:
    table = env("glory-ranch", 3)
    table.reset(seed=seed)
    rng = random.Random(seed)
    while len(table.table.state.acting_players()) < 2:
        observation, *_ = table.last()
        table.step(random_index(observation["action_mask"], rng))
    assert table.table.state.current_player() == SIMULTANEOUS
    for agent in table.possible_agents:
        mask = table.observe(agent)["action_mask"]
        assert mask.any() == (agent == table.agent_selection), agent
