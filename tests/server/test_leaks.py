"""Every view a seat or a spectator is sent holds what that viewer's own observation
gives, and nothing of another seat's secrets, any token or the seed."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ranchhand.core.records import Record, replay
from tests.server.helpers import (
    GAMES,
    auth,
    create,
    expected_views,
    play_out,
    tokens_of,
)

SEATS = {
    "rancho": ["human", "random", "human"],
    "rocket-ranchers": ["human", "greedy", "human"],
    "glory-ranch": ["human", "human", "random"],
}


def drain(socket: Any) -> list[dict[str, Any]]:
    """Every frame up to the finished game's view."""
    frames = []
    while True:
        frame = socket.receive_json()
        frames.append(frame)
        if frame.get("status") == "finished":
            return frames


@pytest.mark.parametrize("game", list(GAMES))
def test_views_hold_only_what_the_viewer_may_see(sqlite_client: Any, game: str) -> None:
    client = sqlite_client
    created = create(client, game, SEATS[game])
    tokens = tokens_of(created)
    table = created["id"]
    views: list[tuple[int | None, dict[str, Any]]] = []
    seat = min(tokens)
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={tokens[seat]}") as mine,
        client.websocket_connect(f"/ws/tables/{table}") as watcher,
    ):
        play_out(client, created, random.Random(f"leaks {game}"), views)
        views += [(seat, frame) for frame in drain(mine)]
        views += [(None, frame) for frame in drain(watcher)]
    reply = client.get(f"/api/tables/{table}/record")
    assert reply.status_code == 200
    record = Record.from_json(reply.json())
    replay(record)
    names = [s["name"] for s in created["seats"]]
    expected = expected_views(record, names)
    secret_texts = [*tokens.values(), str(record.seed)]
    for viewer, view in views:
        check(view, viewer, expected[view["step"]][viewer], secret_texts)
    assert len({v["step"] for _, v in views}) > 5


def check(
    view: dict[str, Any], viewer: int | None, wanted: dict[str, Any], secret_texts: list[str]
) -> None:
    step = view["step"]
    assert view["you"] == viewer
    assert view["observation"] == wanted["observation"], f"step {step}, viewer {viewer}"
    assert view["log"] == wanted["log"], f"step {step}, viewer {viewer}"
    assert view["legal_actions"] == wanted["legal_actions"], f"step {step}, viewer {viewer}"
    assert view["to_act"] == wanted["to_act"]
    assert view["turn"] == wanted["turn"]
    if viewer is None or viewer not in view["to_act"]:
        assert view["legal_actions"] == []
    text = json.dumps({k: v for k, v in view.items() if k != "id"})
    for secret in secret_texts:
        assert secret not in text, f"step {step}: a token or the seed reached viewer {viewer}"
    shown = json.dumps(wanted["observation"]) + "\n".join(wanted["log"])
    for secret in wanted["secrets"]:
        if secret not in shown:
            assert secret not in text, f"step {step}: {secret!r} reached viewer {viewer}"


def test_a_seat_token_opens_nothing_at_another_table(sqlite_client: Any) -> None:
    client = sqlite_client
    first = create(client, "rocket-ranchers", ["human", "human"], players=2)
    second = create(client, "rocket-ranchers", ["human", "human"], players=2)
    token = tokens_of(first)[0]
    reply = client.get(f"/api/tables/{second['id']}", headers=auth(token))
    assert reply.status_code == 403
    assert "error" in reply.json()
    view = client.get(f"/api/tables/{second['id']}").json()
    reply = client.post(
        f"/api/tables/{second['id']}/actions",
        json={"action": "x", "step": view["step"]},
        headers=auth(token),
    )
    assert reply.status_code == 403
    assert client.get(f"/api/tables/{second['id']}").json()["step"] == view["step"]
