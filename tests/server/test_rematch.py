"""Play again: each person gets their own new seat, and only with their own old token.

A stranger who claimed an open seat, or any seated player, who starts a rematch gets
their own seat and nothing else; the creator's seat waits for the creator. Then an
audit of every endpoint: after a table's creation, no response carries a token of a
seat other than the caller's (SQLite and PostgreSQL).
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any

from sqlalchemy import update

from ranchhand.server import store
from ranchhand.server.rematch import derived_token
from tests.server.helpers import auth, play_out, tokens_of

SHORT = {"max_turns": 3}
"""Rancho cut after three turns: a finished table in a few dozen moves."""


def finished_table(client: Any, seats: list[str], **extra: Any) -> dict[str, Any]:
    """A Rancho table played to its end by random moves; ``seats`` as created."""
    body = {"game": "rancho", "seats": seats, "options": SHORT, "names": ["Ann", "Bo", "Cy"]}
    reply = client.post("/api/tables", json={**body, **extra})
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def claim(client: Any, table: str, seat: int) -> str:
    reply = client.post(f"/api/tables/{table}/seats/{seat}/claim", json={"name": "Stranger"})
    assert reply.status_code == 200, reply.text
    token: str = reply.json()["token"]
    return token


def play(client: Any, created: dict[str, Any], tokens: dict[int, str]) -> None:
    play_out(client, {**created, "seats": _seats(created, tokens)}, random.Random(1))


def _seats(created: dict[str, Any], tokens: dict[int, str]) -> list[dict[str, Any]]:
    return [{**s, "token": tokens.get(s["seat"])} for s in created["seats"]]


def test_a_stranger_who_starts_a_rematch_gets_only_their_own_seat(client: Any) -> None:
    created = finished_table(client, ["human", "human", "greedy"], open=[1])
    table = created["id"]
    ann = tokens_of(created)[0]
    stranger = claim(client, table, 1)
    play(client, created, {0: ann, 1: stranger})

    made = client.post(f"/api/tables/{table}/again", headers=auth(stranger))
    assert made.status_code == 201, made.text
    reply = made.json()
    assert reply["seat"] == 1 and reply["token"] and reply["url"].endswith(reply["token"])
    assert ann not in made.text
    assert [s.get("token") for s in reply["seats"]] == [None, None, None]
    assert [s["yours"] for s in reply["seats"]] == [False, True, False]
    rematch = reply["id"]
    # The creator's new seat waits for the creator: no token can open it yet, and the
    # stranger's own token opens only seat 1.
    mine = client.get(f"/api/tables/{rematch}", headers=auth(reply["token"])).json()
    assert mine["you"] == 1
    # Asking again gives the same seat and token, and still nobody else's.
    second = client.post(f"/api/tables/{table}/again", headers=auth(stranger))
    assert second.status_code == 201
    assert second.json()["id"] == rematch and second.json()["token"] == reply["token"]

    # The creator gets their seat with their own old token, by GET or POST.
    hers = client.get(f"/api/tables/{table}/again", headers=auth(ann)).json()
    assert hers["id"] == rematch and hers["seat"] == 0 and hers["token"]
    assert hers["token"] == derived_token(ann, rematch, 0)
    assert stranger not in json.dumps(hers) and reply["token"] not in json.dumps(hers)
    assert client.get(f"/api/tables/{rematch}", headers=auth(hers["token"])).json()["you"] == 0
    again = client.post(f"/api/tables/{table}/again", headers=auth(ann)).json()
    assert again["token"] == hers["token"]

    # A spectator learns where the rematch is, and no token.
    watcher = client.get(f"/api/tables/{table}/again")
    assert watcher.status_code == 200
    assert watcher.json()["token"] is None and watcher.json()["url"] is None


def test_open_seats_nobody_claimed_are_open_again_and_bots_stay_bots(client: Any) -> None:
    created = finished_table(client, ["human", "human", "random"])
    tokens = tokens_of(created)
    play(client, created, tokens)
    # A game cannot end while an open seat waits for someone to sit down, so the
    # finished table's seat 1 is made open and unclaimed in the database.
    service = client.app.state.service
    seats = store.seats.c
    with service.engine.begin() as db:
        db.execute(
            update(store.seats)
            .where(seats.table_id == created["id"], seats.seat == 1)
            .values(open=True, token_hash=None)
        )
    service.forget(created["id"])
    made = client.post(f"/api/tables/{created['id']}/again", headers=auth(tokens[0])).json()
    assert [s["kind"] for s in made["seats"]] == ["human", "human", "random"]
    assert [s["open"] for s in made["seats"]] == [False, True, False]
    assert made["seat"] == 0 and made["token"]
    # Seat 1's old token opens nothing now; anyone may claim the seat at the rematch.
    old = client.get(f"/api/tables/{created['id']}/again", headers=auth(tokens[1]))
    assert old.status_code == 403
    assert claim(client, made["id"], 1)


def test_only_seated_players_start_a_rematch_and_only_once_the_game_is_over(
    client: Any,
) -> None:
    created = finished_table(client, ["human", "greedy", "greedy"])
    table, ann = created["id"], tokens_of(created)[0]
    assert client.post(f"/api/tables/{table}/again").status_code == 401
    assert client.post(f"/api/tables/{table}/again", headers=auth("x" * 32)).status_code == 403
    early = client.post(f"/api/tables/{table}/again", headers=auth(ann))
    assert early.status_code == 409 and "not over" in early.json()["error"]
    assert client.get(f"/api/tables/{table}/again", headers=auth(ann)).status_code == 404
    assert client.post("/api/tables/nosuch/again", headers=auth(ann)).status_code == 404


def test_players_asking_together_make_one_rematch(client: Any) -> None:
    created = finished_table(client, ["human", "human", "greedy"])
    tokens = tokens_of(created)
    play(client, created, tokens)
    table = created["id"]
    replies: list[dict[str, Any]] = []
    failures: list[str] = []
    barrier = threading.Barrier(4)

    def ask(token: str) -> None:
        barrier.wait()
        reply = client.post(f"/api/tables/{table}/again", headers=auth(token))
        if reply.status_code != 201:
            failures.append(reply.text)
        replies.append(reply.json())

    threads = [threading.Thread(target=ask, args=(tokens[i % 2],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len({r["id"] for r in replies}) == 1
    by_seat = {r["seat"]: r["token"] for r in replies}
    assert set(by_seat) == {0, 1} and by_seat[0] != by_seat[1]
    # The tables that lost the race were removed: the lobby lists one rematch.
    lobby = client.get("/api/tables").json()["tables"]
    rematches = [t for t in lobby if t["id"] != table and t["status"] == "playing"]
    assert [t["id"] for t in rematches if t["id"] == replies[0]["id"]] == [replies[0]["id"]]


def test_no_response_after_creation_carries_another_seats_token(client: Any) -> None:
    """Every endpoint, asked by each seat and by nobody, over a whole game and its
    rematch: the only token a reply may hold is the caller's own."""
    created = finished_table(client, ["human", "human", "random"], open=[1])
    table = created["id"]
    ann = tokens_of(created)[0]
    bo = claim(client, table, 1)
    callers: dict[str, str | None] = {"ann": ann, "bo": bo, "nobody": None}
    secrets = {ann, bo}
    seen: list[tuple[str | None, str]] = []

    def ask(method: str, path: str, who: str | None, **kw: Any) -> Any:
        token = callers[who] if who else None
        headers = auth(token) if token else {}
        reply = client.request(method, path, headers=headers, **kw)
        seen.append((token, reply.text))
        return reply

    rng = random.Random(5)
    for _ in range(400):
        views = {who: ask("GET", f"/api/tables/{table}", who).json() for who in callers}
        if views["nobody"]["status"] == "finished":
            break
        movers = [w for w in ("ann", "bo") if views[w]["legal_actions"]]
        who = rng.choice(movers)
        view = views[who]
        ask(
            "POST",
            f"/api/tables/{table}/actions",
            who,
            json={"action": rng.choice(view["legal_actions"]), "step": view["step"]},
        )
        with client.websocket_connect(f"/ws/tables/{table}?token={callers[who]}") as socket:
            seen.append((callers[who], json.dumps(socket.receive_json())))
    for who in callers:
        ask("GET", "/api/tables", who)
        ask("GET", f"/api/tables/{table}/record", who)
        ask("GET", f"/api/tables/{table}/catalog", who)
    record = client.get(f"/api/tables/{table}/record").json()
    ask("POST", "/api/replays", "ann", json={"record": record, "step": 3, "seat": "all"})
    for who in ("bo", "ann", "nobody", "bo"):
        ask("POST", f"/api/tables/{table}/again", who)
        made = ask("GET", f"/api/tables/{table}/again", who).json()
        if who != "nobody":
            secrets.add(made["token"])
    rematch = made["id"]
    ask("PUT", f"/api/tables/{rematch}/seats/0", "ann", json={"kind": "greedy"})
    for who in callers:
        ask("GET", f"/api/tables/{rematch}", who)
    rematch_tokens = {
        "ann": derived_token(ann, rematch, 0),
        "bo": derived_token(bo, rematch, 1),
    }
    secrets |= set(rematch_tokens.values())
    for token, text in seen:
        mine = {token} if token else set()
        if token == ann:
            mine.add(rematch_tokens["ann"])
        if token == bo:
            mine.add(rematch_tokens["bo"])
        leaked = {s for s in secrets - mine if s in text}
        assert not leaked, f"a reply to {token and token[:6]} holds another seat's token"
