"""The PettingZoo adapter against PettingZoo's own tests, for every encoded game and count.

``max_cycles_test``, ``parallel_api_test`` and ``render_test`` run in
``test_pettingzoo_parallel.py`` (the first two need the parallel environment).
"""

from __future__ import annotations

import pytest

pytest.importorskip(
    "pettingzoo", reason="needs the pettingzoo extra: pip install -e '.[pettingzoo]'"
)

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from ranchhand.core.game import SIMULTANEOUS
from ranchhand.core.registry import game_class, load
from ranchhand.envs.pettingzoo import RanchEnv, env
from tests.envs.cases import CASES, GAMES, encoded, random_index

CYCLES = 8
"""Rounds of turns each upstream test plays: enough to pass chance, deals and a few turns."""


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_api(name: str, players: int) -> None:
    encoded(name, players)
    api_test(env(name, players, render_mode="ansi"), num_cycles=CYCLES)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_same_seed_same_game(name: str, players: int) -> None:
    encoded(name, players)
    seed_test(lambda: env(name, players), num_cycles=CYCLES)


def _play_out(table: RanchEnv, rng: random.Random) -> dict[str, float]:
    """Play legal random actions to the end; each agent's final return."""
    returns: dict[str, float] = {}
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        if terminated or truncated:
            returns[agent] = reward
            table.step(None)
        else:
            table.step(random_index(observation["action_mask"], rng))
    return returns


@pytest.mark.parametrize(("name", "players"), CASES)
def test_max_cycles_counts_decisions_and_truncates_every_agent_with_no_winner(
    name: str, players: int
) -> None:
    encoded(name, players)
    table = env(name, players, max_cycles=3)
    table.reset(seed=7)
    truncated: dict[str, bool] = {}
    steps = 0
    for agent in table.agent_iter():
        observation, _, terminated, truncated[agent], _ = table.last()
        done = terminated or truncated[agent]
        steps += not done
        table.step(None if done else int(observation["action_mask"].argmax()))
    assert table.table.decisions == 3
    assert steps >= 3  # more only at a simultaneous contest, whose choices are one decision
    assert all(truncated.values()), truncated
    assert table.table.returns() == [0.0] * players


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_game_ends_with_its_winners_rewarded(name: str, players: int) -> None:
    game = encoded(name, players)
    table = env(name, players, max_turns=60 * players)
    table.reset(seed=3)
    returns = _play_out(table, random.Random(3))
    outcome = table.table.state.outcome()
    assert outcome is not None
    expected = outcome.returns(game.players)
    assert [returns[f"player_{p}"] for p in range(players)] == expected


@pytest.mark.parametrize("name", GAMES)
def test_an_index_outside_the_mask_forfeits(name: str) -> None:
    game = encoded(name)
    table = env(name)
    table.reset(seed=1)
    offender = table.agent_selection
    mask = table.observe(offender)["action_mask"]
    illegal = [i for i, bit in enumerate(mask) if not bit]
    table.step(illegal[0] if illegal else game.num_distinct_actions())
    assert table.infos[offender] == {"illegal_action": True}
    assert table.terminations == dict.fromkeys(table.possible_agents, True)
    assert table.rewards == {a: (-1.0 if a == offender else 0.0) for a in table.possible_agents}


def _views(table: RanchEnv, agent: str) -> tuple[bytes, str]:
    player = table.agent_name_mapping[agent]
    return table.observe(agent)["observation"].tobytes(), table.table.render(player)


def _assert_blind_to_others(table: RanchEnv, rng: random.Random) -> None:
    """What each seat but the mover is shown (its tensor and its terminal view) is the
    same whatever sign the mover picks while the seat's own is still pending, and
    whatever hidden cards the others hold (the table redrawn from the seat's own
    observation must look alike to it)."""
    mover = table.agent_name_mapping[table.agent_selection]
    mask = table.observe(table.agent_selection)["action_mask"]
    state = table.table.state
    for viewer in table.possible_agents:
        player = table.agent_name_mapping[viewer]
        if player == mover:
            continue
        pending: set[tuple[bytes, str]] = set()
        together = state.current_player() == SIMULTANEOUS and player in state.acting_players()
        for index in np.flatnonzero(mask) if together else ():
            table.table.state = state.clone()
            table.table.state.apply(state.index_to_action(int(index), mover), mover)
            pending.add(_views(table, viewer))
        table.table.state = state
        assert len(pending) <= 1, f"{viewer} can tell which sign player_{mover} chose"
        seen = _views(table, viewer)
        table.table.state = state.resample(player, rng)
        assert _views(table, viewer) == seen, f"{viewer} sees others' hidden cards"
        table.table.state = state


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200))
@pytest.mark.parametrize("name", GAMES)
def test_a_seat_sees_nothing_of_anothers_secrets(name: str, seed: int, steps: int) -> None:
    """After ``steps`` random moves at the largest table, no seat can see the others'
    secrets (see ``_assert_blind_to_others``)."""
    game = encoded(name)
    rng = random.Random(seed)
    table = env(name, game.max_players)
    table.reset(seed=seed)
    for _ in range(steps):
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            return
        table.step(random_index(observation["action_mask"], rng))
    _assert_blind_to_others(table, rng)


@pytest.mark.parametrize("name", [name for name in GAMES if game_class(name).simultaneous])
@pytest.mark.parametrize("seed", range(3))
def test_choosing_second_tells_nothing_of_the_first_sign(name: str, seed: int) -> None:
    """Random play to the first choice made at once by two or more seats (a Glory
    Ranch contest), where the first asked must not give its sign away."""
    game = encoded(name)
    rng = random.Random(seed)
    for players in (game.min_players, game.max_players):
        table = env(name, players)
        table.reset(seed=seed)
        while len(table.table.state.acting_players()) < 2:
            observation, _, terminated, truncated, _ = table.last()
            assert not (terminated or truncated), "the game ended before any contest"
            table.step(random_index(observation["action_mask"], rng))
        _assert_blind_to_others(table, rng)


def test_max_cycles_is_max_decisions_and_both_are_checked() -> None:
    assert env("toy", 3, max_cycles=4).table.max_decisions == 4
    assert env("toy", 3, max_decisions=5).table.max_decisions == 5
    assert env("toy", 3).table.max_decisions == load("toy", 3).encoding().max_game_length
    with pytest.raises(ValueError, match="not both"):
        env("toy", 3, max_cycles=4, max_decisions=5)
    with pytest.raises(ValueError, match="1 or more, got 0"):
        env("toy", 3, max_cycles=0)


def test_rancho_bounds_deals_here_unless_the_rulebook_is_asked_for() -> None:
    assert env("rancho", 2).table.game.options["deals_per_turn"] == 8
    assert env("rancho", 2, deals_per_turn=0).table.game.options["deals_per_turn"] == 0
