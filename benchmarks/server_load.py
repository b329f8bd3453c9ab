"""Load on ``ranchhand serve``: N tables at once, each one person (a script) against bots.

For every table a WebSocket client sits in seat 0 and plays against server bots
with no delay: it sends a random legal action, waits for the view of the next
step, and records the time from sending to that view arriving. Bots answer
inside the same transaction, so each round trip is: parse, check and commit the
move and the bots' replies, notify, rebuild the seat's view, send it. A finished
game is replaced by a new table. Moves per second and the p50/p99 latency are
printed for each database, as a table::

    .venv/bin/python benchmarks/server_load.py                   # SQLite and PostgreSQL
    .venv/bin/python benchmarks/server_load.py --db sqlite --tables 50 --seconds 10
    .venv/bin/python benchmarks/server_load.py --url http://127.0.0.1:8000   # a running server

Each database is fresh: a SQLite file in a temporary folder, or a database
``ranchhand_bench_<random>`` created on the PostgreSQL at ``--pg`` (libpq
conninfo of an account that may create databases) and dropped afterwards. The
client runs on the same machine as the server, so their CPU figures are shown
too: on a 2-core machine they compete. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

DEFAULT_PG = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0
    stalls: int = 0
    connected: int = 0


@dataclass
class Result:
    label: str
    tables: int
    seconds: float
    stats: Stats
    server_cpu: float | None
    client_cpu: float

    def row(self) -> list[str]:
        lat = sorted(self.stats.latencies)
        moves = len(lat)

        def pct(q: float) -> str:
            return f"{lat[min(moves - 1, int(q * moves))] * 1000:.1f}" if lat else "-"

        server = "-" if self.server_cpu is None else f"{self.server_cpu:.0%}"
        return [
            self.label,
            str(self.tables),
            f"{self.seconds:.1f}",
            str(moves),
            f"{moves / self.seconds:.0f}",
            pct(0.50),
            pct(0.99),
            f"{lat[-1] * 1000:.0f}" if lat else "-",
            str(self.stats.games),
            str(len(self.stats.errors) + self.stats.stalls),
            server,
            f"{self.client_cpu:.0%}",
        ]


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


async def player(
    index: int,
    http: httpx.AsyncClient,
    ws_base: str,
    args: argparse.Namespace,
    stats: Stats,
    go: asyncio.Event,
    stop: asyncio.Event,
) -> None:
    rng = random.Random(index)
    first = True
    while not stop.is_set():
        table_id, token = await new_table(http, args)
        async with connect(
            f"{ws_base}/ws/tables/{table_id}?token={token}",
            proxy=None,
            max_size=2**24,
            open_timeout=60,
            ping_interval=None,
            compression="deflate" if args.deflate else None,
        ) as ws:
            view = json.loads(await ws.recv())
            if first:
                first = False
                stats.connected += 1
                await go.wait()
            await play_table(ws, view, rng, stats, stop, args.think)


async def play_table(
    ws: Any,
    view: dict[str, Any],
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    think: float,
) -> None:
    """Play one game (or until ``stop``): send, time the view of the next step, repeat."""
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
                    if not stop.is_set():
                        stats.latencies.append(time.perf_counter() - sent)
                    view = frame
                    break
            if "error" in frame:  # ask again: the socket sends views only on change
                return
        else:  # a bot with a delay, or a turn clock: wait for the next view
            try:
                view = json.loads(await asyncio.wait_for(ws.recv(), 10))
            except TimeoutError:
                stats.stalls += 1
                return


async def load(base: str, args: argparse.Namespace, label: str, pid: int | None) -> Result:
    stats = Stats()
    ws_base = "ws" + base.removeprefix("http")
    go, stop = asyncio.Event(), asyncio.Event()
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits, trust_env=False) as http:
        tasks = [
            asyncio.create_task(player(i, http, ws_base, args, stats, go, stop))
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
        server_before, client_before = cpu_seconds(pid), own_cpu()
        started = time.perf_counter()
        go.set()
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
    server_cpu = None
    if server_before is not None and server_after is not None:
        server_cpu = (server_after - server_before) / elapsed
    return Result(
        label, args.tables, elapsed, stats, server_cpu, (client_after - client_before) / elapsed
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables (100)")
    parser.add_argument("--seconds", type=float, default=20, help="measured time per database")
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
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600:
        parser.error("--tables must be 1..2000 and --seconds 0..600")
    if args.url and not args.url.startswith(("http://127.0.0.1", "http://localhost")):
        parser.error("--url must be a server on this machine (127.0.0.1 or localhost)")

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
    print_table([r.row() for r in results])
    for r in results:
        if r.stats.errors:
            print(f"{r.label}: {len(r.stats.errors)} errors, first: {r.stats.errors[0]}")
        if r.stats.stalls:
            print(f"{r.label}: {r.stats.stalls} tables waited 10 s for a view")
    return 0


if __name__ == "__main__":
    sys.exit(main())
