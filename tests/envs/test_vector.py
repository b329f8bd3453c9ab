"""``ranchhand.envs.vector``: games in lockstep with Gymnasium's vector API.

The compiled batch (Super Farmer) must show the learner exactly what the encoding shows:
at every step of many games, each game's kernel table is rebuilt as a reference state
and its tensor and mask compared with ``SuperFarmerEncoding``'s, entry for entry. The
rest checks the contract: shapes and spaces, rewards only at the end, next-step
autoreset, an illegal index forfeiting, the same seed and actions giving the same batch,
and the Python fallback for games without a compiled batch.
"""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="needs the gymnasium extra: pip install -e '.[gymnasium]'")
pytest.importorskip("numba", reason="needs the fast extra: pip install -e '.[fast]'")

import numpy as np

from ranchhand.core import OptionError
from ranchhand.envs.vector import CompiledVectorEnv, vector_env
from ranchhand.games.super_farmer.fast import kernel
from ranchhand.games.super_farmer.state import ROLL, TRADE, SuperFarmerState


def reference_state(env: CompiledVectorEnv, i: int) -> SuperFarmerState:
    """Game ``i`` of the batch as the reference engine's state."""
    s = env._s[i]
    state: SuperFarmerState = env.game.new_initial_state()
    state.herd = env._herd[i].tolist()
    state.animals = env._animals[i].tolist()
    state.player = int(s[kernel.PLAYER])
    state.phase = ROLL if s[kernel.PHASE] == kernel.ROLL else TRADE
    state.traded = int(s[kernel.TRADED])
    state.winner = int(s[kernel.WINNER])
    state.turn = int(s[kernel.TURN])
    state.dice = (
        None if s[kernel.DIE_WOLF] < 0 else (int(s[kernel.DIE_WOLF]), int(s[kernel.DIE_FOX]))
    )
    state.stats = {name: int(s[kernel.ROLLS + k]) for k, name in enumerate(kernel.STATS)}
    state._forget_cached()
    return state


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize(
    ("players", "seat", "options"),
    [(2, 0, {}), (3, 2, {"exchanges": "many"}), (1, 0, {"trade": "one-kind"}), (4, 1, {})],
)
def test_observations_and_masks_are_the_encodings(
    players: int, seat: int, options: dict[str, str]
) -> None:
    env = vector_env("super-farmer", 6, players, "daring", seat, max_turns=60, **options)
    assert isinstance(env, CompiledVectorEnv)
    encoding = env.game.encoding()
    rng = np.random.default_rng(players)
    obs, info = env.reset(seed=players)
    compared = ended = 0
    for _ in range(150):
        for i in range(env.num_envs):
            state = reference_state(env, i)
            want = encoding.observation_tensor(state.observe(seat), seat)
            assert np.array_equal(obs[i], want), (i, state.turn)
            if env._done[i]:
                assert not info["action_mask"][i].any()
            else:
                assert state.current_player() == seat
                assert np.array_equal(info["action_mask"][i], state.legal_action_mask(seat))
            compared += 1
        obs, rewards, terminated, truncated, info = env.step(
            random_actions(info["action_mask"], rng)
        )
        assert env.observation_space.contains(obs)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not (rewards[~terminated] != 0).any()  # rewards only when a game is won
        ended += int((terminated | truncated).sum())
    assert compared == 150 * 6 and ended > 0


def test_autoreset_illegal_actions_and_the_same_seed() -> None:
    env = vector_env("super-farmer", 4, 2, "greedy", max_turns=40)
    obs, info = env.reset(seed=11)
    mask = info["action_mask"]
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in mask])
    obs, rewards, terminated, truncated, info = env.step(illegal)
    assert terminated.all() and (rewards == -1).all() and info["illegal_action"].all()
    # The next step starts every game afresh, whatever the action: reward 0, not done.
    obs, rewards, terminated, truncated, info = env.step(illegal)
    assert not terminated.any() and not truncated.any() and (rewards == 0).all()
    assert (obs[:, : kernel.KINDS] == 1).all()  # the whole box in the herd again

    def run(seed: int) -> list[np.ndarray]:
        rng = np.random.default_rng(0)
        seen, (obs, info) = [], env.reset(seed=seed)
        for _ in range(80):
            obs, rewards, *_, info = env.step(random_actions(info["action_mask"], rng))
            seen += [obs, rewards]
        return seen

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_a_game_is_cut_after_its_decisions() -> None:
    env = vector_env("super-farmer", 3, 2, "random", max_decisions=5, exchanges="many")
    _, info = env.reset(seed=1)
    cut = 0
    for _ in range(10):
        _, rewards, _terminated, truncated, info = env.step(
            random_actions(info["action_mask"], np.random.default_rng(2))
        )
        cut += int(truncated.sum())
        assert not (rewards[truncated] != 0).any()
    assert cut > 0


def test_other_games_step_the_python_environments_with_the_same_api() -> None:
    env = vector_env("glory-ranch", 2, 2, "random")
    obs, info = env.reset(seed=0)
    assert obs.shape[0] == 2 and info["action_mask"].shape[0] == 2
    obs, rewards, _terminated, _truncated, info = env.step(
        random_actions(info["action_mask"], np.random.default_rng(0))
    )
    assert rewards.shape == (2,)
    with pytest.raises(OptionError, match="glory-ranch has no compiled batch"):
        vector_env("glory-ranch", 2, compiled=True)
    with pytest.raises(OptionError, match="num_envs"):
        vector_env("super-farmer", 0)
