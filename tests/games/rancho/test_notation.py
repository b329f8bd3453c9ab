"""Action texts: parsing, canonical printing, and clear errors for bad text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import ActionError, IllegalAction, InvalidAction
from ranchhand.games.rancho.actions import Arrange, Deal, DiceRoll, Dog, First, Return, Strike
from ranchhand.games.rancho.tables import FOX, LARGE_DOG, RABBIT, WOLF
from tests.games.rancho.helpers import counts, give, own, position


@pytest.mark.parametrize(
    "text",
    [
        "roll",
        "trade 6 rabbit > sheep",
        "trade 3 rabbit + 2 sheep + small dog + large dog > horse",
        "buy 4.1 with 4 rabbit",
        "buy 3.1 + 4.1 with sheep",
        "buy 3.4 + 4 rabbit with sheep",
        "buy 2.2 + 5 rabbit via 3.2 with sheep",
        "buy 3.5 via 3.3,3.4 with 2 rabbit",
        "arrange 6 rabbit @2.1; sheep @3.1; cow @5.1-5.2",
        "arrange safest",
        "end turn",
        "fox first",
        "wolf first",
        "give small dog",
        "keep large dog",
        "return 2 rabbit + cow",
        "roll rabbit+wolf",
        "strike 4",
    ],
)
def test_canonical_texts_round_trip(text: str) -> None:
    state = position()
    action = state._parse(text, 0)
    assert str(action) == text
    assert state._parse(str(action), 0) == action


def test_forgiving_spellings_give_the_canonical_action() -> None:
    state = position()
    assert state._parse("Trade 6 Rabbits for a Sheep", 0) == Deal(
        counts("6 rabbit"), counts("sheep")
    )  # type: ignore[arg-type]
    assert state._parse("trade sd > 3 r", 0) == Deal(counts("small dog"), counts("3 rabbit"))  # type: ignore[arg-type]
    assert state._parse("roll wolf+rabbit", -1) == DiceRoll(RABBIT, WOLF)
    assert state._parse("arrange cow @5.2-5.1; rabbit 6 @2.1", 0) == state._parse(
        "arrange 6 rabbit @2.1; cow @5.1-5.2", 0
    )
    assert state._parse("buy 4.2 + 4.1 with sheep", 0) == state._parse(
        "buy 4.1 + 4.2 with sheep", 0
    )
    assert isinstance(state._parse("arrange sheep 5.1", 0), Arrange)
    assert state._parse("wolf first", 0) == First(WOLF) != First(FOX)
    assert state._parse("give large dog", 0) == Dog(True, LARGE_DOG)
    assert state._parse("return cow", 0) == Return(counts("cow"))  # type: ignore[arg-type]
    assert state._parse("strike 2", -1) == Strike(2)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty text"),
        ("dance", "unknown action 'dance'"),
        ("trade sheep", "expected 'trade <animals> > <animals>'"),
        ("trade 2 unicorn > sheep", "'2 unicorn' is not animals"),
        ("trade 0 rabbit > sheep", "a count must be at least 1"),
        ("buy with 2 rabbit", "names no space to buy"),
        ("buy 4.1", "expected 'buy <space> with <animals>'"),
        ("buy 4.1 via with 4 rabbit", "'via' needs the spaces crossed"),
        ("arrange", "'arrange' needs pieces"),
        ("arrange dog @5.1", "is not a piece"),
        ("roll fox+dragon", "expected 'roll <face>\\+<face>'"),
        ("strike x", "expected 'strike <price>'"),
        ("return nothing", "say which animals go back"),
    ],
)
def test_bad_text_says_what_is_wrong_and_changes_nothing(text: str, reason: str) -> None:
    state = position()
    give(state, 0, "sheep + rabbit")
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(InvalidAction, match=reason):
        state.parse_action(text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_wrong_step_actions_say_which_step_it_is() -> None:
    state = position()
    give(state, 0, "sheep + rabbit")
    with pytest.raises(IllegalAction, match="'end turn' comes after breeding; this is the expand"):
        state.apply_text("end turn")
    with pytest.raises(IllegalAction, match="only when a fox and a wolf are rolled"):
        state.apply_text("fox first")
    with pytest.raises(IllegalAction, match="only when newborns do not fit"):
        state.apply_text("return rabbit")
    with pytest.raises(IllegalAction, match="dice are rolled by chance"):
        state.apply(DiceRoll(RABBIT, RABBIT), 0)
    with pytest.raises(IllegalAction, match="already stand in the safest"):
        state.apply_text("arrange safest")
    state.apply_text("roll")
    with pytest.raises(InvalidAction, match="a chance roll names both faces"):
        state.parse_action("roll")
    state.apply_text("roll rabbit+horse")
    with pytest.raises(IllegalAction, match="belong to the expand step, not the settle step"):
        state.apply_text("trade 6 rabbit > sheep")


WORDS = st.sampled_from(
    ["trade", "buy", "arrange", "roll", "with", "via", ">", "+", ";", "@", "-", "2", "6",
     "rabbit", "sheep", "cow", "horse", "small dog", "4.1", "3.2", "5.1", "9.9", "x", ""]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=9), st.text(max_size=12))
def test_any_text_parses_or_is_refused_with_an_action_error(words: list[str], noise: str) -> None:
    state = position()
    give(state, 0, "6 rabbit + sheep")
    own(state, 0, "4.1", "4.2")
    before = json.dumps(state.to_json(), sort_keys=True)
    for text in (" ".join(words), noise, " ".join(words) + noise):
        try:
            action = state.parse_action(text)
        except ActionError:
            continue
        assert state.is_legal(action)
        assert state.parse_action(str(action)) == action
    assert json.dumps(state.to_json(), sort_keys=True) == before
