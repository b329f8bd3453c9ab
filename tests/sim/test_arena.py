"""The arena: lineups, Bradley-Terry ratings on a known table, reproducibility, the CLI."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.core.errors import OptionError
from ranchhand.sim.arena import ELO, Lineup, analyse, arena, bradley_terry, lineups

OPTIONS = (("max_turns", 400),)


def test_lineups_rotate_the_seats_and_include_mirrors() -> None:
    assert lineups(["a", "b"], 2) == [("a", "b"), ("b", "a"), ("a", "a"), ("b", "b")]
    three = lineups(["a", "b"], 3)
    assert ("a", "b", "b") in three and ("b", "b", "a") in three and ("b", "a", "a") in three
    assert len(three) == 6 + 2


def test_bradley_terry_recovers_a_known_strength_ratio() -> None:
    """a beats b 3 times in 4 and b beats c 3 times in 4: a/b = b/c = 3 (with a tiny prior)."""
    pairs = {("a", "b"): [3000.0, 1000.0, 0.0], ("b", "c"): [3000.0, 1000.0, 0.0]}
    logs = bradley_terry(["a", "b", "c"], pairs)
    assert logs["a"] - logs["b"] == pytest.approx(math.log(3), abs=1e-3)
    assert logs["b"] - logs["c"] == pytest.approx(math.log(3), abs=1e-3)


def test_analysis_of_a_constructed_table() -> None:
    table = [
        Lineup(("random", "greedy"), 100, (20, 75), 5),
        Lineup(("greedy", "random"), 100, (85, 15), 0),
        Lineup(("random", "random"), 100, (55, 45), 0),
        Lineup(("greedy", "greedy"), 100, (60, 40), 0),
    ]
    report = analyse("rancho", 2, ["random", "greedy"], 1, table)
    # greedy: 160 wins, 35 losses, 5 draws against random
    assert report.head_to_head["greedy"]["random"] == pytest.approx(162.5 / 200)
    assert report.head_to_head["random"]["greedy"] == pytest.approx(37.5 / 200)
    expected = ELO * math.log((162.5 + 0.5) / (37.5 + 0.5))
    assert report.ratings["greedy"] == pytest.approx(expected, abs=0.5)
    assert report.ratings["random"] == 0
    low, high = report.intervals["greedy"]
    assert low < report.ratings["greedy"] < high
    assert report.seats == [pytest.approx(115 / 200), pytest.approx(85 / 200)]
    assert report.luck_and_skill["skill_gap"] == pytest.approx(0.625)
    assert report.luck_and_skill["seat_gap"] == pytest.approx(0.15)


def test_results_do_not_depend_on_jobs() -> None:
    one = arena("rancho", ["random", "greedy"], 6, 2, seed=4, jobs=1, options=OPTIONS)
    two = arena("rancho", ["random", "greedy"], 6, 2, seed=4, jobs=2, options=OPTIONS)
    assert one.to_json() == two.to_json()
    other = arena("rancho", ["random", "greedy"], 6, 2, seed=5, jobs=1, options=OPTIONS)
    assert other.to_json()["lineups"] != one.to_json()["lineups"]


def test_an_arena_needs_two_different_bots() -> None:
    with pytest.raises(OptionError, match="two different bots"):
        arena("rancho", ["greedy", "greedy"], 2, 2)


def test_bots_meet_at_two_seats_even_where_a_game_may_be_played_alone() -> None:
    with pytest.raises(OptionError, match="two or more players"):
        arena("super-farmer", ["random", "greedy"], 2, 1)
    args = ["arena", "super-farmer", "--bots", "random,greedy", "--games", "2", "--jobs", "1"]
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["players"] == 2, "the default table is two, not the solitaire"


def test_cli_prints_the_ladder_and_json() -> None:
    runner = CliRunner()
    args = ["arena", "rancho", "--bots", "random,greedy", "--games", "4", "--jobs", "1"]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "Elo" in shown.output and "head to head" in shown.output
    assert "luck and skill" in shown.output
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert {r["bot"] for r in data["ratings"]} == {"random", "greedy"}
    assert len(data["lineups"]) == 4
    bad = runner.invoke(app, ["arena", "rancho", "--bots", "random,wizard", "--games", "2"])
    assert bad.exit_code != 0 and "wizard" in bad.output
