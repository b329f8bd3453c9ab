"""Setting up a position by description: the docs example, the JSON round trip, refusals."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ranchhand.core import StateError
from ranchhand.games.rocket_ranchers.game import RocketGame
from tests.games.rocket_ranchers.helpers import position

DOCS = Path(__file__).parents[3] / "docs/games/rocket-ranchers.md"


def _docs_example() -> str:
    section = DOCS.read_text().split("## Setting up a position", 1)[1]
    found = re.search(r"```toml\n(.*?)```", section, re.S)
    assert found, "the docs section has a TOML example"
    return found.group(1)


def test_the_docs_example_sets_up_the_position_it_describes() -> None:
    game = RocketGame(2)
    state = game.setup(_docs_example())
    assert state.current_player() == 1 and state.turn == 3 and state.phase == 1
    assert state.deck_size == 78 and state.deck_cats == 6
    assert state.floof == [2, 1] and state.dogship == [False, True]
    assert state.beams == [0b1001, 0b1111]  # I2 and O4 face up for seat 0
    text = state.tables.text
    assert [(text[f], [text[k] for k in up]) for f, up in state.corrals[0]] == [
        ("bako/grassland/1", ["kow/jungle/1", "kow/mountains/2"]),
        ("flama/desert/2", []),
    ]
    seen = state.observe(1).to_json()
    assert [c["founder"] for c in seen["corrals"][0]] == ["hidden", "hidden"]
    data = state.to_json()
    assert game.state_from_json(data).to_json() == data
    state.apply_text("beam O4 r0 @a1")  # play goes on from there
    assert state.phase == 2 and state.floof[1] == 3


def test_the_description_may_be_a_mapping_and_the_rest_starts_fresh() -> None:
    state = position({"a1": "cat"}, players=3)
    assert state.current_player() == 0 and state.turn == 0
    assert state.corrals == [[], [], []] and state.floof == [0, 0, 0]
    assert state.deck_size == 103 - 15 - 1 and state.deck_cats == 12
    data = state.to_json()
    assert state.game.state_from_json(data).to_json() == data


def test_an_empty_deck_with_seat_0_to_play_is_a_finished_game() -> None:
    game = RocketGame(2)
    fresh = game.new_initial_state()
    box, cats = game.tables.deck_counts(2)
    cards = [game.tables.text[k] for k, n in enumerate(box) for _ in range(n)]
    display, rest = cards[:14], cards[14:]
    state = game.setup(
        {
            "display": [*display, "cat", "empty"],
            "players": [
                {"corrals": [{"founder": c} for c in rest[: len(rest) // 2]], "floof": 4},
                {"corrals": [{"founder": c} for c in rest[len(rest) // 2 :]], "floof": cats - 5},
            ],
        }
    )
    assert state.deck_size == 0 and state.is_terminal() and fresh.deck_size == 101
    assert state.outcome() is not None


def _spec(**changes: Any) -> dict[str, Any]:
    """The docs example as a mapping, with ``changes`` applied."""
    import tomllib

    spec = tomllib.loads(_docs_example())
    for key, value in changes.items():
        spec[key] = value
    return spec


def _seat0(**changes: Any) -> dict[str, Any]:
    spec = _spec()
    spec["players"][0].update(changes)
    return spec


CORRAL = {"founder": "bako/grassland/1", "face_up": ["kow/jungle/1", "kow/mountains/2"]}
BAD: list[tuple[str, Any, str]] = [
    ("not TOML", "player = = 1", r"setup: not TOML"),
    ("unknown key", _spec(deck=[]), r"setup\.deck: unknown key; keys: player, turn"),
    ("seat out of range", _spec(player=2), r"setup\.player: expected a whole number 0\.\.1"),
    ("seat as text", _spec(player="1"), r"setup\.player: expected a whole number"),
    ("turn of the other seat", _spec(turn=4), r"setup\.turn: after 4 turns .* seat 0's turn"),
    ("no display", {"player": 0}, r"setup\.display: missing; expected the 16 cells"),
    ("short display", _spec(display=["cat"] * 15), r"setup\.display: expected 16 entries"),
    ("unknown card", _spec(display=["kraken", *["cat"] * 15]), r"setup\.display\[0\]: expected"),
    ("hidden card", _spec(display=["hidden", *["cat"] * 15]), r"setup\.display\[0\]"),
    ("a 4+ card with 2 players", None, r"setup\.display\[5\]: 1 copies of chicken/tundra/2"),
    (
        "too many cats",
        _spec(display=["cat"] * 16),
        r"setup\.players: 19 Space Cats .* shuffle in 11",
    ),
    ("too many seats", _spec(players=[{}, {}, {}]), r"setup\.players: 3 seats described for 2"),
    ("unknown seat key", _seat0(hand=[]), r"setup\.players\[0\]\.hand: unknown key"),
    ("seat not a table", _spec(players=[3]), r"setup\.players\[0\]: expected a table"),
    ("negative floof", _seat0(floof=-1), r"setup\.players\[0\]\.floof: expected a whole number"),
    ("floof as float", _seat0(floof=1.5), r"setup\.players\[0\]\.floof"),
    ("unknown beam", _seat0(beams_up=["Q7"]), r"beams_up\[0\]: expected one of I2, I3, L3, O4"),
    ("beam twice", _seat0(beams_up=["I2", "i2"]), r"beams_up\[1\]: i2 is named twice"),
    ("no beam up", _seat0(beams_up=[]), r"setup\.players\[0\]\.beams_up: empty"),
    ("dogship as text", _seat0(dogship_up="down"), r"dogship_up: expected true or false"),
    (
        "corral without founder",
        _seat0(corrals=[{"face_up": []}]),
        r"corrals\[0\]\.founder: missing",
    ),
    ("corral key", _seat0(corrals=[{**CORRAL, "size": 3}]), r"corrals\[0\]\.size: unknown key"),
    (
        "two species in a corral",
        _seat0(corrals=[{**CORRAL, "face_up": ["kow/jungle/1", "canis/jungle/2"]}]),
        r"corrals\[0\]\.face_up\[1\]: canis/jungle/2 in a corral of kow",
    ),
    (
        "a card twice",
        _seat0(corrals=[CORRAL, {"founder": "kow/jungle/1"}]),
        r"setup\.players\[0\]\.corrals\[1\]\.founder: 2 copies of kow/jungle/1 on the table",
    ),
    (
        "a Space Cat as founder",
        _seat0(corrals=[{"founder": "cat"}]),
        r"corrals\[0\]\.founder: expected a Wildlife card",
    ),
    (
        "an empty cell while the deck lasts",
        _spec(display=["empty", *_spec()["display"][1:]]),
        r"setup\.display\[0\]: empty while the deck still has",
    ),
]


@pytest.mark.parametrize(("name", "spec", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_description_is_refused_naming_the_key(name: str, spec: Any, message: str) -> None:
    if spec is None:
        display = _spec()["display"]
        display[5] = "chicken/tundra/2"  # a 4+ card: in the box only for 4 or 5 players
        spec = _spec(display=display)
    with pytest.raises(StateError, match=message):
        RocketGame(2).setup(spec)
