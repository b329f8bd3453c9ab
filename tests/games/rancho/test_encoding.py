"""Rancho's fixed action encoding and observation tensor (``games/rancho/encoding.py``).

The index space names the engine's listed moves, the one-animal trades between any
two species and "complete the herd"; every promise is checked along whole games
played through indices only, on both boards, and on positions built to reach the
rare moves (blocked routes, the mixed return, the winning deal).
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE, State
from ranchhand.core.errors import IllegalAction, InvalidAction
from ranchhand.games.rancho.actions import Deal, DiceRoll, Return, Strike
from ranchhand.games.rancho.coverage import by_steps, measure, simple_deals
from ranchhand.games.rancho.encoding import (
    COMPLETE,
    FIXED,
    ROUTES,
    STRIKE_BASE,
    TURNS_WITHOUT_LIMIT,
    RanchoEncoding,
)
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import RETURN, RanchoState


def encoding_of(game: RanchoGame) -> RanchoEncoding:
    encoding = game.encoding()
    assert isinstance(encoding, RanchoEncoding)
    return encoding


def check_decision(state: State, player: int) -> list[int]:
    """Every promise of the index space at one decision; returns the legal indices."""
    encoding = encoding_of(state.game)  # type: ignore[arg-type]
    moves = encoding.legal_moves(state, player)
    indices = encoding.legal_indices(state, player)
    assert indices == sorted(moves) and indices, "at least one index is legal"
    mask = state.legal_action_mask(player)
    assert mask.dtype == np.int8 and mask.shape == (encoding.num_actions,)
    assert np.flatnonzero(mask).tolist() == indices
    assert len({str(move) for move in moves.values()}) == len(moves), "one action per index"
    for index, move in moves.items():
        assert state.is_legal(move, player)
        assert state.index_to_action(index, player) == move
        assert state.action_to_index(move, player) == index
    for action in state.legal_actions(player):
        if action in moves.values():
            continue
        # The engine lists only what the encoding names, but for blocked routes beyond
        # the slots of a pasture.
        assert isinstance(action, Deal) and action.via, action
        with pytest.raises(InvalidAction):
            state.action_to_index(action, player)
    unused = next(i for i in range(encoding.num_actions) if not mask[i])
    with pytest.raises(InvalidAction):
        state.index_to_action(unused, player)
    return indices


def play_by_index(game: RanchoGame, seed: int) -> tuple[list[State], int]:
    """A random game through indices only, checking every decision; (states, decisions)."""
    encoding = encoding_of(game)
    rng = random.Random(seed)
    state = game.new_initial_state()
    states: list[State] = []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes().actions
            numbers = [encoding.chance_to_index(state, o) for o in outcomes]
            assert len(set(numbers)) == len(numbers)
            assert all(0 <= n < encoding.max_chance_outcomes for n in numbers)
            assert [encoding.index_to_chance(state, n) for n in numbers] == list(outcomes)
            state.apply(encoding.index_to_chance(state, rng.choice(numbers)), CHANCE)
            continue
        player = state.current_player()
        if rng.random() < 0.2:
            states.append(state.clone())
        index = rng.choice(check_decision(state, player))
        state.apply(state.index_to_action(index, player), player)
        decisions += 1
    assert decisions <= encoding.max_game_length
    states.append(state)
    return states, decisions


@pytest.mark.parametrize(
    ("players", "board", "seed"),
    [(2, "hex-rings", 1), (4, "hex-rings", 2), (6, "hex-compact", 3), (5, "hex-compact", 4)],
)
def test_a_random_game_through_indices_keeps_every_promise(
    players: int, board: str, seed: int
) -> None:
    game = RanchoGame(players, board=board, max_turns=60)
    states, decisions = play_by_index(game, seed)
    assert decisions > 20
    assert states[-1].is_terminal()


def test_the_index_space_is_fixed_and_labelled() -> None:
    game = RanchoGame(3)
    encoding = encoding_of(game)
    pastures = sum(1 for space in game.board.spaces if not space.is_pen)
    assert encoding.num_actions == len(FIXED) + len(encoding.trades) + pastures * ROUTES
    assert game.num_distinct_actions() == encoding.num_actions
    labels = [encoding.action_label(i) for i in range(encoding.num_actions)]
    assert len(set(labels)) == len(labels)
    assert labels[:2] == ["roll", "roll and end turn"]
    assert "trade 6 rabbit > sheep" in labels and "trade horse > 24 rabbit" in labels
    assert "buy 4.7" in labels and "buy 4.7 (route 3)" in labels
    # The exchange table's ten trades are among the 30 one-animal trades.
    assert {deal for deal, *_ in game.ladder_deals} <= set(encoding.trade_index)
    assert len(encoding.trades) == 30
    with pytest.raises(InvalidAction):
        encoding.action_label(encoding.num_actions)


def test_the_start_offers_roll_and_the_exchange_trades() -> None:
    state = RanchoGame(2).new_initial_state()
    encoding = encoding_of(state.game)
    labels = {encoding.action_label(i) for i in encoding.legal_indices(state, 0)}
    assert {"roll", "roll and end turn", "trade sheep > 6 rabbit"} <= labels
    assert encoding.legal_indices(state, 1) == [], "only the player to act has indices"


def complete_the_herd_position() -> RanchoState:
    """Ten sheep and a cow on enough land: one deal buys the missing rabbit and horse."""
    game = RanchoGame(6)  # six players: a herd of 18 sheep
    spec = {"players": [{"animals": {"sheep": 10, "cow": 1}, "pastures": ring_4(10)}]}
    state = game.setup(spec)
    assert isinstance(state, RanchoState)
    return state


def ring_4(count: int) -> list[str]:
    """``count`` adjacent pastures of the outer ring next to seat 0's pen (pen 1)."""
    return [f"4.{i}" for i in range(1, count + 1)]


def test_complete_the_herd_is_the_many_animal_winning_deal() -> None:
    state = complete_the_herd_position()
    encoding = encoding_of(state.game)
    assert COMPLETE in encoding.legal_indices(state, 0)
    deal = state.index_to_action(COMPLETE)
    assert isinstance(deal, Deal) and deal not in state.legal_actions()
    assert deal.take[3] == 1 and deal.take[0] >= 1
    assert state.action_to_index(deal) == COMPLETE
    state.apply(deal)
    assert state.outcome() is not None and state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_one_animal_trades_the_engine_does_not_list_have_indices() -> None:
    state = complete_the_herd_position()
    twelve = Deal((0, 2, 0, 0, 0, 0), (12, 0, 0, 0, 0, 0))
    assert state.is_legal(twelve)  # 2 sheep for 12 rabbits: legal, two one-animal steps
    with pytest.raises(InvalidAction, match="no index"):
        state.action_to_index(twelve)
    cow_for_rabbits = Deal((0, 0, 1, 0, 0, 0), (12, 0, 0, 0, 0, 0))
    assert cow_for_rabbits not in state.legal_actions()
    index = state.action_to_index(cow_for_rabbits)
    assert state.index_to_action(index) == cow_for_rabbits
    assert state.game.encoding().action_label(index) == "trade cow > 12 rabbit"


def test_an_illegal_action_is_refused_as_illegal() -> None:
    state = RanchoGame(2).new_initial_state()
    with pytest.raises(IllegalAction):
        state.action_to_index(Deal((0, 0, 2, 0, 0, 0), (0, 0, 0, 1, 0, 0)))
    with pytest.raises(InvalidAction):
        state.index_to_action(-1)
    with pytest.raises(InvalidAction):
        state.index_to_action(True)  # type: ignore[arg-type]


def test_an_explicit_arrangement_has_no_index() -> None:
    state = RanchoGame(2).new_initial_state()
    arrangement = state.parse_action("arrange rabbit @5.1; sheep @5.2")
    with pytest.raises(InvalidAction, match="arrange safest"):
        state.action_to_index(arrangement)


def test_blocked_routes_take_the_slots_of_their_pasture() -> None:
    """Walled in by two neighbours, seat 0 may reach 2.1 through either and pay its owner."""
    game = RanchoGame(6, board="hex-compact")
    spec = {
        "players": [
            {"animals": {"rabbit": 6, "sheep": 1}},
            {"pastures": ["3.4", "3.3", "3.2"]},
            {},
            {},
            {},
            {"pastures": ["3.17", "3.18", "3.1"]},
        ]
    }
    state = game.setup(spec)
    encoding = encoding_of(game)
    labels = {encoding.action_label(i): i for i in check_decision(state, 0)}
    first, second = (state.index_to_action(labels[k]) for k in ("buy 2.1", "buy 2.1 (route 2)"))
    assert isinstance(first, Deal) and isinstance(second, Deal)
    assert {first.via, second.via} == {("3.2",), ("3.1",)}


def return_position() -> RanchoState:
    """Newborns that do not fit: the player must send some back to the herd."""
    game = RanchoGame(2)
    state = game.setup({"players": [{"animals": {"rabbit": 6, "sheep": 1}}]})
    state.apply(state.parse_action("roll"))
    state.apply(DiceRoll(0, 0), CHANCE)
    assert isinstance(state, RanchoState) and state.phase == RETURN
    return state


def test_returns_have_one_index_per_species() -> None:
    state = return_position()
    encoding = encoding_of(state.game)
    labels = {encoding.action_label(i): i for i in encoding.legal_indices(state, 0)}
    assert "return rabbit" in labels
    action = state.index_to_action(labels["return rabbit"])
    assert isinstance(action, Return) and action.animals[0] >= 1
    check_decision(state, 0)


def test_chance_outcomes_have_stable_numbers() -> None:
    state = RanchoGame(2).new_initial_state()
    encoding = encoding_of(state.game)
    state.apply(state.parse_action("roll"))
    assert encoding.chance_to_index(state, DiceRoll(0, 0)) == 0
    assert encoding.chance_to_index(state, DiceRoll(5, 5)) == STRIKE_BASE - 1
    assert encoding.index_to_chance(state, 1) == DiceRoll(0, 1)
    with pytest.raises(InvalidAction):
        encoding.chance_to_index(state, Strike(1))  # a strike, at the roll of the dice
    with pytest.raises(InvalidAction):
        encoding.index_to_chance(state, STRIKE_BASE)
    with pytest.raises(InvalidAction):
        encoding.index_to_chance(state, encoding.max_chance_outcomes)
    state.apply(DiceRoll(0, 4), CHANCE)  # a fox: the six-sided die strikes
    assert encoding.chance_to_index(state, Strike(4)) == STRIKE_BASE + 3
    assert encoding.index_to_chance(state, STRIKE_BASE) == Strike(1)


def test_the_game_length_bound_follows_max_turns() -> None:
    short = encoding_of(RanchoGame(2, max_turns=10)).max_game_length
    endless = encoding_of(RanchoGame(2)).max_game_length
    assert endless == short * TURNS_WITHOUT_LIMIT // 10
    assert encoding_of(RanchoGame(6, max_turns=10)).max_game_length > short


# ------------------------------------------------------------------ tensors
GAMES = {players: RanchoGame(players, max_turns=200) for players in (2, 3, 6)}


def state_after(players: int, seed: int, steps: int) -> RanchoState:
    """The table after ``steps`` random moves (chance included) of a seeded game."""
    rng = random.Random(seed)
    state = GAMES[players].new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(rng.choices(outcomes.actions, outcomes.weights)[0], CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=25, deadline=None)
@given(
    players=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 300),
)
def test_the_tensor_is_the_observation_and_nothing_else(
    players: int, seed: int, steps: int
) -> None:
    state = state_after(players, seed, steps)
    encoding = encoding_of(state.game)
    twin = state.game.state_from_json(state.to_json())  # the same table, rebuilt
    for player in range(players):
        tensor = state.observation_tensor(player)
        assert tensor.dtype == np.float32 and tensor.shape == encoding.observation_shape
        assert np.all((tensor >= 0) & (tensor <= 1))
        assert np.array_equal(twin.observation_tensor(player), tensor)
        assert np.array_equal(
            state.resample(player, random.Random(seed)).observation_tensor(player), tensor
        )
        # Seats count from the observer: block 0 of the animals is the player's own.
        animals = slice_of(encoding, "each player's animals")
        own = tensor[animals][:6] * np.array(encoding.tensor.box, dtype=np.float32)
        assert np.allclose(own, state.animals[player])


def slice_of(encoding: RanchoEncoding, name: str) -> slice:
    at = 0
    for label, length in encoding.observation_layout():
        if label.startswith(name):
            return slice(at, at + length)
        at += length
    raise KeyError(name)


def test_the_layout_covers_the_tensor_and_tells_positions_apart() -> None:
    encoding = encoding_of(GAMES[3])
    assert (
        sum(length for _, length in encoding.observation_layout()) == encoding.observation_shape[0]
    )
    seen: dict[bytes, Hashable] = {}
    for seed in range(4):
        for steps in (0, 40, 120):
            state = state_after(3, seed, steps)
            key = state.observation_tensor(0).tobytes()
            table = (
                state.phase,
                state.player,
                tuple(state.herd),
                tuple(map(tuple, state.animals)),
                tuple(state.land),
                tuple(state.pieces),
            )
            assert seen.setdefault(key, table) == table, "two tables, one tensor"


def test_coverage_is_measured_over_played_games() -> None:
    coverage = measure(("greedy", "random"), games=2, seed=5)
    assert coverage.games == 2 and coverage.decisions > 0
    assert coverage.legal_share() == 1.0, coverage.missed
    assert coverage.chosen_share("greedy") == 1.0 and coverage.chosen_share("random") == 1.0
    assert 0 < coverage.simple_share() < coverage.simple_steps_share() <= 1
    state = complete_the_herd_position()
    twelve = Deal((0, 2, 0, 0, 0, 0), (12, 0, 0, 0, 0, 0))
    assert twelve in simple_deals(state, 0)
    assert by_steps(state, 0, twelve, encoding_of(state.game)), "sheep > 6 rabbit, twice"
