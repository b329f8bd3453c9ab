"""Glory Ranch's fixed action encoding and observation tensor (learning code's view)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE
from ranchhand.core.errors import InvalidAction
from ranchhand.games.glory_ranch import GloryRanch, GloryState
from ranchhand.games.glory_ranch.actions import Choose, Pick, Target
from ranchhand.games.glory_ranch.length import UNCAPPED_TURNS, decisions_per_turn
from ranchhand.games.glory_ranch.tensor import STEPS_SHOWN
from tests.games.encoding_checks import (
    check_decision,
    check_tensor,
    labels_of,
    play_by_index,
    tensor_keeps_secrets,
)
from tests.games.glory_ranch.helpers import table

SIZES = {2: (153, 1124), 3: (161, 1429), 4: (169, 1734), 5: (177, 2039), 6: (185, 2344)}
"""Actions and tensor entries per player count, as the docs page gives them."""


@pytest.mark.parametrize("players", sorted(SIZES))
def test_sizes_per_player_count(players: int) -> None:
    labels = labels_of(GloryRanch(players), *SIZES[players])
    assert labels[0] == "play wyvern" and labels[-1] == "choose scissors"


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_a_random_game_through_indices_ends(players: int, seed: int) -> None:
    """Every legal action has one index and round-trips; the mask is the legal list."""
    game = GloryRanch(players, max_turns=60)
    states, decisions = play_by_index(game, seed, keep=0.0)
    assert states[-1].is_terminal()
    assert 0 < decisions <= game.encoding().max_game_length


def test_a_whole_game_through_indices_reaches_the_target() -> None:
    states, _ = play_by_index(GloryRanch(2), seed=7, keep=0.0)
    assert states[-1].outcome().reason == "target reached"  # type: ignore[union-attr]


def test_game_length() -> None:
    game = GloryRanch(3)
    per_turn = decisions_per_turn(game)
    # Amphiptere plays on six times (ranch limit); the costliest card then is a contest
    # of 10 throws (two signs each), its target and the winner's gift.
    assert per_turn == 1 + 6 + 1 + 2 * 10 + 1
    assert game.encoding().max_game_length == per_turn * UNCAPPED_TURNS
    assert GloryRanch(3, max_turns=20).encoding().max_game_length == 20 * per_turn
    assert decisions_per_turn(GloryRanch(3, rps_ties=1)) == per_turn - 18


def _contest() -> GloryState:
    """Seat 0 has played a griffin against seat 1: both choose a sign at once."""
    state = table(
        3,
        hands={0: ["griffin", "roc"], 1: ["roc", "hippocamp"], 2: ["lindworm", "wolpertinger"]},
        vocabulary=False,
    )
    state.apply_text("play griffin")
    state.apply(Target(1))
    assert state.acting_players() == (0, 1)
    return state


def test_each_player_of_a_contest_has_a_mask_of_their_own() -> None:
    state = _contest()
    encoding = state.game.encoding()
    signs = [encoding.choose_start + i for i in range(3)]
    for player in (0, 1):
        assert check_decision(state, player) == signs
    assert not state.legal_action_mask(2).any()
    rock = state.clone()
    rock.apply(rock.index_to_action(signs[0], 0), 0)
    paper = state.clone()
    paper.apply(paper.index_to_action(signs[1], 0), 0)
    # Seat 1 still chooses; it cannot tell seat 0's sign from its tensor.
    assert rock.acting_players() == paper.acting_players() == (1,)
    assert np.array_equal(rock.observation_tensor(1), paper.observation_tensor(1))
    assert not np.array_equal(rock.observation_tensor(0), paper.observation_tensor(0))
    with pytest.raises(InvalidAction):
        rock.index_to_action(signs[0], 0)  # seat 0 has chosen


def test_seats_are_counted_from_the_chooser() -> None:
    state = table(
        3,
        hands={0: ["pixie", "brownie"], 1: ["cinder-wyrm", "hob"], 2: ["lindworm", "puck"]},
        ranches={2: ["roc", "kraken"]},
        current=1,
        vocabulary=False,
    )
    encoding = state.game.encoding()
    state.apply_text("play cinder-wyrm")
    picks = check_decision(state, 1)
    # Seat 2 is on seat 1's left: offset 1; its second card is position 2.
    second = encoding.pick_start + 1 * 7 + 1
    assert second in picks
    assert state.index_to_action(second, 1) == Pick(2, 2, "kraken")
    assert encoding.action_label(second) == "pick card 2 of the ranch of the player on your left"
    assert encoding.action_label(encoding.target_start) == "target the player on your left"


def test_chance_numbers_are_card_kinds() -> None:
    game = GloryRanch(2)
    state = game.new_initial_state()
    encoding = game.encoding()
    assert state.current_player() == CHANCE
    for outcome in state.chance_outcomes().actions:
        number = encoding.chance_to_index(state, outcome)
        assert game.ids[number] == outcome.card  # type: ignore[attr-defined]
    with pytest.raises(InvalidAction):
        encoding.index_to_chance(state, game.kinds)


def _seen(state: GloryState, player: int) -> dict[str, Any]:
    """The observation as the tensor keeps it: no log text, counts where order is moot,
    the pending steps below the ones shown as counts per kind and seat."""
    data = state.observe(player).to_json()
    for key in ("log", "asking", "passing"):
        data.pop(key)
    data["passing"] = sorted(state.observe(player).passing)
    if data["last_round"]:
        data["last_round"]["ranches"] = [sorted(r) for r in data["last_round"]["ranches"]]
    pending = data["pending"]
    below = pending[: max(0, len(pending) - STEPS_SHOWN)]
    data["pending"] = pending[len(below) :]
    data["below"] = sorted(Counter((step[0], step[1]) for step in below).items())
    return data


@pytest.mark.parametrize("players", [2, 5])
def test_the_tensor_holds_the_observation_and_nothing_hidden(players: int) -> None:
    check_tensor(
        GloryRanch(players, max_turns=80),
        lambda twin, state: twin.hands != state.hands,  # type: ignore[attr-defined]
        _seen,  # type: ignore[arg-type]
        keep=0.1,
    )


def test_a_pending_sign_stays_hidden_from_the_tensor() -> None:
    """Resampling redraws the other player's sign; the tensor never shows it."""
    state = _contest()
    state.apply(Choose("rock"), 0)
    twins = tensor_keeps_secrets(state, 1, random.Random(2), samples=12)
    assert {twin.signs[0] for twin in twins} > {"rock"}  # type: ignore[attr-defined]
