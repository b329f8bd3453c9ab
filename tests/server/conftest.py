"""Fixtures for the server's tests: a database per test (SQLite always, PostgreSQL when
one answers at 127.0.0.1:5432) and an app served in-process by FastAPI's TestClient."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip(
    "fastapi", reason="the server extra is not installed: pip install -e '.[server]'"
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ranchhand.server.app import Settings, create_app
from ranchhand.server.limits import RATE_NAMES, LimitSettings
from tests.server.procs import fresh_postgres_database, postgres_unavailable


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """One throwaway PostgreSQL database for the session's tests (tables have random ids)."""
    why = postgres_unavailable()
    if why is not None:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432: {why}")
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


UNLIMITED = LimitSettings().with_overrides(f"{name}=off" for name in RATE_NAMES)
"""The edge's limits with every per-client rate off (sizes and timeouts kept)."""


def client_for(url: str, **settings: object) -> TestClient:
    """A TestClient (use it in ``with``: that runs the app's start and stop).

    Every table a test makes comes from one address (TestClient's), and the PostgreSQL
    database is the whole session's: the open-tables limit is lifted unless set. So are
    the per-client rates (a test playing whole games over HTTP sends hundreds of requests
    a second on a fast machine): the tests of the limits set their own."""
    settings.setdefault("max_open_tables_per_client", 1_000_000)
    settings.setdefault("limits", UNLIMITED)
    return TestClient(create_app(Settings(db=url, **settings)))  # type: ignore[arg-type]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with client_for(db_url) as test_client:
        yield test_client


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator[TestClient]:
    with client_for(sqlite_url) as test_client:
        yield test_client
