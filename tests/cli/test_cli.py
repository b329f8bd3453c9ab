"""The command line, driven as a user would (on the toy game, so it runs fast)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.core.registry import register

register("toy", "tests.core.toy")
runner = CliRunner()


def test_simulate_json_has_the_promised_keys() -> None:
    result = runner.invoke(
        app, ["simulate", "toy", "--players", "2", "--seats", "random", "--games", "20", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in (
        "game",
        "players",
        "seats",
        "games",
        "finished",
        "truncated",
        "wins",
        "ties",
        "turns",
        "games_per_s",
        "options",
    ):
        assert key in data
    assert set(data["turns"]) == {"mean", "median", "p90"}
    assert data["seats"] == ["random", "random"]
    assert data["games"] == 20


def test_simulate_table_and_bad_input() -> None:
    result = runner.invoke(app, ["simulate", "toy", "--seats", "random,random", "--games", "10"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output
    bad = runner.invoke(app, ["simulate", "toy", "--seats", "random,wizard", "--games", "5"])
    assert bad.exit_code == 2
    assert "no bot 'wizard'" in bad.output and "random" in bad.output
    bad = runner.invoke(app, ["simulate", "toy", "--seats", "random", "-o", "colour=red"])
    assert bad.exit_code == 2 and "unknown option 'colour'" in bad.output


def test_unknown_game_lists_the_games() -> None:
    result = runner.invoke(app, ["simulate", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output and "rancho" in result.output


def test_play_against_a_bot_survives_typos_and_saves_a_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.json"
    typed = "\n".join(["bet sideways", "flibble", "help", "actions"] + ["bet odd"] * 60) + "\n"
    result = runner.invoke(
        app,
        ["play", "toy", "--seats", "human,random", "--seed", "3", "--record", str(path)],
        input=typed,
    )
    assert result.exit_code == 0, result.output
    assert "illegal action" in result.output
    assert "invalid action" in result.output
    assert "Winner" in result.output
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "verified" in replayed.output


def test_quit_saves_a_partial_record_that_replays(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "partial.json"
    result = runner.invoke(
        app,
        ["play", "toy", "--seats", "human,human", "--seed", "1", "--record", str(path)],
        input="bet odd\n\nquit\n",
    )
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["outcome"] is None
    replayed = runner.invoke(app, ["replay", str(path), "--show", "--no-pause"])
    assert replayed.exit_code == 0, replayed.output
    assert "stops before the end" in replayed.output


def test_replay_reports_a_corrupt_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.json"
    runner.invoke(
        app,
        ["play", "toy", "--seats", "human,random", "--seed", "2", "--record", str(path)],
        input="bet even\n" * 60,
    )
    data = json.loads(path.read_text())
    data["actions"][0] = [-1, "roll 9"]
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "step 0" in result.output


def test_compare_puts_each_reading_of_an_option_side_by_side() -> None:
    result = runner.invoke(
        app,
        [
            "compare",
            "rocket-ranchers",
            "--vary",
            "abundance_table",
            "--players",
            "2",
            "--games",
            "3",
            "--jobs",
            "1",
        ],
        env={"COLUMNS": "160"},
    )
    assert result.exit_code == 0, result.output
    assert "rulebook" in result.output and "scoring-card" in result.output
    assert "abundance" in result.output and "variety" in result.output
    bad = runner.invoke(app, ["compare", "rocket-ranchers", "--vary", "colour", "--games", "1"])
    assert bad.exit_code == 2 and "no option 'colour'" in bad.output


def test_every_game_gives_compare_headline_numbers() -> None:
    from ranchhand.sim.compare import compare

    for game, option, column in (
        ("rancho", "dice", "eaten_value"),
        ("glory-ranch", "tie", "rounds"),
        ("rocket-ranchers", "cat_chain", "variety"),
    ):
        rows = compare(game, option, [2], games=2, jobs=1, base_options=(("max_turns", 500),))
        assert len(rows) == 2
        assert all(column in row.headline for row in rows), game


def test_compare_at_80_columns_cuts_no_column_to_an_ellipsis() -> None:
    """Too many measures for 80 columns go on in a second table (players and the
    reading repeated), rather than every header and number becoming '…'."""
    result = runner.invoke(
        app,
        [
            *("compare", "rocket-ranchers", "--vary", "abundance_table"),
            *("--players", "2", "--games", "2", "--jobs", "1"),
        ],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line) <= 80 for line in lines), result.output
    assert "…" not in result.output, result.output
    for header in ("abundance_table", "turns", "abundance", "variety", "space_cats", "corrals"):
        assert header in result.output, result.output
    assert result.output.count("scoring-card") == 2  # once per table
    assert "the rest: means" in result.output


def test_games_caption_reads_from_the_left_at_80_columns() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    caption = [i for i, line in enumerate(lines) if "players; " in line and "information" in line]
    assert caption, result.output
    for i in caption:
        assert lines[i][:1].isdigit(), lines[i]  # "2-6 players; ...", not centred
        after = lines[i + 1] if i + 1 < len(lines) else ""
        assert not after.startswith("    ") or not after.strip(), after  # no centred tail


def test_arena_store_keeps_the_lineups_as_one_arena_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``arena --store`` keeps its games; run again, it plays none (the lab's arena runner)."""
    from ranchhand.lab.store import Store

    path = tmp_path / "lab.sqlite"
    args = ["arena", "rancho", "--bots", "random,greedy", "--games", "1", "--jobs", "1"]
    args += ["--option", "max_turns=40"]
    first = runner.invoke(app, [*args, "--store", str(path)])
    assert first.exit_code == 0, first.output
    with Store(path) as store:
        (run,) = store.runs()
        assert run.kind == "arena" and run.command.startswith("ranchhand arena rancho --bots")
        assert run.played > 0
    again = runner.invoke(app, [*args, "--store", str(path)])
    assert again.exit_code == 0 and again.output == first.output
    with Store(path) as store:
        assert [r.played for r in store.runs()][-1] == 0


def test_version_and_shell_completion() -> None:
    """``--version``; Typer's completion: the script for a shell, and what it completes."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from ranchhand import __version__

    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.output == f"ranchhand {__version__}\n"
    script = runner.invoke(app, ["--show-completion", "bash"], prog_name="ranchhand")
    assert script.exit_code == 0 and "_ranchhand_completion" in script.output
    command = Path(sys.executable).with_name("ranchhand")  # the installed console script
    completed = subprocess.run(
        [str(command)],
        env={
            **os.environ,
            "_RANCHHAND_COMPLETE": "complete_bash",
            "COMP_WORDS": "ranchhand pl",
            "COMP_CWORD": "1",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.stdout.split() == ["play"], completed
