"""Data files that load but would break the game are refused, naming file and field.

The board and rules files are data anyone may edit (``-o board=path`` reads a file
outside the package), so every way a file can be wrong must end in a DataError that
says where, never in a traceback or a game that misbehaves later.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranchhand.core import DataError
from ranchhand.games.rancho.board import load_board
from ranchhand.games.rancho.grazing import Grazing
from ranchhand.games.rancho.tables import load_tables
from tests.mutation import mutated as mutations

DATA = Path(__file__).parents[3] / "src/ranchhand/games/rancho/data"
BOARD = DATA / "board-hex-rings.toml"
RULES = DATA / "rules.toml"
P0 = '{ id = "2.1", q = 2, r = -2, price = 1 }'
PEN1 = '{ id = "5.1", q = 5, r = -5, pen = 1 },\n  { id = "5.2", q = 5, r = -4, pen = 1 },'


def _load(path: Path, text: str, loader: Any) -> Any:
    path.write_text(text, encoding="utf-8")
    return loader.__wrapped__(str(path))  # not the cached answer for an earlier file


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (P0, P0.replace('"2.1"', '"2.2"'), r"pasture\[1\]\.id: '2\.2' is used twice"),
        (P0, P0.replace('"2.1"', '"2 1"'), r"pasture\[0\]\.id: expected numbers joined by dots"),
        (P0, P0.replace('"2.1"', '"cow"'), r"pasture\[0\]\.id: expected numbers joined by dots"),
        (P0, P0.replace('"2.1"', '"².1"'), r"pasture\[0\]\.id: expected numbers joined by dots"),
        (P0, P0.replace('"2.1"', '"21"'), r"pasture\[0\]\.id: expected numbers joined by dots"),
        (P0, P0.replace('"2.1"', '"2.1-2"'), r"pasture\[0\]\.id: expected numbers joined by dots"),
        (
            P0,
            P0.replace("price = 1", "price = 0"),
            r"pasture\[0\]\.price: expected an integer 1\.\.24, got 0",
        ),
        (
            P0,
            P0.replace("price = 1", "price = -4"),
            r"pasture\[0\]\.price: expected an integer 1\.\.24",
        ),
        (
            P0,
            P0.replace("price = 1", "price = 99999999999999999"),
            r"pasture\[0\]\.price: expected an integer 1\.\.24",
        ),
        (
            P0,
            P0.replace("price = 1", "price = 1.5"),
            r"pasture\[0\]\.price: expected an integer, got 1\.5",
        ),
        (
            P0,
            P0.replace("price = 1", "price = true"),
            r"pasture\[0\]\.price: expected an integer, got True",
        ),
        (P0, P0.replace("q = 2", "q = 9999"), r"pasture\[0\]\.q: expected an integer -50\.\.50"),
        (
            P0,
            P0.replace("q = 2, r = -2", "q = 0, r = 0"),
            r"pasture\[0\]\.q: hex \(0, 0\) is also '0\.1'",
        ),
        (
            P0,
            P0.replace("price = 1", "price = 1, owner = 2"),
            r"pasture\[0\]\.owner: unknown field",
        ),
        (
            PEN1,
            PEN1.replace("q = 5, r = -5", "q = 9, r = -9").replace(
                "q = 5, r = -4", "q = 9, r = -8"
            ),
            r"pens: pen 1 touches no pasture",
        ),
        (
            PEN1,
            PEN1.replace("q = 5, r = -4", "q = 3, r = -5"),
            r"pens: pen 1 must be two adjacent spaces",
        ),
        (
            PEN1,
            PEN1.replace("pen = 1 },\n  {", "pen = 0 },\n  {"),
            r"pen\[0\]\.pen: expected an integer 1\.\.12, got 0",
        ),
        (
            "2 = [1, 4]",
            "2 = [1, 1]",
            r"pens_by_players\.2: expected 2 different pen numbers, got \[1, 1\]",
        ),
        ("2 = [1, 4]", "2 = [1, 9]", r"pens_by_players\.2: no pen 9"),
        ("2 = [1, 4]", "2 = [[1], 4]", r"pens_by_players\.2: expected pen numbers, got \[1\]"),
        ("2 = [1, 4]", "2 = [true, 4]", r"pens_by_players\.2: expected pen numbers, got True"),
        ("2 = [1, 4]", "7 = [1, 4]", r"pens_by_players\.7: expected a player count 2\.\.6"),
        ("2 = [1, 4]", '"²" = [1, 4]', r"pens_by_players\.²: expected a player count 2\.\.6"),
        ('name = "hex-rings"', 'name = ""', r"name: expected a name of 1 to 40 characters"),
        ('name = "hex-rings"', "name = 3", r"name: expected a text, got 3"),
    ],
)
def test_a_board_that_would_break_the_game_is_refused(
    tmp_path: Path, old: str, new: str, problem: str
) -> None:
    text = BOARD.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(DataError, match=problem):
        _load(tmp_path / "board-bad.toml", text.replace(old, new, 1), load_board)


def test_a_board_of_thousands_of_spaces_is_refused(tmp_path: Path) -> None:
    rows = ",\n".join(
        f'{{ id = "{q + 60}.{r + 60}", q = {q}, r = {r}, price = 1 }}'
        for q in range(-20, 21)
        for r in range(-20, 21)
        if (q, r) != (0, 0)
    )
    text = BOARD.read_text(encoding="utf-8")
    start, end = text.index("pastures = ["), text.index("pens = [")
    with pytest.raises(DataError, match=r"pastures: more than 400 pastures and pen spaces"):
        _load(
            tmp_path / "b.toml",
            f"{text[:start]}pastures = [\n{rows}\n]\n\n{text[end:]}",
            load_board,
        )


def test_a_board_without_pastures_is_refused(tmp_path: Path) -> None:
    text = BOARD.read_text(encoding="utf-8")
    start, end = text.index("pastures = ["), text.index("pens = [")
    with pytest.raises(DataError, match=r"pastures: a board needs pastures"):
        _load(tmp_path / "b.toml", f"{text[:start]}pastures = []\n\n{text[end:]}", load_board)


TWIN = "{ rabbit = 6, sheep = 2, cow = 1, horse = 1, fox = 1, wolf = 1 },\n  {"


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("sheep = 6\n", "sheep = 0\n", r"values\.sheep: expected an integer 1\.\.1000, got 0"),
        ("cow = 12\n", "cow = -12\n", r"values\.cow: expected an integer 1\.\.1000, got -12"),
        (
            "horse = 24\n",
            "horse = 999999999999999999\n",
            r"values\.horse: expected an integer 1\.\.1000",
        ),
        (
            "rabbit = 1\nsheep",
            "rabbit = 2\nsheep",
            r"values\.rabbit: values are counted in rabbits",
        ),
        (
            "rabbits_per_space = 6",
            "rabbits_per_space = 0",
            r"space\.rabbits_per_space: expected an integer 1\.\.60",
        ),
        (
            "rabbits_per_space = 6",
            "rabbits_per_space = 6\nwolves = 1",
            r"space\.wolves: unknown field",
        ),
        (
            "rabbit = [20, 30, 40, 50, 60]",
            "rabbit = [0, 30, 40, 50, 60]",
            r"herd\.rabbit: expected 5 counts 1\.\.1000",
        ),
        (
            "horse = [2, 3, 4, 5, 6]",
            "horse = [2, 3, -4, 5, 6]",
            r"herd\.horse: expected 5 counts 1\.\.1000",
        ),
        (
            "horse = [2, 3, 4, 5, 6]",
            "horse = [true, 3, 4, 5, 6]",
            r"herd\.horse: expected 5 counts",
        ),
        (
            "small_dog = [1, 2, 2, 3, 3]",
            "small_dog = [1, 2, 2, 3, 4]",
            r"dogs\.by-players\.small_dog: expected 5 counts 0\.\.3",
        ),
        (
            "small_dog = [1, 2, 2, 3, 3]",
            "small_dog = 1",
            r"dogs\.by-players\.small_dog: expected a list",
        ),
        (
            "[dogs.by-players]",
            "[dogs.by_players]",
            r"dogs\.by_players: expected a name of lowercase",
        ),
        ("[dogs.none]", '[dogs."Nöne"]', r"dogs\.Nöne: expected a name of lowercase"),
        (
            "[dogs.by-players]",
            "[dogs.by-seat]",
            r"dogs\.by-players: missing; it is the default of option dogs",
        ),
        ("[dice.twin]", "[dice.double]", r"dice\.twin: missing; it is the default of option dice"),
        (
            TWIN,
            TWIN.replace("wolf = 1", "wolf = 1, pig = 0"),
            r"dice\.twin\.d12\[0\]\.pig: unknown field",
        ),
        (
            TWIN,
            TWIN.replace("wolf = 1", "wolf = -1"),
            r"d12\[0\]\.wolf: expected an integer 0\.\.12, got -1",
        ),
        (
            "d6 = [1, 1, 1, 2, 2, 4]",
            "d6 = [1, 1, 1, 2, 2, 0]",
            r"dice\.twin\.d6: expected 6 pasture prices 1\.\.24",
        ),
        (
            "d6 = [1, 1, 1, 2, 2, 4]",
            "d6 = [1, 1, 1, 2, 2, 25]",
            r"dice\.twin\.d6: expected 6 pasture prices 1\.\.24",
        ),
        (
            "d6 = [1, 1, 1, 2, 2, 4]",
            "d6 = [1, 1, 1, 2, 2, true]",
            r"dice\.twin\.d6: expected 6 pasture prices",
        ),
        (
            "[start]\nrabbit = 1",
            "[start]\nhorse = 1\nrabbit = 1",
            r"start: the start animals need 5 spaces; a pen has 2",
        ),
        (
            "[start]\nrabbit = 1",
            "[start]\nrabbit = 13",
            r"start\.rabbit: expected an integer 0\.\.6, got 13",
        ),
        (
            "[start]\nrabbit = 1\nsheep = 1",
            "[start]\nrabbit = 1\ncow = 1",
            r"start: the start animals need 3 spaces",
        ),
        (
            "sheep = [6, 9, 12, 15, 18]",
            "sheep = [1, 9, 12, 15, 18]",
            r"start\.sheep: 2 players take 2 from a herd of 1",
        ),
    ],
)
def test_rules_that_would_break_the_game_are_refused(
    tmp_path: Path, old: str, new: str, problem: str
) -> None:
    text = RULES.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(DataError, match=problem):
        _load(tmp_path / "rules-bad.toml", text.replace(old, new, 1), load_tables)


def test_the_shipped_files_load_and_every_pen_holds_the_start_animals() -> None:
    tables = load_tables.__wrapped__("data/rules.toml")
    for name in ("hex-rings", "hex-compact"):
        board = load_board.__wrapped__(name)
        grazing = Grazing(board, tables.dice["twin"].d6)
        for pen, mask in board.pens.items():
            assert grazing.safest(mask, tables.start) is not None, (name, pen)


# ----------------------------------------------------------- mutated files
def _toml(data: dict[str, Any]) -> str:
    """TOML text of plain data, every table inline (tomllib reads it back equal)."""
    return "".join(f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in data.items())


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    items = ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items())
    return "{" + items + "}"


JUNK = st.one_of(
    st.integers(-(10**17), 10**17),
    st.sampled_from([0, -1, 1, 2, 3, 4, 6, 12, 13, 25, 99]),
    st.booleans(),
    st.text(max_size=6),
    st.sampled_from(["4.1", "5.1", "2.1", "twin", "rabbit", "²", "1.1.1"]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just([]),
    st.just({}),
    st.lists(st.integers(-3, 30), max_size=7),
)


EXTRA_KEYS = ("extra", "id", "price", "pen", "q", "7", "2")


def mutated(original: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    return mutations(original, JUNK, EXTRA_KEYS)


_BOARD_DATA = tomllib.loads(BOARD.read_text(encoding="utf-8"))
_RULES_DATA = tomllib.loads(RULES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for every example (a function-scoped tmp_path is not reset between them)."""
    return tmp_path_factory.mktemp("rancho-data")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=mutated(_BOARD_DATA))
def test_a_mutated_board_loads_or_raises_data_error(folder: Path, data: dict[str, Any]) -> None:
    try:
        board = _load(folder / "board.toml", _toml(data), load_board)
    except DataError:
        return
    grazing = Grazing(board, (1, 1, 1, 2, 2, 4))
    for mask in board.pens.values():  # a board that loads gives every pen room to start
        assert grazing.safest(mask, (1, 1, 0, 0)) is not None
    for players, pens in board.pens_by_players.items():
        assert len(set(pens)) == players and all(p in board.pens for p in pens)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=mutated(_RULES_DATA))
def test_mutated_rules_load_or_raise_data_error(folder: Path, data: dict[str, Any]) -> None:
    try:
        tables = _load(folder / "rules.toml", _toml(data), load_tables)
    except DataError:
        return
    for dice in tables.dice.values():  # rules that load give dice whose chances add up
        assert sum(w for _pair, w in dice.pair_weights()) == 144
    for players in range(2, 7):
        herd = tables.herd_for(players, "by-players")
        assert all(n >= players * s for n, s in zip(herd, tables.start, strict=False))
