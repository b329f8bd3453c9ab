"""How the processes serving tables hear that a table changed.

A move is committed to the database first; then the process that made it calls
``publish(table_id, step)``. A notifier calls ``on_change(table_id, step)`` for
every change made by any process serving the same database, this one included,
so the WebSocket hub has a single path for local and remote changes and never
holds game state of its own (it rebuilds views from the database).

``LocalNotifier`` serves one process. ``make_notifier`` picks the PostgreSQL
notifier (LISTEN/NOTIFY, ``ranchhand.server.notify_pg``) for PostgreSQL URLs when
that module is present, so several processes can share tables.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger("ranchhand.server")

OnChange = Callable[[str, int], Awaitable[None]]
"""Called with a table's id and its new step (the number of moves committed)."""


class Notifier(Protocol):
    async def start(self, on_change: Callable[[str, int], Awaitable[None]]) -> None:
        """Begin delivering changes: ``on_change(table_id, step)`` for every change
        made by ANY process, this one included."""
        ...

    async def publish(self, table_id: str, step: int) -> None:
        """Announce a change; called only after its transaction has committed."""
        ...

    async def stop(self) -> None:
        """Stop delivering; pending deliveries may be dropped."""
        ...


class LocalNotifier:
    """Changes made in this process, delivered to this process in order.

    ``publish`` queues the change and returns at once; one task delivers the
    queue, so a slow WebSocket never holds up the request that made the move.
    """

    def __init__(self) -> None:
        self._queue: asyncio.Queue[tuple[str, int] | None] | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, on_change: Callable[[str, int], Awaitable[None]]) -> None:
        queue: asyncio.Queue[tuple[str, int] | None] = asyncio.Queue()
        self._queue = queue

        async def deliver() -> None:
            while True:
                item = await queue.get()
                if item is None:
                    return
                try:
                    await on_change(*item)
                except Exception:  # one failed delivery must not stop the next
                    log.exception("delivering a change of table %s failed", item[0])

        self._task = asyncio.create_task(deliver(), name="ranchhand-local-notifier")

    async def publish(self, table_id: str, step: int) -> None:
        if self._queue is not None:
            self._queue.put_nowait((table_id, step))

    async def stop(self) -> None:
        if self._queue is not None and self._task is not None:
            self._queue.put_nowait(None)
            try:
                await asyncio.wait_for(self._task, 5)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
        self._queue, self._task = None, None


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
