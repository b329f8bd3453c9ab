"""Positions you can trust: a state JSON that no game could reach is refused, naming the field.

Each case below takes a legal position, breaks one thing, and expects the loader or
``_validate`` to say where (``state JSON: data.players[0].arrangement: ...``). States
reached by play (random and greedy, every option) must still load and round-trip.
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.bots import RandomBot
from ranchhand.core import CHANCE, StateError
from ranchhand.games.rancho.bots import GreedyBot
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import RanchoState
from tests.games.rancho.helpers import give, own, position

Data = dict[str, Any]
VALID = "horse @4.1-4.2-3.1; cow @5.1-5.2; 6 rabbit @4.24; rabbit @4.3"


def ranch() -> RanchoState:
    """Player 0 owns six pastures by their pen and holds 7 rabbits, a cow and a horse."""
    state = position()
    own(state, 0, "4.1", "4.2", "4.24", "3.1", "4.3", "4.23")
    give(state, 0, "7 rabbit + cow + horse")
    give(state, 1, "sheep + rabbit")
    return state


def base() -> Data:
    data = ranch().to_json()
    data["data"]["players"][0]["arrangement"] = VALID
    return data


def test_the_base_position_loads() -> None:
    data = base()
    loaded = RanchoGame(2).state_from_json(data)
    assert loaded.to_json()["data"]["players"][0]["arrangement"] == (
        "horse @3.1-4.1-4.2; rabbit @4.3; 6 rabbit @4.24; cow @5.1-5.2"
    )


def _set(path: str, value: Any) -> Callable[[Data], None]:
    """Set data.<path> ('herd.rabbit', 'players.0.pastures') to ``value``."""

    def change(data: Data) -> None:
        *parents, last = path.split(".")
        node: Any = data["data"]
        for step in parents:
            node = node[int(step)] if step.isdigit() else node[step]
        if last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _do(*changes: Callable[[Data], None]) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        for step in changes:
            step(data)

    return change


def _drop(key: str) -> Callable[[Data], None]:
    return lambda data: data["data"].pop(key)


A0 = "players.0.arrangement"
CASES: list[tuple[str, Callable[[Data], None], str]] = [
    # counts: types, signs, and every animal conserved
    (
        "negative herd",
        _set("herd.rabbit", -1),
        r"data\.herd\.rabbit: expected a whole number 0\.\.",
    ),
    (
        "negative animals",
        _set("players.0.animals.cow", -1),
        r"players\[0\]\.animals\.cow: expected a whole",
    ),
    (
        "a bool count",
        _set("herd.sheep", True),
        r"data\.herd\.sheep: expected a whole number .* got True",
    ),
    (
        "a float count",
        _set("herd.sheep", 4.0),
        r"data\.herd\.sheep: expected a whole number .* got 4\.0",
    ),
    ("a huge count", _set("herd.sheep", 10**30), r"data\.herd\.sheep: expected a whole number"),
    ("an unknown kind", _set("herd.pig", 1), r"data\.herd\.pig: unknown field"),
    ("a missing kind", lambda d: d["data"]["herd"].pop("horse"), r"data\.herd\.horse: missing"),
    (
        "a rabbit too many",
        _set("herd.rabbit", 99),
        r"data\.herd\.rabbit: the herd's 99 and the players' 8 make 107 rabbits; a 2-player game "
        r"has 20 in all",
    ),
    (
        "a dog from nowhere",
        _set("herd.small_dog", 2),
        r"data\.herd\.small_dog: .* 2-player game has 1 in all",
    ),
    (
        "a horse moved to the herd",
        _do(_set("players.0.animals.horse", 0), _set("herd.horse", 2)),
        r"players\[0\]\.arrangement: you have 0 horses, the arrangement places 1",
    ),
    # pastures: real, free, at most 12, joined to the pen
    (
        "a pasture of two owners",
        _set("players.1.pastures", ["4.1"]),
        r"players\[1\]\.pastures\[0\]: 4\.1 also belongs to player 0",
    ),
    (
        "a pen as a pasture",
        _set("players.1.pastures", ["5.16"]),
        r"players\[1\]\.pastures\[0\]: 5\.16 is a pen, not a pasture",
    ),
    (
        "a space off the board",
        _set("players.1.pastures", ["9.9"]),
        r"players\[1\]\.pastures\[0\]: '9\.9' is not a space",
    ),
    (
        "a number as a space",
        _set("players.1.pastures", [41]),
        r"players\[1\]\.pastures\[0\]: 41 is not a space",
    ),
    (
        "a pasture twice",
        _set("players.1.pastures", ["4.13", "4.13"]),
        r"players\[1\]\.pastures\[1\]: 4\.13 is named twice",
    ),
    (
        "thirteen pastures",
        _set("players.1.pastures", [f"4.{i}" for i in range(5, 18)]),
        r"players\[1\]\.pastures: 13 pastures; a player has 12 markers",
    ),
    (
        "a pasture far from the pen",
        _set("players.1.pastures", ["2.1"]),
        r"players\[1\]\.pastures: 2\.1 does not join pen 4",
    ),
    (
        "the wrong pen",
        _set("players.1.pen", 2),
        r"players\[1\]\.pen: expected 4 \(with 2 players the seats use pens 1, 4",
    ),
    # arrangements: the shapes of the rules, on the player's own spaces, placing every animal
    (
        "a cow on spaces apart",
        _set(A0, "horse @4.1-4.2-3.1; cow @5.1-4.24; 6 rabbit @5.2; rabbit @4.3"),
        r"players\[0\]\.arrangement: a cow needs two adjacent spaces; 4\.24-5\.1 are not",
    ),
    (
        "a horse on spaces apart",
        _set(A0, "horse @5.1-4.2-4.24; cow @4.1-3.1; 6 rabbit @5.2; rabbit @4.3"),
        r"players\[0\]\.arrangement: a horse needs three connected spaces",
    ),
    (
        "a stack of seven",
        _set(A0, "horse @4.1-4.2-3.1; cow @5.1-5.2; 7 rabbit @4.24"),
        r"players\[0\]\.arrangement: a rabbit stack: expected a number 1\.\.6, got 7",
    ),
    (
        "two sheep on a space",
        _set("players.1.arrangement", "2 sheep @5.16"),
        r"players\[1\]\.arrangement: .*only rabbits stack",
    ),
    (
        "a space not owned",
        _set(A0, "horse @4.1-4.2-3.1; cow @5.1-5.2; 6 rabbit @4.24; rabbit @4.5"),
        r"players\[0\]\.arrangement: 4\.5 is not your pen or pasture",
    ),
    (
        "a rabbit unplaced",
        _set(A0, "horse @4.1-4.2-3.1; cow @5.1-5.2; 6 rabbit @4.24"),
        r"players\[0\]\.arrangement: you have 7 rabbits, the arrangement places 6",
    ),
    (
        "two pieces on a space",
        _set(A0, VALID + "; sheep @4.3"),
        r"players\[0\]\.arrangement: 4\.3 holds two pieces",
    ),
    (
        "Unicode digits",
        _set(A0, "horse @4.1-4.2-3.1; cow @5.1-5.2; ٦ rabbit @4.24; rabbit @4.3"),
        r"players\[0\]\.arrangement: a rabbit stack: expected a number 1\.\.6, got '٦'",
    ),
    (
        "a huge text",
        _set(A0, "rabbit @4.3; " * 500),
        r"players\[0\]\.arrangement: longer than 2,000 characters",
    ),
    (
        "a list as text",
        _set(A0, ["rabbit @4.3"]),
        r"players\[0\]\.arrangement: expected arrangement text, got list",
    ),
    ("safest is no arrangement", _set(A0, "safest"), r"players\[0\]\.arrangement: expected pieces"),
    # turn and step bookkeeping
    ("a third player", _set("player", 2), r"data\.player: expected a whole number 0\.\.1, got 2"),
    (
        "a player as text",
        _set("player", "0"),
        r"data\.player: expected a whole number 0\.\.1, got '0'",
    ),
    (
        "an unknown step",
        _set("phase", "dance"),
        r"data\.phase: expected one of expand, roll, order",
    ),
    (
        "three players listed",
        lambda d: d["data"]["players"].append(d["data"]["players"][1]),
        r"data\.players: expected 2 items, got 3",
    ),
    ("an unknown field", _set("extra", 1), r"data\.extra: unknown field; allowed: player, phase"),
    ("a missing field", _drop("dog_queue"), r"data\.dog_queue: missing"),
    (
        "a strike in the expand step",
        _set("strike", ["fox", 1]),
        r"data\.strike: a strike is resolved only in the dog step, not the expand step",
    ),
    (
        "a bear",
        _set("strike", ["bear", 1]),
        r"data\.strike\[0\]: expected one of fox, wolf, got 'bear'",
    ),
    (
        "a strike of 3",
        _do(_set("strikes", [["fox", 3]]), _set("dice", ["rabbit", "fox"])),
        r"data\.strikes\[0\]: the six-sided die shows no 3",
    ),
    (
        "a price of 99",
        _set("strikes", [["fox", 99]]),
        r"data\.strikes\[0\]\[1\]: expected a whole number 1\.\.24, got 99",
    ),
    (
        "three strikes",
        _set("strikes", [["fox", 1]] * 3),
        r"data\.strikes: expected 0 to 2 items, got 3",
    ),
    (
        "strikes the dice do not show",
        _do(_set("strikes", [["wolf", 2]]), _set("dice", ["rabbit", "rabbit"])),
        r"data\.strikes: the predators struck and still to come are not those on the dice",
    ),
    (
        "a predator waiting in expand",
        _set("predators", ["fox"]),
        r"data\.predators: no predator waits to strike in the expand step",
    ),
    (
        "a strike step without predator",
        _do(_set("phase", "strike"), _set("dice", ["rabbit", "fox"])),
        r"data\.predators: the strike step needs a predator waiting to strike",
    ),
    (
        "a pig on the dice",
        _set("dice", ["rabbit", "pig"]),
        r"data\.dice\[1\]: expected one of rabbit, sheep, cow, horse, fox, wolf",
    ),
    ("one die", _set("dice", ["rabbit"]), r"data\.dice: expected 2 items, got 1"),
    (
        "an order step without fox and wolf",
        _do(_set("phase", "order"), _set("dice", ["rabbit", "rabbit"]), _set("strikes", [])),
        r"data\.dice: the order step needs a fox and a wolf on the dice",
    ),
    (
        "a dog queue in expand",
        _set("dog_queue", [0]),
        r"data\.dog_queue: players decide on a dog only in the dog step",
    ),
    (
        "a seat out of range in the queue",
        _set("dog_queue", [5]),
        r"data\.dog_queue\[0\]: expected a whole number 0\.\.1, got 5",
    ),
    (
        "a return step when all fits",
        _do(_set("phase", "return"), _set("dice", ["rabbit", "rabbit"])),
        r"data\.phase: the return step comes only when newborns do not fit",
    ),
    (
        "settled before the roll",
        _set("settled", True),
        r"data\.settled: 'roll and end turn' is said at the end of the expand step",
    ),
    ("settled as a number", _set("settled", 1), r"data\.settled: expected true or false, got 1"),
    (
        "a negative tally",
        _set("eaten_value", -5),
        r"data\.eaten_value: expected a whole number 0\.\.",
    ),
    ("a winner without a full herd", _set("winner", 0), r"data\.winner: player 0 has no full herd"),
    (
        "a winner out of range",
        _set("winner", 7),
        r"data\.winner: expected a whole number 0\.\.1, got 7",
    ),
]


@pytest.mark.parametrize(("name", "change", "problem"), CASES, ids=[c[0] for c in CASES])
def test_an_impossible_position_is_refused_naming_the_field(
    name: str, change: Callable[[Data], None], problem: str
) -> None:
    data = base()
    change(data)
    with pytest.raises(StateError, match=problem):
        RanchoGame(2).state_from_json(data)


def test_a_full_herd_without_a_winner_is_refused() -> None:
    state = ranch()
    give(state, 0, "7 rabbit + sheep + cow + horse")
    data = state.to_json()
    with pytest.raises(
        StateError, match=r"data\.players\[0\]\.animals: a full herd .* ends the game"
    ):
        state.game.state_from_json(data)
    data["data"]["winner"] = 0
    assert state.game.state_from_json(data).outcome().winners == (0,)  # type: ignore[union-attr]


def _dog_step() -> RanchoState:
    """Player 0 rolled a wolf; the die struck ring 4, where player 0's cow grazes; a large dog."""
    state = position()
    own(state, 0, "4.1", "4.2")
    give(state, 0, "cow + sheep + rabbit + large dog")
    state.apply_text("arrange cow @4.1-4.2; sheep @5.1; rabbit @5.2")
    state.apply_text("roll")
    state.apply_text("roll rabbit+wolf")
    state.apply_text("strike 4")
    assert state.dog_queue == [0]
    return state


def test_the_dog_step_loads_and_its_queue_is_checked() -> None:
    state = _dog_step()
    data = state.to_json()
    assert state.game.state_from_json(data).to_json() == data
    for change, problem in [
        (_set("dog_queue", [1]), r"data\.dog_queue: player 1 has no large dog to give"),
        (_set("dog_queue", [0, 0]), r"data\.dog_queue: players decide once each, in seat order"),
        (_set("dog_queue", []), r"data\.dog_queue: the dog step needs a player to decide"),
        (_set("strike", None), r"data\.strike: the dog step needs the strike being resolved"),
        (_set("strike", ["wolf", 2]), r"data\.strike: the strike being resolved is the last one"),
        (_do(_set("strike", ["wolf", 2]), _set("strikes", [["wolf", 2]])),
         r"data\.dog_queue: the strike takes nothing of player 0's"),
    ]:  # fmt: skip
        bad = copy.deepcopy(data)
        change(bad)
        with pytest.raises(StateError, match=problem):
            state.game.state_from_json(bad)


def test_a_negative_count_no_longer_hangs_the_space_check() -> None:
    """A herd or animal count of -1 sent the cow and horse packing search on for hours."""
    state = ranch()
    started = time.perf_counter()
    assert not state.game.grazing.fits(state.region(0), [0, 0, -1, 0])
    assert not state.game.grazing.fits(state.region(0), [0, 0, 0, -1])
    state.animals[0][2] = -1
    state.herd[2] += 2
    with pytest.raises(StateError, match=r"data\.players\[0\]\.animals\.cow: a count cannot be"):
        state._validate()
    assert time.perf_counter() - started < 10  # hours before the fix; milliseconds now


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {}, 1), (3, {"board": "hex-compact", "dogs": "all"}, 2),
     (6, {"board": "hex-compact", "dice": "farmer"}, 3), (4, {"dogs": "none"}, 4)],
)  # fmt: skip
def test_states_reached_by_play_load_and_round_trip(
    players: int, options: dict[str, str], seed: int
) -> None:
    game = RanchoGame(players, max_turns=200, **options)
    rng = random.Random(seed)
    bots = [GreedyBot() if p % 2 else RandomBot() for p in range(players)]
    state = game.new_initial_state()
    while True:
        data = state.to_json()
        assert game.state_from_json(data).to_json() == data
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            action = state.chance_outcomes().sample(rng)
        else:
            legal = state.legal_actions(player)
            action = bots[player].act(state.observe(player), legal, rng)
        state.apply(action, player)


# ------------------------------------------------------------ mutated JSON
def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _places(item, (*path, i))
    return out


JUNK = st.one_of(
    st.integers(-3, 30),
    st.integers(-(10**30), 10**30),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.sampled_from(["fox", "wolf", "rabbit", "4.1", "5.1", "expand", "dog", "return", "²", ""]),
    st.text(max_size=6),
    st.lists(st.sampled_from(["fox", "wolf", 1, 2, "4.13", "rabbit"]), max_size=3),
    st.just({}),
)


@st.composite
def broken(draw: st.DrawFn) -> Data:
    data = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_places(data["data"])))
        parent: Any = data["data"]
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JUNK)
    return data


BASES = [base(), _dog_step().to_json(), RanchoGame(2).new_initial_state().to_json()]


@settings(max_examples=200, deadline=None)
@given(broken())
def test_a_mutated_state_loads_or_is_refused_naming_the_field(data: Data) -> None:
    """Never the engine's generic safety net ("malformed (KeyError ...)"): a named field."""
    try:
        loaded = RanchoGame(2).state_from_json(data)
    except StateError as error:
        assert "malformed (" not in str(error), str(error)
        assert error.where.startswith("data"), str(error)
        return
    assert RanchoGame(2).state_from_json(loaded.to_json()).to_json() == loaded.to_json()
