"""The Gymnasium adapter: ``check_env`` for every encoded game, bots in the other seats."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="needs the gymnasium extra: pip install -e '.[gymnasium]'")

import random

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from ranchhand.bots import RandomBot
from ranchhand.core.runner import play
from ranchhand.envs.gymnasium import env, register_games
from tests.envs.cases import CASES, GAMES, encoded, random_index

register_games()  # the toy game, registered by tests.envs.cases


@pytest.mark.parametrize(("name", "players"), CASES)
def test_check_env(name: str, players: int) -> None:
    encoded(name, players)
    check_env(env(name, players, opponents="random", seat="random", render_mode="ansi"))


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_make_knows_every_game(name: str) -> None:
    """Made by name, the checker also tries every render mode through the spec."""
    encoded(name)
    made = gymnasium.make(f"ranchhand/{name}-v0", opponents="random", render_mode="ansi")
    check_env(made.unwrapped)
    made.reset(seed=1)
    rendered = made.render()
    assert isinstance(rendered, str)
    assert rendered.strip()


@pytest.mark.parametrize("name", GAMES)
def test_an_episode_is_a_game_from_the_learners_seat(name: str) -> None:
    """Masked random play until the game ends: the mask in info and ``action_masks``
    agree, only the learner is asked, and the final reward is its return."""
    game = encoded(name, encoded(name).max_players)
    table = env(name, game.players, opponents="easy", seat=1, max_turns=80 * game.players)
    observation, info = table.reset(seed=5)
    rng = random.Random(5)
    reward, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        assert observation.shape == game.observation_tensor_shape()
        assert np.array_equal(info["action_mask"].astype(bool), table.action_masks())
        assert 1 in table.table.acting()
        observation, reward, terminated, truncated, info = table.step(
            random_index(info["action_mask"], rng)
        )
    assert reward == table.table.state.returns()[1]
    assert truncated == table.table.state.outcome().truncated  # type: ignore[union-attr]


@pytest.mark.parametrize("name", GAMES)
def test_the_seed_gives_the_game_ranchhand_play_gives(name: str) -> None:
    """With random bots everywhere and the learner choosing as the random bot would,
    an episode seeded with 11 is the game ``play(seed=11)`` plays: same chance, same bots."""
    game = encoded(name)
    table = env(name, game.min_players, opponents="random", seat=0)
    table.reset(seed=11)
    learner = RandomBot()
    bots_rng = table._bot_rng
    while not table.table.over():
        state = table.table.state
        action = learner.act(state.observe(0), state.legal_actions(0), bots_rng)
        table.step(state.action_to_index(action, 0))
    # the adapter's game: Rancho's deals_per_turn is on there unless given
    expected = play(table.table.game, [RandomBot() for _ in range(game.min_players)], seed=11).state
    assert expected is not None
    assert table.table.state.to_json() == expected.to_json()


def test_seat_random_draws_a_seat_per_episode() -> None:
    table = env("toy", 3, opponents=["random", "random"], seat="random")
    seats = {table.reset(seed=seed)[1]["seat"] for seed in range(30)}
    assert seats == {0, 1, 2}


def test_a_wrong_seat_or_opponent_count_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        env("toy", 2, seat=2)
    with pytest.raises(ValueError, match="one per other seat"):
        env("toy", 3, opponents=["random"])
