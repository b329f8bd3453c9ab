"""The data files: board, herd table, dice and dogs, and their checks on load."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from ranchhand.core import DataError, OptionError, StateError
from ranchhand.games.rancho.actions import DiceRoll, Strike
from ranchhand.games.rancho.board import load_board
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.tables import COW, FOX, HORSE, RABBIT, SHEEP, WOLF, load_tables

BOARD = Path(__file__).parents[3] / "src/ranchhand/games/rancho/data/board-hex-rings.toml"


def test_board_rings_prices_and_pens() -> None:
    board = load_board("hex-rings")
    assert len(board.forest) == 7
    prices = [s.price for s in board.spaces if not s.is_pen]
    assert (prices.count(1), prices.count(2), prices.count(4)) == (12, 18, 24)
    assert sorted(board.pens) == [1, 2, 3, 4, 5, 6]
    for pen, mask in board.pens.items():
        members = [board.spaces[i] for i in range(len(board.spaces)) if mask >> i & 1]
        assert len(members) == 2
        touching = {board.spaces[n].price for m in members for n in board.neighbours[m.index]}
        assert 4 in touching and 1 not in touching and 2 not in touching, pen


def test_another_map_is_another_file() -> None:
    game = RanchoGame(6, board="hex-compact")
    prices = [s.price for s in game.board.spaces if not s.is_pen]
    assert (prices.count(1), prices.count(2), prices.count(4)) == (6, 12, 18)
    assert len(game.board.forest) == 1 and len(game.pens) == 6
    state = game.new_initial_state()
    assert state.herd[:4] == [60 - 6, 18 - 6, 12, 6]


def test_adjacency_is_symmetric_and_hexagonal() -> None:
    board = load_board("hex-rings")
    for space in board.spaces:
        assert len(board.neighbours[space.index]) <= 6
        for n in board.neighbours[space.index]:
            assert space.index in board.neighbours[n]
    ring3 = board.by_id["3.1"]
    assert sorted(board.ids(board.neighbour_mask[ring3])) == [
        "2.1", "3.18", "3.2", "4.1", "4.2", "4.24",
    ]  # fmt: skip


def test_pens_by_player_count() -> None:
    board = load_board("hex-rings")
    assert board.pens_by_players[2] == (1, 4)  # opposite
    assert board.pens_by_players[3] == (1, 3, 5)  # every other
    four = board.pens_by_players[4]
    free = sorted(set(range(1, 7)) - set(four))
    assert free[1] - free[0] == 3  # the two free pens are opposite


def test_herd_table_by_player_count() -> None:
    tables = load_tables()
    assert [tables.herd[p][RABBIT] for p in range(2, 7)] == [20, 30, 40, 50, 60]
    assert [tables.herd[p][SHEEP] for p in range(2, 7)] == [6, 9, 12, 15, 18]
    assert [tables.herd[p][COW] for p in range(2, 7)] == [4, 6, 8, 10, 12]
    assert [tables.herd[p][HORSE] for p in range(2, 7)] == [2, 3, 4, 5, 6]
    assert tables.values == (1, 6, 12, 24, 3, 6)


@pytest.mark.parametrize(
    ("players", "dogs", "small", "large"),
    [(2, "by-players", 1, 1), (3, "by-players", 2, 2), (4, "by-players", 2, 2),
     (5, "by-players", 3, 3), (6, "by-players", 3, 3), (2, "all", 3, 3), (4, "none", 0, 0)],
)  # fmt: skip
def test_dogs_option(players: int, dogs: str, small: int, large: int) -> None:
    state = RanchoGame(players, dogs=dogs).new_initial_state()
    assert state.herd[4:] == [small, large]


def test_setup_gives_each_player_a_sheep_and_a_rabbit_in_the_pen() -> None:
    state = RanchoGame(4).new_initial_state()
    assert state.herd[:4] == [40 - 4, 12 - 4, 8, 4]
    for p in range(4):
        assert state.animals[p] == [1, 1, 0, 0, 0, 0]
        assert all(mask & state.game.pens[p] == mask for _k, _n, mask in state.pieces[p])


def test_twin_dice_probabilities() -> None:
    state = RanchoGame(2).new_initial_state()
    rolls = dict(state.game.roll_outcomes.probabilities())
    assert sum(rolls.values()) == 1
    assert rolls[DiceRoll(RABBIT, RABBIT)] == Fraction(36, 144)
    assert rolls[DiceRoll(RABBIT, WOLF)] == Fraction(12, 144)
    assert rolls[DiceRoll(FOX, WOLF)] == Fraction(2, 144)
    assert rolls[DiceRoll(FOX, FOX)] == Fraction(1, 144)
    strikes = dict(state.game.strike_outcomes.probabilities())
    assert strikes == {
        Strike(1): Fraction(1, 2),
        Strike(2): Fraction(1, 3),
        Strike(4): Fraction(1, 6),
    }
    assert str(DiceRoll(RABBIT, WOLF)) == "roll rabbit+wolf"


def test_farmer_dice_never_show_two_foxes() -> None:
    game = RanchoGame(2, dice="farmer")
    rolls = dict(game.roll_outcomes.probabilities())
    assert DiceRoll(FOX, FOX) not in rolls and DiceRoll(WOLF, WOLF) not in rolls
    assert rolls[DiceRoll(FOX, WOLF)] == Fraction(1, 144)
    assert sum(rolls.values()) == 1


def test_unknown_option_values_are_refused() -> None:
    with pytest.raises(OptionError, match=r"allowed: hex-compact, hex-rings"):
        RanchoGame(2, board="square")
    with pytest.raises(OptionError, match=r"dice"):
        RanchoGame(2, dice="loaded")


def test_a_bad_board_file_names_file_and_field(tmp_path: Path) -> None:
    text = BOARD.read_text().replace(
        '{ id = "2.1", q = 2, r = -2, price = 1 }', '{ id = "2.1", q = 2, r = -2, price = "one" }'
    )
    bad = tmp_path / "board-bad.toml"
    bad.write_text(text)
    with pytest.raises(DataError, match=r"pasture\[0\]\.price: expected an integer"):
        load_board(str(bad))
    broken_pen = BOARD.read_text().replace(
        '{ id = "5.2", q = 5, r = -4, pen = 1 }', '{ id = "5.2", q = 3, r = -5, pen = 1 }'
    )
    bad.write_text(broken_pen)
    with pytest.raises(DataError, match=r"pen 1 must be two adjacent spaces"):
        load_board(str(bad))


RULES = BOARD.parent / "rules.toml"


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("rabbit = 6, sheep = 2, cow = 1, horse = 1, fox = 1, wolf = 1 },\n  {",
         "rabbit = 5, sheep = 2, cow = 1, horse = 1, fox = 1, wolf = 1 },\n  {",
         r"dice\.twin\.d12\[0\]: a twelve-sided die needs 12 faces, got 11"),
        ("rabbit = [20, 30, 40, 50, 60]", "rabbit = [20, 30, 40]",
         r"herd\.rabbit: expected 5 counts 1\.\.1000 \(2 to 6 players\)"),
        ("cow = 12\n", "cow = 12\nunicorn = 99\n", r"values\.unicorn: unknown field"),
        ("d6 = [1, 1, 1, 2, 2, 4]", "d6 = [1, 1, 2, 4]", r"d6: expected 6 pasture prices"),
    ],
)  # fmt: skip
def test_a_bad_rules_file_names_file_and_field(
    tmp_path: Path, old: str, new: str, problem: str
) -> None:
    text = RULES.read_text()
    assert old in text
    bad = tmp_path / "rules-bad.toml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError, match=problem):
        load_tables(str(bad))


def test_a_bad_state_json_is_refused_naming_the_field() -> None:
    state = RanchoGame(2).new_initial_state()
    data = state.to_json()
    data["data"]["players"][0]["arrangement"] = "sheep @5.1"
    with pytest.raises(StateError, match=r"data\.players\[0\]\.arrangement: you have 1 rabbits"):
        state.game.state_from_json(data)
    data["data"]["players"][0]["arrangement"] = "sheep @9.9; rabbit @5.2"
    with pytest.raises(StateError, match=r"players\[0\]\.arrangement: 9\.9 is not a space"):
        state.game.state_from_json(data)
    del data["data"]["herd"]
    with pytest.raises(StateError, match=r"state JSON: data\.herd: missing"):
        state.game.state_from_json(data)
