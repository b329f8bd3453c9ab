"""Two moves for one table at once: exactly one is applied, the other is refused (409)
and the table holds the winner's move only; on SQLite and PostgreSQL, within one app
and across two apps (two caches, as two processes) sharing a database."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import func, select

from ranchhand.server import store
from tests.server.conftest import client_for
from tests.server.helpers import auth, create, tokens_of

ROUNDS = 6


def race(clients: list[Any], table: str, bodies: list[dict[str, Any]], token: str) -> list[int]:
    """Post ``bodies`` at the same moment, one per client; their status codes."""
    barrier = threading.Barrier(len(bodies))
    codes: list[int] = [0] * len(bodies)

    def post(index: int) -> None:
        barrier.wait()
        reply = clients[index].post(
            f"/api/tables/{table}/actions", json=bodies[index], headers=auth(token)
        )
        codes[index] = reply.status_code

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return codes


def moves_in_db(client: Any, table: str) -> int:
    engine = client.app.state.service.engine
    with engine.connect() as db:
        count: int = db.execute(
            select(func.count()).where(store.moves.c.table_id == table)
        ).scalar_one()
    return count


@pytest.mark.parametrize("apps", [1, 2], ids=["one-app", "two-apps"])
def test_two_moves_at_once_exactly_one_applies(db_url: str, apps: int) -> None:
    with client_for(db_url) as first, client_for(db_url) as second:
        clients = [first, second] if apps == 2 else [first, first]
        for round_ in range(ROUNDS):
            created = create(first, "rocket-ranchers", ["human", "human"], players=2)
            table, tokens = created["id"], tokens_of(created)
            view = first.get(f"/api/tables/{table}").json()
            seat = view["to_act"][0]
            mine = first.get(f"/api/tables/{table}", headers=auth(tokens[seat])).json()
            legal = mine["legal_actions"]
            before = moves_in_db(first, table)
            bodies = [
                {"action": legal[0], "step": mine["step"]},
                {"action": legal[round_ % len(legal)], "step": mine["step"]},
            ]
            codes = race(clients, table, bodies, tokens[seat])
            assert sorted(codes) == [200, 409], codes
            after = first.get(f"/api/tables/{table}").json()
            winner = bodies[codes.index(200)]["action"]
            assert after["step"] == moves_in_db(first, table) > before
            record_steps = second.get(f"/api/tables/{table}").json()["step"]
            assert record_steps == after["step"]  # the other app sees the same table
            assert any(winner in line for line in after["log"])


def test_a_stale_step_is_refused_and_changes_nothing(sqlite_client: Any) -> None:
    client = sqlite_client
    created = create(client, "rancho", ["human", "human"], players=2)
    table, tokens = created["id"], tokens_of(created)
    view = client.get(f"/api/tables/{table}", headers=auth(tokens[0])).json()
    moved = client.post(
        f"/api/tables/{table}/actions",
        json={"action": "roll", "step": view["step"]},
        headers=auth(tokens[0]),
    )
    assert moved.status_code == 200
    now = moved.json()
    for step in (view["step"], now["step"] + 1, 10**9):
        again = client.post(
            f"/api/tables/{table}/actions",
            json={"action": now["legal_actions"][0] if now["legal_actions"] else "roll",
                  "step": step},
            headers=auth(tokens[now["to_act"][0]]),
        )  # fmt: skip
        assert again.status_code == 409, again.text
    assert moves_in_db(client, table) == now["step"]
