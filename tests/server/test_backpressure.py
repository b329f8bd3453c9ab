"""A client that does not read costs the others nothing (issue 23's first item).

The repro runs a real ``uvicorn`` with two WebSockets that never read (a small
receive buffer and segment size, so the server's sends to them block after about
100 KB) on a busy table A: a player on table B and a spectator of A must keep
getting their views while the stuck sockets are blocked, and the server must drop
the stuck sockets by its send timeout. Before the fix, B's views stopped (for as
long as the stuck sockets stayed open) and so did A's bots. The rest tests the
parts: the mailbox (newest view wins, error frames keep their order), the sender's
deadline, the hub's coalesced reads, the notifiers' tables side by side (the
PostgreSQL one too, skipped without PostgreSQL), and the connection limits.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from benchmarks.server_load import HOSTILE, PLAYERS, SPECTATORS, StuckSocket, client_address

from ranchhand.server.live import Live
from ranchhand.server.notify import Coalescer, LocalNotifier
from ranchhand.server.store import make_engine, migrate
from ranchhand.server.tables import TableService
from ranchhand.server.ws import (
    ABORT,
    CLOSE_TOO_MANY,
    Connection,
    Hub,
    Mailbox,
    SocketLimits,
)
from tests.server.conftest import client_for
from tests.server.procs import Server, fresh_postgres_database

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.websockets import WebSocketDisconnect

BOUND = 4.0
"""Seconds within which a reader must get each view (a liveness bound, not a speed goal:
measured here, they take tens of milliseconds)."""
THINK = 0.1
"""Seconds B's player waits before each move: a quick person, under the 20 moves a
second a client may make."""
SEND_TIMEOUT = 5.0
"""The server's send timeout in the repro; longer than BOUND, so a stall of the old kind
(which lasted as long as the stuck sockets stayed open) fails the test."""


# --- the parts ---------------------------------------------------------------------------


@pytest.fixture
def lives(tmp_path: Path) -> Iterator[tuple[TableService, list[Live]]]:
    """A real table's state after each of its first moves, and its service."""
    engine = make_engine(f"sqlite:///{tmp_path / 'units.db'}")
    migrate(engine)
    service = TableService(engine)
    created = service.create("rancho", 2, {}, ["human", "human"])
    tokens = created.tokens
    found = [service.current(created.id)]
    rng = random.Random(3)
    while len(found) < 6:
        live = found[-1]
        seat = live.state.acting_players()[0]
        action = rng.choice(live.state.legal_actions(seat))
        found.append(service.act(created.id, tokens[seat], str(action), live.step).live)
    assert [live.step for live in found] == sorted({live.step for live in found})
    yield service, found
    engine.dispose()


class Peer:
    """The far end of a WebSocket, for the sender's unit tests: its sends wait while
    ``reading`` is clear, as a real send waits for a client that does not read."""

    def __init__(self) -> None:
        self.reading = asyncio.Event()
        self.reading.set()
        self.frames: list[dict[str, Any]] = []
        self.attempts = 0
        self.closed: tuple[int, str] | None = None
        self.dropped = False
        self.scope = {ABORT: self.drop}

    async def send_text(self, text: str) -> None:
        self.attempts += 1
        await self.reading.wait()
        self.frames.append(json.loads(text))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.reading.wait()
        self.closed = (code, reason)

    def drop(self) -> None:
        self.dropped = True


def test_a_newer_view_replaces_a_waiting_one_and_errors_keep_their_place(
    lives: tuple[TableService, list[Live]],
) -> None:
    _service, (v0, v1, v2, v3, v4, _v5) = lives

    async def main() -> list[tuple[str | None, int | None]]:
        box = Mailbox(capacity=3)
        box.put_view(v1)
        box.put_view(v2)  # replaces v1
        box.put_view(v0)  # older than what waits: dropped
        box.put_error("first")
        box.put_view(v3)  # behind the error: a place of its own
        assert len(box) == 3
        room = asyncio.create_task(box.room())
        await asyncio.sleep(0)
        assert not room.done()  # full: the connection's own frames wait
        box.put_view(v4)  # replaces v3, takes no place
        box.put_error("second")
        out = []
        while len(box):
            frame = await box.get()
            out.append((frame.error, None if frame.live is None else frame.live.step))
        await asyncio.wait_for(room, 1)
        return out

    assert asyncio.run(main()) == [
        (None, v2.step),
        ("first", None),
        (None, v4.step),
        ("second", None),
    ]


def test_a_waiting_view_keeps_the_time_it_began_to_wait(
    lives: tuple[TableService, list[Live]],
) -> None:
    """A client behind is as late as its oldest unsent view, however often it is replaced."""
    _service, found = lives
    now = [100.0]

    async def main() -> tuple[float, int]:
        box = Mailbox(clock=lambda: now[0])
        box.put_view(found[1])
        now[0] = 107.0
        box.put_view(found[2])
        frame = await box.get()
        assert frame.live is not None
        return frame.since, frame.live.step

    assert asyncio.run(main()) == (100.0, found[2].step)


def test_a_stuck_client_costs_one_send_and_is_closed_after_the_timeout(
    lives: tuple[TableService, list[Live]],
) -> None:
    _service, found = lives

    async def main() -> None:
        peer = Peer()
        connection = Connection(peer, "t", 0, send_timeout=0.5)  # type: ignore[arg-type]
        sender = asyncio.create_task(connection.send_all())
        connection.offer(found[0])
        await asyncio.sleep(0.05)
        assert [f["step"] for f in peer.frames] == [found[0].step]
        peer.reading.clear()  # the client stops reading
        began = time.monotonic()
        for live in found[1:]:
            connection.offer(live)
            await asyncio.sleep(0.01)
        assert peer.attempts == 2  # one blocked send; the rest wait as one view, unbuilt
        assert len(connection.mailbox) == 1
        await asyncio.wait_for(sender, 5)
        assert 0.4 <= time.monotonic() - began < 4
        assert connection.too_slow and peer.dropped  # the close could not be written
        assert peer.closed is None

    asyncio.run(main())


def test_a_slow_client_gets_the_newest_view_then_its_error_frames_in_order(
    lives: tuple[TableService, list[Live]],
) -> None:
    """While a send waits, views pile into one; a move's error frame comes after the view
    queued before it, and the reply to a move (a newer view) is never lost."""
    _service, found = lives

    async def main() -> None:
        peer = Peer()
        connection = Connection(peer, "t", None, send_timeout=5)  # type: ignore[arg-type]
        sender = asyncio.create_task(connection.send_all())
        peer.reading.clear()
        connection.offer(found[0])
        await asyncio.sleep(0.02)
        for live in found[1:4]:
            connection.offer(live)
        connection.tell("stale step: look again")
        connection.offer(found[4])
        connection.offer(found[5])  # the reply to this client's own move
        peer.reading.set()
        await asyncio.sleep(0.1)
        sender.cancel()
        steps = [frame.get("step", frame.get("error")) for frame in peer.frames]
        assert steps == [found[0].step, found[3].step, "stale step: look again", found[5].step]
        assert not connection.too_slow

    asyncio.run(main())


def test_a_burst_of_changes_to_one_table_costs_a_few_reads(
    lives: tuple[TableService, list[Live]],
) -> None:
    service, found = lives
    table = found[0].meta.id

    async def main() -> None:
        hub = Hub(service)
        peer = Peer()
        connection = Connection(peer, table, 0)  # type: ignore[arg-type]
        assert hub.join(connection) is None
        sender = asyncio.create_task(connection.send_all())
        for step in range(50):
            await hub.on_change(table, step)  # returns at once: nothing is awaited
        await hub.on_change("no-such-table", 1)  # nobody watches it: not even read
        deadline = time.monotonic() + 5
        while not peer.frames and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert 1 <= hub.reads <= 3
        assert [frame["step"] for frame in peer.frames] == [found[-1].step]
        sender.cancel()
        await hub.stop()

    asyncio.run(main())


def test_a_move_made_here_reaches_every_watcher_of_its_table_without_a_read(
    lives: tuple[TableService, list[Live]],
) -> None:
    service, found = lives
    table = found[0].meta.id

    async def main() -> None:
        hub = Hub(service)
        peers = [Peer(), Peer(), Peer()]
        seats = [0, 1, None]
        connections = [
            Connection(peer, table, seat)  # type: ignore[arg-type]
            for peer, seat in zip(peers, seats, strict=True)
        ]
        other = Connection(Peer(), "another-table", None)  # type: ignore[arg-type]
        for connection in [*connections, other]:
            assert hub.join(connection) is None
        senders = [asyncio.create_task(c.send_all()) for c in connections]
        hub.share(found[-1])  # the table as committed
        await asyncio.sleep(0.05)
        assert hub.reads == 0 and len(other.mailbox) == 0
        for peer, seat in zip(peers, seats, strict=True):
            assert [(f["step"], f["you"]) for f in peer.frames] == [(found[-1].step, seat)]
        await hub.refresh()  # reads each watched table once more: nothing new to send
        await asyncio.sleep(0.2)
        assert hub.reads == 2 and all(len(peer.frames) == 1 for peer in peers)
        for sender in senders:
            sender.cancel()
        await hub.stop()

    asyncio.run(main())


def test_a_change_shared_here_is_not_read_again_by_the_only_process_writing(
    lives: tuple[TableService, list[Live]],
) -> None:
    """With one process writing the tables (``solo``), the notice of a move it already
    shared is not read again; a notice it cannot vouch for is: a later step, a refresh,
    or a table whose cached state is no longer the one shared."""
    service, found = lives
    table = found[0].meta.id
    assert service.peek(table) is found[-1]

    async def main() -> None:
        hub = Hub(service)
        hub.solo = True
        peer = Peer()
        connection = Connection(peer, table, 0)  # type: ignore[arg-type]
        assert hub.join(connection) is None
        sender = asyncio.create_task(connection.send_all())
        hub.share(found[-1])
        await hub.on_change(table, found[-1].step)
        await asyncio.sleep(0.1)
        assert (hub.skipped, hub.reads) == (1, 0)
        assert [frame["step"] for frame in peer.frames] == [found[-1].step]
        await hub.on_change(table, found[-1].step)  # a second notice: nothing vouches for it
        hub.share(found[-1])
        await hub.on_change(table, found[-1].step + 1)  # made elsewhere: beyond the share
        await asyncio.sleep(0.1)
        assert (hub.skipped, hub.reads) == (1, 2)
        hub.share(found[-1])
        service.forget(table)  # a write that did not cache its state
        await hub.on_change(table, found[-1].step)
        await asyncio.sleep(0.1)
        assert (hub.skipped, hub.reads) == (1, 3)
        sender.cancel()
        await hub.stop()

    asyncio.run(main())


@pytest.fixture(params=["local", "postgresql"])
def notifier(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "local":
        yield LocalNotifier()
        return
    notify_pg = pytest.importorskip("ranchhand.server.notify_pg")
    with fresh_postgres_database() as url:
        yield notify_pg.PostgresNotifier(url)


def test_a_slow_table_holds_up_no_other_and_its_burst_is_handled_once(notifier: Any) -> None:
    """Both notifiers hand each change to its table's task: a handler stuck on one table
    (a send, a read) delays no other table; the changes heard meanwhile make one call."""

    async def main() -> None:
        release = asyncio.Event()
        calls: list[tuple[str, int]] = []
        heard = asyncio.Event()

        async def on_change(table_id: str, step: int) -> None:
            calls.append((table_id, step))
            heard.set()
            if table_id == "slow" and step == 1:
                await release.wait()

        await notifier.start(on_change)
        try:
            await notifier.publish("slow", 1)
            while ("slow", 1) not in calls:
                await asyncio.wait_for(heard.wait(), BOUND)
                heard.clear()
            for step in range(2, 52):
                await notifier.publish("slow", step)
            await notifier.publish("fast", 1)
            while ("fast", 1) not in calls:
                await asyncio.wait_for(heard.wait(), BOUND)
                heard.clear()
            release.set()
            deadline = time.monotonic() + BOUND
            while ("slow", 51) not in calls and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert [call for call in calls if call[0] == "slow"] == [("slow", 1), ("slow", 51)]
        finally:
            await notifier.stop()

    asyncio.run(main())


def test_the_coalescer_logs_a_failure_and_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> list[int]:
        seen: list[int] = []

        async def flaky(table_id: str, step: int) -> None:
            seen.append(step)
            if step == 1:
                raise RuntimeError("a handler bug")

        changes = Coalescer(flaky)
        changes.submit("t", 1)
        await asyncio.sleep(0.01)
        changes.submit("t", 2)
        await asyncio.sleep(0.01)
        assert changes.busy == 0
        await changes.stop()
        changes.submit("t", 3)  # stopped: ignored
        await asyncio.sleep(0.01)
        return seen

    assert asyncio.run(main()) == [1, 2]
    assert "handling a change of table t failed" in caplog.text


def test_limits_are_checked() -> None:
    for bad in ({"send_timeout": 0}, {"send_timeout": float("nan")}, {"per_table": 0}):
        with pytest.raises(ValueError, match="must be"):
            SocketLimits(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", ["ws_per_table", "ws_per_address"])
def test_too_many_websockets_are_refused_with_4429(sqlite_url: str, limit: str) -> None:
    """Two allowed: a third is refused with an error frame and 4429; once one leaves, a
    new one is let in (the test client's sockets share one address and one table)."""
    with client_for(sqlite_url, **{limit: 2}) as client:
        created = client.post("/api/tables", json={"game": "rancho", "seats": ["human"] * 2})
        url = f"/ws/tables/{created.json()['id']}"
        with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
            assert first.receive_json()["step"] == second.receive_json()["step"]
            with client.websocket_connect(url) as third:
                refusal = third.receive_json()
                assert "at most 2" in refusal["error"] or "the most it takes" in refusal["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == CLOSE_TOO_MANY
        with client.websocket_connect(url) as again:
            assert "step" in again.receive_json()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.count == 0 and not hub.addresses


def test_an_unknown_table_does_not_count_against_the_limits(sqlite_url: str) -> None:
    with client_for(sqlite_url, ws_per_address=1) as client:
        for _ in range(3):
            with client.websocket_connect("/ws/tables/nosuchtable") as socket:
                assert "no table" in socket.receive_json()["error"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.count == 0 and not hub.addresses and not hub.watchers


# --- the repro: a real server, sockets that never read ---------------------------------


def test_two_stuck_sockets_on_one_table_stall_no_other_and_are_dropped(
    db_url: str, tmp_path: Path
) -> None:
    if sys.platform != "linux":
        pytest.skip("watches the server's end of each connection in Linux's /proc/net/tcp")
    with Server(db_url, tmp_path, settings={"ws_send_timeout": SEND_TIMEOUT}) as server:
        report = asyncio.run(repro(server.base))
    stuck, b_waits, a_views = report["stuck"], report["b_waits"], report["a_views"]
    for sock in stuck:
        assert sock.blocked is not None, "a stuck socket never filled: the repro proves nothing"
        assert sock.dropped is not None, f"the server did not drop a stuck socket\n{server.tail()}"
        assert 1.0 <= sock.dropped - sock.blocked <= SEND_TIMEOUT + 2 + 4
    blocked = max(sock.blocked for sock in stuck)
    dropped = min(sock.dropped for sock in stuck)
    # While both were blocked and still open, B's player went on, each view in time...
    during = [wait for at, wait in b_waits if blocked <= at <= dropped]
    assert len(during) >= 3, (b_waits, blocked, dropped)
    assert max(wait for _at, wait in b_waits) <= BOUND
    # ...and so did a spectator that reads on A itself.
    times = [at for at, _step in a_views if at <= dropped]
    assert any(at >= blocked for at in times)
    assert max(b - a for a, b in itertools.pairwise(times)) <= BOUND
    steps = [step for _at, step in a_views]
    assert steps == sorted(set(steps))


async def repro(base: str) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    ws_base = "ws" + base.removeprefix("http")
    hostile = client_address(HOSTILE, 0)
    transport = httpx.AsyncHTTPTransport(local_address=hostile)
    async with httpx.AsyncClient(base_url=base, trust_env=False, transport=transport) as http:
        busy = {"game": "rancho", "seats": ["random"] * 6, "bot_delay": 0.02}
        reply = await http.post("/api/tables", json=busy)
        assert reply.status_code == 201, reply.text
    table_a = reply.json()["id"]
    stuck = [await StuckSocket.open(base, f"/ws/tables/{table_a}", hostile) for _ in range(2)]
    a_views: list[tuple[float, int]] = []
    b_waits: list[tuple[float, float]] = []
    done = asyncio.Event()

    async def spectate_a() -> None:
        options = {
            "proxy": None,
            "max_size": 2**24,
            "local_addr": (client_address(SPECTATORS, 0), 0),
        }
        async with connect(f"{ws_base}/ws/tables/{table_a}", **options) as ws:
            while not done.is_set():
                frame = json.loads(await ws.recv())
                assert "error" not in frame, frame
                a_views.append((time.perf_counter(), frame["step"]))

    async def play_b() -> None:
        """Human against a random bot with a delay: each bot reply comes through the hub."""
        address = client_address(PLAYERS, 0)
        rng = random.Random(5)
        transport = httpx.AsyncHTTPTransport(local_address=address)
        options = {"proxy": None, "max_size": 2**24, "local_addr": (address, 0)}
        async with httpx.AsyncClient(base_url=base, trust_env=False, transport=transport) as http:
            while not done.is_set():
                body = {"game": "rancho", "seats": ["human", "random"], "bot_delay": 0.01}
                created = (await http.post("/api/tables", json=body)).json()
                url = f"{ws_base}/ws/tables/{created['id']}?token={created['seats'][0]['token']}"
                async with connect(url, **options) as ws:
                    view = json.loads(await ws.recv())
                    while view["status"] != "finished" and not done.is_set():
                        await asyncio.sleep(THINK)  # under the server's actions rate
                        step = view["step"]
                        move = {"action": rng.choice(view["legal_actions"]), "step": step}
                        await ws.send(json.dumps(move))
                        sent = time.perf_counter()
                        while True:  # until it is our turn again (or the end)
                            try:
                                raw = await asyncio.wait_for(ws.recv(), BOUND * 3)
                            except TimeoutError:
                                b_waits.append((sent, BOUND * 3))
                                return
                            view = json.loads(raw)
                            assert "error" not in view, view
                            if view["status"] == "finished" or view["legal_actions"]:
                                break
                        b_waits.append((time.perf_counter(), time.perf_counter() - sent))

    tasks = [asyncio.create_task(spectate_a()), asyncio.create_task(play_b())]
    deadline = time.monotonic() + 40
    try:
        while time.monotonic() < deadline and not all(s.dropped for s in stuck):
            for sock in stuck:
                sock.look()
            if any(task.done() for task in tasks):
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # a little of what comes after
    finally:
        done.set()
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for sock in stuck:
            sock.close()
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            raise result
    return {"stuck": stuck, "b_waits": b_waits, "a_views": a_views}


def test_moves_over_a_websocket_draw_on_the_clients_action_rate(sqlite_url: str) -> None:
    from ranchhand.server.limits import LimitSettings

    limits = LimitSettings().with_overrides(["actions=1/min:2"])
    with client_for(sqlite_url, limits=limits) as client:
        created = client.post("/api/tables", json={"game": "rancho", "seats": ["human"] * 2})
        table = created.json()
        token = table["seats"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as socket:
            socket.receive_json()
            replies = []
            for _ in range(3):
                socket.send_json({"action": "no such move", "step": 0})
                replies.append(socket.receive_json()["error"])
    assert "too many actions" not in replies[0] + replies[1]
    assert replies[2].startswith("too many actions: the limit is 1 per minute")
