"""Storage, migrations, the notifier choice, the command line and the log's discretion."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from ranchhand.cli.main import app as cli
from ranchhand.core.errors import OptionError
from ranchhand.server import RedactTokens
from ranchhand.server.notify import LocalNotifier, make_notifier
from ranchhand.server.store import MIGRATIONS, check_url, make_engine, migrate
from tests.server.helpers import auth, create, tokens_of


def newest_revision() -> str | None:
    """The head of the migrations shipped with the package."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


def test_migrations_create_the_schema_and_run_again_harmlessly(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        migrate(engine)
        migrate(engine)
        names = set(sa.inspect(engine).get_table_names())
        assert {"tables", "seats", "moves", "alembic_version"} <= names
        with engine.connect() as db:
            version = db.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        assert version == newest_revision()
        if engine.dialect.name == "sqlite":
            with engine.connect() as db:
                assert db.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        engine.dispose()


def test_tokens_are_stored_as_hashes_only(sqlite_client: Any) -> None:
    created = create(sqlite_client, "rancho", ["human", "human"], players=2)
    engine = sqlite_client.app.state.service.engine
    with engine.connect() as db:
        dumped = "".join(str(row) for row in db.execute(sa.text("SELECT * FROM seats")))
    for token in tokens_of(created).values():
        assert token not in dumped


def test_database_urls_and_notifiers() -> None:
    assert check_url("sqlite:///x.db")
    for bad in ("mysql://u@h/db", "nonsense", "postgresql+psycopg2://u@h/db"):
        with pytest.raises(OptionError):
            check_url(bad)
    assert isinstance(make_notifier("sqlite:///x.db"), LocalNotifier)
    assert type(make_notifier("postgresql+psycopg://u@h/db")).__name__ == "PostgresNotifier"


def test_serve_refuses_what_it_cannot_do() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["serve", "--workers", "2", "--db", "sqlite:///x.db"])
    assert result.exit_code == 2 and "PostgreSQL" in result.output
    result = runner.invoke(cli, ["serve", "--db", "mysql://u@h/db"])
    assert result.exit_code == 2 and "not supported" in result.output
    helped = runner.invoke(cli, ["serve", "--help"], env={"COLUMNS": "200"})
    assert "--proxy-headers" in helped.output and "Upgrade" in helped.output


def test_logs_never_show_tokens(sqlite_client: Any, caplog: pytest.LogCaptureFixture) -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s"', ("1.2.3.4", "GET",
        "/api/tables/x?token=SECRET&a=1"), None,
    )  # fmt: skip
    RedactTokens().filter(record)
    assert "SECRET" not in record.getMessage() and "token=***" in record.getMessage()
    with caplog.at_level(logging.DEBUG, logger="ranchhand"):
        created = create(sqlite_client, "rancho", ["human", "greedy"], players=2)
        token = tokens_of(created)[0]
        sqlite_client.get(f"/api/tables/{created['id']}", headers=auth(token + "x"))
        view = sqlite_client.get(f"/api/tables/{created['id']}", headers=auth(token)).json()
        sqlite_client.post(
            f"/api/tables/{created['id']}/actions",
            json={"action": view["legal_actions"][0], "step": view["step"]},
            headers=auth(token),
        )
    seed = sqlite_client.app.state.service.current(created["id"]).meta.seed
    assert "created" in caplog.text and "moved" in caplog.text
    assert token not in caplog.text and str(seed) not in caplog.text
