"""Game options are finite, in range and ASCII, and every value accepted fits in a record.

A value is accepted once: by ``-o key=value`` on the command line (text), by the
server's ``options`` (JSON numbers) or by a caller. Whatever is accepted is written
into records as it is, so each game's records must be read back, replayed and
resumed with every option at its extremes.
"""

from __future__ import annotations

import json
import math

import pytest

from ranchhand.core import Option, OptionError, Record, replay
from ranchhand.core.data import load_json
from ranchhand.core.options import MAX_TURNS_LIMIT
from ranchhand.core.records import MAX_STEPS
from ranchhand.core.registry import GAME_MODULES, bot_factory, game_class, load
from ranchhand.core.runner import play

BUILT_IN = [name for name in GAME_MODULES if not GAME_MODULES[name].startswith("tests.")]
NUMERIC = [
    (name, option.name, value)
    for name in BUILT_IN
    for option in game_class(name).option_specs()
    if option.kind in (int, float)
    for value in (option.minimum, option.maximum)
]


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_numeric_option_of_every_game_is_bounded(name: str) -> None:
    for option in game_class(name).option_specs():
        if option.kind in (int, float):
            assert option.minimum is not None, f"{name}: {option.name} has no minimum"
            assert option.maximum is not None, f"{name}: {option.name} has no maximum"
            assert len(str(option.maximum)) <= 20, "a record reads integers of at most 20 digits"


@pytest.mark.parametrize(
    "text",
    ["٣", "²", "1_000", "１２", "3.5", "1e3", "0x10", "nan", "inf", "", "- 3", "3 4"],
)
def test_an_integer_option_from_text_is_ascii_digits_only(text: str) -> None:
    with pytest.raises(OptionError, match=r"rancho: option max_turns: expected an integer 0\.\."):
        load("rancho", 2, max_turns=text)


def test_the_message_names_ascii_digits_and_the_range() -> None:
    with pytest.raises(OptionError) as refused:
        load("rancho", 2, max_turns="٣")
    assert str(refused.value) == (
        f"rancho: option max_turns: expected an integer 0..{MAX_TURNS_LIMIT} in ASCII digits, "
        "got '٣'"
    )


@pytest.mark.parametrize(("given", "read"), [("3", 3), (" 7 ", 7), ("+5", 5), (3.0, 3), (12, 12)])
def test_integers_as_text_numbers_or_whole_floats_are_read(given: object, read: int) -> None:
    assert load("rancho", 2, max_turns=given).options["max_turns"] == read


@pytest.mark.parametrize(
    "given",
    [10**35, 1e308, float(MAX_TURNS_LIMIT + 1), MAX_TURNS_LIMIT + 1, "1" + "0" * 35, -1],
)
def test_max_turns_out_of_range_is_refused_briefly(given: object) -> None:
    with pytest.raises(OptionError, match=r"(above the maximum|below the minimum)") as refused:
        load("rancho", 2, max_turns=given)
    assert len(str(refused.value)) < 120, "a huge number is not echoed digit by digit"


@pytest.mark.parametrize("given", [math.nan, math.inf, -math.inf, True, 2.5, [3], None])
def test_non_integers_are_refused(given: object) -> None:
    with pytest.raises(OptionError, match="expected an integer"):
        load("glory-ranch", 2, target=given)


def test_a_float_option_is_finite() -> None:
    option = Option("ratio", 0.5, "a share", minimum=0, maximum=1)
    assert option.allowed() == "a finite number 0..1"
    assert option.coerce("0.25") == 0.25
    assert option.coerce(1) == 1.0
    for bad in ("nan", "inf", "-inf", math.nan, math.inf, "٠.٥", True, "1e400"):
        with pytest.raises(OptionError, match=r"expected a finite number 0\.\.1"):
            option.coerce(bad)
    with pytest.raises(OptionError, match="above the maximum 1"):
        option.coerce(1.5)


def test_max_turns_keeps_truncated_records_readable() -> None:
    """A turn takes at most about 8 steps (Rocket Ranchers), so a game cut off at the
    largest max_turns still fits a record's step limit."""
    assert MAX_TURNS_LIMIT * 8 <= MAX_STEPS


@pytest.mark.parametrize(("name", "option", "value"), NUMERIC)
def test_every_accepted_extreme_round_trips_through_a_record(
    name: str, option: str, value: int
) -> None:
    """Each numeric option at its minimum and maximum: a game is played and recorded,
    the record goes through JSON text and the untrusted reader, is replayed to the same
    outcome, and a game stopped halfway is resumed from it to the same end."""
    game = load(name, None, **{option: value})
    seats = [bot_factory(name, "greedy")() for _ in range(game.players)]
    result = play(game, seats, 11, record=True)
    assert result.record is not None
    text = json.dumps(result.record.to_json())
    read = Record.from_json(load_json(text, "record"))
    assert read.options[option] == value
    assert replay(read).outcome() == result.outcome
    again = read.load_game()
    assert again.options == game.options
    half = read.steps[: len(read.steps) // 2]
    seats = [bot_factory(name, "greedy")() for _ in range(again.players)]
    resumed = play(again, seats, 11, record=True, resume=half)
    assert resumed.outcome == result.outcome
    assert resumed.record is not None and resumed.record.steps == read.steps
