"""``?extras=log-tail``: views over a WebSocket carry only the log lines (and words) the
socket was not sent yet; putting back the lines before ``log_from`` gives exactly the
view's whole log, for a seat and for a spectator, whole games long (folded lines, ``x2``
becoming ``x3``, included), and a socket without it gets whole views as before."""

from __future__ import annotations

import random
from typing import Any

from ranchhand.server.ws import Connection
from tests.server.helpers import auth, create, tokens_of


def whole(view: dict[str, Any], kept: dict[str, list[str]]) -> dict[str, Any]:
    """``view`` with its log and words made whole again from ``kept`` (updated)."""
    for key in ("log", "words"):
        start = view.pop(f"{key}_from")
        assert 0 <= start <= len(kept.get(key, []))
        kept[key] = view[key] = kept.get(key, [])[:start] + view[key]
    return view


def test_views_carry_only_new_lines_and_add_up_to_the_whole_log(client: Any) -> None:
    created = create(client, "rancho", ["human", "human"], players=2)
    table, tokens = created["id"], tokens_of(created)
    rng = random.Random(3)
    kept: dict[int | None, dict[str, list[str]]] = {0: {}, 1: {}, None: {}}
    short = 0
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}&extras=log-tail") as a,
        client.websocket_connect(f"/ws/tables/{table}?token={tokens[1]}&extras=log-tail") as b,
        client.websocket_connect(f"/ws/tables/{table}?extras=log-tail") as watcher,
        client.websocket_connect(f"/ws/tables/{table}") as plain,
    ):
        sockets = {0: a, 1: b, None: watcher}
        views = {seat: whole(s.receive_json(), kept[seat]) for seat, s in sockets.items()}
        plain.receive_json()
        for _ in range(60):
            if views[0]["status"] != "playing":
                break
            mover = views[0]["to_act"][0]
            legal = views[mover]["legal_actions"]
            sockets[mover].send_json({"action": rng.choice(legal), "step": views[mover]["step"]})
            for seat, socket in sockets.items():
                sent = socket.receive_json()
                short += len(sent["log"]) < sent["log_from"] + len(sent["log"])
                views[seat] = whole(sent, kept[seat])
                full = client.get(
                    f"/api/tables/{table}", headers=auth(tokens[seat]) if seat is not None else {}
                ).json()
                assert full["step"] == views[seat]["step"]
                assert views[seat]["log"] == full["log"] and views[seat]["words"] == full["words"]
            assert plain.receive_json()["log"] == views[None]["log"]  # whole views as before
    assert short > 0  # views were cut, not whole logs sent each time


def test_a_folded_last_line_is_sent_again_and_a_shorter_log_whole() -> None:
    connection = Connection(None, "t", 0)  # type: ignore[arg-type]  # no socket is used

    def sent(log: list[str]) -> dict[str, Any]:
        view: dict[str, Any] = {"log": list(log), "words": [line.upper() for line in log]}
        connection.tails(view)
        return view

    assert sent(["a", "b"]) == {
        "log": ["a", "b"],
        "log_from": 0,
        "words": ["A", "B"],
        "words_from": 0,
    }
    assert sent(["a", "b", "c"])["log"] == ["c"]
    again = sent(["a", "b", "c x2", "d"])  # the last line sent changed in place
    assert again["log_from"] == 2 and again["log"] == ["c x2", "d"]
    assert sent(["a", "b", "c x2", "d"])["log"] == []  # nothing new
    assert sent(["z"])["log_from"] == 0  # a log that is not a continuation goes whole
