"""Load on ``ranchhand serve``: N tables at once, each one person (a script) against bots.

For every table a WebSocket client sits in seat 0 and plays against server bots
with no delay: it sends a random legal action, waits for the view of the next
step, and records the time from sending to that view arriving. Bots answer
inside the same transaction, so each round trip is: parse, check and commit the
move and the bots' replies, notify, rebuild the seat's view, send it. A finished
game is replaced by a new table. Moves per second, the p50/p99 latency and the
server's CPU milliseconds per (scripted) move, bots' replies included, are printed
for each database, as a table::

    .venv/bin/python benchmarks/server_load.py                   # SQLite and PostgreSQL
    .venv/bin/python benchmarks/server_load.py --db sqlite --tables 50 --seconds 10
    .venv/bin/python benchmarks/server_load.py --db sqlite --moves 20000 --seconds 300
    .venv/bin/python benchmarks/server_load.py --url http://127.0.0.1:8000   # a running server
    .venv/bin/python benchmarks/server_load.py --db sqlite --soak  # hostile clients beside
    make bench-server SOAK=1                                       # the same, both databases

Each database is fresh: a SQLite file in a temporary folder, or a database
``ranchhand_bench_<random>`` created on the PostgreSQL at ``--pg`` (libpq
conninfo of an account that may create databases) and dropped afterwards. The
client runs on the same machine as the server, so their CPU figures are shown
too: on a 2-core machine they compete. Only this machine is contacted: every
simulated person connects from an address of its own in 127.0.0.0/8 (Linux
routes all of it to this machine), as people on the internet do, so the server's
per-client limits (tables a minute, WebSockets per address) apply to each alone.
One limit is lifted on the servers this script starts: the per-client rate of moves
(``--limit actions=off``), because a script that moves the instant its view arrives
outruns any person (26 moves a second per table, 50 tables on a fast machine) and
would meet the 20-a-second limit instead of measuring the server. Against a running
server (``--url``), start it with ``--limit actions=off`` for the same measure.

``--soak`` runs hostile clients beside the load and checks what every reader got:

- ``--stuck N`` (2) WebSockets that never read, from one address, watching a busy
  table (six random bots, 0.02 s apart), with a small receive buffer and segment
  size (so the server's kernel buffers for them fill after about 100 KB and its
  sends block); they are opened first and the run starts once the server's sends
  to them block; the server must drop them (its send timeout, 10 s unless set)
  while everyone else goes on;
- a flood of table creations from one address (``--flood-rate`` a second, over 8
  connections), which the server must refuse with 429 once past its limit;
- ``--spectators N`` (10) spectators that read, on the first players' tables.

Every move must be answered by one view of a later step and nothing else (no
error frame, no view out of order), and every spectator must see its table's
steps in increasing order up to the player's last. The report adds the
spectators' lag (from the player's view of a step to the spectator's view of that
step or a later one), the flood's replies and when the stuck sockets were dropped.
``tests/server/test_soak.py`` is a short soak with these checks as assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

DEFAULT_PG = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
TICKS = os.sysconf("SC_CLK_TCK")
PLAYERS, SPECTATORS, HOSTILE = 1, 2, 3
"""The second byte of each kind of client's address: players 127.1.x.y, and so on."""
SETTLE = 10.0
"""Seconds a spectator has, after the players stop, to see its player's last step."""
STUCK_WAIT = 15.0
"""Seconds the stuck sockets are left open after the run, for the server to drop them
(its default send timeout is 10 s)."""
FLOOD_CONNECTIONS = 8
BUSY = {"game": "rancho", "seats": ["random"] * 6, "bot_delay": 0.02}
"""The table the stuck sockets watch: it changes about 50 times a second."""


def client_address(kind: int, index: int) -> str:
    """The address the ``index``-th client of a kind connects from (127.KIND.x.y)."""
    return f"127.{kind}.{index // 250}.{1 + index % 250}"


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Error frames a player got, and frames it did not expect after a move."""
    games: int = 0
    stalls: int = 0
    connected: int = 0


@dataclass
class Watch:
    """What one spectator saw of one table."""

    table: str
    seen: list[tuple[float, int]] = field(default_factory=list)
    """(time, step) of each view."""
    faults: list[str] = field(default_factory=list)


@dataclass
class Soak:
    """What ``--soak`` ran beside the load, and what it saw."""

    tables: dict[int, str] = field(default_factory=dict)
    """Each player's first table."""
    played: dict[str, list[tuple[float, int]]] = field(default_factory=dict)
    """(time, step) of each view a player got on its first table."""
    watches: list[Watch] = field(default_factory=list)
    stuck: list[StuckSocket] = field(default_factory=list)
    flood: Counter[int] = field(default_factory=Counter)
    """The flood's replies by status (0: no reply)."""
    started: float = 0.0
    """When the measured time began (``time.perf_counter``)."""

    def lags(self) -> list[float]:
        """For each view a spectated player got after the start: seconds until its
        spectator saw that step or a later one (0 if the spectator saw it first)."""
        out = []
        for watch in self.watches:
            for when, step in self.played.get(watch.table, []):
                if when < self.started:
                    continue
                later = [at for at, seen in watch.seen if seen >= step]
                if later:
                    out.append(max(0.0, later[0] - when))
        return out

    def skipped(self) -> tuple[int, int]:
        """(steps a spectated player saw that its spectator never saw, steps it saw): a
        spectator that keeps up sees them all; one that falls behind gets the newest."""
        missed = total = 0
        for watch in self.watches:
            seen = {step for _at, step in watch.seen}
            steps = {step for _at, step in self.played.get(watch.table, [])}
            total += len(steps)
            missed += len(steps - seen)
        return missed, total

    def faults(self) -> list[str]:
        return [f"spectator of {w.table}: {fault}" for w in self.watches for fault in w.faults]


@dataclass
class Result:
    label: str
    tables: int
    seconds: float
    stats: Stats
    server_cpu: float | None
    client_cpu: float
    soak: Soak | None = None

    def row(self) -> list[str]:
        lat = sorted(self.stats.latencies)
        server = "-" if self.server_cpu is None else f"{self.server_cpu:.0%}"
        per_move = "-"  # server CPU a move: robust to a busy machine, unlike moves/s
        if self.server_cpu is not None and lat:
            per_move = f"{self.server_cpu * self.seconds / len(lat) * 1000:.2f}"
        return [
            self.label,
            str(self.tables),
            f"{self.seconds:.1f}",
            str(len(lat)),
            f"{len(lat) / self.seconds:.0f}",
            percentile(lat, 0.50),
            percentile(lat, 0.99),
            f"{lat[-1] * 1000:.0f}" if lat else "-",
            str(self.stats.games),
            str(len(self.stats.errors) + self.stats.stalls),
            server,
            per_move,
            f"{self.client_cpu:.0%}",
        ]


def percentile(ordered: list[float], q: float) -> str:
    """The ``q`` quantile of sorted seconds, in milliseconds."""
    if not ordered:
        return "-"
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


HEADER = [
    "database",
    "tables",
    "seconds",
    "moves",
    "moves/s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "games",
    "errors",
    "server CPU",
    "CPU ms/move",
    "client CPU",
]


def print_table(rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [HEADER, *rows]) for i in range(len(HEADER))]
    for r in [HEADER, ["-" * w for w in widths], *rows]:
        cells = [
            c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        print("  ".join(cells))


# --- one table's scripted player -------------------------------------------------------


async def new_table(http: httpx.AsyncClient, args: argparse.Namespace) -> tuple[str, str]:
    seats = ["human"] + [args.bot] * (args.players - 1)
    body = {"game": args.game, "players": args.players, "seats": seats, "bot_delay": 0}
    reply = await http.post("/api/tables", json=body)
    if reply.status_code != 201:
        raise RuntimeError(f"creating a table: {reply.status_code} {reply.text}")
    table = reply.json()
    return table["id"], table["seats"][0]["token"]


def ws_options(args: argparse.Namespace, address: str) -> dict[str, Any]:
    return {
        "proxy": None,
        "max_size": 2**24,
        "open_timeout": 60,
        "ping_interval": None,
        "compression": "deflate" if args.deflate else None,
        "local_addr": (address, 0),
    }


KEEPALIVE = 2.0
"""Seconds a client keeps an idle connection for its next request: well under the
server's (uvicorn's ``timeout_keep_alive``, 5 s). At httpx's default, also 5 s, a request
sent on a connection idle for about 5 s could meet the server closing it (``ReadError``,
a soak failure in a clean-clone CI run: a player's next table, posted as its game of
about 5 s ended)."""


def http_client(base: str, address: str, timeout: float = 60) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(
        local_address=address, limits=httpx.Limits(keepalive_expiry=KEEPALIVE)
    )
    return httpx.AsyncClient(base_url=base, timeout=timeout, trust_env=False, transport=transport)


async def player(
    index: int,
    base: str,
    args: argparse.Namespace,
    stats: Stats,
    go: asyncio.Event,
    stop: asyncio.Event,
    soak: Soak | None,
) -> None:
    rng = random.Random(index)
    address = client_address(PLAYERS, index)
    ws_base = "ws" + base.removeprefix("http")
    first = True
    async with http_client(base, address) as http:
        while not stop.is_set():
            table_id, token = await new_table(http, args)
            timeline = None
            if soak is not None and first:
                soak.tables[index] = table_id
                timeline = soak.played[table_id] = []
            # the page asks for log-tail: views carry only the log lines not yet sent
            url = f"{ws_base}/ws/tables/{table_id}?token={token}&extras=log-tail"
            async with connect(url, **ws_options(args, address)) as ws:
                view = json.loads(await ws.recv())
                if timeline is not None:
                    timeline.append((time.perf_counter(), view["step"]))
                if first:
                    first = False
                    stats.connected += 1
                    await go.wait()
                await play_table(ws, view, rng, stats, stop, args.think, timeline)


async def play_table(
    ws: Any,
    view: dict[str, Any],
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    think: float,
    timeline: list[tuple[float, int]] | None = None,
) -> None:
    """Play one game (or until ``stop``): send, time the view of the next step, repeat.

    A move must be answered by a view of a later step, and by nothing before it: an
    error frame or a view of an earlier step is counted in ``stats.errors``.
    """
    while not stop.is_set():
        if view.get("status") == "finished":
            stats.games += 1
            return
        if view["you"] in view["to_act"] and view["legal_actions"]:
            if think:  # a person reads the view first: 0.5 to 1.5 times --think
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if stop.is_set():
                    return
            step = view["step"]
            await ws.send(json.dumps({"action": rng.choice(view["legal_actions"]), "step": step}))
            sent = time.perf_counter()
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if "error" in frame:
                    stats.errors.append(frame["error"])
                    break
                if frame["step"] > step:
                    arrived = time.perf_counter()
                    if not stop.is_set():
                        stats.latencies.append(arrived - sent)
                    if timeline is not None:
                        timeline.append((arrived, frame["step"]))
                    view = frame
                    break
                stats.errors.append(f"a view of step {frame['step']} after a move at {step}")
            if "error" in frame:  # ask again: the socket sends views only on change
                return
        else:  # a bot with a delay, or a turn clock: wait for the next view
            try:
                view = json.loads(await asyncio.wait_for(ws.recv(), 10))
            except TimeoutError:
                stats.stalls += 1
                return
            if timeline is not None:
                timeline.append((time.perf_counter(), view["step"]))


# --- hostile clients and spectators (--soak) --------------------------------------------


class StuckSocket:
    """A WebSocket client that completes the opening handshake by hand, then never reads.

    Its receive buffer and its segment size are made small before it connects (as a
    malicious client may), so the server's kernel buffers for it stay small too and
    the server's sends to it block after about 100 KB.
    """

    def __init__(self, sock: socket.socket, server: tuple[str, int]) -> None:
        self.sock = sock
        self.server = server
        self.opened = time.perf_counter()
        self.blocked: float | None = None
        """When the server was first seen with 64 KB or more queued for it."""
        self.dropped: float | None = None
        """When the server's end of the connection was first seen gone."""

    @classmethod
    async def open(cls, base: str, path: str, address: str) -> StuckSocket:
        url = httpx.URL(base)
        host, port = socket.gethostbyname(url.host), url.port or 80
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        sock.bind((address, 0))
        await loop.sock_connect(sock, (host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        )
        await loop.sock_sendall(sock, request.encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):  # the reply's head only, a byte at a time
            byte = await asyncio.wait_for(loop.sock_recv(sock, 1), 10)
            if not byte:
                raise ConnectionError(f"the server closed the handshake: {head!r}")
            head += byte
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(f"the server refused the WebSocket: {head.splitlines()[0]!r}")
        return cls(sock, (host, port))

    def look(self) -> tuple[str, int] | None:
        """Look at the server's end in the kernel: (TCP state, bytes it has queued for
        us), or None once it is gone; notes when it blocked and when it was dropped."""
        found = server_end(self.server, self.sock.getsockname())
        now = time.perf_counter()
        if found is None:
            self.dropped = self.dropped or now
        elif found[1] >= 64 * 1024 and self.blocked is None:
            self.blocked = now
        return found

    def close(self) -> None:
        self.sock.close()


def server_end(server: tuple[str, int], client: tuple[str, int]) -> tuple[str, int] | None:
    """The server's end of the TCP connection from ``client`` in Linux's ``/proc/net/tcp``:
    (state in hex, bytes queued to send), or None if there is none."""

    def hexed(host: str, port: int) -> str:
        return f"{socket.inet_aton(host)[::-1].hex().upper()}:{port:04X}"

    local, remote = hexed(*server), hexed(*client)
    with contextlib.suppress(OSError), open("/proc/net/tcp") as rows:
        for row in list(rows)[1:]:
            fields = row.split()
            if fields[1] == local and fields[2] == remote:
                return fields[3], int(fields[4].split(":")[0], 16)
    return None


async def spectate(
    watch: Watch, base: str, address: str, args: argparse.Namespace, ready: asyncio.Event
) -> None:
    """Read every view of ``watch.table`` until the player's last step (after the players
    stop); views must come in increasing steps, and no error frame."""
    ws_base = "ws" + base.removeprefix("http")
    async with connect(f"{ws_base}/ws/tables/{watch.table}", **ws_options(args, address)) as ws:
        ready.set()
        while True:
            frame = json.loads(await ws.recv())
            now = time.perf_counter()
            if "error" in frame:
                watch.faults.append(f"an error frame: {frame['error']}")
                continue
            if watch.seen and frame["step"] <= watch.seen[-1][1]:
                watch.faults.append(f"step {frame['step']} after step {watch.seen[-1][1]}")
            watch.seen.append((now, frame["step"]))


async def follow(watch: Watch, soak: Soak, task: asyncio.Task[None]) -> None:
    """After the players stop: wait for the spectator to reach its player's last step."""
    target = soak.played[watch.table][-1][1]
    deadline = time.monotonic() + SETTLE
    while not (watch.seen and watch.seen[-1][1] >= target):
        if task.done() or time.monotonic() > deadline:
            watch.faults.append(f"did not see step {target} within {SETTLE:g} s")
            break
        await asyncio.sleep(0.05)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
        await task


async def flood(base: str, rate: float, stop: asyncio.Event, counts: Counter[int]) -> None:
    """Create tables from one address, ``rate`` a second over 8 connections (a flood does
    not wait for each reply), until ``stop``."""
    body = {"game": "rancho", "seats": ["human", "human"]}

    async def one(http: httpx.AsyncClient) -> None:
        while not stop.is_set():
            began = time.monotonic()
            try:
                counts[(await http.post("/api/tables", json=body)).status_code] += 1
            except httpx.HTTPError:
                counts[0] += 1
            await asyncio.sleep(max(0.0, FLOOD_CONNECTIONS / rate - (time.monotonic() - began)))

    async with http_client(base, client_address(HOSTILE, 1), timeout=10) as http:
        await asyncio.gather(*(one(http) for _ in range(FLOOD_CONNECTIONS)))


async def block(base: str, count: int, stuck: list[StuckSocket]) -> None:
    """Open ``count`` stuck sockets on a new busy table, and wait (at most 30 s) until the
    server's sends to them block, so the whole run goes on beside blocked sockets."""
    address = client_address(HOSTILE, 0)
    async with http_client(base, address) as http:
        reply = await http.post("/api/tables", json=BUSY)
    if reply.status_code != 201:
        raise RuntimeError(f"creating the busy table: {reply.status_code} {reply.text}")
    path = f"/ws/tables/{reply.json()['id']}"
    for _ in range(count):
        stuck.append(await StuckSocket.open(base, path, address))
    deadline = time.monotonic() + 30
    while any(sock.blocked is None for sock in stuck) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)


async def watch_stuck(stuck: list[StuckSocket], stop: asyncio.Event) -> None:
    while not stop.is_set():
        for sock in stuck:
            sock.look()
        await asyncio.sleep(0.1)


async def load(base: str, args: argparse.Namespace, label: str, pid: int | None) -> Result:
    stats = Stats()
    soak = Soak() if args.soak else None
    go, stop = asyncio.Event(), asyncio.Event()
    hostile: list[asyncio.Task[None]] = []
    if soak is not None and args.stuck:
        hostile.append(asyncio.create_task(watch_stuck(soak.stuck, stop)))
        await block(base, args.stuck, soak.stuck)
    tasks = [
        asyncio.create_task(player(i, base, args, stats, go, stop, soak))
        for i in range(args.tables)
    ]
    deadline = time.monotonic() + 120
    while stats.connected < args.tables:
        failed = [t for t in tasks if t.done()]
        if failed:
            failed[0].result()
            raise RuntimeError("a player stopped before the start")
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {stats.connected} of {args.tables} tables connected")
        await asyncio.sleep(0.05)
    watching: list[tuple[Watch, asyncio.Task[None]]] = []
    if soak is not None:
        for i in range(min(args.spectators, args.tables)):
            watch, ready = Watch(soak.tables[i]), asyncio.Event()
            address = client_address(SPECTATORS, i)
            task = asyncio.create_task(spectate(watch, base, address, args, ready))
            waiting = asyncio.create_task(ready.wait())
            await asyncio.wait({task, waiting}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if task.done():
                task.result()  # it failed to connect: say why
            soak.watches.append(watch)
            watching.append((watch, task))
        hostile.append(asyncio.create_task(flood(base, args.flood_rate, stop, soak.flood)))
    server_before, client_before = cpu_seconds(pid), own_cpu()
    started = time.perf_counter()
    if soak is not None:
        soak.started = started
    go.set()
    if args.moves:  # the same work for every server compared (see --moves)
        cap = time.monotonic() + args.seconds
        while len(stats.latencies) < args.moves and time.monotonic() < cap:
            await asyncio.sleep(0.02)
    else:
        await asyncio.sleep(args.seconds)
    stop.set()
    elapsed = time.perf_counter() - started
    server_after, client_after = cpu_seconds(pid), own_cpu()
    done, pending = await asyncio.wait(tasks, timeout=30)
    for task in pending:
        task.cancel()
    for task in done:
        error = task.exception()
        if error is not None and not isinstance(error, ConnectionClosed | TimeoutError):
            stats.errors.append(repr(error))
    if soak is not None:
        await asyncio.gather(*(follow(watch, soak, task) for watch, task in watching))
        await asyncio.gather(*hostile, return_exceptions=True)
        deadline = time.monotonic() + STUCK_WAIT
        while any(sock.look() is not None for sock in soak.stuck) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for sock in soak.stuck:
            sock.close()
    server_cpu = None
    if server_before is not None and server_after is not None:
        server_cpu = (server_after - server_before) / elapsed
    return Result(
        label,
        args.tables,
        elapsed,
        stats,
        server_cpu,
        (client_after - client_before) / elapsed,
        soak,
    )


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_seconds(pid: int | None) -> float | None:
    """CPU seconds used by ``pid`` and its children so far (Linux /proc), or None."""
    if pid is None:
        return None
    total = 0.0
    for task in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{task}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
    return total


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


# --- the server and its database -----------------------------------------------------


@contextlib.contextmanager
def database(kind: str, folder: Path, pg: str) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'bench.db'}"
        return
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    name = f"ranchhand_bench_{secrets.token_hex(4)}"
    with psycopg.connect(pg, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    params = conninfo_to_dict(pg)
    user = params.get("user", "postgres")
    host, port = params.get("host", "127.0.0.1"), params.get("port", 5432)
    try:
        yield f"postgresql+psycopg://{user}@{host}:{port}/{name}"
    finally:
        with psycopg.connect(pg, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def server(db_url: str, folder: Path, workers: int) -> Iterator[tuple[str, int]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ranchhand", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--db", db_url, "--workers", str(workers)]
    command += ["--limit", "actions=off"]  # scripts outrun people (the docstring)
    command += ["--no-prepare-bots"]  # nothing beside the server while it is measured
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        command, cwd=folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: see {folder / 'server.log'}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/api/health", timeout=1, trust_env=False).is_success:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer /api/health within 60 s")
            time.sleep(0.1)
        yield base, proc.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables (100)")
    parser.add_argument("--seconds", type=float, default=20, help="measured time per database")
    parser.add_argument(
        "--moves",
        type=int,
        default=0,
        help="end the measured time after this many moves instead (--seconds caps it): a "
        "move late in a game costs more than an early one, so two servers are compared "
        "fairly over the same number of moves at the same number of tables, not the same "
        "time (a quicker server would reach later, dearer moves)",
    )
    parser.add_argument("--game", default="rancho")
    parser.add_argument("--players", type=int, default=2, help="seat 0 scripted, the rest bots")
    parser.add_argument("--bot", default="random", help="the bots' kind (random)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (--workers)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player waits before each move (0: as fast as views come back)",
    )
    parser.add_argument(
        "--no-deflate",
        dest="deflate",
        action="store_false",
        help="do not offer WebSocket compression (browsers offer it; default: offer)",
    )
    parser.add_argument("--pg", default=DEFAULT_PG, help="libpq conninfo that may CREATE DATABASE")
    parser.add_argument("--url", help="measure a running server instead of starting one")
    soak = parser.add_argument_group("hostile clients beside the load")
    soak.add_argument("--soak", action="store_true", help="run them, and check every reader")
    soak.add_argument("--stuck", type=int, default=2, help="WebSockets that never read (2)")
    soak.add_argument("--spectators", type=int, default=10, help="spectators that read (10)")
    soak.add_argument(
        "--flood-rate", type=float, default=100, help="table creations a second, one address"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600 or args.moves < 0:
        parser.error("--tables must be 1..2000, --seconds 0..600 and --moves 0 or more")
    if not 0 <= args.stuck <= 100 or not 0 <= args.spectators <= 2000:
        parser.error("--stuck must be 0..100 and --spectators 0..2000")
    if not 0 < args.flood_rate <= 10_000:
        parser.error("--flood-rate must be above 0 and at most 10000")
    if args.url and not args.url.startswith(("http://127.0.0.1", "http://localhost")):
        parser.error("--url must be a server on this machine (127.0.0.1 or localhost)")
    return args


def report(result: Result) -> list[str]:
    """What ``--soak`` saw, as lines."""
    soak = result.soak
    if soak is None:
        return []
    label = result.label
    lags = sorted(soak.lags())
    missed, total = soak.skipped()
    lines = [
        f"{label}: {len(soak.watches)} spectators, lag p50 {percentile(lags, 0.5)} ms, "
        f"p99 {percentile(lags, 0.99)} ms, max {percentile(lags, 1.0)} ms "
        f"over {len(lags)} views; {missed} of their players' {total} steps skipped; "
        f"{len(soak.faults())} faults"
    ]
    flood = ", ".join(f"{n} x {code or 'no reply'}" for code, n in sorted(soak.flood.items()))
    lines.append(f"{label}: flood of table creations: {flood or 'nothing sent'}")
    for i, sock in enumerate(soak.stuck):
        blocked = "-" if sock.blocked is None else f"{sock.blocked - sock.opened:.1f} s"
        dropped = "not dropped" if sock.dropped is None else f"{sock.dropped - sock.opened:.1f} s"
        lines.append(f"{label}: stuck socket {i}: blocked after {blocked}, dropped after {dropped}")
    lines += [f"{label}: {fault}" for fault in soak.faults()[:5]]
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = []
    if args.url:
        results.append(asyncio.run(load(args.url.rstrip("/"), args, "(running)", None)))
    else:
        kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
        for kind in kinds:
            with (
                tempfile.TemporaryDirectory(prefix="ranchhand-bench-") as tmp,
                database(kind, Path(tmp), args.pg) as db_url,
                server(db_url, Path(tmp), args.workers) as (base, pid),
            ):
                label = kind if args.workers == 1 else f"{kind} x{args.workers}"
                results.append(asyncio.run(load(base, args, label, pid)))
    print(
        f"{args.game}, {args.players} players: seat 0 a scripted WebSocket client, "
        f"{args.players - 1} {args.bot} bot(s) with no delay; think {args.think:g} s; "
        f"permessage-deflate {'offered' if args.deflate else 'off'}; {os.cpu_count()} CPUs"
    )
    if args.soak:
        print(
            f"soak: {args.stuck} WebSockets that never read on one table, {args.spectators} "
            f"spectators, {args.flood_rate:g} table creations a second from one address"
        )
    print_table([r.row() for r in results])
    for r in results:
        if r.stats.errors:
            print(f"{r.label}: {len(r.stats.errors)} errors, first: {r.stats.errors[0]}")
        if r.stats.stalls:
            print(f"{r.label}: {r.stats.stalls} tables waited 10 s for a view")
        for line in report(r):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
