"""State JSON that could not arise in a game is refused, naming the field."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from ranchhand.core import CHANCE, StateError
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.phases import PLACE
from ranchhand.games.rocket_ranchers.state import RocketState

GAME = RocketGame(3)


def _midgame(place: bool = False) -> RocketState:
    """A random 3-player game some turns in (stopped in the place phase if asked)."""
    state = GAME.new_initial_state()
    rng = random.Random(5)
    while state.turn < 7 or (place and state.phase != PLACE) or state.is_chance_node():
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


MIDGAME = json.loads(json.dumps(_midgame().to_json()))
PLACING = json.loads(json.dumps(_midgame(place=True).to_json()))


def _load(base: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> None:
    data = copy.deepcopy(base)
    change(data["data"])
    GAME.state_from_json(data)


def _kind_in_deck(data: dict[str, Any]) -> str:
    return sorted(data["deck"])[0]


def test_the_unchanged_json_loads() -> None:
    for data in (MIDGAME, PLACING):
        assert GAME.state_from_json(data).to_json() == data


def _five_copies(data: dict[str, Any]) -> None:
    card = data["corrals"][0][0]["founder"]
    data["corrals"][0].append({"founder": card, "face_up": []})


def _more_cats(data: dict[str, Any]) -> None:
    data["floof"][1] += data["deck_cats"] + 1


def _lost_card(data: dict[str, Any]) -> None:
    data["deck"].pop(_kind_in_deck(data))


def _empty_cell(data: dict[str, Any]) -> None:
    """Put the card of b2 back in the deck, leaving b2 empty."""
    card = data["display"][5]
    if card == "cat":
        data["deck_cats"] += 1
    else:
        data["deck"][card] = 1
    data["display"][5] = "empty"


def _twice(data: dict[str, Any]) -> None:
    """Show a card of the deck in the display too (where a Wildlife card was)."""
    cell = next(i for i, c in enumerate(data["display"]) if "/" in c)
    data["deck"][data["display"][cell]] = 1
    data["display"][cell] = _kind_in_deck(data)


def _cat_in_corral(data: dict[str, Any]) -> None:
    data["corrals"][0][0]["founder"] = "cat"


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "a card twice",
        _five_copies,
        r"data\.corrals\[0\]\[\d+\]\.founder: 2 copies of [a-z]+/[a-z]+/\d on the table; "
        "the box has 1 for 3 players",
    ),
    (
        "a deck count above the box",
        lambda d: d["deck"].update({_kind_in_deck(d): 5}),
        r"data\.deck\.[a-z/0-9]+: 5 copies in the deck; the box has 1 for 3 players",
    ),
    ("a lost card", _lost_card, r"data\.deck: [a-z/0-9]+: 0 of its 1 copies are anywhere"),
    ("a negative deck count", lambda d: d["deck"].update({_kind_in_deck(d): -3}), "data.deck."),
    ("more Space Cats than exist", _more_cats, r"data\.floof: \d+ Space Cats .* more than the 13"),
    ("negative Space Cats", lambda d: d.update(deck_cats=-1), r"data\.deck_cats: expected a whole"),
    (
        "a Space Cat in a corral",
        _cat_in_corral,
        r"data\.corrals\[0\]\[0\]\.founder: expected a Wild",
    ),
    ("an unknown card", lambda d: d["display"].__setitem__(3, "kraken"), r"data\.display\[3\]"),
    (
        "hidden in the display",
        lambda d: d["display"].__setitem__(0, "hidden"),
        r"data\.display\[0\]",
    ),
    ("a short display", lambda d: d["display"].pop(), r"data\.display: expected 16 entries"),
    ("a beam too many", lambda d: d["beams"][0].append(True), r"data\.beams\[0\]: expected 4"),
    ("a beam not a flag", lambda d: d["beams"][2].__setitem__(0, 1), r"data\.beams\[2\]\[0\]"),
    ("all beams down", lambda d: d["beams"].__setitem__(1, [False] * 4), r"data\.beams\[1\]"),
    ("a dogship not a flag", lambda d: d["dogship"].__setitem__(0, "up"), r"data\.dogship\[0\]"),
    ("a seat too far", lambda d: d.update(player=3), r"data\.player: expected a seat 0\.\.2"),
    ("a seat as text", lambda d: d.update(player="1"), r"data\.player: expected a seat"),
    ("a player out of turn", lambda d: d.update(player=(d["player"] + 1) % 3), r"data\.player"),
    ("an unknown phase", lambda d: d.update(phase="lunch"), r"data\.phase: expected one of"),
    ("pending outside place", lambda d: d["pending"].append(d["display"][0]), r"data\.pending"),
    ("still dealing", lambda d: d.update(setting_up=True), r"data\.setting_up"),
    ("an empty cell mid-turn", _empty_cell, r"data\.display\[5\]: empty in the start phase"),
    ("a card in two places", _twice, r"data\.display\[\d+\]: 2 copies of .* in the deck and on"),
    ("an unknown field", lambda d: d.update(score=3), r"data\.score: unknown field"),
    ("a missing field", lambda d: d.pop("floof"), r"data\.floof: missing"),
]


@pytest.mark.parametrize(("name", "change", "field"), CASES, ids=[c[0] for c in CASES])
def test_an_impossible_midgame_state_is_refused(name: str, change: Any, field: str) -> None:
    with pytest.raises(StateError, match=field):
        _load(MIDGAME, change)


def _new_corral(data: dict[str, Any], same_species: bool) -> None:
    """Seat 0 founds a corral from three deck cards; two face up, of one species or not."""
    deck = data["deck"]
    founder = sorted(deck)[0]
    first = next(c for c in sorted(deck) if c != founder)
    second = next(
        c
        for c in sorted(deck)
        if c not in (founder, first) and (c.split("/")[0] == first.split("/")[0]) == same_species
    )
    for card in (founder, first, second):
        del deck[card]
    data["corrals"][0].append({"founder": founder, "face_up": [first, second]})


def test_a_corral_of_two_species_is_refused() -> None:
    _load(MIDGAME, lambda d: _new_corral(d, same_species=True))  # one species: fine
    with pytest.raises(StateError, match=r"data\.corrals\[0\]\[\d+\]\.face_up\[1\]: a \w+ card in"):
        _load(MIDGAME, lambda d: _new_corral(d, same_species=False))


def _no_pending(data: dict[str, Any]) -> None:
    """The collected cards back in the deck: nothing left to place."""
    for card in data.pop("pending"):
        data["deck"][card] = 1
    data["pending"] = []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (_no_pending, r"data\.pending: the place phase needs a collected card"),
        (
            lambda d: d["beams"].__setitem__(d["player"], [True] * 4),
            r"data\.beams\[\d\]: cards are",
        ),
    ],
)
def test_an_impossible_place_phase_is_refused(change: Any, field: str) -> None:
    with pytest.raises(StateError, match=field):
        _load(PLACING, change)


def test_an_ended_game_must_really_have_ended() -> None:
    data = copy.deepcopy(MIDGAME)
    state = GAME.state_from_json(data)
    assert not state.is_terminal()
    state.over = state._final_outcome()  # a hand edit the rules cannot produce
    with pytest.raises(StateError, match="the game is over exactly when the deck is empty"):
        state._validate()
