"""A database made at revision 0001, with games in progress, upgrades on ``serve``'s start
without losing a table, a seat or a move, and play goes on (SQLite; PostgreSQL when one
answers at 127.0.0.1:5432, in a fresh database per test)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Column, Engine, Integer, MetaData, String, Table, inspect, select, text

from ranchhand.server import store
from ranchhand.server.live import Budget
from ranchhand.server.store import make_engine
from ranchhand.server.tables import TableService
from tests.server.conftest import client_for
from tests.server.helpers import GAMES, auth, play_out
from tests.server.procs import fresh_postgres_database, postgres_unavailable
from tests.server.test_store import newest_revision

SEATS_0001 = Table(
    "seats",
    MetaData(),
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),
)
"""``seats`` as revision 0001 made it: what the server of that time read and wrote."""

TABLES_0001 = Table(
    "tables",
    MetaData(),
    *(
        Column(column.name, column.type, primary_key=column.primary_key, nullable=column.nullable)
        for column in store.tables.columns
        if column.name
        in {
            "id", "game", "players", "options", "seats", "seed", "status", "step", "turn",
            "to_act", "outcome", "bot_delay", "clock", "clock_bot", "created", "updated",
        }
    ),
)  # fmt: skip
"""``tables`` as revision 0001 made it (later revisions add columns)."""

MOVES_0001 = Table(
    "moves",
    MetaData(),
    *(
        Column(column.name, column.type, primary_key=column.primary_key, nullable=column.nullable)
        for column in store.moves.columns
        if column.name in {"table_id", "step", "player", "action", "created"}
    ),
)
"""``moves`` as revision 0001 made it (0006 adds ``timeout``)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    why = postgres_unavailable()
    if why is not None:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432: {why}")
    with fresh_postgres_database() as url:
        yield url


def upgrade(engine: Engine, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(store.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def everything(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    with engine.connect() as db:
        return {
            name: [
                dict(row)
                for row in db.execute(select(table).order_by(*table.primary_key.columns))
                .mappings()
                .all()
            ]
            for name, table in (
                ("tables", TABLES_0001),
                ("seats", SEATS_0001),
                ("moves", MOVES_0001),
            )
        }


def test_a_0001_database_with_games_in_progress_upgrades_on_start(
    empty_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(10)
    engine = make_engine(empty_url)
    upgrade(engine, "0001")
    assert "open" not in {c["name"] for c in inspect(engine).get_columns("seats")}

    # The server as it was at 0001: the same code, reading and writing 0001's seats.
    tokens: dict[str, dict[int, str]] = {}
    with monkeypatch.context() as old_schema:
        old_schema.setattr(store, "seats", SEATS_0001)
        old_schema.setattr(store, "tables", TABLES_0001)
        old_schema.setattr(store, "moves", MOVES_0001)
        # No runner here: the bots' every move is made inline, whatever a pause of the
        # collector costs (past the default budget the runner would be due to go on).
        old = TableService(engine, inline=Budget(steps=100_000, cpu=600.0))
        for game, how in GAMES.items():
            made = old.create(game, 3, dict(how["options"]), ["human", "greedy", "human"])
            tokens[made.id] = made.tokens
            for _ in range(6):  # a few moves by the people, bots answering
                live = old.current(made.id)
                seat = next(s for s in live.state.acting_players() if s in made.tokens)
                action = rng.choice(live.state.legal_actions(seat))
                old.act(made.id, made.tokens[seat], str(action), live.step)
        done = old.create("rocket-ranchers", 2, {}, ["greedy", "random"])
        assert old.current(done.id).finished
        before = everything(engine)
    assert len(before["tables"]) == 4 and len(before["moves"]) > 4 * 6
    engine.dispose()

    with client_for(empty_url) as client:  # what `ranchhand serve` does on start
        engine = make_engine(empty_url)
        with engine.connect() as db:
            version = db.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == newest_revision()
        assert everything(engine) == before  # every table, seat and move as it was
        with engine.connect() as db:
            flags = db.execute(select(store.seats.c.open)).scalars().all()
        assert flags and not any(flags)  # every seat was handed out: none is open
        engine.dispose()

        listing = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert set(listing) == {*tokens, done.id}
        assert all(t["free"] == [] for t in listing.values())
        record = client.get(f"/api/tables/{done.id}/record")
        assert record.status_code == 200

        for table, seats in tokens.items():
            step = next(t["step"] for t in before["tables"] if t["id"] == table)
            view = client.get(f"/api/tables/{table}", headers=auth(next(iter(seats.values()))))
            assert view.status_code == 200 and view.json()["step"] == step
        # Play goes on with the tokens handed out before the upgrade, to the end.
        table = next(t for t in tokens if listing[t]["game"] == "rocket-ranchers")
        seats = [{"seat": s, "token": tokens[table].get(s)} for s in range(3)]
        end = play_out(client, {"id": table, "seats": seats}, rng)
        assert end["status"] == "finished"
        assert client.get(f"/api/tables/{table}/record").status_code == 200
        # New tables get open seats in the upgraded database.
        made = client.post(
            "/api/tables", json={"game": "glory-ranch", "seats": ["human"] * 3, "open": [2]}
        )
        assert made.status_code == 201
        claimed = client.post(f"/api/tables/{made.json()['id']}/seats/2/claim", json={})
        assert claimed.status_code == 200
