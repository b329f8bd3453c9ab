"""Rocket Ranchers' fixed action encoding and observation tensor (learning code's view)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE
from ranchhand.core.errors import InvalidAction
from ranchhand.games.rocket_ranchers.actions import Form, Occupy
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState
from ranchhand.games.rocket_ranchers.tables import HIDDEN
from tests.games.encoding_checks import check_decision, check_tensor, labels_of, play_by_index
from tests.games.rocket_ranchers.helpers import table

SIZES = {2: (571, 785), 3: (571, 975), 4: (691, 1405), 5: (811, 1955)}
"""Actions and tensor entries per player count, as the docs page gives them."""


@pytest.mark.parametrize("players", sorted(SIZES))
def test_sizes_per_player_count(players: int) -> None:
    labels = labels_of(RocketGame(players), *SIZES[players])
    assert labels[0] == "beam I2 r0 @a1" and labels[85:88] == ["reboot", "end", "dogship a1 b1"]


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6))
def test_a_random_game_through_indices_ends(players: int, seed: int) -> None:
    """Every legal action has one index and round-trips; the mask is the legal list."""
    game = RocketGame(players)
    states, decisions = play_by_index(game, seed, keep=0.0)
    assert states[-1].is_terminal()
    assert 0 < decisions <= game.encoding().max_game_length


def test_max_turns_bounds_the_game_length() -> None:
    assert RocketGame(2, max_turns=10).encoding().max_game_length == 10 * 7
    assert RocketGame(2).encoding().turns_bound == 2 * (90 + 11 - 16) + 2
    states, decisions = play_by_index(RocketGame(3, max_turns=6), seed=4, keep=0.0)
    assert states[-1].outcome().truncated and decisions <= 6 * 7


def test_pending_slots_name_the_collected_cards_in_order() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "kow/desert/3", "c1": "bako/jungle/1"})
    state.apply_text("beam I3 r0 @a1")
    encoding = state.game.encoding()
    form = encoding.blocks()[-2]
    assert form[0].startswith("form")
    pending = [state.tables.text[k] for k in state.pending]
    start = encoding.num_actions - encoding.slots * (1 + encoding.corrals)
    assert [state.index_to_action(start + s) for s in range(3)] == [Form(c) for c in pending]
    with pytest.raises(InvalidAction):
        state.index_to_action(start + 3)  # the fourth slot is empty
    state.apply(Form(pending[0]))
    # The first card founded corral 1; the others may join it if they are its species.
    occupy = state.action_to_index(Occupy("kow/desert/3", 1))
    assert encoding.action_label(occupy) == "occupy corral 1 with pending card 1"
    check_decision(state, 0)


def test_chance_numbers_are_card_kinds() -> None:
    game = RocketGame(2)
    state = game.new_initial_state()
    encoding = game.encoding()
    kow = game.tables.kind_by_text["kow/tundra/2"]
    draw = state.parse_action("draw kow/tundra/2", CHANCE)
    assert encoding.chance_to_index(state, draw) == kow
    assert encoding.chance_to_index(state, game.tables.draw_cat) == game.tables.kinds == 150
    state.apply(draw, CHANCE)
    with pytest.raises(InvalidAction):
        encoding.index_to_chance(state, kow)  # the only copy left the deck
    with pytest.raises(InvalidAction):
        encoding.index_to_chance(state, encoding.max_chance_outcomes)


def _seen(state: RocketState, player: int) -> object:
    """The observation as the tensor keeps it: face-up cards as a multiset per corral."""
    data = state.observe(player).to_json()
    for mine in data["corrals"]:
        for corral in mine:
            corral["face_up"] = sorted(corral["face_up"])
    return data


@pytest.mark.parametrize("players", [2, 4])
def test_the_tensor_holds_the_observation_and_nothing_hidden(players: int) -> None:
    check_tensor(
        RocketGame(players),
        lambda twin, state: twin.corrals != state.corrals,  # type: ignore[attr-defined]
        _seen,  # type: ignore[arg-type]
    )


def test_seats_count_from_the_viewer() -> None:
    """Block 0 of the seats is the viewer's own: its founding cards are shown, not hidden."""
    state = table()
    state.apply_text("beam O4 r0 @a1")
    while state.current_player() == 0:
        state.apply(state.legal_actions()[0])
    tensor = state.game.encoding().tensor
    founder = state.corrals[0][0][0]
    slot = tensor._seats_at + 4 + tensor.beams + 2 * tensor.first_slot[founder] + 1
    mine = state.observation_tensor(0)
    theirs = state.observation_tensor(1)
    assert mine[slot] == pytest.approx(1 / tensor.corrals)  # founded corral 1, shown
    assert theirs[slot + tensor.seat_size] == 0  # hidden from the other player
    counts = tensor._seats_at + 3
    founded = len(state.corrals[0]) / tensor.corrals
    assert mine[counts] == theirs[counts + tensor.seat_size] == pytest.approx(founded)
    assert np.count_nonzero(mine[:2]) == 1


def _read_corrals(state: RocketState, player: int) -> list[list[tuple[int, list[int]]]]:
    """Each seat's corrals as ``player``'s tensor gives them back (seats absolute; face-up
    cards sorted; a founding card not seen is HIDDEN): what the card slots promise."""
    tensor = state.game.encoding().tensor
    flat = state.observation_tensor(player)
    n, c = state.game.players, tensor.corrals
    seats: list[list[tuple[int, list[int]]]] = [[] for _ in range(n)]
    for offset in range(n):
        base = tensor._seats_at + offset * tensor.seat_size
        count = round(float(flat[base + 3]) * c)
        corrals: list[tuple[int, list[int]]] = [(HIDDEN, []) for _ in range(count)]
        slots = flat[base + 4 + tensor.beams : base + tensor.seat_size].reshape(-1, 2)
        for kind, (up, founded) in zip(tensor.slot_kinds, slots, strict=True):
            if up:
                corrals[round(float(up) * c) - 1][1].append(kind)
            if founded:
                corrals[round(float(founded) * c) - 1] = (
                    kind,
                    corrals[round(float(founded) * c) - 1][1],
                )
        seats[(player + offset) % n] = [(f, sorted(up)) for f, up in corrals]
    return seats


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_corrals_read_back_from_the_card_slots(players: int) -> None:
    """The card slots lose nothing of the corrals the player sees but the face-up order."""
    for state in play_by_index(RocketGame(players), seed=players, keep=0.1)[0]:
        for player in range(players):
            seen = state.observe(player).corrals
            expected = [[(f, sorted(up)) for f, up in mine] for mine in seen]
            assert _read_corrals(state, player) == expected
