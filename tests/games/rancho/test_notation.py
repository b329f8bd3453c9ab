"""Action texts: parsing, canonical printing, and clear errors for bad text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.core import ActionError, IllegalAction, InvalidAction
from ranchhand.core.notation import MAX_ACTION_TEXT
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
        ("trade 0 rabbit > sheep", r"the count of rabbit: expected a number 1\.\.60, got 0"),
        ("buy with 2 rabbit", "names no space to buy"),
        ("buy 4.1", "expected 'buy <space> with <animals>'"),
        ("buy 4.1 via with 4 rabbit", "'via' needs the spaces crossed"),
        ("arrange", "'arrange' needs pieces"),
        ("arrange dog @5.1", "is not a piece"),
        ("roll fox+dragon", "expected 'roll <face>\\+<face>'"),
        ("strike x", r"strike <price>: expected a number 1\.\.24, got 'x'"),
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


# Numbers typed by a person: ASCII digits within the rules' bounds, or a clear refusal.
LONG = "9" * 5000


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("strike ²", r"strike <price>: expected a number 1\.\.24, got '²'"),
        ("strike 0", r"strike <price>: expected a number 1\.\.24, got 0"),
        ("strike 25", r"strike <price>: expected a number 1\.\.24, got 25"),
        ("strike -1", r"strike <price>: expected a number 1\.\.24, got '-1'"),
        ("strike ٢", r"strike <price>: expected a number 1\.\.24, got '٢'"),
        ("buy ¹ sheep with cow", r"what you buy: the count of sheep: expected a number 1\.\.60"),
        ("trade ١ sheep > 6 rabbit", r"what you give: the count of sheep: expected .* got '١'"),
        ("trade 6 rabbit > ６ sheep", r"what you take: the count of sheep: .* got '６'"),
        ("trade 61 rabbit > sheep", r"the count of rabbit: expected a number 1\.\.60, got 61"),
        ("trade 1e3 rabbit > sheep", r"the count of rabbit: expected a number 1\.\.60, got '1e3'"),
        ("trade 00000000000000000006 rabbit > sheep", r"the count of rabbit: .* got '0000"),
        ("return ² rabbit", r"return: the count of rabbit: expected a number 1\.\.60"),
        ("buy 4.1 with ² rabbit", r"what you pay: the count of rabbit"),
        ("arrange ² rabbit @5.2; sheep @5.1", r"a rabbit stack: expected a number 1\.\.6, got '²'"),
        ("arrange rabbit 0 @5.2; sheep @5.1", r"a rabbit stack: expected a number 1\.\.6, got 0"),
        ("arrange 7 rabbit @5.2; sheep @5.1", r"a rabbit stack: expected a number 1\.\.6, got 7"),
        ("arrange 2 sheep @5.1; rabbit @5.2", r"only rabbits stack; each sheep is a piece"),
        ("arrange cow 1 @5.1-5.2 ", r"you have 1 rabbits, the arrangement places 0"),
        ("buy ².1 with rabbit", r"'².1' is not animals"),
    ],
)
def test_numbers_are_ascii_digits_within_bounds(text: str, reason: str) -> None:
    state = position()
    give(state, 0, "sheep + rabbit")
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(ActionError, match=reason):
        state.parse_action(text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize(
    "text",
    [f"strike {LONG}", f"trade {LONG} rabbit > sheep", f"arrange {LONG} rabbit @5.2",
     f"buy {LONG}.1 with rabbit", f"arrange sheep @5.1-{LONG}", f"return {LONG} cow"],
)  # fmt: skip
def test_five_thousand_digits_are_refused_by_the_parser_itself(text: str) -> None:
    """The engine cuts action texts at 200 characters, but the arrangement of a saved
    state is read by the same parser without that cap: the parser must refuse by itself."""
    state = position()
    try:
        action = state._parse(text, 0)
    except InvalidAction as error:
        assert len(str(error)) < 300, "the error must not echo the whole number"
    else:
        assert state.why_illegal(action, 0) is not None
    with pytest.raises(InvalidAction, match="at most 200 characters"):
        state.parse_action(text)


def test_sheep_without_at_reads_the_last_word_as_its_space() -> None:
    """'arrange sheep 5.1' once read as 5 sheep on a space '.1'."""
    state = position()
    assert state._parse("arrange sheep 5.1", 0) == Arrange(((1, 1, ("5.1",)),))
    assert state._parse("arrange rabbit 6 2.1", 0) == Arrange(((0, 6, ("2.1",)),))
    assert state._parse("arrange cow @ 4.3 - 4.4", 0) == Arrange(((2, 1, ("4.3", "4.4")),))


def test_a_count_on_a_sheep_is_refused_by_the_arrangement_check_too() -> None:
    """A piece (sheep, 2, one space) built in code or JSON never passes the rules' check."""
    state = position()
    give(state, 0, "2 sheep")
    region = state.region(0)
    pen = state.game.board.by_id["5.1"]
    problem = state.game.grazing.check(region, state.animals[0], ((1, 2, 1 << pen),))
    assert problem is not None and "only rabbits stack" in problem


DIGITS = st.sampled_from(["0", "1", "6", "²", "¹", "١", "٢", "６", "߁", "𝟙", LONG[:250], "-3"])
TEMPLATES = st.sampled_from(
    [
        "strike {n}",
        "trade {n} rabbit > sheep",
        "trade sheep > {n} rabbit",
        "buy 4.{n} with rabbit",
        "buy 4.1 + {n} rabbit with sheep",
        "arrange {n} rabbit @5.2; sheep @5.1",
        "arrange sheep @5.{n}; rabbit {n} @5.2",
        "return {n} sheep",
        "buy 4.1 via 3.{n} with {n} rabbit",
        "{n}",
        "roll {n}+rabbit",
        "arrange sheep {n}.1",
    ]
)


@settings(max_examples=150, deadline=None)
@given(TEMPLATES, st.lists(DIGITS, min_size=1, max_size=3), st.text(max_size=8))
def test_any_number_parses_to_a_legal_action_or_an_action_error(
    template: str, digits: list[str], noise: str
) -> None:
    state = position()
    give(state, 0, "6 rabbit + sheep")
    own(state, 0, "4.1", "4.2")
    before = json.dumps(state.to_json(), sort_keys=True)
    text = template.replace("{n}", "".join(digits)) + noise
    for said in (text, text[:MAX_ACTION_TEXT]):
        try:
            state._parse(said.strip(), 0)  # the game's parser alone raises only InvalidAction
        except InvalidAction as error:
            assert "could not be read" not in str(error)
        try:
            action = state.parse_action(said)
        except ActionError:
            continue
        assert state.is_legal(action)
        assert state.parse_action(str(action)) == action
    assert json.dumps(state.to_json(), sort_keys=True) == before
