"""Open seats: created free, listed in the lobby, claimed once (on SQLite and PostgreSQL)."""

from __future__ import annotations

import itertools
import random
import threading
import time
import types
from typing import Any

import pytest

from ranchhand.server.errors import Conflict
from ranchhand.server.store import make_engine, migrate
from ranchhand.server.tables import TableService
from tests.server.helpers import GAMES, auth, create, tokens_of, wait_finished


def listed(client: Any, table: str, query: str = "") -> dict[str, Any] | None:
    reply = client.get(f"/api/tables{query}")
    assert reply.status_code == 200
    for row in reply.json()["tables"]:
        if row["id"] == table:
            found: dict[str, Any] = row
            return found
    return None


def claim(client: Any, table: str, seat: int, **body: Any) -> Any:
    return client.post(f"/api/tables/{table}/seats/{seat}/claim", json=body or None)


def test_open_seats_are_created_without_a_token_and_listed_as_free(client: Any) -> None:
    created = create(client, "rocket-ranchers", ["human", "human", "greedy"], open=[1])
    seats = created["seats"]
    assert [s["open"] for s in seats] == [False, True, False]
    assert seats[0]["token"] and seats[0]["url"]
    assert seats[1]["token"] is None and seats[1]["url"] is None
    row = listed(client, created["id"])
    assert row is not None
    assert row["free"] == [1] and row["free_seats"] == 1
    assert [s["open"] for s in row["seats"]] == [False, True, False]
    assert listed(client, created["id"], "?free=true") is not None
    closed = create(client, "rocket-ranchers", ["human", "human", "greedy"])
    assert listed(client, closed["id"])["free"] == []  # type: ignore[index]
    assert listed(client, closed["id"], "?free=true") is None
    view = client.get(f"/api/tables/{created['id']}").json()
    assert [s["open"] for s in view["seats"]] == [False, True, False]


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"open": [2]}, "seat 2 is a bot"),
        ({"open": [5]}, "no seat 5"),
        ({"open": [1, 1]}, "named twice"),
        ({"open": ["1"]}, "open"),
    ],
)
def test_bad_open_seats_are_refused(client: Any, extra: dict[str, Any], message: str) -> None:
    body = {"game": "rocket-ranchers", "seats": ["human", "human", "greedy"], **extra}
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 400 and message in reply.json()["error"], reply.text


def test_a_claimed_seat_plays_like_any_other(client: Any) -> None:
    created = create(client, "rocket-ranchers", ["human", "human", "greedy"], open=[0, 1])
    table = created["id"]
    assert tokens_of(created) == {}
    first = claim(client, table, 0, name="Bo")
    assert first.status_code == 200, first.text
    got = first.json()
    assert got["seat"] == 0 and got["name"] == "Bo"
    assert got["url"].endswith(f"/tables/{table}#token={got['token']}")
    second = claim(client, table, 1)  # no body: keeps the seat's name
    assert second.status_code == 200 and second.json()["name"] == "human"
    tokens = {0: got["token"], 1: second.json()["token"]}
    assert claim(client, table, 0).status_code == 409
    assert "not free" in claim(client, table, 0, name="Cy").json()["error"]
    view = client.get(f"/api/tables/{table}", headers=auth(tokens[0])).json()
    assert view["you"] == 0
    assert [(s["name"], s["open"]) for s in view["seats"]][:2] == [("Bo", False), ("human", False)]
    row = listed(client, table)
    assert row is not None and row["free"] == [] and row["seats"][0]["name"] == "Bo"
    mover = view["to_act"][0]
    legal = client.get(f"/api/tables/{table}", headers=auth(tokens[mover])).json()
    moved = client.post(
        f"/api/tables/{table}/actions",
        json={"action": legal["legal_actions"][0], "step": legal["step"]},
        headers=auth(tokens[mover]),
    )
    assert moved.status_code == 200 and moved.json()["step"] > legal["step"]
    # A claimed seat is an ordinary seat: its token hands it to a bot and back.
    handed = client.put(
        f"/api/tables/{table}/seats/1", json={"kind": "human"}, headers=auth(tokens[1])
    )
    assert handed.status_code == 200


def test_claims_refused(client: Any) -> None:
    created = create(client, "rocket-ranchers", ["human", "human", "greedy"], open=[1])
    table = created["id"]
    assert claim(client, "nosuchtable", 1).status_code == 404
    assert claim(client, table, 7).status_code == 404
    assert claim(client, table, 0).status_code == 409  # handed out at creation
    assert claim(client, table, 2).status_code == 409  # a bot's
    for body, status in (({"name": ""}, 400), ({"name": "\u0007"}, 400), ({"nme": "x"}, 400)):
        assert claim(client, table, 1, **body).status_code == status
    bad = client.post(
        f"/api/tables/{table}/seats/1/claim",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert bad.status_code == 400
    assert listed(client, table)["free"] == [1]  # type: ignore[index]


def test_the_lobby_never_shows_a_token(client: Any) -> None:
    created = create(client, "glory-ranch", ["human", "human", "greedy"], open=[1])
    claimed = claim(client, created["id"], 1, name="Bo").json()
    text = client.get("/api/tables").text
    for secret in [*tokens_of(created).values(), claimed["token"]]:
        assert secret not in text
    assert "token" not in text and "seed" not in text and "hash" not in text


def test_two_claims_at_once_one_wins(client: Any) -> None:
    """Threads claiming one seat together, over HTTP: exactly one 200, the rest 409."""
    for _round in range(3):
        created = create(client, "rocket-ranchers", ["human", "human", "greedy"], open=[1])
        start = threading.Barrier(6)
        codes: list[int] = []

        def go(
            start: threading.Barrier = start, table: str = created["id"], codes: list[int] = codes
        ) -> None:
            start.wait()
            codes.append(claim(client, table, 1).status_code)

        threads = [threading.Thread(target=go) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(codes) == [200] + [409] * 5, codes


def test_the_conditional_update_decides_a_race(db_url: str) -> None:
    """Both claimants saw the seat open (two processes, each with its own cache): the
    database's conditional UPDATE lets exactly one in."""
    engine = make_engine(db_url)
    migrate(engine)
    one, two = TableService(engine), TableService(engine)
    created = one.create("rocket-ranchers", 3, {}, ["human", "human", "greedy"], open_seats=[1])
    seen = two.current(created.id)
    assert seen.meta.is_open(1)
    won = one.claim(created.id, 1, "Ann")
    two.current = lambda table_id, **_: seen  # type: ignore[method-assign]
    with pytest.raises(Conflict, match="someone took it"):
        two.claim(created.id, 1, "Bo")
    assert one.current(created.id).meta.seat_of(won.token) == 1
    assert one.current(created.id).meta.names[1] == "Ann"
    engine.dispose()


def test_no_claim_once_the_game_is_over(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An open seat nobody claimed, played by the clock's bot to the end: not free any more."""
    engine = make_engine(db_url)
    migrate(engine)
    service = TableService(engine)
    ticks = itertools.count(int(time.time()), 3600)  # an hour passes at each look
    created = service.create("rocket-ranchers", 2, {}, ["human", "greedy"], clock=1, open_seats=[0])
    assert next(r for r in service.lobby() if r["id"] == created.id)["free"] == [0]
    # Let the clock run out at once: the server's clock bot moves for the silent seat.
    monkeypatch.setattr(
        "ranchhand.server.tables.time", types.SimpleNamespace(time=lambda: float(next(ticks)))
    )
    for _ in range(500):
        due = service.due(created.id)
        if due is None:
            break
        service.advance(created.id, due.step, due.kind)
    live = service.current(created.id)
    assert live.finished
    with pytest.raises(Conflict, match="the game is over"):
        service.claim(created.id, 0, "Bo")
    row = next(r for r in service.lobby() if r["id"] == created.id)
    assert row["status"] == "finished" and row["free"] == [] and row["free_seats"] == 0
    assert all(r["id"] != created.id for r in service.lobby(free_only=True))
    engine.dispose()


def test_a_finished_table_refuses_a_claim_over_http(client: Any) -> None:
    created = create(client, "rocket-ranchers", ["greedy", "random"], players=2)
    wait_finished(client, created["id"])
    reply = claim(client, created["id"], 0)
    assert reply.status_code == 409 and "over" in reply.json()["error"]


def test_open_seats_in_every_game(client: Any) -> None:
    rng = random.Random(3)
    for game, how in GAMES.items():
        created = create(client, game, ["human", "human", "greedy"], open=[rng.randrange(2)])
        free = listed(client, created["id"])["free"]  # type: ignore[index]
        reply = claim(client, created["id"], free[0], name="Di")
        assert reply.status_code == 200, (game, how, reply.text)
