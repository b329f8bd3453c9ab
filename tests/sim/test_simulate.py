"""Simulation: deterministic whatever the number of processes, honest counts."""

from __future__ import annotations

import pytest

from ranchhand.core.registry import register
from ranchhand.sim.bench import bench
from ranchhand.sim.simulate import Simulation, simulate
from ranchhand.sim.stats import describe, wilson_interval

register("toy", "tests.core.toy")


def _sim(**kwargs: object) -> Simulation:
    base: dict[str, object] = {"game": "toy", "seats": ("random", "random"), "games": 60, "seed": 5}
    base.update(kwargs)
    return Simulation(**base)  # type: ignore[arg-type]


def test_same_seed_same_results_whatever_the_jobs() -> None:
    one = simulate(_sim(), jobs=1).to_json()
    two = simulate(_sim(), jobs=2).to_json()
    for key in ("wins", "ties", "truncated", "turns", "mean_scores"):
        assert one[key] == two[key]


def test_counts_add_up() -> None:
    data = simulate(_sim(games=80), jobs=1).to_json()
    assert data["games"] == 80
    assert sum(data["wins"]) + data["ties"] + data["truncated"] == 80
    assert data["finished"] == 80 - data["truncated"]
    for (low, high), rate in zip(data["win_ci95"], data["win_rate"], strict=True):
        assert low <= rate <= high


def test_truncation_is_counted() -> None:
    data = simulate(_sim(options=(("max_turns", 1), ("target", 50))), jobs=1).to_json()
    assert data["truncated"] == 60
    assert data["wins"] == [0, 0]


def test_records_are_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    simulate(_sim(games=3, record_dir=str(tmp_path)), jobs=1)
    assert len(list(tmp_path.glob("*.json"))) == 3


def test_wilson_interval_contains_the_rate_and_narrows() -> None:
    wide = wilson_interval(5, 10)
    narrow = wilson_interval(500, 1000)
    assert wide[0] < 0.5 < wide[1]
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_describe_reports_mean_median_p90() -> None:
    assert describe([1, 2, 3, 4, 100]) == {"mean": 22.0, "median": 3.0, "p90": pytest.approx(61.6)}


def test_bench_reports_positive_speed() -> None:
    result = bench("toy", 2, games=5, bot="random")
    assert result.games == 5 and result.games_per_s > 0


@pytest.mark.parametrize("game", ["rancho", "rocket-ranchers", "glory-ranch"])
def test_results_do_not_depend_on_the_hash_seed(game: str) -> None:
    """Worker processes get their own hash seeds: no result may hang on set or dict order."""
    import json
    import os
    import subprocess
    import sys

    def run(hash_seed: str) -> dict[str, object]:
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "ranchhand",
                "simulate",
                game,
                "--players",
                "3",
                "--games",
                "8",
                "--jobs",
                "1",
                "--json",
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        ).stdout
        data = json.loads(out)
        return {k: data[k] for k in ("wins", "ties", "turns", "mean_scores")}

    assert run("1") == run("2")
