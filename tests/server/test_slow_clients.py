"""Slow and vanishing clients against a real uvicorn process: half-sent heads (slowloris)
and bodies are closed within their deadlines, the connection cap answers 503, and a
client that hangs up mid-body leaves no traceback in the log.

``ranchhand serve`` is used with its defaults where they are quick enough to wait
for; otherwise :class:`EdgeServer` runs the same app and uvicorn options with
shorter limits (``LimitSettings.with_overrides``, what ``serve --limit`` sets).
"""

from __future__ import annotations

import selectors
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from ranchhand.server.limits import LimitSettings
from tests.server.helpers import wait_for
from tests.server.procs import Server, free_port

LAUNCH = """
import sys, uvicorn
from ranchhand.server import log_config
from ranchhand.server.app import Settings, create_app
from ranchhand.server.limits import LimitSettings, uvicorn_options
db, port, *limits = sys.argv[1:]
settings = Settings(db=db, limits=LimitSettings().with_overrides(limits))
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(port), server_header=False,
            log_config=log_config("info"), **uvicorn_options(settings.limits))
"""


class EdgeServer(Server):
    """The server's app under uvicorn with ``limits`` (``NAME=VALUE`` items)."""

    def __init__(self, db_url: str, folder: Path, limits: list[str]) -> None:
        super().__init__(db_url, folder, name="edge")
        self.limits = limits

    def start(self) -> EdgeServer:
        self.port = free_port()
        command = [sys.executable, "-c", LAUNCH, self.db_url, str(self.port), *self.limits]
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                command,
                cwd=self.folder,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait_ready()
        return self

    def __enter__(self) -> EdgeServer:
        return self.start()


def connect(port: int, data: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if data:
        sock.sendall(data)
    return sock


def closed_within(socks: list[socket.socket], seconds: float) -> dict[socket.socket, float]:
    """When each socket was closed by the server (EOF or reset), within ``seconds``;
    what the server sent before is ignored."""
    start = time.monotonic()
    closed: dict[socket.socket, float] = {}
    with selectors.DefaultSelector() as watching:
        for sock in socks:
            sock.setblocking(False)
            watching.register(sock, selectors.EVENT_READ)
        while len(closed) < len(socks) and time.monotonic() - start < seconds:
            for key, _ in watching.select(timeout=0.5):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(65536)
                except ConnectionResetError:
                    data = b""
                if not data:
                    closed[sock] = time.monotonic() - start
                    watching.unregister(sock)
    return closed


def test_three_hundred_half_sent_heads_are_closed_by_ranchhand_serve(
    sqlite_url: str, tmp_path: Path
) -> None:
    timeout = LimitSettings().header_timeout
    with Server(sqlite_url, tmp_path) as server:
        partial = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        socks = [connect(server.port, b"" if i % 10 == 0 else partial) for i in range(300)]
        try:
            health = httpx.get(f"{server.base}/api/health", timeout=5, trust_env=False)
            assert health.status_code == 200  # everyone else is still served meanwhile
            closed = closed_within(socks, timeout + 10)
            assert len(closed) == 300, f"{300 - len(closed)} half-sent requests still open"
            assert max(closed.values()) < timeout + 5
        finally:
            for sock in socks:
                sock.close()
        assert "Traceback" not in server.tail(200)


def test_a_head_dribbled_after_a_kept_alive_request_is_closed_too(
    sqlite_url: str, tmp_path: Path
) -> None:
    with EdgeServer(sqlite_url, tmp_path, ["header_timeout=2"]) as server:
        sock = connect(server.port, b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        for piece in (b"GET /api/he", b"alth HTTP/1.1\r\n", b"Host: x\r\n"):
            sock.sendall(piece)  # slower than keep-alive's 5 s in total, but each in time
            time.sleep(0.5)
        closed = closed_within([sock], 10)
        assert closed and closed[sock] < 4
        sock.close()


def test_a_body_not_sent_in_time_gets_408_and_the_connection_closed(
    sqlite_url: str, tmp_path: Path
) -> None:
    with EdgeServer(sqlite_url, tmp_path, ["body_timeout=2"]) as server:
        head = (
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        sock = connect(server.port, head)
        sock.settimeout(10)
        start = time.monotonic()
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 408"), reply
        assert b"within 2 seconds" in reply
        assert time.monotonic() - start < 6
        sock.close()
        assert "Traceback" not in server.tail(200)


def test_clients_hanging_up_mid_body_leave_no_traceback(sqlite_url: str, tmp_path: Path) -> None:
    with EdgeServer(sqlite_url, tmp_path, []) as server:
        before = len(server.tail(10_000).splitlines())
        for path in ["/api/tables", "/api/replays", "/api/tables/x/actions"] * 10:
            head = (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Content-Length: 5000\r\n\r\n"
            ).encode()
            sock = connect(server.port, head + b'{"game": "ran')
            time.sleep(0.05)
            sock.close()
        time.sleep(0.5)
        health = httpx.get(f"{server.base}/api/health", timeout=5, trust_env=False)
        assert health.status_code == 200
        log = server.tail(10_000)
        added = log.splitlines()[before:]
        assert "Traceback" not in log and "ClientDisconnect" not in log
        assert len(added) <= 30 + 1, "\n".join(added)  # an access line each at most


def test_past_the_connection_cap_requests_get_503(sqlite_url: str, tmp_path: Path) -> None:
    with EdgeServer(sqlite_url, tmp_path, ["max_connections=20", "header_timeout=60"]) as server:
        idle = [connect(server.port) for _ in range(20)]
        try:
            time.sleep(0.3)
            crowded = httpx.get(f"{server.base}/api/health", timeout=5, trust_env=False)
            assert crowded.status_code == 503
        finally:
            for sock in idle:
                sock.close()
        health = f"{server.base}/api/health"  # the server sees the 20 sockets close, soon
        wait_for(
            lambda: httpx.get(health, timeout=5, trust_env=False).status_code == 200,
            5,
            "the cap's release",
        )
