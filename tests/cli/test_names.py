"""``play --names``: the people at the table are called by their names on screen, in the
record, and again when the game is taken up; a game over shows its final board before
the record is said to be saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app

runner = CliRunner()


def test_names_are_shown_kept_and_resumed(tmp_path: Path) -> None:
    path = tmp_path / "named.json"
    args = ["play", "rancho", "--seats", "human,greedy,human", "--names", "Ann,Bob"]
    first = runner.invoke(app, [*args, "--seed", "5", "--record", str(path)], input="\nquit\n")
    assert first.exit_code == 0, first.output
    assert "Pass the keyboard to P0 Ann" in first.output
    assert "P0 human" not in first.output
    saved = json.loads(path.read_text())
    assert saved["names"] == ["Ann", "greedy", "Bob"]
    assert saved["seats"] == ["human", "greedy", "human"]  # the kinds: who plays each seat
    again = runner.invoke(app, ["play", "--resume", str(path)], input="\nquit\n")
    assert again.exit_code == 0, again.output
    assert "Pass the keyboard to P0 Ann" in again.output
    assert json.loads(path.read_text())["names"] == ["Ann", "greedy", "Bob"]
    renamed = runner.invoke(app, ["play", "--resume", str(path), "--names", "Cy"])
    assert renamed.exit_code == 2 and "takes the names from the record" in renamed.output


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        ("Ann,Bob,Cy,Di", "--names gives 4 names: give one per human seat (2) or one per seat"),
        ("Ann,", "'' is not a name"),
        ("A" * 33, "1 to 32 printable characters"),
        ("Ann\x1b[2J,Bob", "is not a name"),
    ],
)
def test_names_that_do_not_fit_are_refused(names: str, expected: str) -> None:
    args = ["play", "rancho", "--seats", "human,greedy,human", "--names", names]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and expected in result.output, result.output


def test_every_seat_may_be_named_and_the_board_comes_before_the_record(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    args = ["play", "rancho", "--seats", "greedy,greedy", "--names", "Hal,Eve"]
    result = runner.invoke(app, [*args, "--seed", "3", "--record", str(path), "-o", "max_turns=6"])
    assert result.exit_code == 0, result.output
    output = result.output
    assert output.index("stopped by max_turns") < output.index("Record saved to")
    assert output.index("Record saved to") < output.index("The game's seed was 3")
    assert json.loads(path.read_text())["names"] == ["Hal", "Eve"]
