"""The README's Python example runs as printed."""

from __future__ import annotations

import os
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.DOTALL)
    assert blocks, "README has a Python example"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    assert (tmp_path / "game.json").exists()


def test_make_play_starts_the_readme_table() -> None:
    """`make play` (a README command) plays Rancho with a human and two greedy bots in the
    browser, `make terminal` the same table in the terminal; both install only the server
    extra (the browser and the terminal need nothing more)."""
    import shutil
    import subprocess

    make = shutil.which("make")
    assert make, "make is one of the README's two commands"

    def dry(target: str) -> str:
        return subprocess.run(
            [make, "--no-print-directory", "-n", "-W", "pyproject.toml", target],
            cwd=README.parent,
            # under `make test` the outer make's flags would reach this one
            env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")},
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    assert "ranchhand play rancho --seats human,greedy,greedy --browser" in dry("play")
    assert 'pip install --quiet -e ".[server]"' in dry("play")
    assert dry("terminal").strip().endswith("ranchhand play rancho --seats human,greedy,greedy")
