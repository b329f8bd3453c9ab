"""Bots off the request path: search bots decide in a process pool, cheap bots within a
budget; a table's bots have a CPU cap; idle tables expire; a client's open tables are
counted. Real worker processes, real SQLite (and PostgreSQL for the lease when one
answers), real ``ranchhand serve`` processes where a kill is tested."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from ranchhand.core.registry import load
from ranchhand.server import store
from ranchhand.server.botpool import TIMEOUT, BotPool, Cancelled, Job
from ranchhand.server.live import Budget, Live, Meta
from ranchhand.server.store import make_engine, migrate
from ranchhand.server.tables import TableService
from tests.server.conftest import client_for
from tests.server.helpers import auth, create, tokens_of, wait_finished, wait_for
from tests.server.procs import Server, _children, create_table, http_client

SEARCH_SEATS = ["hard"] * 6


def exited(pid: int) -> bool:
    """Whether process ``pid`` is gone or a zombie (exited, not yet reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def bot_workers(pid: int) -> list[int]:
    """Pids of the bot pool's processes under ``pid`` (any depth)."""
    found, todo = [], [pid]
    while todo:
        for child in _children(todo.pop()):
            todo.append(child)
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if b"ranchhand.server.botpool" in command:
                found.append(child)
    return found


# ------------------------------------------------------------------ the request path
def test_creating_a_table_of_six_search_bots_answers_at_once(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        began = time.monotonic()
        created = create(client, "rancho", SEARCH_SEATS)
        assert time.monotonic() - began < 5  # no search inside the request
        table = created["id"]
        first = client.get(f"/api/tables/{table}").json()
        assert first["status"] == "playing"
        # The pool plays on: the table moves without anyone asking, and the server
        # answers meanwhile.
        moved = wait_for(  # past a timed-out decision (a cold compile at nice 10), too
            lambda: client.get(f"/api/tables/{table}").json()["step"] > first["step"],
            TIMEOUT + 60,
            "a search bot's move",
        )
        assert moved
        health = time.monotonic()
        assert client.get("/api/health").status_code == 200
        assert time.monotonic() - health < 2
        pool = client.app.state.bots.pool
        assert pool.started >= 1 and pool.cpu > 0
        workers = [w.process for w in pool._workers]
    for process in workers:  # the app stopped: its pool's processes are gone
        assert process.poll() is not None


def test_cheap_bots_answer_inside_the_move_within_the_budget(sqlite_url: str) -> None:
    """A person's move is answered by cheap bots in its reply; past the budget the
    runner goes on, and the game still ends."""
    with client_for(sqlite_url) as client:
        created = create(client, "rocket-ranchers", ["human", "greedy"], players=2)
        table, token = created["id"], tokens_of(created)[0]
        view = client.get(f"/api/tables/{table}", headers=auth(token)).json()
        rng = random.Random(3)
        # A full collection can take more than the inline budget's CPU (about 1 move in
        # 1,000 here); then the runner answers after the reply. Not while this checks.
        gc.disable()
        try:
            for _ in range(5):
                if not view["legal_actions"]:
                    break
                reply = client.post(
                    f"/api/tables/{table}/actions",
                    json={"action": rng.choice(view["legal_actions"]), "step": view["step"]},
                    headers=auth(token),
                )
                assert reply.status_code == 200, reply.text
                view = reply.json()
                # The greedy bot answered in the same reply: it is never the bot's turn here.
                assert view["status"] != "playing" or view["to_act"] == [0]
        finally:
            gc.enable()
    engine = make_engine(sqlite_url)
    service = TableService(engine, inline=Budget(steps=3, cpu=1.0))
    made = service.create("rocket-ranchers", 2, {}, ["greedy", "random"])
    assert made.step <= 3  # the rest is the runner's
    assert not service.current(made.id).finished
    engine.dispose()


# ------------------------------------------------------------------ the pool itself
def live_table(game: str, seats: list[str], seed: int) -> Live:
    loaded = load(game, len(seats))
    meta = Meta(
        id=f"t{seed}", game=loaded.id, players=loaded.players, options={},
        created_seats=tuple(seats), kinds=tuple(seats), names=tuple(seats),
        hashes=(None,) * len(seats), seed=seed, bot_delay=0.0, clock=None,
        clock_bot="random", created=0.0,
    )  # fmt: skip
    return Live(meta, loaded, loaded.new_initial_state())


def job_for(live: Live, plays: tuple[tuple[int, str], ...]) -> Job:
    meta = live.meta
    return Job(meta.id, meta.game, meta.players, {}, meta.seed, tuple(live.moves), plays)


def test_the_pool_decides_as_the_server_would_and_can_be_cancelled() -> None:
    """Decisions made in a worker are the ones this process makes from the same log and
    seed (the generator comes from derive_seed(seed, "bots", step)); a cancelled table's
    running decision is killed and the pool goes on."""

    async def scenario() -> None:
        pool = BotPool(2)
        try:
            for game, seats in (("glory-ranch", ["greedy"] * 3), ("rancho", ["random"] * 4)):
                here = live_table(game, seats, seed=11)
                there = live_table(game, seats, seed=11)
                for _ in range(60):
                    here.settle(bots=False)
                    if here.finished:
                        break
                    seat = here.bots_due()[0]
                    decided = await pool.run(job_for(here, ((seat, seats[seat]),)))
                    here.bot_move(seat, seats[seat])
                    assert decided.moves == [here.moves[-1]]
                there.settle(bots=True, budget=Budget(steps=len(here.moves), cpu=60))
                assert there.moves[: len(here.moves)] == here.moves

            # A long decision (a hard Rancho search) cancelled mid-way.
            table = live_table("rancho", ["hard", "hard"], seed=5)
            table.settle(bots=False)
            seat = table.bots_due()[0]
            running = asyncio.ensure_future(pool.run(job_for(table, ((seat, "hard"),))))
            await asyncio.sleep(0.5)
            pool.cancel(table.meta.id)
            with pytest.raises(Cancelled):
                await asyncio.wait_for(running, 10)
            after = live_table("rocket-ranchers", ["random", "random"], seed=2)
            after.settle(bots=False)
            seat = after.bots_due()[0]
            decided = await asyncio.wait_for(pool.run(job_for(after, ((seat, "random"),))), 30)
            assert len(decided.moves) == 1
        finally:
            await pool.close()
        assert all(w.process.poll() is not None for w in pool._workers) or not pool._workers

    asyncio.run(scenario())


def test_bot_workers_die_with_their_server(tmp_path: Path) -> None:
    """SIGKILL of the server: its bot processes read end-of-file and exit."""
    server = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path).start()
    try:
        assert server.proc is not None
        with http_client() as client:
            create_table(client, server.base, {"game": "rancho", "seats": SEARCH_SEATS})
        workers = wait_for(lambda: bot_workers(server.proc.pid), 30, "a bot process")
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)

        wait_for(lambda: all(map(exited, workers)), 20, "the bot processes exiting")
    finally:
        server.kill()


def test_a_busy_worker_exits_when_its_server_dies() -> None:
    """A worker in the middle of a long job (here asleep: a cold kernel compiles for
    half a minute on a busy machine) reads no end-of-file; its watch sees its parent gone
    and ends it within about ``botpool.WATCH`` seconds of the SIGKILL."""
    busy = (  # the parent's pid given, as BotPool._spawn gives it
        "import sys, threading, time; from ranchhand.server import botpool; "
        "server = int(sys.argv[1]); "
        "threading.Thread(target=botpool._watch, args=(server,), daemon=True).start(); "
        "time.sleep(120)"
    )
    parent = (
        "import os, subprocess, sys, time; "
        f"child = subprocess.Popen([sys.executable, '-c', {busy!r}, str(os.getpid())]); "
        "print(child.pid, flush=True); time.sleep(120)"
    )
    server = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    worker = int(server.stdout.readline())
    try:
        time.sleep(1.0)  # the worker is up and asleep in its "job" (or not yet: either way)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        wait_for(lambda: exited(worker), 20, "the busy worker exiting")
    finally:
        server.kill()
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)


# ------------------------------------------------------------------ the CPU cap
def test_search_bots_past_their_cpu_cap_play_as_the_cheap_bot(sqlite_url: str) -> None:
    with client_for(sqlite_url, bot_cpu_per_table=0.3) as client:
        created = create(client, "rancho", ["hard", "hard"], players=2)
        table = created["id"]

        def downgraded() -> dict[str, Any] | None:
            view: dict[str, Any] = client.get(f"/api/tables/{table}").json()
            kinds = [seat["kind"] for seat in view["seats"]]
            return view if kinds == ["greedy", "greedy"] else None

        view = wait_for(downgraded, 2 * TIMEOUT + 60, "the seats turning greedy")
        engine = client.app.state.service.engine
        with engine.connect() as db:
            spent = db.execute(
                sa.select(store.tables.c.bot_cpu).where(store.tables.c.id == table)
            ).scalar_one()
        assert spent >= 0.3
        wait_finished(client, table, 60)  # greedy plays on, quickly, to the end
        assert view["step"] > 0


# ------------------------------------------------------------------ expiry
def test_idle_tables_expire(sqlite_url: str) -> None:
    # Three seconds: the create, the first look and the first frame come well before.
    with client_for(sqlite_url, expire_after=3.0, expire_bots_only_after=3.0) as client:
        created = create(client, "rocket-ranchers", ["human", "greedy"], players=2)
        table, token = created["id"], tokens_of(created)[0]
        first = client.get(f"/api/tables/{table}", headers=auth(token)).json()
        assert first["status"] == "playing" and first["legal_actions"]
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
            assert socket.receive_json()["status"] == "playing"
            # The open socket is told of the closing: same step, a new version all the same.
            told = socket.receive_json()
            assert told["status"] == "expired" and told["step"] == first["step"]
            assert told["legal_actions"] == [] and told["to_act"] == []
        view = client.get(f"/api/tables/{table}", headers=auth(token)).json()
        assert view["status"] == "expired"
        assert view["legal_actions"] == [] and view["to_act"] == []
        moved = client.post(
            f"/api/tables/{table}/actions",
            json={"action": first["legal_actions"][0], "step": first["step"]},
            headers=auth(token),
        )
        assert moved.status_code == 410 and "expired" in moved.json()["error"]
        handed = client.put(
            f"/api/tables/{table}/seats/0", json={"kind": "greedy"}, headers=auth(token)
        )
        assert handed.status_code == 410
        assert table not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        assert record.json()["outcome"] is None and record.json()["seed"] is not None


def test_a_table_in_play_does_not_expire(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    service = TableService(engine)
    made = service.create("rocket-ranchers", 2, {}, ["human", "human"])
    bots_only = service.create("glory-ranch", 3, {}, ["hard", "hard", "hard"])
    now = time.time()
    assert service.expire(3600, 60, now=now + 30) == []
    # Bots-only tables go sooner than tables where someone sits.
    assert service.expire(3600, 60, now=now + 120) == [(bots_only.id, bots_only.step)]
    assert service.expire(3600, 60, now=now + 4000) == [(made.id, made.step)]
    assert service.current(made.id).expired
    engine.dispose()


# ------------------------------------------------------------------ open tables
def test_a_client_may_have_only_so_many_open_tables(sqlite_url: str) -> None:
    with client_for(sqlite_url, max_open_tables_per_client=2) as client:
        for _ in range(3):  # finished (at once as a rule): they do not count
            done = create(client, "rocket-ranchers", ["greedy", "random"], players=2)
            wait_finished(client, done["id"])
        first = create(client, "rancho", ["human", "human"], players=2)
        create(client, "rancho", ["human", "human"], players=2)
        refused = client.post("/api/tables", json={"game": "rancho", "seats": ["human", "human"]})
        assert refused.status_code == 429
        assert "open tables" in refused.json()["error"]
        assert int(refused.headers["Retry-After"]) > 0
        engine = client.app.state.service.engine
        with engine.connect() as db:
            creators = set(db.execute(sa.select(store.tables.c.creator)).scalars())
        assert len(creators) == 1
        (key,) = creators
        assert key and "testclient" not in key  # a keyed hash, never the address
        assert client.app.state.service.open_tables_by(key) == 2
        # One of them expires: room again.
        client.app.state.service.expire(0.0, 0.0, now=time.time() + 1)
        assert client.app.state.service.open_tables_by(key) == 0
        create(client, "rancho", ["human", "human"], players=2)
        assert client.get(f"/api/tables/{first['id']}").json()["status"] == "expired"


# ------------------------------------------------------------------ the lease
@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_one_process_at_a_time_computes_a_decision(
    db: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'tables.db'}"
        if db == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    engines = [make_engine(url), make_engine(url)]
    migrate(engines[0])
    one, two = (TableService(engine) for engine in engines)
    made = one.create("rancho", 2, {}, ["hard", "human"])
    step = one.current(made.id).step
    assert one.lease(made.id, step, 30) == 0.0
    held = two.lease(made.id, step, 30)
    assert held > time.time() + 20  # the other waits for it
    one.release(made.id, step)
    assert two.lease(made.id, step, 30) == 0.0
    assert one.lease(made.id, step + 1, 30) > 0  # not at that step: nothing to lease
    for engine in engines:
        engine.dispose()
