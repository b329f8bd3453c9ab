"""Stopping a real ``ranchhand simulate``: prompt, every worker gone, whole records, a
partial report, and the exit code a shell expects (128 + the signal).

Each test runs the command in its own session (a process group of its own), waits
for records to appear, signals it, and then looks in /proc for anything left of
that group; whatever is left is killed at the end so a failure cannot leak processes.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="looks for leftover processes in /proc"
)


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, process group) of ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2])


def _living(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie has exited; only its entry is left)."""
    alive = []
    for pid in pids:
        stat = _stat(pid)
        if stat is not None and stat[0] not in "ZX":
            alive.append(pid)
    return alive


def _group(pgid: int) -> list[int]:
    """Running processes of process group ``pgid``."""
    pids = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]
    return [pid for pid in _living(pids) if (_stat(pid) or ("Z", 0, 0))[2] == pgid]


def _children(pid: int) -> list[int]:
    pids = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]
    return [p for p in _living(pids) if (_stat(p) or ("Z", 0, 0))[1] == pid]


class Run:
    """``ranchhand simulate rancho`` on 2 processes, recording into ``folder``."""

    def __init__(self, folder: Path, *extra: str, jobs: int = 2) -> None:
        self.folder = folder
        command = [sys.executable, "-m", "ranchhand", "simulate", "rancho", "--players", "2"]
        command += ["--games", "100000", "--jobs", str(jobs), "--record", str(folder), *extra]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env={**os.environ, "COLUMNS": "200"},
        )
        self.workers: list[int] = []

    def wait_for_records(self, count: int = 4, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.communicate()
            if self.folder.is_dir() and len(list(self.folder.glob("*.json"))) >= count:
                self.workers = _children(self.process.pid)
                return
            time.sleep(0.05)
        raise AssertionError("no records appeared")

    def signal_and_wait(self, signum: int, second: int | None = None) -> tuple[float, str, str]:
        start = time.monotonic()
        os.kill(self.process.pid, signum)
        if second is not None:
            time.sleep(0.01)
            with contextlib.suppress(ProcessLookupError):  # it may be done already
                os.kill(self.process.pid, second)
        out, err = self.process.communicate(timeout=20)
        return time.monotonic() - start, out, err

    def cleanup(self) -> None:
        for pid in _group(self.process.pid) + self.workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()

    def record_indices(self) -> set[int]:
        """Every record's game index, each record read whole (complete JSON, an outcome)."""
        indices = set()
        for path in self.folder.glob("*.json"):
            data = json.loads(path.read_text())
            assert data["outcome"] is not None, path
            indices.add(int(path.stem.rsplit("-g", 1)[1]))
        leftovers = [p.name for p in self.folder.iterdir() if not p.name.endswith(".json")]
        assert leftovers == []
        return indices


def _covered(ranges: list[list[int]]) -> set[int]:
    return {i for first, last in ranges for i in range(first, last + 1)}


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_run_with_a_partial_json_report(
    tmp_path: Path, signum: int, code: int
) -> None:
    run = Run(tmp_path / "records", "--json")
    try:
        run.wait_for_records()
        assert len(run.workers) == 2
        seconds, out, err = run.signal_and_wait(signum)
        assert run.process.returncode == code, err
        assert seconds < 5
        time.sleep(0.2)
        assert _living(run.workers) == [] and _group(run.process.pid) == []
        data = json.loads(out)
        assert data["partial"] is True and data["requested"] == 100000
        assert data["stopped"] == signal.Signals(signum).name
        assert 0 < data["games"] < 100000
        assert sum(data["wins"]) + data["ties"] + data["truncated"] == data["games"]
        played = _covered(data["indices"])
        assert len(played) == data["games"]
        assert run.record_indices() == played  # every counted game has its record, no other
        assert "Traceback" not in err
    finally:
        run.cleanup()


def test_sigterm_prints_the_partial_table(tmp_path: Path) -> None:
    run = Run(tmp_path / "records")
    try:
        run.wait_for_records()
        seconds, out, err = run.signal_and_wait(signal.SIGTERM)
        assert run.process.returncode == 143, err
        assert seconds < 5
        assert "(partial)" in out and "partial report" in out and "SIGTERM" in out
        assert "games finished: " in out
        assert "Traceback" not in out + err
    finally:
        run.cleanup()


def test_a_second_ctrl_c_stops_at_once_and_leaves_whole_records(tmp_path: Path) -> None:
    run = Run(tmp_path / "records", "--json")
    try:
        run.wait_for_records()
        seconds, out, err = run.signal_and_wait(signal.SIGINT, second=signal.SIGINT)
        assert run.process.returncode == 130, err
        assert seconds < 5
        time.sleep(0.2)
        assert _living(run.workers) == []
        data = json.loads(out)
        on_disk = run.record_indices()
        played = _covered(data["indices"])
        assert played <= on_disk
        assert on_disk - played == set(data.get("uncounted_records", []))
    finally:
        run.cleanup()


def test_ctrl_c_in_one_process(tmp_path: Path) -> None:
    run = Run(tmp_path / "records", "--json", jobs=1)
    try:
        run.wait_for_records()
        seconds, out, err = run.signal_and_wait(signal.SIGINT)
        assert run.process.returncode == 130, err
        assert seconds < 5
        data = json.loads(out)
        assert data["indices"] == [[0, data["games"] - 1]]
        assert run.record_indices() == set(range(data["games"]))
    finally:
        run.cleanup()


def test_workers_leave_when_their_parent_is_killed(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the workers notice their parent is gone and leave,
    and every record they wrote is whole."""
    run = Run(tmp_path / "records", "--json")
    try:
        run.wait_for_records()
        os.kill(run.process.pid, signal.SIGKILL)
        run.process.communicate(timeout=10)
        deadline = time.monotonic() + 5
        while _living(run.workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _living(run.workers) == []
        run.record_indices()
    finally:
        run.cleanup()
