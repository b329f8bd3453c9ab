"""`ranchhand play` keeps its secrets and its records: the seed, the record file, a crash."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.cli.play import WIPE, private_screen
from ranchhand.core import Record, replay
from ranchhand.games.glory_ranch.bots import GreedyBot as GloryGreedy

runner = CliRunner()
SEED = "91234567812"


def test_the_seed_is_not_shown_until_the_game_is_over(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    args = ["play", "glory-ranch", "--seats", "random,random", "--seed", SEED]
    result = runner.invoke(app, [*args, "--record", str(path)])
    assert result.exit_code == 0, result.output
    before, _, after = result.output.partition("Winner")
    assert SEED not in before and SEED in after
    assert Record.load(path).seed == int(SEED)


def test_a_stopped_game_never_shows_its_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "glory-ranch", "--seats", "human,greedy"], input="quit\n")
    assert result.exit_code == 0, result.output
    (saved,) = (tmp_path / "records").iterdir()
    seed = Record.load(saved).seed
    assert seed is not None and str(seed) not in result.output
    assert str(seed) not in saved.name, "the record's name must not give the seed away"


def test_a_record_is_never_written_over_another(tmp_path: Path) -> None:
    taken = tmp_path / "taken.json"
    taken.write_text("precious")
    folder = tmp_path / "folder"
    folder.mkdir()
    for bad, said in [
        (taken, "already"),
        (folder, "folder"),
        (tmp_path / "missing" / "game.json", "does not exist"),
        (Path("/dev/null"), "already"),
    ]:
        result = runner.invoke(
            app, ["play", "rancho", "--seats", "human,greedy", "--record", str(bad)], input="quit\n"
        )
        assert result.exit_code == 2, result.output
        output = " ".join(result.output.split())  # Rich wraps long paths
        assert said in output and "Type 'help'" not in output
    assert taken.read_text() == "precious"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere: no unwritable folder")
def test_an_unwritable_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    result = runner.invoke(
        app, ["play", "rancho", "--seats", "human,greedy", "--record", str(locked / "g.json")]
    )
    assert result.exit_code == 2 and "cannot write" in " ".join(result.output.split())


def test_a_record_is_written_whole_and_follows_no_link(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("not yours")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    record = Record("rancho", 2, {})
    with pytest.raises(ValueError, match="already exists"):
        record.save(link)
    assert target.read_text() == "not yours"
    record.save(tmp_path / "new.json")
    assert json.loads((tmp_path / "new.json").read_text())["game"] == "rancho"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_bug_during_play_saves_the_game_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}
    act = GloryGreedy.act

    def flaky(self, observation, legal, rng):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 12:
            raise RuntimeError("a bug in a bot")
        return act(self, observation, legal, rng)

    monkeypatch.setattr(GloryGreedy, "act", flaky)
    path = tmp_path / "crash.json"
    result = runner.invoke(
        app, ["play", "glory-ranch", "--seats", "greedy,greedy", "--record", str(path)]
    )
    assert result.exit_code == 70, result.output
    output = "".join(result.output.split())  # Rich wraps a long path anywhere
    assert "RuntimeError" in output and "crash.json" in output
    record = Record.load(path)
    assert record.steps and record.outcome is None
    replay(record)


def test_hot_seat_plays_in_the_alternate_screen_and_wipes_the_scrollback() -> None:
    output = io.StringIO()
    console = Console(file=output, force_terminal=True)
    with private_screen(console, humans=2):
        console.print("P0's hand: Kraken")
    text = output.getvalue()
    assert text.startswith("\x1b[?1049h") and text.endswith("\x1b[?1049l")
    assert WIPE in text[text.index("Kraken") :]
    single = io.StringIO()
    with private_screen(Console(file=single, force_terminal=True), humans=1):
        pass
    assert single.getvalue() == ""


def test_markup_and_escapes_in_user_text_are_shown_not_obeyed(tmp_path: Path) -> None:
    for args in (
        ["simulate", "[/x]"],
        ["play", "[bold]rancho[/]"],
        ["play", "rancho", "--seats", "human,[red]x"],
        ["play", "rancho", "-o", "[/x]=1"],
        ["replay", str(tmp_path / "[/x]\x1b]0;owned\x07.json")],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output and "\x1b]0;" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_new_hot_seat_game_asks_for_the_first_seat_before_showing_a_hand(
    tmp_path: Path,
) -> None:
    """Whoever types the command may not be P0: the first screen is a hand-off too."""
    path = tmp_path / "hot.json"
    args = ["play", "glory-ranch", "--seats", "human,human", "--record", str(path)]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    before, handoff, _after = result.output.partition("Pass the keyboard to P0")
    assert handoff, result.output
    assert "your turn" not in before and "Hand" not in before
