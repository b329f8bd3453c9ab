"""Process supervision: workers die with their parent; SIGTERM drains and exits 0.

Real processes throughout. A worker follows its parent two ways (Linux's parent-death
signal and a thread watching multiprocessing's parent pipe): each is tried alone on a
spawned child whose parent is killed with SIGKILL, next to a child that follows
nobody (it must outlive its parent, or the test proves nothing). Then ``ranchhand
serve --workers 2`` (PostgreSQL; skipped without it) has its parent killed with
SIGKILL: the workers and multiprocessing's resource tracker must be gone within
seconds. SIGTERM and SIGINT to ``serve`` (one process, and several) must end in a
clean drain and exit status 0.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.procs import (
    Server,
    create_table,
    fresh_postgres_database,
    http_client,
    human_tokens,
    ws_connect,
)

pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parents[2]
GONE_WITHIN = 10.0
"""Seconds a worker may take to notice its parent is gone and drain (it takes well under 1)."""

PARENT = """
import multiprocessing, sys, time
from tests.server.test_supervision import follower
if __name__ == "__main__":
    child = multiprocessing.get_context("spawn").Process(
        target=follower, args=(sys.argv[1] == "1", sys.argv[2] == "1", sys.argv[3])
    )
    child.start()
    time.sleep(600)
"""


def follower(death_signal: bool, watch: bool, ready: str) -> None:
    """A spawned child: follow the parent as asked, say our pid, then wait forever."""
    from ranchhand.server.supervise import follow_parent

    if death_signal or watch:
        assert follow_parent(death_signal=death_signal, watch=watch)
    Path(ready).write_text(str(os.getpid()))
    while True:
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone(pids: list[int], within: float) -> list[int]:
    """The pids of ``pids`` still running after ``within`` seconds (an empty list, soon)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        left = [pid for pid in pids if alive(pid)]
        if not left:
            return []
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError), open(f"/proc/{entry}/stat") as stat:
                parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        below = [child for child, parent in parents.items() if parent in frontier]
        found += below
        frontier = below
    return found


def command_line(pid: int) -> str:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as raw:
        return raw.read().replace(b"\0", b" ").decode(errors="replace")
    return ""


@contextlib.contextmanager
def parent_with_child(death_signal: bool, watch: bool, folder: Path) -> Iterator[tuple[int, int]]:
    """A parent process and its spawned child; yields both pids, kills both at the end."""
    ready = folder / f"child-{int(death_signal)}{int(watch)}.pid"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(int(death_signal)), str(int(watch)), str(ready)],
        cwd=ROOT,
        start_new_session=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() or not ready.read_text():
            assert parent.poll() is None, f"the parent exited with {parent.returncode}"
            assert time.monotonic() < deadline, "the child never started"
            time.sleep(0.05)
        yield parent.pid, int(ready.read_text())
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)
        parent.wait(10)


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@linux_only
@pytest.mark.parametrize(
    ("death_signal", "watch"),
    [(True, False), (False, True), (True, True)],
    ids=["death-signal", "watch-thread", "both"],
)
def test_a_child_stops_when_its_parent_is_killed(
    death_signal: bool, watch: bool, tmp_path: Path
) -> None:
    with parent_with_child(death_signal, watch, tmp_path) as (parent, child):
        assert alive(child)
        os.kill(parent, signal.SIGKILL)
        assert gone([child], GONE_WITHIN) == [], "the child outlived its parent"


@linux_only
def test_a_child_that_follows_nobody_outlives_its_parent(tmp_path: Path) -> None:
    """What happened to uvicorn's workers: this is what the other tests must not see."""
    with parent_with_child(False, False, tmp_path) as (parent, child):
        os.kill(parent, signal.SIGKILL)
        time.sleep(1.5)
        assert alive(child)
        os.kill(child, signal.SIGKILL)


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@linux_only
def test_workers_and_the_resource_tracker_die_with_a_killed_parent(
    pg_url: str, tmp_path: Path
) -> None:
    with Server(pg_url, tmp_path, workers=2, name="workers") as server:
        assert server.proc is not None
        below = descendants(server.proc.pid)
        workers = [pid for pid in below if "spawn_main" in command_line(pid)]
        trackers = [pid for pid in below if "resource_tracker" in command_line(pid)]
        assert len(workers) == 2, [command_line(pid) for pid in below]
        assert len(trackers) == 1, [command_line(pid) for pid in below]
        with http_client() as client:
            table = create_table(client, server.base, {"game": "rancho", "players": 2})
            seat = human_tokens(table)[0]
            with ws_connect(f"{server.ws_base}/ws/tables/{table['id']}?token={seat}") as ws:
                ws.recv(timeout=10)
                os.kill(server.proc.pid, signal.SIGKILL)
                server.proc.wait(10)
                left = gone(below, GONE_WITHIN)
        assert left == [], f"still running after the parent's SIGKILL:\n{server.tail()}"
        assert not listening(server.port), "nothing listens on the port any more"
        assert "is gone; this worker drains and stops" in server.tail(80)


def _stop_with(server: Server, sig: signal.Signals) -> int:
    """Send ``sig`` to the server's main process only, with a WebSocket open; its exit status."""
    assert server.proc is not None
    with http_client() as client:
        table = create_table(client, server.base, {"game": "rancho", "players": 2})
        seat = human_tokens(table)[0]
        with ws_connect(f"{server.ws_base}/ws/tables/{table['id']}?token={seat}") as ws:
            ws.recv(timeout=10)
            below = descendants(server.proc.pid)
            os.kill(server.proc.pid, sig)
            status = server.proc.wait(30)
    assert gone(below, GONE_WITHIN) == [], "a worker outlived the stop"
    return status


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_one_process_drains_and_exits_0(sig: signal.Signals, tmp_path: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path) as server:
        status = _stop_with(server, sig)
        assert status == 0, server.tail()
        assert "Finished server process" in server.tail()


def test_several_processes_drain_and_exit_0(pg_url: str, tmp_path: Path) -> None:
    with Server(pg_url, tmp_path, workers=2, name="workers") as server:
        status = _stop_with(server, signal.SIGTERM)
        assert status == 0, server.tail()
        assert server.tail(80).count("Finished server process") == 2


def test_a_stop_before_serving_exits_0(pg_url: str, tmp_path: Path) -> None:
    """SIGTERM while ``serve`` waits to migrate the schema (another process holds the
    migration lock) ends the start with 0, and nothing is served."""
    import psycopg
    from sqlalchemy.engine import make_url

    from tests.server.procs import free_port

    name = make_url(pg_url).database
    port = free_port()
    log = tmp_path / "serve.log"
    with psycopg.connect(f"host=127.0.0.1 user=postgres dbname={name}", autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(72177001)")  # the lock migrate() takes
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "ranchhand", "serve", "--port", str(port), "--db", pg_url],
                cwd=tmp_path,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 30
            while not _waits_for_the_lock(holder, name):
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "serve never reached the migration"
                time.sleep(0.1)
            os.kill(process.pid, signal.SIGTERM)
            status = process.wait(30)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
    assert status == 0, log.read_text()
    assert "SIGTERM before serving: stopped" in log.read_text()
    assert not listening(port)


def _waits_for_the_lock(connection: object, database: str | None) -> bool:
    rows = connection.execute(  # type: ignore[attr-defined]
        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
        (database,),
    ).fetchone()
    return bool(rows and rows[0])


def test_stop_signals_before_and_while_serving() -> None:
    """In this process: a signal before a server is attached raises Stopped; then it is
    passed to the server once (a signal that came before uvicorn took over), and the
    one uvicorn re-raises after its drain is ignored."""
    import uvicorn
    from fastapi import FastAPI

    from ranchhand.server.supervise import Stopped, StopSignals

    before = signal.getsignal(signal.SIGTERM)
    with StopSignals() as stop:
        with pytest.raises(Stopped, match="SIGTERM"):
            signal.raise_signal(signal.SIGTERM)
        server = uvicorn.Server(uvicorn.Config(FastAPI()))
        stop.server = server
        signal.raise_signal(signal.SIGINT)
        assert server.should_exit and not server.force_exit
        signal.raise_signal(signal.SIGINT)  # the re-raise after the drain: ignored
        assert not server.force_exit
        assert stop.received == [signal.SIGTERM, signal.SIGINT, signal.SIGINT]
    assert signal.getsignal(signal.SIGTERM) == before, "the handlers are put back"
