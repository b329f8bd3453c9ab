"""Setting up a position by hand (``game.setup``): defaults, round trips, refusals by key.

The example of the docs page (section "Setting up a position") runs here verbatim,
so the page cannot drift from what the code does.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import pytest

from ranchhand.core import StateError
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import RanchoState

PAGE = Path(__file__).parents[3] / "docs/games/rancho.md"


def _section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## Setting up a position")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", _section(), re.S)


def test_the_docs_example_runs_verbatim() -> None:
    """The TOML block is the SPEC of the session block, which runs as a doctest."""
    (spec,) = _blocks("toml")
    (session,) = _blocks("pycon")
    scope: dict[str, Any] = {"SPEC": spec}
    test = doctest.DocTestParser().get_doctest(session, scope, "rancho.md", str(PAGE), 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda text: pytest.fail(text), clear_globs=False)
    assert runner.summarize(verbose=False).failed == 0
    state: RanchoState = test.globs["state"]
    assert state.animals[0][:4] == [4, 3, 0, 1]


def _game(players: int = 2, **options: str) -> RanchoGame:
    return RanchoGame(players, **options)


def test_an_empty_description_is_the_start_of_a_game() -> None:
    for players in (2, 4, 6):
        game = _game(players)
        assert game.setup({}).to_json() == game.new_initial_state().to_json()
        assert game.setup("").to_json() == game.new_initial_state().to_json()


SPECS: list[dict[str, Any]] = [
    {"player": 1, "turn": 7},
    {
        "players": [
            {"animals": {"sheep": 3, "cow": 2}, "pastures": ["4.1", "4.2", "4.24", "3.1", "4.3"]}
        ]
    },
    {"players": [{}, {"animals": {"rabbit": 12, "large_dog": 1}, "pastures": ["4.13"]}]},
    {
        "players": [
            {
                "animals": {"rabbit": 7, "cow": 1},
                "pastures": ["4.1", "4.2"],
                "arrangement": "cow @4.1-4.2; 6 rabbit @5.1; rabbit @5.2",
            }
        ]
    },
    {"players": [{"animals": {}}]},
]


@pytest.mark.parametrize("spec", SPECS)
def test_a_set_up_position_round_trips_through_json(spec: dict[str, Any]) -> None:
    game = _game()
    state = game.setup(spec)
    data = state.to_json()
    assert game.state_from_json(data).to_json() == data
    assert state.turn == spec.get("turn", 0) and state.player == spec.get("player", 0)
    totals = [state.herd[k] + sum(a[k] for a in state.animals) for k in range(6)]
    assert totals == list(game.start_herd), "the herd is the box minus what players hold"


def test_what_is_not_given_takes_its_start_value() -> None:
    state = _game(3).setup({"players": [{"animals": {"sheep": 2}}]})
    assert state.animals[0] == [0, 2, 0, 0, 0, 0]  # 'animals' lists all the seat holds
    assert state.animals[1] == state.animals[2] == [1, 1, 0, 0, 0, 0]  # seats not listed
    assert state.land == [0, 0, 0] and state.phase == 0 and state.dice is None


def test_an_explicit_arrangement_is_kept_and_the_default_is_the_safest() -> None:
    spec = SPECS[3]
    state = _game().setup(spec)
    assert state.arrangement_text(0) == "cow @4.1-4.2; 6 rabbit @5.1; rabbit @5.2"
    del spec["players"][0]["arrangement"]
    safest = _game().setup(spec)
    assert safest.pieces[0] == safest.safest(0)


def test_a_full_herd_has_won() -> None:
    spec = {
        "players": [
            {
                "animals": {"rabbit": 1, "sheep": 1, "cow": 1, "horse": 1},
                "pastures": ["4.1", "4.2", "4.24", "3.1", "4.3"],
            }
        ]
    }
    state = _game().setup(spec)
    assert state.winner == 0 and state.outcome().winners == (0,)  # type: ignore[union-attr]


FULL = {"rabbit": 1, "sheep": 1, "cow": 1, "horse": 1}
BAD: list[tuple[Any, str]] = [
    ({"playr": 0}, r"setup\.playr: unknown field; allowed: player, turn, players"),
    ({"player": 2}, r"setup\.player: expected a whole number 0\.\.1, got 2"),
    ({"player": True}, r"setup\.player: expected a whole number 0\.\.1, got True"),
    ({"turn": -1}, r"setup\.turn: expected a whole number 0\.\."),
    ({"players": 3}, r"setup\.players: expected a list, got int"),
    ({"players": [{}, {}, {}]}, r"setup\.players: expected 0 to 2 items, got 3"),
    ({"players": [[]]}, r"setup\.players\[0\]: expected an object, got list"),
    ({"players": [{"animal": {}}]}, r"setup\.players\[0\]\.animal: unknown field"),
    ({"players": [{"animals": {"pig": 1}}]}, r"setup\.players\[0\]\.animals\.pig: unknown field"),
    (
        {"players": [{"animals": {"sheep": 7}}]},
        r"animals\.sheep: expected a whole number 0\.\.6, got 7",
    ),
    ({"players": [{"animals": {"sheep": -1}}]}, r"animals\.sheep: expected a whole number 0\.\.6"),
    (
        {"players": [{"animals": {"sheep": "3"}}]},
        r"animals\.sheep: expected a whole number 0\.\.6, got '3'",
    ),
    (
        {"players": [{"animals": {"sheep": 6}}]},
        r"setup\.players: the players hold 7 sheep; a 2-player game has 6 in all \(seats not",
    ),
    (
        {"players": [{"animals": {"cow": 2}}]},
        r"setup\.players\[0\]\.animals: they do not all fit: they need 4 spaces and the pen "
        r"and pastures have 2",
    ),
    (
        {"players": [{"pastures": "4.1"}]},
        r"setup\.players\[0\]\.pastures: expected a list, got str",
    ),
    (
        {"players": [{"pastures": ["9.9"]}]},
        r"setup\.players\[0\]\.pastures\[0\]: '9\.9' is not a space of the board",
    ),
    (
        {"players": [{"pastures": ["5.16"]}]},
        r"setup\.players\[0\]\.pastures\[0\]: 5\.16 is a pen, not a pasture",
    ),
    (
        {"players": [{"pastures": ["2.1"]}]},
        r"setup\.players\[0\]\.pastures: 2\.1 does not join pen 1",
    ),
    (
        {"players": [{"pastures": ["4.1"]}, {"pastures": ["4.1"]}]},
        r"setup\.players\[1\]\.pastures\[0\]: 4\.1 also belongs to player 0",
    ),
    (
        {"players": [{"pastures": [f"4.{i}" for i in range(1, 14)]}]},
        r"setup\.players\[0\]\.pastures: 13 pastures; a player has 12",
    ),
    (
        {
            "players": [
                {"animals": {"cow": 1}, "pastures": ["4.1", "4.2"], "arrangement": "cow @5.1-4.2"}
            ]
        },
        r"setup\.players\[0\]\.arrangement: a cow needs two adjacent spaces; 4\.2-5\.1 are not",
    ),
    (
        {"players": [{"animals": {"rabbit": 7}, "arrangement": "7 rabbit @5.1"}]},
        r"setup\.players\[0\]\.arrangement: a rabbit stack: expected a number 1\.\.6, got 7",
    ),
    (
        {"players": [{"animals": {"rabbit": 2}, "arrangement": "rabbit @5.1"}]},
        r"setup\.players\[0\]\.arrangement: you have 2 rabbits, the arrangement places 1",
    ),
    (
        {
            "players": [
                {"animals": FULL, "pastures": ["4.1", "4.2", "4.24", "3.1", "4.3"]},
                {"animals": FULL, "pastures": ["4.13", "4.12", "4.14", "3.10", "4.11"]},
            ]
        },
        r"setup\.players: players 0, 1 all hold a full herd",
    ),
    ("player = ", r"setup: not TOML"),
    ("players = [1, 2]", r"setup\.players\[0\]: expected an object, got int"),
]


@pytest.mark.parametrize(("spec", "problem"), BAD)
def test_a_bad_description_is_refused_naming_the_key(spec: Any, problem: str) -> None:
    with pytest.raises(StateError, match=problem):
        _game().setup(spec)
