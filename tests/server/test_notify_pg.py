"""PostgresNotifier against a real PostgreSQL: what one process publishes, all hear.

Each test runs in a database of its own; without PostgreSQL at 127.0.0.1:5432
the tests are skipped and say so.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from tests.server.procs import fresh_postgres_database

psycopg = pytest.importorskip("psycopg")
notify_pg = pytest.importorskip("ranchhand.server.notify_pg")
conninfo_to_dict = pytest.importorskip("psycopg.conninfo").conninfo_to_dict
PostgresNotifier = notify_pg.PostgresNotifier


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


class Heard:
    """What one notifier delivered, with an event to wait on."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, int]] = []
        self.arrived = asyncio.Event()

    async def __call__(self, table_id: str, step: int) -> None:
        self.changes.append((table_id, step))
        self.arrived.set()

    async def wait_for(self, change: tuple[str, int], timeout: float = 5.0) -> float:
        """Seconds until ``change`` was heard; fails after ``timeout``."""
        start = time.monotonic()
        while change not in self.changes:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), timeout - (time.monotonic() - start))
            except TimeoutError:
                raise AssertionError(f"{change} not heard in {timeout} s: {self.changes}") from None
        return time.monotonic() - start


def test_conninfo_from_sqlalchemy_urls() -> None:
    conninfo = notify_pg.conninfo_from_url
    assert conninfo("postgresql+psycopg://postgres@127.0.0.1:5432/test") == (
        "user=postgres host=127.0.0.1 port=5432 dbname=test"
    )
    assert conninfo("postgresql+psycopg:///games?host=/run/postgresql") == (
        "dbname=games host=/run/postgresql"
    )
    parsed = conninfo_to_dict(conninfo("postgresql://ann:it's%20me@h/db"))
    assert parsed == {"user": "ann", "password": "it's me", "host": "h", "dbname": "db"}
    with pytest.raises(ValueError, match="not a PostgreSQL URL"):
        conninfo("sqlite:///ranchhand.db")


def test_one_publishes_both_hear_within_a_second(pg_url: str) -> None:
    async def main() -> None:
        first, second = PostgresNotifier(pg_url), PostgresNotifier(pg_url)
        heard_first, heard_second = Heard(), Heard()
        await first.start(heard_first)
        await second.start(heard_second)
        try:
            sent = time.monotonic()
            await first.publish("table:with:colons", 7)
            await heard_first.wait_for(("table:with:colons", 7), timeout=1.0)
            await heard_second.wait_for(("table:with:colons", 7), timeout=1.0)
            assert time.monotonic() - sent < 1.0
            # Order is kept, nothing is heard twice, the last is always heard (a burst
            # that comes while a change is handled is handled once more, with its newest).
            for step in range(8, 40):
                await second.publish("t2", step)
            for heard in (heard_first, heard_second):
                await heard.wait_for(("t2", 39))
                steps = [s for t, s in heard.changes if t == "t2"]
                assert steps == sorted(set(steps)) and steps[-1] == 39, steps
        finally:
            await first.stop()
            await second.stop()
            await first.stop()  # twice is harmless

    asyncio.run(main())


def test_other_channels_and_foreign_payloads_are_not_heard(pg_url: str) -> None:
    async def main() -> None:
        ours, heard = PostgresNotifier(pg_url), Heard()
        await ours.start(heard)
        try:
            async with await psycopg.AsyncConnection.connect(
                notify_pg.conninfo_from_url(pg_url), autocommit=True
            ) as other:
                for junk in ("no-step", "t:x", ":5", ""):
                    await other.execute("SELECT pg_notify(%s, %s)", (notify_pg.CHANNEL, junk))
                await other.execute("SELECT pg_notify('some_other_channel', 't:1')")
            await ours.publish("real", 1)
            await heard.wait_for(("real", 1))
            assert heard.changes == [("real", 1)]
        finally:
            await ours.stop()

    asyncio.run(main())


def test_a_failing_handler_does_not_stop_listening(pg_url: str) -> None:
    async def main() -> None:
        heard = Heard()

        async def flaky(table_id: str, step: int) -> None:
            await heard(table_id, step)
            if step == 1:
                raise RuntimeError("a handler bug")

        notifier = PostgresNotifier(pg_url)
        await notifier.start(flaky)
        try:
            await notifier.publish("t", 1)
            await notifier.publish("t", 2)
            await heard.wait_for(("t", 2))
        finally:
            await notifier.stop()

    asyncio.run(main())


def test_listening_resumes_after_the_connection_is_killed(pg_url: str) -> None:
    """The database drops the listening connection; the notifier reconnects and hears
    later changes, and publishing works again after its own connection was killed."""

    async def main() -> None:
        reconnected = asyncio.Event()

        async def on_reconnect() -> None:
            reconnected.set()

        listener = PostgresNotifier(pg_url, heartbeat=0.5, on_reconnect=on_reconnect)
        publisher, heard = PostgresNotifier(pg_url), Heard()
        await listener.start(heard)
        await publisher.start(Heard())
        try:
            await publisher.publish("t", 1)
            await heard.wait_for(("t", 1))
            async with await psycopg.AsyncConnection.connect(
                notify_pg.conninfo_from_url(pg_url), autocommit=True
            ) as admin:
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            await asyncio.wait_for(reconnected.wait(), 10)
            assert listener.reconnects == 1
            await publisher.publish("t", 2)  # its connection was killed too: it reconnects
            await heard.wait_for(("t", 2), timeout=2.0)
        finally:
            await listener.stop()
            await publisher.stop()

    asyncio.run(main())


def test_publish_returns_at_once_and_stop_sends_what_is_queued(pg_url: str) -> None:
    async def main() -> None:
        sender, listener, heard = PostgresNotifier(pg_url), PostgresNotifier(pg_url), Heard()
        await sender.start(Heard())
        await listener.start(heard)
        try:
            for step in range(1000):
                await sender.publish("burst", step)
            await sender.stop()  # flushes the queue before closing
            await heard.wait_for(("burst", 999))
            steps = [s for _t, s in heard.changes]
            assert steps == sorted(set(steps)) and steps[-1] == 999
        finally:
            await listener.stop()

    asyncio.run(main())


def test_publish_without_a_database_still_tells_this_process(pg_url: str) -> None:
    async def main() -> None:
        notifier, heard = PostgresNotifier(pg_url), Heard()
        await notifier.start(heard)
        notifier.conninfo = "host=127.0.0.1 port=1 connect_timeout=1"  # nothing listens there
        try:
            async with await psycopg.AsyncConnection.connect(
                notify_pg.conninfo_from_url(pg_url), autocommit=True
            ) as admin:
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    " AND application_name = 'ranchhand-notify'"
                )
            await notifier.publish("t", 3)
            await heard.wait_for(("t", 3), timeout=10)
        finally:
            await notifier.stop()

    asyncio.run(main())
