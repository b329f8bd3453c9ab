"""Super Farmer's notation, data file checks, positions, bots, summary and screen."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from ranchhand.core import DataError, InvalidAction, StateError
from ranchhand.core.registry import load
from ranchhand.games.super_farmer import BOTS, VIEW
from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.summary import COUNTED, quantile
from ranchhand.games.super_farmer.tables import load_tables
from tests.games.super_farmer.helpers import holding, table


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("trade 6 rabbits for a sheep", "trade 6 rabbit > sheep"),
        ("TRADE  Horse > 2 Cows", "trade horse > 2 cow"),
        ("trade cow > big dog", "trade cow > big dog"),
        ("trade cow > large dog", "trade cow > big dog"),
        ("trade 2 sheep + 2 pigs + cow > horse", "trade 2 sheep + 2 pig + cow > horse"),
        ("roll", "roll"),
        ("roll wolf+fox", "roll wolf+fox"),
    ],
)
def test_texts_read_back_to_their_canonical_form(text: str, canonical: str) -> None:
    from ranchhand.games.super_farmer.notation import parse

    assert str(parse(text, 60)) == canonical


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("trade ² sheep > pig", "expected a number"),
        ("trade 61 rabbit > sheep", "expected a number 1..60"),
        ("trade 6 rabbit", "gives and takes"),
        ("trade 6 kraken > sheep", "no animal"),
        ("roll rabbit", "wolf die"),
        ("buy sheep", "unknown action"),
    ],
)
def test_bad_texts_are_refused_saying_why(text: str, reason: str) -> None:
    from ranchhand.games.super_farmer.notation import parse

    with pytest.raises(InvalidAction, match=reason):
        parse(text, 60)


def test_a_player_cannot_choose_the_dice() -> None:
    state = table({"rabbit": 2})
    with pytest.raises(ValueError, match="rolled by chance"):
        state.apply_text("roll rabbit+rabbit", 0)


def test_a_rules_file_is_checked_naming_the_field(tmp_path: Path) -> None:
    good = (
        Path(__file__).parents[3] / "src/ranchhand/games/super_farmer/data/rules.toml"
    ).read_text()
    for old, new, field in [
        ("rabbit = 1\n", "rabbit = 2\n", "values.rabbit"),
        ("[dice.fox]\nrabbit = 6", "[dice.fox]\nrabbit = 7", "dice.fox"),
        ("wolf = 1", "wolf = 0\nhorse = 1", "dice.wolf.wolf"),
        ('["cow", "big_dog"]', '["cow", "small_dog"]', "swaps[1]"),
        ("big_dog = 2", "big_dog = -2", "herd.big_dog"),
    ]:
        bad = tmp_path / f"rules-{field}.toml"
        bad.write_text(good.replace(old, new, 1))
        with pytest.raises(DataError, match=field.replace("[", r"\[").replace("]", r"\]")):
            load_tables(str(bad))


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"farmers": [{"rabbit": 61}]}, "herd.rabbit"),
        ({"farmers": [{"rabbit": -1}]}, "farmers[0].rabbit"),
        ({"farmers": [{"kraken": 1}]}, "farmers[0].kraken"),
        ({"farmers": [{"rabbit": 1, "sheep": 1, "pig": 1, "cow": 1, "horse": 1}]}, "full herd"),
        ({"phase": "breed"}, "setup.phase"),
        ({"traded": 1}, "traded"),
        ({"colour": "red"}, "setup.colour"),
    ],
)
def test_impossible_positions_are_refused(spec: dict[str, object], field: str) -> None:
    with pytest.raises(StateError, match=field.replace("[", r"\[").replace("]", r"\]")):
        load("super-farmer", 1).setup(spec)


def test_a_position_set_up_in_toml_round_trips() -> None:
    game = load("super-farmer", 2)
    state = game.setup("player = 1\nfarmers = [{rabbit = 3}, {cow = 1, big_dog = 1}]\n")
    assert holding(state, 1) == {"cow": 1, "big_dog": 1} and state.current_player() == 1
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()


def _legal(state: object) -> list[object]:
    return state.legal_actions()  # type: ignore[attr-defined,no-any-return]


def test_greedy_takes_a_winning_exchange() -> None:
    state = table({"rabbit": 1, "sheep": 1, "pig": 1, "cow": 3})
    choice = BOTS["greedy"]().act(state.observe(0), _legal(state), None)  # type: ignore[arg-type]
    assert str(choice) == "trade 2 cow > horse"


def test_greedy_guards_a_valuable_herd_with_a_big_dog_and_daring_does_not() -> None:
    state = table({"rabbit": 1, "sheep": 6, "pig": 3, "cow": 1})
    greedy = BOTS["greedy"]().act(state.observe(0), _legal(state), None)  # type: ignore[arg-type]
    assert isinstance(greedy, Trade) and greedy.take[6] == 1, greedy
    daring = BOTS["daring"]().act(state.observe(0), _legal(state), None)  # type: ignore[arg-type]
    assert daring == Roll(), "no exchange brings the horse without giving up a species"


def test_greedy_collects_a_missing_species_keeping_those_it_has() -> None:
    state = table({"rabbit": 8, "sheep": 1})
    choice = BOTS["greedy"]().act(state.observe(0), _legal(state), None)  # type: ignore[arg-type]
    assert choice == Roll(), "a pig would cost the only sheep or the rabbits it breeds with"
    state = table({"rabbit": 19, "sheep": 3})
    choice = BOTS["greedy"]().act(state.observe(0), _legal(state), None)  # type: ignore[arg-type]
    assert isinstance(choice, Trade) and choice.take == (0, 0, 1, 0, 0, 0, 0)
    left = [m - g for m, g in zip(state.animals[0], choice.give, strict=True)]
    assert left[0] >= 12 and left[1] >= 1, "keeps its rabbit reserve and a sheep"


def test_with_nothing_to_exchange_the_bots_roll() -> None:
    state = table({"rabbit": 2})
    for bot in BOTS.values():
        assert bot().act(state.observe(0), _legal(state), None) == Roll()


def test_quartiles_of_a_histogram() -> None:
    lengths = {10: 1, 20: 2, 30: 1}
    assert [quantile(lengths, q) for q in (0.0, 0.25, 0.5, 0.75, 1.0)] == [10, 17.5, 20, 22.5, 30]


def test_the_summary_reports_turns_to_win() -> None:
    game = load("super-farmer", 1)
    base = dict.fromkeys(COUNTED, 1)
    result = game.summarize(
        [{**base, "winner": 0, "turns": t, "rolls": t - 1} for t in (30, 40, 50)]
        + [{**base, "winner": None, "turns": 1000, "rolls": 1000}]
    )
    assert result["games"] == 4 and result["wins_by_seat"] == [3]
    assert result["turns_to_win"]["median"] == 40 and result["turns_to_win"]["mean"] == 40
    assert result["rolls_to_win"]["q1"] == 34
    assert result["average"]["median_rolls_to_win"] == 39
    assert result["mean_trades"] == 1
    assert VIEW.render_summary(result) is not None


def test_the_table_fits_80_columns_with_six_farmers() -> None:
    state = table(*({"rabbit": 60 // 6, "sheep": 4, "pig": 3, "cow": 2} for _ in range(6)))
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(VIEW.render(state.observe(2)))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 9 and max(len(line) for line in lines) <= 80
    assert "needs horse" in lines[2] and lines[4].startswith(" P2*")


def test_standing_is_the_herd_value_and_evaluate_favours_the_leader() -> None:
    state = table({"rabbit": 3, "sheep": 1, "pig": 1, "big_dog": 1}, {"horse": 1}, players=2)
    assert state.standing() == [57.0, 72.0]
    first, second = state.evaluate()
    assert abs(first + second - 1) < 1e-9 and first > second, "three species beat a horse"
