"""Tuning by racing, targets and ranges; ``ranchhand tune`` and ranges in ``sweep``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.core.errors import OptionError
from ranchhand.lab.backends import Backend
from ranchhand.lab.estimate import Estimate
from ranchhand.lab.store import Store
from ranchhand.lab.sweep import parse_vary
from ranchhand.lab.tune import TunePlan, expand, parse_target, race, split_options
from ranchhand.sim.workers import StopControl

runner = CliRunner()


def test_ranges_expand() -> None:
    assert expand("30..33") == ["30", "31", "32", "33"]
    assert expand("0..100:50, 7") == ["0", "50", "100", "7"]
    with pytest.raises(OptionError, match="at most 200"):
        expand("0..1000")
    with pytest.raises(OptionError, match="not a range"):
        expand("9..3")
    assert parse_vary(["rps_ties=1..3"], "glory-ranch") == (("rps_ties", ("1", "2", "3")),)


def test_targets_parse_and_decide() -> None:
    balance = parse_target("balance>=0.95")
    assert balance.metric == "Balance" and balance.op == ">=" and balance.bound == 0.95
    assert parse_target("turns <= 40").metric == "Duration (turns)"
    assert parse_target("completion>=95%").bound == pytest.approx(0.95)
    assert parse_target("seat_1<0.4").metric == "seat 1"
    with pytest.raises(OptionError, match="unknown metric 'fun'"):
        parse_target("fun>=1")
    with pytest.raises(OptionError, match="METRIC>=VALUE"):
        parse_target("balance")
    assert balance.verdict(Estimate(0.97, 0.96, 0.99, 100)) == "met"
    assert balance.verdict(Estimate(0.9, 0.85, 0.94, 100)) == "failed"
    assert balance.verdict(Estimate(0.96, 0.9, 1.0, 100)) == "open"


def test_a_grid_too_large_is_spaced_evenly() -> None:
    searched, fixed = split_options("glory-ranch", ["target=10..200", "rps_ties=1..3", "tie=share"])
    assert fixed == [("tie", "share")]
    plan = TunePlan("glory-ranch", ("greedy",) * 2, tuple(searched), tuple(fixed),
                    (parse_target("turns<=50"),), max_points=12)  # fmt: skip
    points = plan.points()
    assert len(points) <= 12
    targets = sorted({int(p["target"]) for p in points})
    assert targets[0] == 10 and targets[-1] == 200  # the ends are kept


def test_racing_stops_adding_games_once_decided(tmp_path: Path) -> None:
    """Short Glory Ranch games are decided at once, long ones get more games; all are
    stored under one run, with the same seeds as a sweep's."""
    plan = TunePlan("glory-ranch", ("greedy", "greedy"), (("target", ("8", "80")),),
                    (("max_turns", "2000"),), (parse_target("turns<=40"),), seed=3,
                    first=4, max_games=16)  # fmt: skip
    with Store(tmp_path / "t.sqlite") as store:
        result = race(plan, Backend(1), store, StopControl())
        short, long = result.points
        assert short.verdict == "met" and short.games == 4
        assert long.verdict == "failed"
        cells = store.run_cells(result.run)
        assert [c.label for c in cells] == [{"target": "8"}, {"target": "80"}]
        kept = sum(len(store.stored(c.cell, 100)) for c in cells)
        assert kept == result.played == short.games + long.games
        again = race(plan, Backend(1), store, StopControl())
        assert again.played == 0 and again.reused == result.played  # every game reused


def test_tune_command(tmp_path: Path) -> None:
    store = str(tmp_path / "t.sqlite")
    args = ["tune", "glory-ranch", "--option", "target=8,12", "--target", "turns<=60",
            "--first", "3", "--max-games", "6", "--jobs", "1", "--store", store]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "2 settings of 2 clearly meet every target" in flat
    report = tmp_path / "r.html"
    made = runner.invoke(app, ["report", "--store", store, "--out", str(report)])
    assert made.exit_code == 0 and "tune of glory-ranch" in report.read_text()
    bad = runner.invoke(app, ["tune", "glory-ranch", "--option", "target=8,12", "--store", store])
    assert bad.exit_code == 2 and "tune needs a --target" in bad.output


def test_sweep_until_an_interval_is_narrow(tmp_path: Path) -> None:
    """A loose half-width stops at the first games; a tight one doubles up to --games."""
    store = str(tmp_path / "u.sqlite")
    args = ["sweep", "glory-ranch", "--vary", "target=8,10", "--first", "3", "--games", "12",
            "--jobs", "1", "--store", store]  # fmt: skip
    loose = runner.invoke(app, [*args, "--until", "turns:1000"])
    assert loose.exit_code == 0, loose.output
    assert "6 games played" in " ".join(loose.output.split())
    tight = runner.invoke(app, [*args, "--until", "turns:0.001", "--until", "completion:1%"])
    assert tight.exit_code == 0, tight.output
    assert "18 games played" in " ".join(tight.output.split())  # 3 -> 6 -> 12, 6 reused
    with Store(store) as kept:
        runs = kept.runs()
    assert runs[-1].games == 12 and "--until turns:0.001" in runs[-1].command
    bad = runner.invoke(app, [*args, "--until", "fun:1"])
    assert bad.exit_code == 2 and "--until takes METRIC:HALF-WIDTH" in " ".join(bad.output.split())


def test_refining_finds_the_boundary(tmp_path: Path) -> None:
    """From a grid of two (8 met, 60 failed) the halfway values are raced in turn."""
    plan = TunePlan("glory-ranch", ("greedy", "greedy"),
                    (("target", tuple(expand("8..60"))),), (("max_turns", "2000"),),
                    (parse_target("turns<=22"),), first=4, max_games=8, max_points=2,
                    refine=4)  # fmt: skip
    with Store(tmp_path / "t.sqlite") as store:
        result = race(plan, Backend(1), store, StopControl())
        verdicts = {p.options["target"]: p.verdict for p in result.points}
        assert verdicts == {"8": "met", "60": "failed", "34": "failed", "21": "open"}
        assert len(store.run_cells(result.run)) == 4
