"""Hostile input gets a clear 4xx or close code, never a 500 or a traceback, and the
server goes on serving other tables."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import auth, create, tokens_of

JSON = {"Content-Type": "application/json"}


def refused(reply: Any, status: int) -> str:
    assert reply.status_code == status, (reply.status_code, reply.text)
    assert "Traceback" not in reply.text
    message: str = reply.json()["error"]
    assert message
    return message


@pytest.fixture
def table(sqlite_client: Any) -> dict[str, Any]:
    return create(sqlite_client, "rancho", ["human", "human"], players=2)


def test_malformed_bodies(sqlite_client: Any, table: dict[str, Any]) -> None:
    client = sqlite_client
    url = f"/api/tables/{table['id']}/actions"
    headers = {**auth(tokens_of(table)[0]), **JSON}
    for raw in (b"{", b"[]", b'"roll"', b"null", b"\xff\xfe", b"", b'{"action": "roll"' * 3):
        refused(client.post(url, content=raw, headers=headers), 400)
    for body in (
        {"action": 5},
        {"action": ["roll"]},
        {"action": "roll", "step": "0"},
        {"action": "roll", "step": 1.5},
        {"action": "roll", "step": -1},
        {"action": "roll", "step": True},
        {"action": "roll", "extra": 1},
        {"step": 0},
    ):
        refused(client.post(url, json=body, headers=headers), 400)
    refused(client.post("/api/tables", content=b"{nope", headers=JSON), 400)
    refused(client.post("/api/tables", json={"game": 5}), 400)
    refused(client.post("/api/tables", json={"game": "rancho", "options": {"x": [1]}}), 400)
    refused(client.post("/api/tables", json={"game": "rancho", "names": ["\x1b[2J", "b"]}), 400)
    refused(client.get("/api/tables?status=lost"), 400)
    refused(client.get("/no/such/page"), 404)
    refused(client.delete("/api/tables"), 405)


def test_huge_bodies_are_refused_with_413(sqlite_client: Any, table: dict[str, Any]) -> None:
    client = sqlite_client
    huge = json.dumps({"action": "x" * 70_000, "step": 0})
    url = f"/api/tables/{table['id']}/actions"
    refused(client.post(url, content=huge, headers=auth(tokens_of(table)[0])), 413)
    refused(client.post("/api/tables", content=huge), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        for _ in range(20):
            yield b" " * 8192

    refused(client.post("/api/tables", content=chunks(), headers=JSON), 413)
    long_action = client.post(
        url, json={"action": "roll " * 1000, "step": 0}, headers=auth(tokens_of(table)[0])
    )
    assert "at most 200 characters" in refused(long_action, 400)


def test_wrong_tokens(sqlite_client: Any, table: dict[str, Any]) -> None:
    client = sqlite_client
    url = f"/api/tables/{table['id']}"
    for headers in (
        {"Authorization": "Bearer not-a-token"},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer " + "x" * 5000},
        {"Authorization": "Bearer " + tokens_of(table)[0][:-1]},
    ):
        refused(client.get(url, headers=headers), 403)
        refused(client.post(f"{url}/actions", json={"action": "roll"}, headers=headers), 403)
    refused(client.get(f"{url}?token=wrong"), 403)
    refused(client.post(f"{url}/actions", json={"action": "roll"}), 401)
    refused(client.put(f"{url}/seats/0", json={"kind": "greedy"}), 401)
    refused(client.put(f"{url}/seats/1", json={"kind": "greedy"},
                       headers=auth(tokens_of(table)[0])), 403)  # fmt: skip
    refused(client.put(f"{url}/seats/0", json={"kind": "wizard"},
                       headers=auth(tokens_of(table)[0])), 400)  # fmt: skip
    refused(client.get("/api/tables/" + "x" * 300), 404)


def test_hostile_frames(sqlite_client: Any, table: dict[str, Any]) -> None:
    client = sqlite_client
    token = tokens_of(table)[0]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as socket:
        start = socket.receive_json()
        for frame in ("{", "[]", '"roll"', '{"action": 3}', '{"action": "roll", "step": "1"}',
                      '{"action": "roll", "other": 1}', "x" * 20_000):  # fmt: skip
            socket.send_text(frame)
            reply = socket.receive_json()
            assert "error" in reply and "Traceback" not in reply["error"]
        socket.send_bytes(b"\xff\x00" * 10)
        assert "error" in socket.receive_json()
        socket.send_bytes(b"{" * 20_000)
        assert "error" in socket.receive_json()
        socket.send_text(json.dumps({"action": "roll", "step": start["step"]}))
        assert socket.receive_json()["step"] > start["step"]  # still serving this socket
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/ws/tables/nosuchtable") as socket,
    ):
        assert "error" in socket.receive_json()
        socket.receive_json()
    assert closed.value.code == 4404
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/tables/{table['id']}?token=wrong") as socket,
    ):
        assert "error" in socket.receive_json()
        socket.receive_json()
    assert closed.value.code == 4403


def test_a_flood_of_requests_leaves_other_tables_served(
    sqlite_client: Any, table: dict[str, Any]
) -> None:
    client = sqlite_client
    other = create(client, "rocket-ranchers", ["human", "greedy"], players=2)
    url = f"/api/tables/{table['id']}"
    token = tokens_of(table)[1]
    for i in range(300):
        kind = i % 4
        if kind == 0:
            reply = client.get(url)
        elif kind == 1:
            reply = client.post(f"{url}/actions", json={"action": "roll"}, headers=auth(token))
        elif kind == 2:
            reply = client.post(f"{url}/actions", content=b"{{{", headers={**auth(token), **JSON})
        else:
            reply = client.get(f"{url}?token=flood{i}")
        assert reply.status_code in (200, 400, 403, 409, 429), reply.text  # 429: rate limits
        assert "Traceback" not in reply.text
    someone_else = TestClient(client.app, client=("192.0.2.7", 50000))
    view = someone_else.get(f"/api/tables/{other['id']}", headers=auth(tokens_of(other)[0]))
    assert view.status_code == 200 and view.json()["status"] == "playing"
    assert someone_else.get("/api/health").status_code == 200
