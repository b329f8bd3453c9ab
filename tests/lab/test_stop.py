"""Ctrl-C on a real ``ranchhand sweep``: exit 130, finished games kept, the rerun resumes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

SWEEP = [sys.executable, "-m", "ranchhand", "sweep", "glory-ranch", "--vary", "tie=play-on,share",
         "--players", "3", "--games", "400", "--jobs", "2"]  # fmt: skip


def _kept(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # the tables are not made yet
        return 0


def test_ctrl_c_keeps_the_finished_games(tmp_path: Path) -> None:
    store = tmp_path / "lab.sqlite"
    env = {**os.environ, "RANCHHAND_STORE": str(store)}
    sweep = subprocess.Popen(SWEEP, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while _kept(store) < 20 and time.monotonic() < deadline and sweep.poll() is None:
            time.sleep(0.2)
        sweep.send_signal(signal.SIGINT)
        output, _ = sweep.communicate(timeout=30)
    finally:
        if sweep.poll() is None:
            os.killpg(sweep.pid, signal.SIGKILL)
    assert sweep.returncode == 130, output
    assert "finished games are kept" in output
    kept = _kept(store)
    assert 20 <= kept < 800
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT status FROM runs").fetchall() == [("stopped",)]
