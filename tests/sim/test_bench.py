"""``bench --json``: one row per game, size, bot and engine, with the core count."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.core.registry import register
from ranchhand.sim.bench import bench, cores
from ranchhand.sim.fast import FAST_ENGINES

register("toy", "tests.core.toy")
runner = CliRunner()

ROW_KEYS = {
    "game",
    "players",
    "bot",
    "engine",
    "games",
    "seconds",
    "games_per_s",
    "steps_per_s",
    "turns_per_s",
    "steps",
    "turns",
    "truncated",
}


def test_bench_json_has_a_row_per_size_and_bot_with_the_core_count() -> None:
    args = ["bench", "toy", "--players", "2", "--players", "3", "--games", "2"]
    result = runner.invoke(app, [*args, "--bot", "random", "--bot", "easy", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["cores"] == cores() >= 1
    rows = data["results"]
    assert [(r["players"], r["bot"]) for r in rows] == [
        (2, "random"),
        (2, "easy"),
        (3, "random"),
        (3, "easy"),
    ]
    for row in rows:
        assert set(row) == ROW_KEYS
        assert row["engine"] == "reference" and row["game"] == "toy" and row["games"] == 2
        assert row["steps"] >= row["turns"] > 0 and row["steps_per_s"] > row["games_per_s"] > 0


def test_steps_count_every_action_chance_included() -> None:
    result = bench("rocket-ranchers", 2, games=1, bot="random")
    assert result.steps > 2 * result.turns  # each turn: a beam, placements, draws to refill


def test_fast_engine_of_a_game_without_one_is_refused_by_name() -> None:
    if "toy" in FAST_ENGINES:
        return
    result = runner.invoke(
        app, ["bench", "toy", "--games", "1", "--bot", "random", "--engine", "fast"]
    )
    assert result.exit_code == 2
    assert "toy has no fast engine" in result.output
    result = runner.invoke(app, ["bench", "toy", "--games", "1", "--engine", "quick"])
    assert result.exit_code == 2 and "no engine 'quick'" in result.output
