"""How the processes serving tables hear that a table changed.

A move is committed to the database first; then the process that made it calls
``publish(table_id, step)``. A notifier calls ``on_change(table_id, step)`` for
the changes made by any process serving the same database, this one included,
so the WebSocket hub has a single path for local and remote changes and never
holds game state of its own (it rebuilds views from the database).

Whoever tells of changes never waits on their handling: each table's changes are
handled by a task of their own (:class:`Coalescer`), at most one at a time per
table, so a slow table (a WebSocket that does not read, a slow database read)
never holds up another, and a burst of changes to one table is handled once or
twice with its newest step rather than once per change (a handler reads the
table's current state, which holds every change before it).

Besides moves, a change may be of another kind (:data:`EVENT_KINDS`: a chat line, a
seat's presence): ``publish_event(kind, table_id, n)`` announces it and
``on_event(kind, table_id, n)`` hears it, by the same paths and with the same
coalescing as moves (per kind and table). Inside, such a change travels under the key
``KIND!TABLE_ID`` (:func:`event_key`): table ids are URL-safe base64, never holding
``!``, so a move's key stays its table id.

``LocalNotifier`` serves one process. ``make_notifier`` picks the PostgreSQL
notifier (LISTEN/NOTIFY, ``ranchhand.server.notify_pg``) for PostgreSQL URLs when
that module is present, so several processes can share tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger("ranchhand.server")

OnChange = Callable[[str, int], Awaitable[None]]
"""Called with a table's id and its new step (the number of moves committed)."""
OnEvent = Callable[[str, str, int], Awaitable[None]]
"""Called with a change's kind (one of :data:`EVENT_KINDS`), its table's id and a number
(a chat line's ``seq``; 0 for presence)."""
EVENT_KINDS = ("chat", "presence")
"""The kinds of change besides moves."""


def event_key(kind: str, table_id: str) -> str:
    """The key a change of ``kind`` travels under (a move's is its table id)."""
    return f"{kind}!{table_id}"


def split_key(key: str) -> tuple[str | None, str]:
    """``(kind, table_id)`` of a key; kind None for a move.

    >>> split_key("chat!t-1"), split_key("t-1")
    (('chat', 't-1'), (None, 't-1'))
    """
    kind, sep, table_id = key.partition("!")
    return (kind, table_id) if sep else (None, key)


def dispatch(on_change: OnChange, on_event: OnEvent | None) -> OnChange:
    """One handler for every key: moves to ``on_change``, other kinds to ``on_event``
    (dropped without one, as are kinds this version does not know)."""

    async def handle(key: str, number: int) -> None:
        kind, table_id = split_key(key)
        if kind is None:
            await on_change(table_id, number)
        elif on_event is not None and kind in EVENT_KINDS:
            await on_event(kind, table_id, number)

    return handle


class Notifier(Protocol):
    async def start(
        self, on_change: Callable[[str, int], Awaitable[None]], on_event: OnEvent | None = None
    ) -> None:
        """Begin delivering changes: ``on_change(table_id, step)`` after every change
        made by ANY process, this one included. Changes to one table that come while
        its ``on_change`` runs are delivered once more afterwards, with the newest
        step; different tables' calls run side by side. Other kinds go to
        ``on_event(kind, table_id, n)`` alike."""
        ...

    async def publish(self, table_id: str, step: int) -> None:
        """Announce a change; called only after its transaction has committed."""
        ...

    async def publish_event(self, kind: str, table_id: str, number: int) -> None:
        """Announce a change of another kind (:data:`EVENT_KINDS`), once committed."""
        ...

    async def stop(self) -> None:
        """Stop delivering; pending deliveries may be dropped."""
        ...


class Coalescer:
    """Calls ``handler(table_id, step)`` in tasks of its own: at most one call at a time
    per table, and whatever arrives for a table during a call makes one more call after
    it, with the newest step heard.

    ``submit`` never waits, so the loop that hears of changes (a notifier's, the hub's)
    is never held up by the handling of one; tables are handled side by side. A
    handler's failure is logged and does not stop later calls.
    """

    def __init__(self, handler: OnChange, name: str = "ranchhand-change") -> None:
        self._handler = handler
        self._name = name
        self._running: dict[str, asyncio.Task[None]] = {}
        self._pending: dict[str, int] = {}
        self._closed = False

    def submit(self, table_id: str, step: int) -> None:
        """Have ``table_id``'s change handled: now, or after the call already running."""
        if self._closed:
            return
        if table_id in self._running:
            self._pending[table_id] = max(step, self._pending.get(table_id, step))
            return
        self._running[table_id] = asyncio.get_running_loop().create_task(
            self._run(table_id, step), name=f"{self._name}-{table_id}"
        )

    @property
    def busy(self) -> int:
        """How many tables have a call running (or about to)."""
        return len(self._running)

    async def _run(self, table_id: str, step: int) -> None:
        try:
            while True:
                try:
                    await self._handler(table_id, step)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one failed call must not stop the next
                    log.exception("handling a change of table %s failed", table_id)
                later = self._pending.pop(table_id, None)
                if later is None:
                    return
                step = later
        finally:
            self._running.pop(table_id, None)
            self._pending.pop(table_id, None)

    async def stop(self) -> None:
        """Cancel the calls running and take no more; safe to call more than once."""
        self._closed = True
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


class LocalNotifier:
    """Changes made in this process, delivered to this process.

    ``publish`` hands the change to a :class:`Coalescer` and returns at once: the
    request that made the move never waits on the WebSockets, and one table's slow
    handling never delays another's.
    """

    def __init__(self) -> None:
        self._changes: Coalescer | None = None

    async def start(
        self, on_change: Callable[[str, int], Awaitable[None]], on_event: OnEvent | None = None
    ) -> None:
        handler = on_change if on_event is None else dispatch(on_change, on_event)
        self._changes = Coalescer(handler, name="ranchhand-local-change")

    async def publish(self, table_id: str, step: int) -> None:
        if self._changes is not None:
            self._changes.submit(table_id, step)

    async def publish_event(self, kind: str, table_id: str, number: int) -> None:
        if self._changes is not None:
            self._changes.submit(event_key(kind, table_id), number)

    async def stop(self) -> None:
        changes, self._changes = self._changes, None
        if changes is not None:
            await changes.stop()


def is_postgres(db_url: str) -> bool:
    return db_url.startswith(("postgresql", "postgres:"))


def make_notifier(
    db_url: str, on_reconnect: Callable[[], Awaitable[None]] | None = None
) -> Notifier:
    """``PostgresNotifier`` for a PostgreSQL URL (changes cross processes), else local.

    ``on_reconnect`` is called when a lost listening connection is back: changes
    made meanwhile by other processes went unheard, so the server resends its views.
    """
    if is_postgres(db_url):
        from ranchhand.server.notify_pg import PostgresNotifier

        return PostgresNotifier(db_url, on_reconnect=on_reconnect)
    return LocalNotifier()
