"""Presence (issue 19): each seat online, away or offline from the WebSockets holding its
token, pushed to the sockets that ask (``?extras=presence``); a seat offline long enough
may be handed to the table's cheap bot by another seat, and its owner takes it back.

A real server (SQLite) with a short heartbeat and hand-over time, so every wait has a
timeout; the stale rows of a process that died are checked on the store itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from ranchhand.server import store
from ranchhand.server.limits import RATE_NAMES
from ranchhand.server.presence import PresenceStore
from tests.server.conftest import client_for
from tests.server.helpers import auth, create
from tests.server.procs import Server, create_table, http_client, human_tokens, ws_connect

pytest.importorskip("websockets")

HAND_OVER_AFTER = 2.0
SETTINGS: dict[str, Any] = {
    "limits": {name: "off" for name in RATE_NAMES},
    "presence_heartbeat": 0.3,
    "hand_over_after": HAND_OVER_AFTER,
    "max_open_tables_per_client": 1_000_000,
}
WAIT = 10.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("presence")
    with Server(f"sqlite:///{folder / 'tables.db'}", folder, settings=SETTINGS) as running:
        yield running


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with http_client() as made:
        yield made


def new_table(server: Server, client: httpx.Client) -> tuple[str, dict[int, str]]:
    body = {"game": "rocket-ranchers", "seats": ["human", "human", "random"]}
    table = create_table(client, server.base, {**body, "names": ["Ann", "Bo", "Cy"]})
    return table["id"], human_tokens(table)


def states_of(frame: dict[str, Any]) -> list[str]:
    return [entry["state"] for entry in frame["presence"]]


def presence_until(ws: Any, wanted: Callable[[list[str]], bool]) -> dict[str, Any]:
    """The first presence frame whose seats' states satisfy ``wanted``."""
    seen = []
    deadline = time.monotonic() + WAIT
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            break
        if "presence" in frame:
            seen.append(states_of(frame))
            if wanted(states_of(frame)):
                return frame
    raise AssertionError(f"no such presence within {WAIT} s; saw {seen}")


def test_a_seat_goes_online_away_and_offline(server: Server, client: httpx.Client) -> None:
    tid, tokens = new_table(server, client)
    with ws_connect(f"{server.ws_base}/ws/tables/{tid}?extras=presence") as watcher:
        first = presence_until(watcher, lambda s: True)
        assert states_of(first) == ["offline", "offline", "offline"]
        assert first["hand_over_after"] == HAND_OVER_AFTER
        with ws_connect(f"{server.ws_base}/ws/tables/{tid}?token={tokens[0]}") as seat:
            online = presence_until(watcher, lambda s: s[0] == "online")
            assert states_of(online)[1:] == ["offline", "offline"]
            seat.send(json.dumps({"presence": "hidden"}))
            presence_until(watcher, lambda s: s[0] == "away")
            seat.send(json.dumps({"presence": "visible"}))
            presence_until(watcher, lambda s: s[0] == "online")
            seat.send(json.dumps({"presence": "idle"}))
            presence_until(watcher, lambda s: s[0] == "away")
            seat.send(json.dumps({"presence": "asleep"}))
            refused = [json.loads(seat.recv(timeout=WAIT)) for _ in range(2)]
            assert any("presence: expected one of" in f.get("error", "") for f in refused)
            # A second socket of the same seat keeps it online while the first is away.
            with ws_connect(f"{server.ws_base}/ws/tables/{tid}?token={tokens[0]}"):
                presence_until(watcher, lambda s: s[0] == "online")
            presence_until(watcher, lambda s: s[0] == "away")
        gone = presence_until(watcher, lambda s: s[0] == "offline")
        assert gone["presence"][0]["since"] >= online["presence"][0]["since"]
    polled = client.get(f"{server.base}/api/tables/{tid}/presence").json()
    assert [p["state"] for p in polled["presence"]] == ["offline"] * 3


def test_spectators_count_nowhere(server: Server, client: httpx.Client) -> None:
    tid, _tokens = new_table(server, client)
    with (
        ws_connect(f"{server.ws_base}/ws/tables/{tid}?extras=presence") as one,
        ws_connect(f"{server.ws_base}/ws/tables/{tid}?extras=presence") as two,
    ):
        assert states_of(presence_until(one, lambda s: True)) == ["offline"] * 3
        assert states_of(presence_until(two, lambda s: True)) == ["offline"] * 3
        two.send(json.dumps({"presence": "hidden"}))  # taken, and ignored
        polled = client.get(f"{server.base}/api/tables/{tid}/presence").json()
        assert [p["state"] for p in polled["presence"]] == ["offline"] * 3


def test_an_offline_seat_is_handed_to_a_bot_only_after_the_time(
    server: Server, client: httpx.Client
) -> None:
    tid, tokens = new_table(server, client)
    base = f"{server.base}/api/tables/{tid}"
    bot = client.get(f"{base}/presence").json()["hand_over_bot"]
    assert bot == "greedy"
    with ws_connect(f"{server.ws_base}/ws/tables/{tid}?token={tokens[1]}&extras=presence") as bo:
        presence_until(bo, lambda s: s[1] == "online")
        early = client.put(f"{base}/seats/1", json={"kind": bot}, headers=auth(tokens[0]))
        assert early.status_code == 403, early.text  # as any other seat's token was
        assert "seat 1 is online" in early.json()["error"]
    left = time.monotonic()
    refused = client.put(f"{base}/seats/1", json={"kind": bot}, headers=auth(tokens[0]))
    assert refused.status_code == 403 and "offline for 2 s" in refused.json()["error"]
    deadline = time.monotonic() + WAIT
    while not client.get(f"{base}/presence").json()["presence"][1]["hand_over"]:
        assert time.monotonic() < deadline, "seat 1 never became one to hand over"
        time.sleep(0.1)
    assert time.monotonic() - left >= HAND_OVER_AFTER - 0.5  # the rows' time, not ours
    other = client.put(f"{base}/seats/1", json={"kind": "random"}, headers=auth(tokens[0]))
    assert other.status_code == 403
    assert client.put(f"{base}/seats/1", json={"kind": bot}).status_code == 401
    handed = client.put(f"{base}/seats/1", json={"kind": bot}, headers=auth(tokens[0]))
    assert handed.status_code == 200, handed.text
    view = handed.json()
    assert view["you"] == 0  # the view of the seat that asked, not of the seat handed over
    assert view["seats"][1]["kind"] == bot
    said = client.get(f"{base}/chat").json()["chat"][-1]
    assert said["system"] is True and said["seat"] is None
    assert "Ann handed Bo's seat to the greedy bot" in said["text"]
    after = client.get(f"{base}/presence").json()["presence"][1]
    assert after["hand_over"] is False  # a bot's seat is not handed again
    again = client.put(f"{base}/seats/1", json={"kind": bot}, headers=auth(tokens[0]))
    assert again.status_code == 403 and "already played" in again.json()["error"]
    back = client.put(f"{base}/seats/1", json={"kind": "human"}, headers=auth(tokens[1]))
    assert back.status_code == 200 and back.json()["seats"][1]["kind"] == "human"
    assert back.json()["you"] == 1


def test_a_dead_processs_rows_go_stale(tmp_path: Path) -> None:
    """A process that stops beating (killed) leaves rows that soon count as offline, since
    it was last seen; one that beats keeps its seat online."""
    with client_for(f"sqlite:///{tmp_path / 'tables.db'}") as app_client:
        table = create(app_client, "rocket-ranchers", ["human", "human", "random"])
        tid = table["id"]
        engine = app_client.app.state.service.engine  # type: ignore[attr-defined]
        dead = PresenceStore(engine, heartbeat=0.2)
        alive = PresenceStore(engine, heartbeat=0.2)
        dead.join(tid, 0)
        alive.join(tid, 1)
        assert [p["state"] for p in alive.of(tid)] == ["online", "online", "offline"]
        with engine.begin() as db:  # the dead process was last seen 5 s ago
            db.execute(
                update(store.presence)
                .where(store.presence.c.process == dead.process)
                .values(seen=time.time() - 5)
            )
        alive.beat()
        states = alive.of(tid)
        assert [p["state"] for p in states] == ["offline", "online", "offline"]
        assert time.time() - states[0]["since"] == pytest.approx(5, abs=1)
        alive.close_process()  # a process that stops closes its rows at once
        assert [p["state"] for p in alive.of(tid)] == ["offline"] * 3


def test_a_page_flipping_its_state_ends_where_it_said_last(
    server: Server, client: httpx.Client
) -> None:
    """Frames faster than the database writes are folded: one write at a time, the last
    word wins."""
    tid, tokens = new_table(server, client)
    with (
        ws_connect(f"{server.ws_base}/ws/tables/{tid}?extras=presence") as watcher,
        ws_connect(f"{server.ws_base}/ws/tables/{tid}?token={tokens[1]}") as seat,
    ):
        presence_until(watcher, lambda s: s[1] == "online")
        for i in range(60):
            seat.send(json.dumps({"presence": "hidden" if i % 2 == 0 else "visible"}))
        seat.send(json.dumps({"presence": "idle"}))
        presence_until(watcher, lambda s: s[1] == "away")
        time.sleep(1.0)  # nothing written after the last word changes it back
        polled = client.get(f"{server.base}/api/tables/{tid}/presence").json()
        assert polled["presence"][1]["state"] == "away"
