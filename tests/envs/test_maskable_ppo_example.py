"""examples/maskable_ppo.py runs end to end on a tiny budget and writes its curve.

The example needs torch and sb3-contrib, which CI does not install; without
them the test is skipped, naming what is missing.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"
MISSING = [name for name in ("torch", "sb3_contrib") if importlib.util.find_spec(name) is None]

pytestmark = pytest.mark.skipif(
    bool(MISSING), reason=f"the MaskablePPO example needs {', '.join(MISSING)} (not in CI)"
)


def test_tiny_budget_prints_and_writes_the_curve(tmp_path: Path) -> None:
    """Two rollouts of 64 steps on Super Farmer (the smallest tensor), measured before, in
    the middle and at the end over 2 games against each bot, sampling the policy's actions
    (the default, the most likely index, is what the full runs in docs/research.md use)."""
    prefix = tmp_path / "curve"
    options = "--steps 128 --n-steps 64 --batch-size 32 --eval-every 64 --eval-games 2 --sample"
    finished = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "super-farmer",
            *options.split(),
            "--out",
            str(prefix),
            "--plot",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "| steps | vs random (2 games) | vs greedy (2 games) | wall | CPU |" in finished.stdout
    with open(f"{prefix}-super-farmer.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(row["steps"]) for row in rows] == [-1, 0, 64, 128]
    assert all(0 <= int(row["wins_random"]) <= 2 for row in rows)
    assert all(0 <= int(row["wins_greedy"]) <= 2 for row in rows)
    saved = json.loads(Path(f"{prefix}-super-farmer.json").read_text())
    assert saved["run"]["game"] == "super-farmer"
    assert saved["curve"] == [
        {key: pytest.approx(float(value)) for key, value in row.items()} for row in rows
    ]
    assert Path(f"{prefix}-super-farmer.png").stat().st_size > 0
