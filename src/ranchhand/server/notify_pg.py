"""Table changes announced between server processes through PostgreSQL LISTEN/NOTIFY.

Several ``ranchhand serve`` processes (or ``--workers``) on one PostgreSQL database
each hold WebSocket clients. A move is committed by whichever process received
it; every process must then tell its own clients. PostgreSQL already connects
them all, so no broker is needed: after its commit, a process sends
``NOTIFY ranchhand_tables, 'TABLE_ID:STEP'`` and every process listening on that
channel, the sender included, hears it and calls its ``on_change``. A change of another
kind (a chat line, a seat's presence) goes as ``KIND!TABLE_ID:N`` and reaches
``on_event`` (:func:`~ranchhand.server.notify.event_key`).

What this does and does not promise:

- A notification carries no game data, only which table changed and its step;
  the listener reads the committed state from the database as for any view.
  Nothing secret goes over the channel and a lost notification loses no move.
- Notifications are not stored. While the listening connection is down (the
  database restarted, the network dropped) changes made elsewhere are not
  heard; the loop reconnects with a growing delay (0.1 s doubling to 5 s) and
  calls ``on_reconnect``, if given, so the server can resend its clients the
  current views of their tables.
- ``publish`` queues the change and returns; a task sends what is queued in one
  statement. If sending fails twice, this process hands the change to its own
  ``on_change`` directly, so its clients still hear the move; other processes'
  clients hear of the table at its next change.
- The listener only hands what it hears to a
  :class:`~ranchhand.server.notify.Coalescer` and goes back to listening: it never
  waits on ``on_change`` (nor on ``on_reconnect``), so a table whose handling is
  slow holds up neither the channel nor any other table, and a burst of changes to
  one table is handled with its newest step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from ranchhand.server.notify import Coalescer, OnChange, OnEvent, dispatch, event_key

log = logging.getLogger(__name__)

CHANNEL = "ranchhand_tables"
"""The channel every process listens on; NOTIFY is scoped to one database, so
servers on different databases of one PostgreSQL never hear each other."""

HEARTBEAT = 10.0
"""Seconds without a notification after which the listener checks its connection."""

BATCH = 500
"""At most this many changes go in one statement."""

FIRST_DELAY = 0.1
MAX_DELAY = 5.0


def conninfo_from_url(db_url: str) -> str:
    """The libpq connection string for a SQLAlchemy URL (``postgresql+psycopg://...``).

    >>> conninfo_from_url("postgresql+psycopg://ann:s%40cret@db.example:5433/games")
    'user=ann password=s@cret host=db.example port=5433 dbname=games'
    >>> conninfo_from_url("postgresql://localhost/test?sslmode=disable")
    'host=localhost dbname=test sslmode=disable'
    """
    from sqlalchemy.engine import make_url

    url = make_url(db_url)
    if url.get_backend_name() != "postgresql":
        raise ValueError(f"not a PostgreSQL URL: {url.render_as_string(hide_password=True)}")
    params: dict[str, str | int] = {}
    fields: tuple[tuple[str, str | int | None], ...] = (
        ("user", url.username),
        ("password", url.password),
        ("host", url.host),
        ("port", url.port),
        ("dbname", url.database),
    )
    for key, field in fields:
        if field is not None:
            params[key] = field
    for key, value in url.query.items():
        # SQLAlchemy gives a tuple for a key repeated in the query (several hosts).
        params[key] = value if isinstance(value, str) else ",".join(value)
    return make_conninfo("", **params)


def payload(table_id: str, step: int) -> str:
    """The text of one notification: ``TABLE_ID:STEP``."""
    return f"{table_id}:{step}"


def parse_payload(text: str) -> tuple[str, int] | None:
    """``(table_id, step)`` from a notification's text, or None if it is not ours.

    >>> parse_payload("t-1:42")
    ('t-1', 42)
    >>> parse_payload("a:b:7"), parse_payload("garbage"), parse_payload(":3")
    (('a:b', 7), None, None)
    """
    table_id, sep, step = text.rpartition(":")
    if not sep or not table_id or not step.isdigit():
        return None
    return table_id, int(step)


class PostgresNotifier:
    """The :class:`~ranchhand.server.notify.Notifier` for a PostgreSQL database.

    Two connections in autocommit, apart from the server's SQLAlchemy pool: one
    that listens (and is re-established whenever it drops), one that publishes.
    """

    def __init__(
        self,
        db_url: str,
        *,
        channel: str = CHANNEL,
        heartbeat: float = HEARTBEAT,
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.conninfo = conninfo_from_url(db_url)
        self.channel = channel
        self.heartbeat = heartbeat
        self.on_reconnect = on_reconnect
        self._changes: Coalescer | None = None
        self._reconnected: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._listening: psycopg.AsyncConnection | None = None
        self._publisher: psycopg.AsyncConnection | None = None
        self._queue: list[tuple[str, int]] = []
        self._wake = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._closing = False
        self.reconnects = 0
        """How many times the listening connection was re-established (for logs and tests)."""

    async def start(self, on_change: OnChange, on_event: OnEvent | None = None) -> None:
        """Listen, then return: a change published after this is heard.

        Raises psycopg.OperationalError if the database cannot be reached at all,
        so a server started with a wrong URL says so at once.
        """
        if self._listener is not None:
            raise RuntimeError("PostgresNotifier.start called twice")
        handler = on_change if on_event is None else dispatch(on_change, on_event)
        self._changes = Coalescer(handler, name="ranchhand-notify-change")
        first = await self._listen()
        self._listener = asyncio.create_task(self._run(first), name="ranchhand-notify-listen")
        self._sender = asyncio.create_task(self._send_queued(), name="ranchhand-notify-send")

    async def publish(self, table_id: str, step: int) -> None:
        """Announce a committed change to every process (this one included).

        Returns at once: the change is queued, and one task sends whatever is queued
        in one statement (one round trip however many moves arrived meanwhile), so
        a request never waits on it and the event loop makes few database calls.
        """
        self._queue.append((table_id, step))
        self._wake.set()

    async def publish_event(self, kind: str, table_id: str, number: int) -> None:
        """Announce a change of another kind (a chat line, a presence) to every process,
        as :meth:`publish` does a move."""
        await self.publish(event_key(kind, table_id), number)

    async def stop(self) -> None:
        """Send what is queued (for up to 2 s), stop listening, close both connections;
        safe to call more than once."""
        sender, self._sender = self._sender, None
        if sender is not None:
            self._closing = True
            self._wake.set()
            try:
                await asyncio.wait_for(asyncio.shield(sender), 2)
            except (TimeoutError, asyncio.CancelledError):
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sender
        task, self._listener = self._listener, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close(self._listening)
        self._listening = None
        await self._close(self._publisher)
        self._publisher = None
        reconnected, self._reconnected = self._reconnected, None
        if reconnected is not None:
            reconnected.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reconnected
        changes, self._changes = self._changes, None
        if changes is not None:
            await changes.stop()

    async def _send_queued(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch, self._queue = self._queue[:BATCH], self._queue[BATCH:]
                try:
                    await self._send(batch)
                except Exception:  # a bug here must not silence every later change
                    log.exception("notifications: sending %d change(s) failed", len(batch))
            if self._closing:
                return

    async def _send(self, batch: list[tuple[str, int]]) -> None:
        texts = [payload(table_id, step) for table_id, step in batch]
        for attempt in (1, 2):
            try:
                if self._publisher is None or self._publisher.closed:
                    self._publisher = await self._connect()
                # unnest keeps the array's order, and NOTIFY keeps a transaction's order.
                await self._publisher.execute(
                    "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (self.channel, texts)
                )
                return
            except psycopg.Error as error:
                await self._close(self._publisher)
                self._publisher = None
                if attempt == 2:
                    log.warning(
                        "could not notify other processes of %d change(s) (%s): %s",
                        len(batch),
                        ", ".join(texts[:3]),
                        error,
                    )
        for table_id, step in batch:  # at least this process's clients hear of them
            self._deliver(table_id, step)

    async def _connect(self) -> psycopg.AsyncConnection:
        return await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, connect_timeout=5, application_name="ranchhand-notify"
        )

    async def _listen(self) -> psycopg.AsyncConnection:
        conn = await self._connect()
        try:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        except BaseException:
            await self._close(conn)
            raise
        self._listening = conn
        return conn

    async def _run(self, conn: psycopg.AsyncConnection | None) -> None:
        delay = FIRST_DELAY
        while True:
            if conn is None:
                try:
                    conn = await self._listen()
                except psycopg.Error as error:
                    log.warning(
                        "notifications: cannot listen (%s); retrying in %.1f s", error, delay
                    )
                    await asyncio.sleep(delay * random.uniform(0.8, 1.2))
                    delay = min(delay * 2, MAX_DELAY)
                    continue
                self.reconnects += 1
                log.info("notifications: listening again after a lost connection")
                delay = FIRST_DELAY
                if self.on_reconnect is not None and (
                    self._reconnected is None or self._reconnected.done()
                ):
                    self._reconnected = asyncio.create_task(
                        self._guarded(self.on_reconnect()), name="ranchhand-notify-reconnected"
                    )
            try:
                async for note in conn.notifies(timeout=self.heartbeat):
                    parsed = parse_payload(note.payload)
                    if parsed is None:
                        log.warning("notifications: ignored a malformed payload %r", note.payload)
                        continue
                    self._deliver(*parsed)
                await conn.execute("SELECT 1")  # a quiet connection may be a dead one
            except psycopg.Error as error:
                log.warning("notifications: the listening connection dropped (%s)", error)
                await self._close(conn)
                self._listening = conn = None

    def _deliver(self, table_id: str, step: int) -> None:
        """Hand a change to its table's handler and return at once."""
        if self._changes is not None:
            self._changes.submit(table_id, step)

    @staticmethod
    async def _guarded(call: Awaitable[None]) -> None:
        """Await a server callback; its failure is logged, never stops anything else."""
        try:
            await call
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("notifications: a change handler failed")

    @staticmethod
    async def _close(conn: psycopg.AsyncConnection | None) -> None:
        if conn is not None and not conn.closed:
            with contextlib.suppress(Exception):
                await conn.close()
