"""The lab's commands end to end: sweep into a store, list runs, write the report."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ranchhand.lab
from ranchhand.cli.main import app
from ranchhand.lab.store import Store

runner = CliRunner()
SWEEP = ["sweep", "rancho", "--vary", "dice=twin,farmer", "--players", "2", "--games", "8",
         "--jobs", "1", "--option", "max_turns=400"]  # fmt: skip


def test_sweep_runs_and_report(tmp_path: Path) -> None:
    store = str(tmp_path / "lab.sqlite")
    first = runner.invoke(app, [*SWEEP, "--store", store])
    assert first.exit_code == 0, first.output
    assert "16 games played, 0 reused" in first.output
    again = runner.invoke(app, [*SWEEP, "--store", store])
    assert again.exit_code == 0 and "0 games played, 16 reused" in again.output
    listing = runner.invoke(app, ["runs", "--store", store])
    assert (
        listing.exit_code == 0
        and "ranchhand sweep rancho --vary dice=twin,farmer" in listing.output
    )
    out = tmp_path / "report.html"
    made = runner.invoke(app, ["report", "1", "--store", store, "--out", str(out)])
    assert made.exit_code == 0, made.output
    page = out.read_text()
    assert page.count("<svg") == 5 and "dice=farmer" in page and "Decisiveness" in page
    assert "ranchhand sweep rancho --vary dice=twin,farmer --seats greedy,greedy" in page
    assert "http" not in page.replace("http://www.w3.org", "")  # nothing fetched online
    with Store(store) as kept:
        shown = kept.runs()[0].command
    again = runner.invoke(app, [*shlex.split(shown)[1:], "--store", store])
    assert "0 games played, 16 reused" in again.output  # the command names the same games


def test_max_turns_may_be_swept(tmp_path: Path) -> None:
    args = ["sweep", "glory-ranch", "--vary", "max_turns=3,400", "--games", "3", "--jobs", "1"]
    result = runner.invoke(app, [*args, "--store", str(tmp_path / "lab.sqlite")])
    assert result.exit_code == 0 and "2 cells of 2, 6 games played" in _flat(result.output)
    out = tmp_path / "r.html"  # a cell of truncated games only still makes a report
    made = runner.invoke(
        app, ["report", "--store", str(tmp_path / "lab.sqlite"), "--out", str(out)]
    )
    assert made.exit_code == 0, made.output
    assert "max_turns=3" in out.read_text()


def test_simulate_into_the_store_prints_the_same_report(tmp_path: Path) -> None:
    args = ["simulate", "rancho", "--players", "2", "--games", "6", "--jobs", "1", "--json"]
    plain = json.loads(runner.invoke(app, args).output)
    store = str(tmp_path / "lab.sqlite")
    kept = runner.invoke(app, [*args, "--store", store])
    assert kept.exit_code == 0, kept.output
    data = json.loads(kept.output)
    for key in ("wins", "ties", "turns", "mean_scores", "summary", "seats", "options"):
        assert data[key] == plain[key]
    listing = runner.invoke(app, ["runs", "--store", store])
    assert "ranchhand simulate rancho --seats greedy,greedy" in listing.output


def test_bad_sweeps_fail_before_any_game(tmp_path: Path) -> None:
    store = ["--store", str(tmp_path / "lab.sqlite")]
    for bad, said in (
        (["--vary", "nonsense=1,2"], "has no option 'nonsense'"),
        (["--vary", "dice"], "OPTION=VALUE1,VALUE2"),
        (["--vary", "dice=twin,loaded"], "loaded"),
    ):
        result = runner.invoke(app, ["sweep", "rancho", *bad, "--games", "2", *store])
        assert result.exit_code == 2 and said in _flat(result.output), result.output
    missing = runner.invoke(app, ["report", *store, "--out", str(tmp_path / "r.html")])
    assert missing.exit_code == 2 and "no lab store at" in _flat(missing.output)
    assert not (tmp_path / "lab.sqlite").exists()
    Store(tmp_path / "lab.sqlite").close()
    empty = runner.invoke(app, ["report", *store, "--out", str(tmp_path / "r.html")])
    assert empty.exit_code == 2 and "no runs yet" in _flat(empty.output)


def test_the_ray_backend_says_how_to_install_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    result = runner.invoke(app, ["simulate", "rancho", "--games", "2", "--backend", "ray"])
    assert result.exit_code == 2 and 'pip install "ranchhand[cluster]"' in _flat(result.output)


def _flat(text: str) -> str:
    """Output with the console's line wrapping undone."""
    return " ".join(text.split())


def test_the_report_says_how_to_install_matplotlib(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("report", "plots"):  # forget them, so the command imports them afresh
        monkeypatch.delitem(sys.modules, f"ranchhand.lab.{name}", raising=False)
        monkeypatch.delattr(ranchhand.lab, name, raising=False)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as if it were not installed
    result = runner.invoke(app, ["report", "--store", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 2 and 'pip install "ranchhand[lab]"' in _flat(result.output)
