"""``simulate``, ``compare`` and ``bench`` refuse bad input readably, print user text
as text, and the API streams, stops and fails cleanly (on the toy game, so it is fast)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import ranchhand.sim.simulate as simulate_module
from ranchhand.cli.main import app
from ranchhand.core.errors import RecordError
from ranchhand.core.registry import register
from ranchhand.sim.simulate import Simulation, cores, effective_jobs, simulate
from ranchhand.sim.workers import StopControl

register("toy", "tests.core.toy")
runner = CliRunner()


def _refused(args: list[str], *expected: str) -> str:
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert "Traceback" not in result.output
    for text in expected:
        assert text in result.output, result.output
    return result.output


def test_markup_in_names_and_options_is_printed_as_text() -> None:
    _refused(["simulate", "[/x]"], "unknown game '[/x]'")
    _refused(["simulate", "toy", "--seats", "[bold]x[/],random"], "no bot '[bold]x[/]'")
    _refused(["simulate", "toy", "--seats", "random", "-o", "[/a]=1"], "[/a]")
    _refused(["simulate", "toy", "--seats", "random", "-o", "target=[red]"], "[red]")
    _refused(["compare", "toy", "--vary", "[/v]", "--games", "1"], "[/v]")
    _refused(["bench", "toy", "--bot", "[/b]", "--games", "1"], "[/b]")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "toy", "--games", "0"], "--games must be at least 1, got 0"),
        (["simulate", "toy", "--games", "-3"], "--games must be at least 1, got -3"),
        (["simulate", "toy", "--jobs", "0"], "--jobs must be at least 1, got 0"),
        (["simulate", "toy", "--jobs", "-2"], "--jobs must be at least 1, got -2"),
        (["simulate", "toy", "--players", "0"], "--players must be at least 1, got 0"),
        (["simulate", "toy", "--players", "1000000000"], "is for 2 to 3 players, not 1000000000"),
        (["simulate", "toy", "--players", "3", "--seats", "random,random"], "names 2 bots"),
        (["simulate", "toy", "--players", "3", "--seats", ","], "names no bot"),
        (["compare", "toy", "--vary", "target", "--games", "0"], "--games must be at least 1"),
        (["compare", "toy", "--vary", "target", "--jobs", "0"], "--jobs must be at least 1"),
        (["compare", "toy", "--vary", "target", "--players", "0"], "--players must be at least 1"),
        (["compare", "toy", "--vary", "target", "--players", "99"], "not 99"),
        (["bench", "toy", "--games", "0"], "--games must be at least 1, got 0"),
        (["bench", "toy", "--bot", "random", "--players", "1000000000"], "not 1000000000"),
    ],
)
def test_counts_are_checked_before_anything_is_built(args: list[str], message: str) -> None:
    _refused(args, message)


def test_one_game_reads_one_game() -> None:
    result = runner.invoke(app, ["simulate", "toy", "--seats", "random", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "toy: 1 game, 2 players" in result.output


def test_jobs_never_exceed_cores_or_games() -> None:
    assert effective_jobs(1000, 10) == min(cores(), 10)
    assert effective_jobs(1000, 1) == 1
    assert effective_jobs(None, 3) == min(cores(), 3)
    with pytest.raises(ValueError, match="at least 1"):
        effective_jobs(0, 10)
    data = simulate(Simulation("toy", ("random", "random"), 3, 1), jobs=1000).to_json()
    assert data["games"] == 3


# ----------------------------------------------------------------- record folders
def test_record_folder_must_be_a_folder(tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("hello")
    base = ["simulate", "toy", "--seats", "random", "--games", "2", "--record"]
    _refused([*base, str(file)], "is not a folder")
    assert file.read_text() == "hello"
    if Path("/dev/null").exists():
        _refused([*base, "/dev/null"], "is not a folder")
    _refused([*base, str(file / "below")], "cannot create the record folder")


def test_unwritable_record_folder_is_refused(tmp_path: Path) -> None:
    base = ["simulate", "toy", "--seats", "random", "--games", "2", "--record"]
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        _refused([*base, str(locked)], "cannot write records in")
    if Path("/proc/self/fd").is_dir():  # not writable, even by root
        _refused([*base, "/proc/self/fd"], "cannot write records in")


def test_a_folder_with_this_runs_records_is_refused_and_kept(tmp_path: Path) -> None:
    args = ["simulate", "toy", "--seats", "random", "--games", "3", "--seed", "4"]
    first = runner.invoke(app, [*args, "--record", str(tmp_path)])
    assert first.exit_code == 0, first.output
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert len(before) == 3
    _refused([*args, "--record", str(tmp_path)], "already holds 3 records", "pick an empty folder")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    other = runner.invoke(app, [*args[:-1], "5", "--record", str(tmp_path)])  # other seed: fine
    assert other.exit_code == 0, other.output
    with pytest.raises(RecordError, match="pick an empty folder"):
        simulate(Simulation("toy", ("random",) * 2, 2, 4, record_dir=str(tmp_path)), jobs=1)


# ----------------------------------------------------------------- stops and failures
def _stop_after(control: StopControl, games: int, signum: int | None = None) -> Any:
    seen = [0]

    def progress(n: int) -> None:
        seen[0] += n
        if seen[0] >= games and not control.requested:
            if signum is None:
                control.fail("enough")
            else:
                control.request(signum)

    return progress


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_billion_games_stream_and_stop(jobs: int) -> None:
    """No work list is built: a billion games start at once and stop when asked."""
    control = StopControl()
    sim = Simulation("toy", ("random", "random"), 10**9, 2)
    report = simulate(sim, jobs, _stop_after(control, 50, signal.SIGINT), control)
    assert report.partial and report.exit_code == 130
    data = report.to_json()
    assert 50 <= data["games"] < 10**9 and data["partial"] and data["stopped"] == "SIGINT"
    assert sum(last - first + 1 for first, last in data["indices"]) == data["games"]


def test_a_stopped_run_prints_a_partial_report(monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(sim: Simulation, jobs: Any = None, progress: Any = None, control: Any = None):
        control = control or StopControl()
        control.request(signal.SIGTERM)
        return real(sim, jobs, progress, control)

    real = simulate_module.simulate
    monkeypatch.setattr("ranchhand.cli.main.simulate", stopped)
    result = runner.invoke(app, ["simulate", "toy", "--seats", "random", "--games", "5"])
    assert result.exit_code == 143, result.output
    assert "0 of 5 games (partial)" in result.output and "partial report" in result.output
    as_json = runner.invoke(app, ["simulate", "toy", "--seats", "random", "--json"])
    assert as_json.exit_code == 143
    data = json.loads(as_json.output)
    assert data["partial"] is True and data["games"] == 0 and data["indices"] == []


def test_an_error_in_a_worker_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    real = simulate_module.play

    def play(game: Any, seats: Any, seed: int, **kwargs: Any) -> Any:
        if seed == simulate_module.derive_seed(3, 7):
            raise ValueError("game 7 broke")
        return real(game, seats, seed, **kwargs)

    monkeypatch.setattr(simulate_module, "play", play)
    with pytest.raises(ValueError, match="game 7 broke") as caught:
        simulate(Simulation("toy", ("random", "random"), 40, 3), jobs=2)
    assert any("simulation worker" in note for note in caught.value.__notes__)


def test_a_worker_that_dies_ends_the_run_partial(monkeypatch: pytest.MonkeyPatch) -> None:
    real = simulate_module.play

    def play(game: Any, seats: Any, seed: int, **kwargs: Any) -> Any:
        if seed == simulate_module.derive_seed(3, 5):
            os._exit(3)
        return real(game, seats, seed, **kwargs)

    monkeypatch.setattr(simulate_module, "play", play)
    report = simulate(Simulation("toy", ("random", "random"), 400, 3), jobs=2)
    assert report.partial and report.exit_code == 1
    assert "exit code 3" in (report.stopped or "")
    assert 5 not in report.tally.indices
