"""``ranchhand.envs.vector``: games in lockstep with Gymnasium's vector API.

The compiled batches (Super Farmer, Rancho) must show the learner exactly what the
encoding shows: at every step of many games, each game's kernel table is rebuilt as a
reference state and its tensor and mask compared with the game's encoding, entry for
entry. The rest checks the contract: shapes and spaces, rewards only at the end,
next-step autoreset, an illegal index forfeiting, the same seed and actions giving the
same batch, and the Python fallback for games without a compiled batch.
"""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="needs the gymnasium extra: pip install -e '.[gymnasium]'")
pytest.importorskip("numba", reason="needs the fast extra: pip install -e '.[fast]'")

import numpy as np

from ranchhand.core import OptionError
from ranchhand.envs.vector import CompiledVectorEnv, RanchoVectorEnv, vector_env
from ranchhand.games.rancho import encoding as rancho_encoding
from ranchhand.games.rancho.fast import kernel as rancho_kernel
from ranchhand.games.rancho.state import DOG, RanchoState
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


def assert_the_seed_repeats(env: CompiledVectorEnv, steps: int) -> None:
    """The same seed and actions give the same batch; another seed another."""

    def run(seed: int) -> list[np.ndarray]:
        rng = np.random.default_rng(0)
        seen, (obs, info) = [], env.reset(seed=seed)
        for _ in range(steps):
            obs, rewards, *_, info = env.step(random_actions(info["action_mask"], rng))
            seen += [obs, rewards]
        return seen

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


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
    _, info = env.reset(seed=11)
    mask = info["action_mask"]
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in mask])
    obs, rewards, terminated, truncated, info = env.step(illegal)
    assert terminated.all() and (rewards == -1).all() and info["illegal_action"].all()
    # The next step starts every game afresh, whatever the action: reward 0, not done.
    obs, rewards, terminated, truncated, info = env.step(illegal)
    assert not terminated.any() and not truncated.any() and (rewards == 0).all()
    assert (obs[:, : kernel.KINDS] == 1).all()  # the whole box in the herd again

    assert_the_seed_repeats(env, 80)


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
        for i in np.flatnonzero(truncated):  # the last decision's roll drawn, as envs.table
            assert env._decisions[i] == 5 and env._s[i, kernel.PHASE] == kernel.TRADE
    assert cut > 0


def test_other_games_step_the_python_environments_with_the_same_api() -> None:
    env = vector_env("glory-ranch", 2, 2, "random")
    assert not isinstance(env, CompiledVectorEnv)
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


# ------------------------------------------------------------------ Rancho
def rancho_state(env: RanchoVectorEnv, i: int) -> RanchoState:
    """Game ``i`` of Rancho's batch as the reference engine's state (masks out of each
    seat's frame: pastures keep their index, the frame's last two bits are the pen)."""
    k, t = rancho_kernel, env.tables
    pastures = env.engine.geometry.pastures
    s = t.scalars[i].tolist()
    state: RanchoState = env.game.new_initial_state()
    state.herd = t.herd[i].tolist()
    state.animals = t.animals[i].tolist()
    state.land = t.land[i].tolist()
    state.taken = 0
    for land in state.land:
        state.taken |= land
    state.owner[:pastures] = t.owner[i].tolist()
    for seat, (first, second) in enumerate(env.engine.pen_spaces):
        pieces = []
        for kind, count, local in t.pieces[i, seat].tolist():
            if kind:
                mask = local & ((1 << pastures) - 1)
                mask |= (local >> pastures & 1) << first | (local >> (pastures + 1) & 1) << second
                pieces.append((kind - 1, count, mask))
        state.pieces[seat] = tuple(sorted(pieces, key=lambda piece: piece[2] & -piece[2]))
    state.player, state.phase, state.turn = s[k.PLAYER], s[k.PHASE], s[k.TURN]
    state.dice = None if s[k.DIE_A] < 0 else (s[k.DIE_A], s[k.DIE_B])
    state.predators = [s[k.PREDATOR_A], s[k.PREDATOR_B]][: s[k.PREDATORS]]
    state.strike = (s[k.STRIKE_BY], s[k.STRIKE_PRICE]) if state.phase == DOG else None
    state.dog_queue = t.dogs[i, s[k.DOGS_HEAD] : s[k.DOGS_ASKED]].tolist()
    made = s[k.STRIKES_MADE]
    state.strikes = [(s[k.FIRST_BY + 2 * j], s[k.FIRST_PRICE + 2 * j]) for j in range(made)]
    state.winner, state.settled, state.deals = s[k.WINNER], bool(s[k.SETTLED]), s[k.DEALS]
    state.eaten_value, state.dogs_given = s[k.EATEN], s[k.DOGS_GIVEN]
    state._forget_cached()
    return state


RANCHO = [
    (2, 0, "greedy", {}),
    (3, 1, "random", {"dogs": "all", "deals_per_turn": 2}),
    (4, 3, "greedy", {"board": "hex-compact", "dice": "farmer"}),
    (2, 1, "random", {"deals_per_turn": 0}),
]


@pytest.mark.parametrize(("players", "seat", "opponents", "options"), RANCHO)
def test_rancho_observations_and_masks_are_the_encodings(
    players: int, seat: int, opponents: str, options: dict[str, object]
) -> None:
    """Rancho's batch, its tables rebuilt as reference states at every step: the same
    tensor and mask, under the adapters' ``deals_per_turn`` (8), other limits and none."""
    env = vector_env("rancho", 6, players, opponents, seat, max_turns=40, **options)
    assert isinstance(env, RanchoVectorEnv)
    encoding = env.game.encoding()
    rng = np.random.default_rng(players)
    obs, info = env.reset(seed=players)
    ended, offered = 0, np.zeros(encoding.num_actions, dtype=bool)
    for _ in range(120):
        for i in range(env.num_envs):
            state = rancho_state(env, i)
            want = encoding.observation_tensor(state.observe(seat), seat)
            assert np.array_equal(obs[i], want), (i, state.turn, np.flatnonzero(obs[i] != want))
            if env._done[i]:
                assert not info["action_mask"][i].any()
            else:
                assert state.current_player() == seat
                assert np.array_equal(info["action_mask"][i], state.legal_action_mask(seat)), (
                    i,
                    np.flatnonzero(info["action_mask"][i] != state.legal_action_mask(seat)),
                )
        offered |= info["action_mask"].any(axis=0)
        obs, rewards, terminated, truncated, info = env.step(
            random_actions(info["action_mask"], rng)
        )
        assert env.observation_space.contains(obs)
        assert not (rewards[~terminated] != 0).any()
        ended += int((terminated | truncated).sum())
    assert ended > 0
    trades = offered[len(rancho_encoding.FIXED) : encoding.purchase_base]  # type: ignore[attr-defined]
    fixed = [rancho_encoding.ROLL, rancho_encoding.ROLL_END, rancho_encoding.END_TURN]
    assert offered[fixed].all() and trades.sum() >= 10


def test_rancho_completes_the_herd_and_buys_as_the_encoding_says() -> None:
    """A learner that plays "complete the herd" whenever offered (else a purchase, else
    any legal index) wins games by it, the masks still the encoding's."""
    env = vector_env("rancho", 8, 2, "random", max_turns=60)
    assert isinstance(env, RanchoVectorEnv)
    encoding = env.game.encoding()
    base = encoding.purchase_base  # type: ignore[attr-defined]
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=3)
    completed = wins = 0
    for _ in range(150):
        masks = info["action_mask"]
        actions = random_actions(masks, rng)
        for i, mask in enumerate(masks):
            if mask[rancho_encoding.COMPLETE]:
                actions[i] = rancho_encoding.COMPLETE
                completed += 1
            elif mask[base:].any() and rng.random() < 0.5:
                actions[i] = base + rng.choice(np.flatnonzero(mask[base:]))
            state = rancho_state(env, i)
            if not env._done[i]:
                assert np.array_equal(mask, state.legal_action_mask(0))
        _obs, rewards, *_, info = env.step(actions)
        wins += int((rewards == 1).sum())
    assert completed > 0 and wins > 0


def test_rancho_autoreset_forfeit_cut_and_the_same_seed() -> None:
    env = vector_env("rancho", 4, 3, "greedy", seat=2, max_turns=30)
    _, info = env.reset(seed=11)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]])
    _, rewards, terminated, _truncated, info = env.step(illegal)
    assert terminated.all() and (rewards == -1).all() and info["illegal_action"].all()
    _obs, rewards, terminated, truncated, info = env.step(illegal)
    assert not terminated.any() and not truncated.any() and (rewards == 0).all()
    assert info["action_mask"].any(axis=1).all()

    assert_the_seed_repeats(env, 40)

    # A cut game shows the dice its last decision led to, as envs.table draws chance
    # after every decision: never a chance node.
    cut = vector_env("rancho", 3, 2, "random", max_decisions=6)
    assert isinstance(cut, RanchoVectorEnv)
    _, info = cut.reset(seed=1)
    truncations = 0
    for _ in range(12):
        _, rewards, _terminated, truncated, info = cut.step(
            random_actions(info["action_mask"], np.random.default_rng(2))
        )
        truncations += int(truncated.sum())
        assert not (rewards[truncated] != 0).any()
        for i in np.flatnonzero(truncated):
            assert cut._decisions[i] == 6 and rancho_state(cut, i).current_player() >= 0
    assert truncations > 0


def test_rancho_batch_refuses_bots_its_kernel_lacks_by_name() -> None:
    with pytest.raises(OptionError, match="plays random, greedy seats, not 'ismcts'"):
        vector_env("rancho", 2, 2, "ismcts")
    env = vector_env("rancho", 2, 2, "ismcts", compiled=False)
    assert not isinstance(env, CompiledVectorEnv)
