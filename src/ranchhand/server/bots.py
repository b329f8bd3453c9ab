"""The server's own moves: bots with a per-table delay, and turn clocks.

Bots due with no delay move inside the transaction of the move that made them
due (see :mod:`ranchhand.server.tables`). Everything else the server does by
itself runs here, one asyncio task per table at most: wait until the next bot
is due (the last move's time plus the table's delay) or the turn clock runs out
(the last move's time plus the clock), then make that move in a transaction of
its own that first checks the table is still at the step it waited on. Times
come from the database, so a restarted server resumes every clock where it was.
With several processes each may try the same move; the database keeps one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ranchhand.server.errors import TableError
from ranchhand.server.notify import Notifier
from ranchhand.server.tables import TableService

log = logging.getLogger("ranchhand.server")


class BotRunner:
    """Waits for what tables expect of the server and does it; ``poke`` after any change."""

    def __init__(self, service: TableService, notifier: Notifier) -> None:
        self.service = service
        self.notifier = notifier
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._closing = False

    def poke(self, table_id: str) -> None:
        """Look at ``table_id`` again (it changed): start over its wait, if any."""
        if self._closing:
            return
        old = self._tasks.pop(table_id, None)
        if old is not None:
            old.cancel()
        task = asyncio.create_task(self._drive(table_id), name=f"ranchhand-bots-{table_id}")
        self._tasks[table_id] = task
        task.add_done_callback(lambda done: self._done(table_id, done))

    def _done(self, table_id: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(table_id) is task:
            del self._tasks[table_id]

    async def resume(self) -> int:
        """Pick up every table still playing (after a start or a restart)."""
        ids = await asyncio.to_thread(self.service.playing)
        for table_id in ids:
            self.poke(table_id)
        if ids:
            log.info("resumed %d playing tables", len(ids))
        return len(ids)

    async def stop(self) -> None:
        self._closing = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    async def _drive(self, table_id: str) -> None:
        try:
            due = await asyncio.to_thread(self.service.due, table_id)
            if due is None:
                return
            wait = due.at - time.time()
            if wait > 0:
                await asyncio.sleep(wait + 0.01)
            # Once started, a move is finished and announced even if this wait is cancelled.
            await asyncio.shield(self._advance(table_id, due.step, due.kind))
        except asyncio.CancelledError:
            raise
        except TableError as error:
            log.info("table %s: nothing for the bots to do (%s)", table_id, error.message)
        except Exception:
            log.exception("table %s: a bot or clock move failed", table_id)

    async def _advance(self, table_id: str, step: int, kind: str) -> None:
        moved = await asyncio.to_thread(self.service.advance, table_id, step, kind)
        if moved is not None:
            await self.notifier.publish(table_id, moved.live.step)
