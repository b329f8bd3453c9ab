"""A command whose optional dependencies are missing says which extra to install, in one
line, and exits 2: each extra a command needs is hidden in turn (``sys.modules[name] =
None`` in a fresh ``ranchhand`` process, which makes ``import name`` fail as if it were
not installed)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ranchhand.cli.main import EXTRA_OF_MODULE, missing_extra
from tests.server.procs import free_port

ROOT = Path(__file__).resolve().parents[2]

HIDE_AND_RUN = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
sys.argv = ["ranchhand", *sys.argv[2:]]
from ranchhand.cli.main import main
main()
"""


def _without(modules: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", HIDE_AND_RUN, modules, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def lab_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lab store with one small run, so that ``report`` has something to draw."""
    folder = tmp_path_factory.mktemp("lab")
    store = folder / "lab.sqlite"
    made = _without(
        "",
        ["sweep", "rancho", "--vary", "dice=twin,farmer", "--games", "2", "--store", str(store)],
        folder,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    return store


@pytest.mark.parametrize(
    ("hidden", "args", "extra"),
    [
        ("uvicorn", ["serve", "--port", "{port}"], "server"),
        ("fastapi", ["serve", "--port", "{port}"], "server"),
        ("sqlalchemy", ["serve", "--open", "--port", "{port}"], "server"),
        ("alembic", ["play", "rancho", "--browser", "--port", "{port}"], "server"),
        ("scipy", ["report", "--store", "{store}", "--out", "r.html"], "lab"),
        ("matplotlib", ["report", "--store", "{store}", "--out", "r.html"], "lab"),
        ("numba", ["simulate", "rancho", "--engine", "fast", "--games", "2"], "fast"),
        ("numba", ["bench", "rancho", "--engine", "fast", "--games", "2"], "fast"),
        ("ray", ["simulate", "rancho", "--backend", "ray", "--games", "2"], "cluster"),
    ],
)
def test_a_missing_extra_is_one_line_and_exit_2(
    hidden: str, args: list[str], extra: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store = request.getfixturevalue("lab_store") if "{store}" in args else None
    args = [a.format(port=free_port(), store=store) for a in args]
    result = _without(hidden, args, tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert "Traceback" not in output
    assert output.startswith("error: ") and output.count("\n") == 1, output
    assert f"ranchhand[{extra}]" in output, output


def test_every_extra_is_named_for_its_modules() -> None:
    """Every extra but the test tools has its modules in the table main() reads, and an
    import error of something else is left alone (a real bug keeps its traceback)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert set(extras) - {"dev"} == set(EXTRA_OF_MODULE.values())
    for module, extra in EXTRA_OF_MODULE.items():
        line = missing_extra(ModuleNotFoundError(f"No module named {module!r}", name=module))
        assert line is not None and f"pip install 'ranchhand[{extra}]'" in line
    deep = ModuleNotFoundError("No module named 'scipy.stats'", name="scipy.stats")
    assert "ranchhand[lab]" in (missing_extra(deep) or "")
    assert missing_extra(ModuleNotFoundError("no", name="ranchhand.nosuch")) is None


def test_the_base_commands_need_no_extra(tmp_path: Path) -> None:
    """``games`` and a simulation run with every optional module hidden at once."""
    hidden = ",".join(EXTRA_OF_MODULE)
    listed = _without(hidden, ["games", "--json"], tmp_path)
    assert listed.returncode == 0 and '"super-farmer"' in listed.stdout, listed.stderr
    simulated = _without(hidden, ["simulate", "rancho", "--games", "3", "--jobs", "1"], tmp_path)
    assert simulated.returncode == 0, simulated.stderr
