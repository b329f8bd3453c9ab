"""Real ``ranchhand serve`` processes and throwaway PostgreSQL databases for tests.

Everything here talks to 127.0.0.1 only. Each PostgreSQL test gets a database of
its own (``ranchhand_test_<random>``), created through the ``postgres`` database
and dropped afterwards, so runs never collide; when nothing answers at
127.0.0.1:5432 the tests are skipped with that reason.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ranchhand.server.limits import RATE_NAMES

UNLIMITED = tuple(f"{name}=off" for name in RATE_NAMES)
"""``--limit`` items that lift every per-client rate."""
PG_HOST = os.environ.get("RANCHHAND_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("RANCHHAND_TEST_PG_PORT", "5432"))
PG_USER = os.environ.get("RANCHHAND_TEST_PG_USER", "postgres")
READY_TIMEOUT = 30.0
"""Seconds a starting server may take to answer /api/health (imports, migrations)."""


def postgres_unavailable() -> str | None:
    """Why PostgreSQL tests cannot run here, or None if they can."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[server]')"
    try:
        with socket.create_connection((PG_HOST, PG_PORT), timeout=1):
            pass
    except OSError as error:
        return f"no PostgreSQL answers at {PG_HOST}:{PG_PORT} ({error})"
    try:
        with psycopg.connect(_admin_conninfo(), connect_timeout=3):
            pass
    except psycopg.Error as error:
        return f"PostgreSQL at {PG_HOST}:{PG_PORT} refuses us: {error}"
    return None


def _admin_conninfo() -> str:
    return f"host={PG_HOST} port={PG_PORT} user={PG_USER} dbname=postgres"


@contextlib.contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty database; yields its SQLAlchemy URL and drops it afterwards."""
    reason = postgres_unavailable()
    if reason is not None:
        pytest.skip(reason)
    import psycopg

    name = f"ranchhand_test_{secrets.token_hex(6)}"
    with psycopg.connect(_admin_conninfo(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://{PG_USER}@{PG_HOST}:{PG_PORT}/{name}"
    finally:
        with psycopg.connect(_admin_conninfo(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """One ``ranchhand serve`` subprocess on a free localhost port.

    It runs in a session of its own so that a kill reaches its workers too; its
    output goes to a log file whose tail is shown when something fails.
    """

    def __init__(
        self,
        db_url: str,
        folder: Path,
        *,
        workers: int = 1,
        name: str = "server",
        settings: dict[str, Any] | None = None,
        limits: tuple[str, ...] | None = None,
        flags: tuple[str, ...] = (),
    ):
        self.db_url = db_url
        self.folder = folder
        self.workers = workers
        self.name = name
        self.settings = settings
        """Fields of ``ranchhand.server.app.Settings`` besides ``db`` (``limits`` as
        ``{name: text}``): given, the app is served by uvicorn's factory
        (``app_from_env``, as ``serve --workers`` serves it) instead of ``ranchhand serve``,
        so a test can set what ``serve`` has no flag for; the per-client rates are off
        there too unless it gives ``limits``."""
        self.flags = flags
        """More ``ranchhand serve`` flags."""
        self.limits = UNLIMITED if limits is None else limits
        """``serve --limit NAME=VALUE`` items. Every per-client rate is off unless a test
        sets its own: a test is one address playing as fast as the server answers (a
        fast machine makes dozens of moves a second), and the limits have tests of
        their own (``client_for`` lifts them the same way)."""
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.folder / f"{self.name}.log"

    def start(self) -> Server:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.port = free_port()
        self.starts += 1
        command = [sys.executable, "-m", "ranchhand", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", self.db_url]
        for limit in self.limits:
            command += ["--limit", limit]
        command += self.flags
        env = None
        if self.settings is not None:
            from ranchhand.server.app import SETTINGS_ENV

            lifted = {"limits": {item.partition("=")[0]: "off" for item in UNLIMITED}}
            fields = {"db": self.db_url, **lifted, **self.settings}
            env = {**os.environ, SETTINGS_ENV: json.dumps(fields)}
            command = [sys.executable, "-m", "uvicorn", "ranchhand.server.app:app_from_env"]
            command += ["--factory", "--host", "127.0.0.1", "--port", str(self.port)]
        if self.workers != 1:
            command += ["--workers", str(self.workers)]
        with self.log_path.open("ab") as log:
            log.write(f"\n=== start {self.starts}: {' '.join(command)}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                command,
                env=env,
                cwd=self.folder,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"{self.name} exited with {self.proc.returncode}\n{self.tail()}"
                )
            try:
                health = httpx.get(f"{self.base}/api/health", timeout=1, trust_env=False)
                if health.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"{self.name} not ready in {READY_TIMEOUT} s\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL the server and every process of its session (workers included)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not gone within 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def holder(self, client_port: int) -> int | None:
        """The pid of the server process holding the connection from ``client_port``.

        Read from Linux's /proc (the socket's inode in ``/proc/net/tcp``, then whose
        file descriptors hold it), so a test can see which worker got a socket.
        """
        inode = None
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError), open(table) as rows:
                for row in list(rows)[1:]:
                    fields = row.split()
                    local, remote = fields[1].rsplit(":", 1)[1], fields[2].rsplit(":", 1)[1]
                    if int(local, 16) == self.port and int(remote, 16) == client_port:
                        inode = fields[9]
        if inode is None or self.proc is None:
            return None
        for pid in [self.proc.pid, *_children(self.proc.pid)]:
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                            return pid
        return None

    def tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError), open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def http_client() -> httpx.Client:
    """A client that never goes through a proxy from the environment."""
    return httpx.Client(timeout=10, trust_env=False)


def ws_connect(url: str) -> Any:
    """A blocking WebSocket client (``websockets.sync``), never through a proxy."""
    from websockets.sync.client import connect

    return connect(url, proxy=None, open_timeout=10, close_timeout=2, max_size=2**24)


def ws_view_at(ws: Any, step: int, timeout: float) -> tuple[dict[str, Any], float]:
    """The first view of ``step`` or later that the socket receives, and the seconds it took.

    Views of earlier steps are skipped (a socket may hear chance or bot steps one by
    one); an error frame fails the test.
    """
    start = time.monotonic()
    while True:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            raise AssertionError(f"no view of step >= {step} within {timeout} s")
        try:
            frame = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            raise AssertionError(f"no view of step >= {step} within {timeout} s") from None
        assert "error" not in frame, frame
        if frame["step"] >= step:
            return frame, time.monotonic() - start


def create_table(client: httpx.Client, base: str, body: dict[str, Any]) -> dict[str, Any]:
    reply = client.post(f"{base}/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    table: dict[str, Any] = reply.json()
    return table


def get_view(client: httpx.Client, base: str, table_id: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    reply = client.get(f"{base}/api/tables/{table_id}", headers=headers)
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def human_tokens(table: dict[str, Any]) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in table["seats"] if seat.get("token")}


def next_move(
    client: httpx.Client,
    base: str,
    table_id: str,
    tokens: dict[int, str],
    rng: random.Random,
    timeout: float = 15.0,
) -> tuple[int, int, str] | None:
    """``(seat, step, action)``: a legal move for one of our seats, or None at the end.

    While only bots or chance are to act, waits for them (they play on the server).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = get_view(client, base, table_id, None)
        if view["status"] == "finished":
            return None
        for seat in view["to_act"]:
            if seat in tokens:
                mine = get_view(client, base, table_id, tokens[seat])
                if mine["legal_actions"]:
                    return seat, mine["step"], rng.choice(mine["legal_actions"])
        time.sleep(0.02)
    raise AssertionError(f"table {table_id}: none of our seats came to act within {timeout} s")


def post_move(
    client: httpx.Client, base: str, table_id: str, token: str, step: int, action: str
) -> httpx.Response:
    return client.post(
        f"{base}/api/tables/{table_id}/actions",
        headers={"Authorization": f"Bearer {token}"},
        json={"action": action, "step": step},
    )
