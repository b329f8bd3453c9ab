"""A table's chat (issue 19): written over HTTP with a seat's token, stored, sent over the
WebSocket to every viewer who asks (``?extras=chat``), across processes on PostgreSQL.

Text stays text (cleaned, bounded, never marked up), seats and clients are rate-limited,
spectators read and write only where the table says, and the chat joins the record only
where the table says. No frame carries a token.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ranchhand.core.records import Record
from ranchhand.server.limits import RATE_NAMES, LimitSettings
from ranchhand.server.ws import FEED_BACKLOG, Mailbox
from tests.server.conftest import client_for
from tests.server.helpers import auth, create, play_out, tokens_of
from tests.server.procs import (
    Server,
    create_table,
    fresh_postgres_database,
    http_client,
    human_tokens,
    ws_connect,
)

LINE_KEYS = {"seq", "seat", "name", "text", "time", "system"}
WAIT = 10.0
"""Seconds a frame may take on a loaded machine before the test fails."""


def frames_until(ws: Any, wanted: Any, timeout: float = WAIT) -> list[dict[str, Any]]:
    """Frames received (a real server's socket) until one for which ``wanted`` is true."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no such frame within {timeout} s; got {got}")
        try:
            frame = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            raise AssertionError(f"no such frame within {timeout} s; got {got}") from None
        got.append(frame)
        if wanted(frame):
            return got


def chat_lines(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for frame in frames for line in frame.get("chat", [])]


def test_a_line_round_trips_over_http_and_the_websocket(client: Any) -> None:
    table = create(
        client, "rocket-ranchers", ["human", "human", "random"], names=["Ann", "Bo", "c"]
    )
    tid, tokens = table["id"], tokens_of(table)
    with client.websocket_connect(f"/ws/tables/{tid}?extras=chat") as spectator:
        view = spectator.receive_json()
        assert view["you"] is None
        first = spectator.receive_json()
        assert first["chat"] == []
        assert first["chat_options"] == {"spectators": False, "record": False, "max_chars": 500}
        reply = client.post(
            f"/api/tables/{tid}/chat", json={"text": "hello Bo"}, headers=auth(tokens[0])
        )
        assert reply.status_code == 201, reply.text
        said = reply.json()
        assert set(said) == LINE_KEYS
        assert (said["seq"], said["seat"], said["name"], said["text"]) == (1, 0, "Ann", "hello Bo")
        assert said["system"] is False
        heard = spectator.receive_json()
        assert heard == {"chat": [said]}
    # ?token= works as for moves; a poller reads after a seq.
    reply = client.post(f"/api/tables/{tid}/chat?token={tokens[1]}", json={"text": "hi Ann"})
    assert reply.status_code == 201
    polled = client.get(f"/api/tables/{tid}/chat", params={"after": 1}).json()
    assert [(line["seq"], line["name"], line["text"]) for line in polled["chat"]] == [
        (2, "Bo", "hi Ann")
    ]
    assert len(client.get(f"/api/tables/{tid}/chat").json()["chat"]) == 2
    # A new socket gets the recent lines at once.
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}&extras=chat") as seat:
        assert seat.receive_json()["you"] == 1
        assert [line["seq"] for line in seat.receive_json()["chat"]] == [1, 2]


def test_a_socket_that_does_not_ask_gets_views_only(sqlite_client: Any) -> None:
    client = sqlite_client
    table = create(client, "rocket-ranchers", ["human", "human", "random"])
    tid, tokens = table["id"], tokens_of(table)
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws:
        assert "step" in ws.receive_json()
        client.post(f"/api/tables/{tid}/chat", json={"text": "quiet"}, headers=auth(tokens[1]))
        seat = 0 if client.get(f"/api/tables/{tid}").json()["to_act"] == [0] else 1
        view = client.get(f"/api/tables/{tid}", headers=auth(tokens[seat])).json()
        if view["legal_actions"]:
            client.post(
                f"/api/tables/{tid}/actions",
                json={"action": view["legal_actions"][0], "step": view["step"]},
                headers=auth(tokens[seat]),
            )
            assert "step" in ws.receive_json()  # the next frame is a view, not the chat


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("<b>bold</b> & <script>alert(1)</script>", "<b>bold</b> & <script>alert(1)</script>"),
        ("  two\nlines\tand a tab  ", "two lines and a tab"),
        ("bell\x07 escape\x1b[31m null\x00", "bell escape[31m null"),
        ("right\u202eto-left", "rightto-left"),
        ("émoji 🐄 and 中文", "émoji 🐄 and 中文"),
    ],
)
def test_text_is_kept_as_text_without_control_characters(
    sqlite_client: Any, text: str, kept: str
) -> None:
    table = create(sqlite_client, "rocket-ranchers", ["human", "random", "random"])
    reply = sqlite_client.post(
        f"/api/tables/{table['id']}/chat", json={"text": text}, headers=auth(tokens_of(table)[0])
    )
    assert reply.status_code == 201, reply.text
    assert reply.json()["text"] == kept
    assert sqlite_client.get(f"/api/tables/{table['id']}/chat").json()["chat"][-1]["text"] == kept


def test_empty_and_long_lines_are_refused_with_422(sqlite_url: str) -> None:
    with client_for(sqlite_url, chat_max_chars=20) as client:
        table = create(client, "rocket-ranchers", ["human", "random", "random"])
        url, headers = f"/api/tables/{table['id']}/chat", auth(tokens_of(table)[0])
        for empty in ("", "   ", "\x00\x01\n"):
            reply = client.post(url, json={"text": empty}, headers=headers)
            assert reply.status_code == 422, reply.text
            assert "needs some text" in reply.json()["error"]
        reply = client.post(url, json={"text": "x" * 21}, headers=headers)
        assert reply.status_code == 422
        assert "at most 20 characters" in reply.json()["error"]
        assert client.post(url, json={"text": "x" * 20}, headers=headers).status_code == 201
        for body in ({"text": 5}, {"text": "a", "seat": 1}, {}):
            assert client.post(url, json=body, headers=headers).status_code == 400
        assert client.post(url, json={"text": "a"}, headers=auth("nope")).status_code == 403
        assert client.post("/api/tables/nope/chat", json={"text": "a"}).status_code == 404


def test_a_tables_chat_holds_a_bounded_number_of_lines(sqlite_url: str) -> None:
    with client_for(sqlite_url, chat_max_lines=3) as client:
        table = create(client, "rocket-ranchers", ["human", "random", "random"])
        url, headers = f"/api/tables/{table['id']}/chat", auth(tokens_of(table)[0])
        for i in range(3):
            assert client.post(url, json={"text": f"{i}"}, headers=headers).status_code == 201
        reply = client.post(url, json={"text": "one more"}, headers=headers)
        assert reply.status_code == 409
        assert "full" in reply.json()["error"]


def _limits(**rates: str) -> LimitSettings:
    off = {name: "off" for name in RATE_NAMES}
    return LimitSettings().with_overrides(f"{k}={v}" for k, v in {**off, **rates}.items())


def test_a_seat_is_rate_limited_with_429(sqlite_url: str) -> None:
    with client_for(sqlite_url, limits=_limits(chat_seat="3/min:3")) as client:
        table = create(client, "rocket-ranchers", ["human", "human", "random"])
        tid, tokens = table["id"], tokens_of(table)
        url = f"/api/tables/{tid}/chat"
        for i in range(3):
            assert (
                client.post(url, json={"text": f"{i}"}, headers=auth(tokens[0])).status_code == 201
            )
        refused = client.post(url, json={"text": "again"}, headers=auth(tokens[0]))
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) >= 1
        assert "this seat" in refused.json()["error"]
        # Another seat has its own budget.
        assert client.post(url, json={"text": "me"}, headers=auth(tokens[1])).status_code == 201
        assert len(client.get(url).json()["chat"]) == 4


def test_a_client_is_rate_limited_with_429(sqlite_url: str) -> None:
    with client_for(sqlite_url, limits=_limits(chat="2/min:2")) as client:
        table = create(client, "rocket-ranchers", ["human", "human", "random"])
        tid, tokens = table["id"], tokens_of(table)
        url = f"/api/tables/{tid}/chat"
        assert client.post(url, json={"text": "a"}, headers=auth(tokens[0])).status_code == 201
        assert client.post(url, json={"text": "b"}, headers=auth(tokens[1])).status_code == 201
        refused = client.post(url, json={"text": "c"}, headers=auth(tokens[0]))
        assert refused.status_code == 429
        assert "Retry-After" in refused.headers


def test_spectators_read_but_write_only_where_the_table_allows(sqlite_client: Any) -> None:
    client = sqlite_client
    closed = create(client, "rocket-ranchers", ["human", "random", "random"])
    url = f"/api/tables/{closed['id']}/chat"
    client.post(url, json={"text": "players only"}, headers=auth(tokens_of(closed)[0]))
    assert client.get(url).json()["chat"][0]["text"] == "players only"
    refused = client.post(url, json={"text": "may I?"})
    assert refused.status_code == 403
    assert "spectators may read" in refused.json()["error"]
    with client.websocket_connect(f"/ws/tables/{closed['id']}?extras=chat") as spectator:
        spectator.receive_json()
        assert spectator.receive_json()["chat"][0]["text"] == "players only"

    open_ = create(client, "rocket-ranchers", ["human", "random", "random"], chat_spectators=True)
    url = f"/api/tables/{open_['id']}/chat"
    said = client.post(url, json={"text": "from the rail"})
    assert said.status_code == 201, said.text
    assert (said.json()["seat"], said.json()["name"]) == (None, "spectator")
    assert client.get(url).json()["chat_options"]["spectators"] is True


def test_the_chat_joins_the_record_only_if_the_table_says_so(sqlite_client: Any) -> None:
    client = sqlite_client
    rng = random.Random(3)
    for in_record in (True, False):
        table = create(
            client, "rocket-ranchers", ["human", "random", "random"], chat_in_record=in_record
        )
        tid, token = table["id"], tokens_of(table)[0]
        client.post(f"/api/tables/{tid}/chat", json={"text": "gl hf"}, headers=auth(token))
        play_out(client, table, rng)
        record = client.get(f"/api/tables/{tid}/record").json()
        if in_record:
            assert [(c["seat"], c["text"]) for c in record["chat"]] == [(0, "gl hf")]
            assert set(record["chat"][0]) == LINE_KEYS
        else:
            assert "chat" not in record
        loaded = Record.from_json(record)  # a record with a chat loads, as old ones do
        assert loaded.steps and loaded.seed == record["seed"]
        without = {k: v for k, v in record.items() if k != "chat"}
        assert Record.from_json(without).to_json() == loaded.to_json()


def test_chat_and_presence_frames_carry_no_token(sqlite_client: Any) -> None:
    client = sqlite_client
    table = create(client, "rocket-ranchers", ["human", "human", "random"], chat_spectators=True)
    tid, tokens = table["id"], tokens_of(table)
    texts: list[str] = []
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}&extras=chat,presence") as ws:
        texts.append(ws.receive_text())  # the view
        frames = [json.loads(ws.receive_text()) for _ in range(2)]  # presence, recent chat
        client.post(f"/api/tables/{tid}/chat", json={"text": "x"}, headers=auth(tokens[1]))
        client.post(f"/api/tables/{tid}/chat", json={"text": "y"})
        while len(chat_lines(frames)) < 2:
            frames.append(json.loads(ws.receive_text()))
        texts += [json.dumps(f) for f in frames]
    texts.append(client.get(f"/api/tables/{tid}/chat").text)
    texts.append(client.get(f"/api/tables/{tid}/presence").text)
    for text in texts:
        for token in tokens.values():
            assert token not in text
        assert "token" not in text and "seed" not in text
    presence = next(f for f in frames if "presence" in f)
    assert set(presence) == {"presence", "hand_over_bot", "hand_over_after"}
    for entry in presence["presence"]:
        assert set(entry) == {"seat", "state", "since", "hand_over"}
    for line in chat_lines(frames):
        assert set(line) == LINE_KEYS


def test_the_mailbox_keeps_every_chat_line_and_the_newest_presence() -> None:
    async def run() -> None:
        box = Mailbox()
        box.put_feed("chat", [{"seq": 1}], whole=False)
        box.put_feed("chat", [{"seq": 2}, {"seq": 3}], whole=False)
        box.put_feed("presence", [{"seat": 0, "state": "online"}], whole=True)
        box.put_feed("presence", [{"seat": 0, "state": "away"}], whole=True, hand_over_bot="g")
        box.put_error("an error keeps its place")
        box.put_feed("chat", [{"seq": 4}], whole=False)
        frames = [await box.get() for _ in range(len(box))]
        assert [f.feed for f in frames] == [
            {"chat": [{"seq": 1}, {"seq": 2}, {"seq": 3}]},
            {"presence": [{"seat": 0, "state": "away"}], "hand_over_bot": "g"},
            None,
            {"chat": [{"seq": 4}]},
        ]
        assert FEED_BACKLOG > 8

    # In a thread of its own: a browser test run before may hold this thread's loop.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


def test_a_line_said_through_one_process_reaches_sockets_on_another(
    pg_url: str, tmp_path: Path
) -> None:
    settings: dict[str, Any] = {
        "limits": {name: "off" for name in RATE_NAMES},
        "presence_heartbeat": 0.5,
    }
    with (
        Server(pg_url, tmp_path, name="first", settings=settings) as first,
        Server(pg_url, tmp_path, name="second", settings=settings) as second,
        http_client() as client,
    ):
        table = create_table(
            client,
            first.base,
            {"game": "rocket-ranchers", "seats": ["human", "human", "random"]},
        )
        tid, tokens = table["id"], human_tokens(table)
        watch = f"{second.ws_base}/ws/tables/{tid}?extras=chat,presence"
        with ws_connect(watch) as spectator:
            frames_until(spectator, lambda f: "chat" in f)
            started = time.monotonic()
            reply = client.post(
                f"{first.base}/api/tables/{tid}/chat",
                json={"text": "across"},
                headers=auth(tokens[0]),
            )
            assert reply.status_code == 201, reply.text
            got = frames_until(
                spectator, lambda f: any(c["text"] == "across" for c in f.get("chat", []))
            )
            assert time.monotonic() - started < 2.0
            assert chat_lines(got)[-1]["name"] == reply.json()["name"]
            # Presence too: seat 1 opens a socket on the first process...
            with ws_connect(f"{first.ws_base}/ws/tables/{tid}?token={tokens[1]}"):
                frames_until(
                    spectator,
                    lambda f: "presence" in f and f["presence"][1]["state"] == "online",
                )
            # ...and closes it.
            frames_until(
                spectator, lambda f: "presence" in f and f["presence"][1]["state"] == "offline"
            )
