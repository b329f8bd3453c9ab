"""The HTTP and WebSocket contract of docs/server.md, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app as cli
from ranchhand.core.records import Record, replay
from tests.server.conftest import client_for
from tests.server.helpers import GAMES, auth, create, play_out, tokens_of

VIEW_KEYS = {
    "id", "game", "players", "status", "step", "turn", "to_act", "you",
    "observation", "legal_actions", "log", "outcome",
}  # fmt: skip


def test_health_and_openapi(client: Any) -> None:
    assert client.get("/api/health").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/actions"):
        assert path in paths
    assert "requestBody" in paths["/api/tables"]["post"]


def test_create_returns_a_token_and_page_per_human_seat(client: Any) -> None:
    created = create(client, "rancho", ["human", "greedy", "human"])
    assert set(created) >= {"id", "seats", "spectate"}
    seats = created["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert [s["kind"] for s in seats] == ["human", "greedy", "human"]
    assert seats[1]["token"] is None and seats[1]["url"] is None
    for seat in (seats[0], seats[2]):
        assert len(seat["token"]) >= 32  # 192 bits in URL-safe base64
        assert seat["url"].endswith(f"/tables/{created['id']}#token={seat['token']}")
    assert created["spectate"].endswith(f"/tables/{created['id']}")
    page = client.get(f"/tables/{created['id']}")
    assert page.status_code == 200 and "WebSocket" in page.text


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "rancho", "players": 9}, "9 players"),
        ({"game": "rancho", "options": {"dice": "loaded"}}, "dice"),
        ({"game": "rancho", "seats": ["human", "wizard"]}, "no bot 'wizard'"),
        ({"game": "rancho", "players": 3, "seats": ["human"]}, "needs 3 seats"),
        ({"game": "rancho", "options": {"board": "/etc/passwd"}}, "board"),
        ({"game": "rancho", "players": "3"}, "players"),
        ({"game": "rancho", "surprise": 1}, "surprise"),
    ],
)
def test_bad_tables_are_refused_with_the_library_message(
    sqlite_client: Any, body: dict[str, Any], message: str
) -> None:
    reply = sqlite_client.post("/api/tables", json=body)
    assert reply.status_code == 400
    assert message in reply.json()["error"]


def test_views_lobby_moves_and_refusals(client: Any) -> None:
    created = create(client, "rocket-ranchers", ["human", "human"], players=2)
    table, tokens = created["id"], tokens_of(created)
    spectator = client.get(f"/api/tables/{table}").json()
    assert set(spectator) >= VIEW_KEYS
    assert spectator["you"] is None and spectator["legal_actions"] == []
    assert spectator["status"] == "playing"
    lobby = client.get("/api/tables").json()["tables"]
    listed = next(t for t in lobby if t["id"] == table)
    assert "seed" not in json.dumps(listed) and tokens[0] not in json.dumps(lobby)
    assert client.get("/api/tables?status=finished").status_code == 200

    mover = spectator["to_act"][0]
    other = 1 - mover
    view = client.get(f"/api/tables/{table}?token={tokens[mover]}").json()
    assert view["you"] == mover and view["legal_actions"]
    waiting = client.get(f"/api/tables/{table}", headers=auth(tokens[other])).json()
    assert waiting["legal_actions"] == []

    def post(seat: int, action: str, step: int | None) -> Any:
        body: dict[str, Any] = {"action": action}
        if step is not None:
            body["step"] = step
        return client.post(f"/api/tables/{table}/actions", json=body, headers=auth(tokens[seat]))

    step = view["step"]
    assert post(other, waiting_action(view), step).status_code == 409  # not your turn
    bad = post(mover, "fly to the moon", step)
    assert bad.status_code == 400 and "fly to the moon" in bad.json()["error"]
    assert post(mover, view["legal_actions"][0], step + 5).status_code == 409  # stale
    no_token = client.post(f"/api/tables/{table}/actions", json={"action": "x", "step": step})
    assert no_token.status_code == 401
    assert client.get(f"/api/tables/{table}").json()["step"] == step  # all refused: unchanged

    moved = post(mover, view["legal_actions"][0], step)
    assert moved.status_code == 200
    after = moved.json()
    assert after["step"] > step and after["you"] == mover
    stale = post(mover, view["legal_actions"][0], step)
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    assert client.get(f"/api/tables/{table}/record").status_code == 409
    assert client.get("/api/tables/nosuchtable").status_code == 404
    assert client.get("/api/tables/nosuchtable/record").status_code == 404


def waiting_action(view: dict[str, Any]) -> str:
    return view["legal_actions"][0]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_plays_to_the_end_and_its_record_replays(
    client: Any, game: str, tmp_path: Path
) -> None:
    seats = ["human", "greedy", "random"]
    created = create(client, game, seats)
    last = play_out(client, created, random.Random(game))
    table = created["id"]
    assert last["status"] == "finished" and last["outcome"] is not None
    record_json = client.get(f"/api/tables/{table}/record").json()
    record = Record.from_json(record_json)
    assert record.seats == seats and record.seed is not None
    final = replay(record)
    assert final.outcome() is not None and final.outcome().to_json() == last["outcome"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_json))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    token = tokens_of(created)[0]
    over = client.post(
        f"/api/tables/{table}/actions",
        json={"action": "roll", "step": last["step"]},
        headers=auth(token),
    )
    assert over.status_code == 409 and "over" in over.json()["error"]


def test_websocket_views_and_moves(client: Any) -> None:
    created = create(client, "rocket-ranchers", ["human", "human"], players=2)
    table, tokens = created["id"], tokens_of(created)
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as zero,
        client.websocket_connect(f"/ws/tables/{table}?token={tokens[1]}") as one,
        client.websocket_connect(f"/ws/tables/{table}") as watcher,
    ):
        views = {0: zero.receive_json(), 1: one.receive_json()}
        start = watcher.receive_json()
        assert start["you"] is None
        mover = start["to_act"][0]
        sockets = {0: zero, 1: one}
        sockets[mover].send_json({"action": "this is no move", "step": start["step"]})
        assert "error" in sockets[mover].receive_json()
        stale = {"action": views[mover]["legal_actions"][0], "step": start["step"] + 3}
        sockets[mover].send_json(stale)
        assert "stale" in sockets[mover].receive_json()["error"]
        sockets[mover].send_json(
            {"action": views[mover]["legal_actions"][0], "step": start["step"]}
        )
        new = sockets[mover].receive_json()
        assert new["step"] > start["step"] and new["you"] == mover
        assert sockets[1 - mover].receive_json()["step"] == new["step"]
        assert watcher.receive_json()["step"] == new["step"]
        watcher.send_json({"action": "x", "step": new["step"]})
        assert "spectator" in watcher.receive_json()["error"]


def test_a_seat_handed_to_a_bot_plays_and_can_be_taken_back(client: Any) -> None:
    created = create(client, "rocket-ranchers", ["human", "human"], players=2)
    table, tokens = created["id"], tokens_of(created)
    with client.websocket_connect(f"/ws/tables/{table}") as watcher:
        start = watcher.receive_json()
        mover = start["to_act"][0]
        reply = client.put(
            f"/api/tables/{table}/seats/{mover}",
            json={"kind": "greedy"},
            headers=auth(tokens[mover]),
        )
        assert reply.status_code == 200
        assert reply.json()["seats"][mover]["kind"] == "greedy"
        wrong = client.put(
            f"/api/tables/{table}/seats/{mover}",
            json={"kind": "human"},
            headers=auth(tokens[1 - mover]),
        )
        assert wrong.status_code == 403
        deadline = time.time() + 10
        seen = start
        while seen["step"] == start["step"] and time.time() < deadline:
            seen = watcher.receive_json()
        assert seen["step"] > start["step"]  # the bot moved for the seat
    back = client.put(
        f"/api/tables/{table}/seats/{mover}", json={"kind": "human"}, headers=auth(tokens[mover])
    )
    assert back.status_code == 200 and back.json()["seats"][mover]["kind"] == "human"


def test_bot_delay_and_turn_clock(sqlite_client: Any) -> None:
    client = sqlite_client
    created = create(
        client, "rocket-ranchers", ["human", "greedy"], players=2, bot_delay=0.2, clock=1
    )
    table, token = created["id"], tokens_of(created)[0]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        first = socket.receive_json()
        assert first["clock"]["seconds"] == 1
        began = time.time()
        steps = {first["step"]}
        while len(steps) < 4 and time.time() - began < 15:
            steps.add(socket.receive_json()["step"])
        assert len(steps) >= 4  # the clock moved for the silent human, the bot after its delay
    lines = client.get(f"/api/tables/{table}", headers=auth(token)).json()["log"]
    # The clock's moves for the silent human, told as such (see tests/server/test_clock.py).
    timed_out = "human ran out of time: greedy played for them: P0 human: "
    assert any(line.startswith(timed_out) for line in lines)


def test_tables_survive_a_restart(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        created = create(client, "rancho", ["human", "human"], players=2)
        table, tokens = created["id"], tokens_of(created)
        view = client.get(f"/api/tables/{table}", headers=auth(tokens[0])).json()
        moved = client.post(
            f"/api/tables/{table}/actions",
            json={"action": view["legal_actions"][0], "step": view["step"]},
            headers=auth(tokens[0]),
        ).json()
    with client_for(sqlite_url) as client:
        again = client.get(f"/api/tables/{table}", headers=auth(tokens[0])).json()
        assert again == moved
