"""The Ray backend on a local Ray of two CPUs: exactly the local pool's results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.lab.backends import Backend, RayBackend
from ranchhand.lab.cells import run_cell, runner
from ranchhand.lab.store import Store
from ranchhand.sim.arena import arena
from ranchhand.sim.simulate import Simulation, simulate

ray = pytest.importorskip("ray", reason='Ray is optional: pip install "ranchhand[cluster]"')

SIM = Simulation("rocket-ranchers", ("greedy", "random", "greedy"), 20, 11, (("max_turns", "400"),))


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def test_ray_plays_exactly_the_local_games(local_ray: None, tmp_path: Path) -> None:
    with (
        Store(tmp_path / "ray.sqlite") as ray_store,
        Store(tmp_path / "local.sqlite") as local_store,
    ):
        with RayBackend() as on_ray:
            remote = run_cell(SIM, on_ray, ray_store)
        assert ray.is_initialized()  # a connection the test made is the test's to end
        local = run_cell(SIM, Backend(2), local_store)
        assert remote.cell is not None and local.cell is not None
        assert list(ray_store.games(remote.cell, SIM.games)) == list(
            local_store.games(local.cell, SIM.games)
        )
    plain = simulate(SIM, jobs=2).to_json()
    for key in ("wins", "ties", "truncated", "turns", "mean_scores", "summary"):
        assert remote.report.to_json()[key] == plain[key]


def test_arena_and_simulate_on_ray(local_ray: None) -> None:
    options = (("max_turns", 300),)
    here = arena("rancho", ["random", "greedy"], 4, 2, 5, 2, options)
    with RayBackend() as on_ray:
        there = arena("rancho", ["random", "greedy"], 4, 2, 5, 2, options, run=runner(on_ray))
    assert there.to_json() == here.to_json()
    args = ["simulate", "glory-ranch", "--players", "3", "--games", "6", "--json"]
    local = json.loads(CliRunner().invoke(app, args).output)
    result = CliRunner().invoke(app, [*args, "--backend", "ray"])
    assert result.exit_code == 0, result.output
    remote = json.loads(result.output)
    assert {k: remote[k] for k in ("wins", "turns", "summary")} == {
        k: local[k] for k in ("wins", "turns", "summary")
    }
