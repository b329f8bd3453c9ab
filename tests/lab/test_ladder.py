"""Arena runs in the store: the ladder with intervals on every gap and head-to-head counts."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.core.game import Summary
from ranchhand.lab.ladder import ladder, section
from ranchhand.lab.metrics import measure
from ranchhand.lab.store import Store
from tests.lab.helpers import made

runner = CliRunner()


def test_an_arena_sweep_is_stored_and_reported(tmp_path: Path) -> None:
    store = str(tmp_path / "a.sqlite")
    args = ["sweep", "rancho", "--arena", "random,greedy", "--players", "2", "--games", "6",
            "--jobs", "1", "--option", "max_turns=300", "--store", store]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    with Store(store) as kept:
        (run,) = kept.runs()
        cells = kept.run_cells(run.id)
    assert run.kind == "arena" and "--arena random,greedy --players 2" in run.command
    assert sorted(c.cell.seats for c in cells) == sorted(
        [("random", "greedy"), ("greedy", "random"), ("random", "random"), ("greedy", "greedy")]
    )
    out = tmp_path / "r.html"
    made_report = runner.invoke(app, ["report", "--store", store, "--out", str(out)])
    assert made_report.exit_code == 0, made_report.output
    page = out.read_text()
    assert "<h3>Arena</h3>" in page and "Elo gap [95%]" in page and "won–lost–drawn" in page
    again = runner.invoke(app, args)
    assert "0 games played, 24 reused" in " ".join(again.output.split())


def test_a_bot_that_never_wins_is_called_out() -> None:
    """Greedy wins every game against random: the gap's size is the prior's, and the ladder
    says so beside the count and the interval of the share the games do support."""
    one = measure([made(i, (0,), 2) for i in range(20)], 2, Summary())  # greedy in seat 0
    two = measure([made(i, (1,), 2) for i in range(20)], 2, Summary())  # greedy in seat 1
    report = ladder("rancho", 1, [(("greedy", "random"), one), (("random", "greedy"), two)])
    assert report is not None
    low, high = report.gaps[("greedy", "random")]
    gap = report.ratings["greedy"] - report.ratings["random"]
    assert 0 < low <= gap <= high
    page = section(report)
    assert "40–0–0" in page and "random never beat greedy in 40 decided games" in page
    assert "rests on the prior" in page


def test_the_arena_itself_can_keep_its_games(tmp_path: Path) -> None:
    """``arena`` with the lab's arena runner (what ``ranchhand arena --store`` needs): the
    same ratings as without, every lineup a cell of one arena run, a rerun replays nothing."""
    from ranchhand.cli.lab import arena_runner
    from ranchhand.sim.arena import arena

    options = (("max_turns", "300"),)
    plain = arena("rancho", ["random", "greedy"], 4, 2, 5, 1, options)
    path = tmp_path / "a.sqlite"
    with arena_runner(path, "local", None, 1, "ranchhand arena rancho") as run:
        kept = arena("rancho", ["random", "greedy"], 4, 2, 5, 1, options, run=run)
    assert kept.to_json() == plain.to_json()
    with Store(path) as store:
        (stored_run,) = store.runs()
        assert stored_run.kind == "arena" and stored_run.played == 16
        assert len(store.run_cells(stored_run.id)) == 4
    out = tmp_path / "r.html"
    made_report = runner.invoke(app, ["report", "--store", str(path), "--out", str(out)])
    assert made_report.exit_code == 0 and "<h3>Arena</h3>" in out.read_text()
