"""Every episode ends, whatever the policy: Rancho's bound on deals, the adapters' decision
limit, OpenSpiel's ``max_game_length`` as a true bound, and the turn in every tensor.

The repro of issue 24: a policy that trades a sheep for six rabbits and back, for ever,
inside one Rancho turn. Before, 10,000 steps stayed in turn 0.
"""

from __future__ import annotations

import pytest

pytest.importorskip(
    "pettingzoo", reason="needs the pettingzoo extra: pip install -e '.[pettingzoo]'"
)
pytest.importorskip("gymnasium", reason="needs the gymnasium extra: pip install -e '.[gymnasium]'")

import random

from ranchhand.core.errors import IllegalAction
from ranchhand.core.registry import load
from ranchhand.envs.gymnasium import env as gym_env
from ranchhand.envs.pettingzoo import env as pz_env
from ranchhand.games.rancho.actions import Deal
from tests.envs.cases import GAMES, encoded, random_index

LOOP = ("trade sheep > 6 rabbit", "trade 6 rabbit > sheep")


def _circling_index(table: object, step: int, mask: object) -> int:
    """The repro's policy: the next trade of the loop when legal, else the first legal index."""
    state = table.table.state  # type: ignore[attr-defined]
    legal = [i for i, bit in enumerate(mask) if bit]  # type: ignore[attr-defined]
    for text in (LOOP[step % 2], LOOP[(step + 1) % 2]):
        for index in legal:
            if str(state.index_to_action(index, 0)) == text:
                return index
    return legal[0]


def test_the_trading_loop_ends_its_turn_under_the_adapters_default() -> None:
    table = gym_env("rancho", 2, opponents="random", seat=0)
    _, info = table.reset(seed=0)
    deals_in_turn: dict[int, int] = {}
    done, steps = False, 0
    while not done:
        state = table.table.state
        index = _circling_index(table, steps, info["action_mask"])
        if isinstance(state.index_to_action(index, 0), Deal):
            deals_in_turn[state.turn] = deals_in_turn.get(state.turn, 0) + 1
        _, _, terminated, truncated, info = table.step(index)
        done, steps = terminated or truncated, steps + 1
        assert steps <= table.table.max_decisions
    assert max(deals_in_turn.values()) == 8  # the loop ran into the bound, turn after turn
    assert table.table.state.turn > 1


def test_max_cycles_one_is_one_decision_not_one_round() -> None:
    table = gym_env("rancho", 2, opponents="random", seat=0, max_cycles=1)
    _, info = table.reset(seed=0)
    _, reward, terminated, truncated, _ = table.step(_circling_index(table, 0, info["action_mask"]))
    assert truncated and not terminated and reward == 0.0
    assert table.table.state.turn == 0


def test_deals_per_turn_offers_and_allows_no_more_deals_and_resets_next_turn() -> None:
    game = load("rancho", 2, deals_per_turn=2)
    state = game.new_initial_state()
    rng = random.Random(4)
    made = 0
    while made < 2:
        deal = next(a for a in state.legal_actions(0) if isinstance(a, Deal))
        state.apply(deal, 0)
        made += 1
    assert state.deals == 2
    assert not any(isinstance(a, Deal) for a in state.legal_actions(0))
    encoding = game.encoding()
    assert not any(isinstance(a, Deal) for a in encoding.legal_moves(state, 0).values())
    with pytest.raises(IllegalAction, match="deals_per_turn=2"):
        state.apply_text("trade sheep > 6 rabbit", 0)
    assert state.observation_tensor(0)[-1] == 1.0  # the count, as a share of the bound
    assert game.state_from_json(state.to_json()).deals == 2
    while state.turn == 0:
        player = state.current_player()
        if player < 0:
            state.apply(state.sample_chance(rng), player)
        else:
            state.apply(state.legal_actions(player)[0], player)
    assert state.deals == 0


def test_the_rulebook_default_sets_no_limit_and_keeps_its_json() -> None:
    game = load("rancho", 2)
    assert game.options["deals_per_turn"] == 0
    assert "deals" not in game.new_initial_state().to_json()["data"]


@pytest.mark.parametrize("name", GAMES)
def test_a_max_turns_cut_is_truncated_not_terminated_and_the_tensor_shows_the_turn(
    name: str,
) -> None:
    game = encoded(name)
    players = game.min_players
    table = gym_env(name, players, opponents="random", seat=0, max_turns=2 * players)
    _, info = table.reset(seed=1)
    rng = random.Random(1)
    first = table.table.tensor(0)
    terminated = truncated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, info = table.step(random_index(info["action_mask"], rng))
    state = table.table.state
    if state.turn >= 2 * players:  # the cut came before the game's own end
        assert truncated and not terminated
        assert state.outcome().truncated  # type: ignore[union-attr]
    if state.turn:
        assert not (table.table.tensor(0) == first).all()
    if name == "toy":
        return  # the test game's tensor is its hand alone
    later = state.clone()
    later.turn += 1  # the turn alone changes what a Markov policy must see
    assert not (later.observation_tensor(0) == state.observation_tensor(0)).all()


@pytest.mark.parametrize("name", GAMES)
def test_every_pettingzoo_game_ends_within_its_decision_limit(name: str) -> None:
    encoded(name)
    table = pz_env(name, max_decisions=40)
    table.reset(seed=2)
    rng = random.Random(2)
    for _agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        table.step(
            None if terminated or truncated else random_index(observation["action_mask"], rng)
        )
    assert table.table.decisions <= 40


def test_openspiel_max_game_length_is_a_true_bound_even_for_a_circling_policy() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    from ranchhand.envs.openspiel import register

    register()
    game = pyspiel.load_game("ranchhand_rancho", {"players": 2, "max_turns": 2})
    assert game.max_game_length() == 2 * (17 + 5 + 2 * 2)  # was 138, and not a bound
    cut = pyspiel.load_game("ranchhand_rancho", {"players": 2, "max_decisions": 5})
    assert cut.max_game_length() == 5
    rng = random.Random(3)
    for loaded in (game, cut):
        state, decisions = loaded.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            player = state.current_player()
            legal = state.legal_actions()
            named = {state.action_to_string(player, a): a for a in legal}
            state.apply_action(named.get(LOOP[decisions % 2], named.get(LOOP[0], legal[0])))
            decisions += 1
        assert decisions <= loaded.max_game_length()
    assert decisions == 5 and state.returns() == [0.0, 0.0]


def test_super_farmer_with_many_exchanges_loads_in_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    from ranchhand.envs.openspiel import register

    register()
    game = pyspiel.load_game("ranchhand_super_farmer", {"exchanges": "many", "max_turns": 30})
    assert game.max_game_length() == 30 * 21
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
