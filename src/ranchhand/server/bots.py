"""The server's own moves: bots, turn clocks, and closing abandoned tables.

A person's move is answered inside its request only by chance and cheap bots, within
a small budget (see :mod:`ranchhand.server.live`). Everything else the server does by
itself runs here, one asyncio task per table at most: wait until the next bot is due
(the last move's time plus the table's delay) or the turn clock runs out (the last
move's time plus the clock), then

- a cheap bot, chance, or what the inline budget left: played in this process (in a
  thread, within the same budget), committed in a transaction of its own;
- a search bot: its decision is made in the process pool
  (:class:`~ranchhand.server.botpool.BotPool`; tables with people first), then
  checked and committed here (``TableService.apply_decision``). With several server
  processes, a lease in the table's row lets only one of them compute it.

Every commit first checks the table is still as it was when the work began. Times come
from the database, so a restarted server resumes every clock where it was; with several
processes each may try the same cheap move, and the database keeps one. Every change to
any table pokes it in every process: the tables poked since the last look are read
together (one thread hop and one query for up to 64), most often to learn "nothing".

Bounds: a table's search bots may use ``cpu_limit`` CPU seconds in all; past that they
(and a searching clock bot) become the game's cheap bot for the rest of the game, in the
database, so every view shows who plays now, and the server log says why. A decision that
fails (times out, its process dies) is made by that cheap bot instead. A sweep closes
tables with no change for ``expire_after`` seconds (``expire_bots_only_after`` where
nobody sits): their work is cancelled and their viewers get a last view, status
``expired``. ``stop`` cancels everything and kills the pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from dataclasses import dataclass

from ranchhand.core.errors import ActionError
from ranchhand.server.botpool import BotError, BotPool, Cancelled, default_processes
from ranchhand.server.errors import TableError
from ranchhand.server.live import HUMAN, Live
from ranchhand.server.notify import Notifier
from ranchhand.server.tables import Due, TableService

log = logging.getLogger("ranchhand.server")

BOT_CPU_LIMIT = 1800.0
"""CPU seconds a table's search bots may use in all (then they play as the cheap bot)."""
EXPIRE_AFTER = 24 * 3600.0
"""Seconds a table where someone sits may go without any change before it is closed."""
EXPIRE_BOTS_ONLY_AFTER = 3600.0
"""The same for a table where only bots sit."""
SWEEP_EVERY = 60.0
"""Seconds between two looks for tables to close (at most; less for short expiries)."""


def _expects_anything(live: Live) -> bool:
    """Whether :meth:`TableService.due` could find work for the server at ``live``: a
    bot or chance to move, or a clock running; False only when every seat to act is a
    person's and no clock runs, or the table is over (which ``due`` reads from the
    table's row)."""
    if live.expired or live.state.is_terminal():
        return False
    to_act = live.state.acting_players()
    people = all(live.meta.kinds[p] == HUMAN for p in to_act)
    return not to_act or not people or live.meta.clock is not None


@dataclass(eq=False)
class _Driver:
    """The task driving one table, and whether a change came while it was busy."""

    task: asyncio.Task[None] | None = None
    working: bool = False
    again: bool = False


class BotRunner:
    """Waits for what tables expect of the server and does it; ``poke`` after any change."""

    def __init__(
        self,
        service: TableService,
        notifier: Notifier,
        *,
        pool: BotPool | None = None,
        cpu_limit: float = BOT_CPU_LIMIT,
        expire_after: float = EXPIRE_AFTER,
        expire_bots_only_after: float = EXPIRE_BOTS_ONLY_AFTER,
    ) -> None:
        self.service = service
        self.notifier = notifier
        self.pool = pool or BotPool(default_processes())
        self.cpu_limit = cpu_limit
        self.expire_after = expire_after
        self.expire_bots_only_after = expire_bots_only_after
        self.sweep_every = min(SWEEP_EVERY, expire_after / 10, expire_bots_only_after / 10)
        self._drivers: dict[str, _Driver] = {}
        self._stale: set[str] = set()
        """Tables changed since the runner last looked."""
        self._looker: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False

    def poke(self, table_id: str, step: int = -1) -> None:
        """Look at ``table_id`` again (it changed, to ``step`` if known): start over
        its wait, if any.

        Tables poked together are looked at together (one thread hop, one query for
        up to 64 tables): every change to any table pokes it, in every process. Work
        under way (a move being made, a decision in the pool) is not interrupted: its
        commit checks the table did not change, and it looks again when done. A table
        whose state is known without a read (:meth:`TableService.settled`) and waits
        only for people, with no clock, expects nothing: that is settled at once (most
        moves of a person against cheap bots end so, the bots having answered inline).
        """
        if self._closing:
            return
        live = self.service.settled(table_id, step)
        if live is not None and not _expects_anything(live):
            self._stale.discard(table_id)
            self._schedule(table_id, None)
            return
        self._stale.add(table_id)
        if self._looker is None or self._looker.done():
            self._looker = asyncio.create_task(self._look(), name="ranchhand-bots-look")

    async def _look(self) -> None:
        while self._stale and not self._closing:
            ids = list(self._stale)
            self._stale.clear()
            try:
                dues = await asyncio.to_thread(self.service.due_many, ids)
            except Exception:
                log.exception("looking at %d tables for their bots and clocks failed", len(ids))
                self._stale.update(ids)
                await asyncio.sleep(1)
                continue
            for table_id in ids:
                self._schedule(table_id, dues.get(table_id))

    def _schedule(self, table_id: str, due: Due | None) -> None:
        """Drive ``table_id`` towards ``due`` (nothing if None), instead of what it waited
        for; a driver at work is told to look again when done."""
        driver = self._drivers.get(table_id)
        if driver is not None and driver.task is not None and not driver.task.done():
            if driver.working:
                driver.again = True
                return
            driver.task.cancel()
        if due is None:
            self._drivers.pop(table_id, None)
            self.pool.forget(table_id)
            return
        driver = self._drivers[table_id] = _Driver()
        task = asyncio.create_task(
            self._drive(table_id, driver, due), name=f"ranchhand-bots-{table_id}"
        )
        driver.task = task
        task.add_done_callback(lambda _: self._done(table_id, driver))

    def _done(self, table_id: str, driver: _Driver) -> None:
        if self._drivers.get(table_id) is driver:
            del self._drivers[table_id]

    def close_table(self, table_id: str) -> None:
        """Cancel everything under way for ``table_id`` (it was closed)."""
        driver = self._drivers.pop(table_id, None)
        if driver is not None and driver.task is not None:
            driver.task.cancel()
        self._stale.discard(table_id)
        self.pool.cancel(table_id)

    async def resume(self) -> int:
        """Close what expired while nobody served, then pick up every table still playing
        (after a start or a restart), and start the expiry sweep."""
        await self.sweep()
        ids = await asyncio.to_thread(self.service.playing)
        for table_id in ids:
            self.poke(table_id)
        if ids:
            log.info("resumed %d playing tables", len(ids))
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="ranchhand-expiry")
        return len(ids)

    async def stop(self) -> None:
        self._closing = True
        tasks = [d.task for d in self._drivers.values() if d.task is not None]
        tasks += [t for t in (self._sweeper, self._looker) if t is not None]
        for task in tasks:
            task.cancel()
        await self.pool.close()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drivers.clear()

    async def sweep(self) -> int:
        """Close the tables idle for too long now; how many were closed."""
        closed = await asyncio.to_thread(
            self.service.expire, self.expire_after, self.expire_bots_only_after
        )
        for table_id, step in closed:
            self.close_table(table_id)
            await self.notifier.publish(table_id, step)
        return len(closed)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every * random.uniform(0.9, 1.1))
            try:
                await self.sweep()
            except Exception:
                log.exception("closing expired tables failed")

    # ------------------------------------------------------------- one table
    async def _drive(self, table_id: str, driver: _Driver, due: Due) -> None:
        try:
            wait = due.at - time.time()
            if wait > 0:
                await asyncio.sleep(wait + 0.01)
            driver.working = True
            try:
                held_until = await self._do(due)
            finally:
                driver.working = False
            if held_until:  # another process computes this decision: wait for it
                await asyncio.sleep(max(0.0, held_until - time.time()) + 0.1)
            if held_until or driver.again:
                self.poke(table_id)
            # Otherwise what it did is announced, and the announcement pokes it again.
        except asyncio.CancelledError:
            raise
        except Cancelled:
            return
        except TableError as error:
            log.info("table %s: nothing for the bots to do (%s)", table_id, error.message)
        except Exception:
            log.exception("table %s: a bot or clock move failed", table_id)

    async def _do(self, due: Due) -> float:
        """Do what ``due`` says; the end of another process's lease if it holds it, else 0."""
        if not due.seats or not due.search:  # chance, or a cheap bot: here
            await asyncio.shield(self._advance(due, fallback=False))
            return 0.0
        if due.bot_cpu >= self.cpu_limit:
            changed = await asyncio.to_thread(self.service.downgrade, due.table_id, self.cpu_limit)
            if changed:
                await self.notifier.publish(due.table_id, due.step)
            return 0.0
        return await self._search(due)

    async def _advance(self, due: Due, *, fallback: bool) -> None:
        moved = await asyncio.to_thread(
            self.service.advance, due.table_id, due.step, due.kind, fallback=fallback
        )
        if moved is not None:
            await self.notifier.publish(due.table_id, moved.live.step)

    async def _search(self, due: Due) -> float:
        service, table_id = self.service, due.table_id
        held_until = await asyncio.to_thread(
            service.lease, table_id, due.step, self.pool.timeout + 5
        )
        if held_until:
            return held_until
        committed = False
        try:
            made = await asyncio.to_thread(service.job, due)
            if made is None:
                return 0.0
            job, updated = made
            try:
                decided = await self.pool.run(job, priority=0 if due.people else 1)
                timeout = due.bot if due.kind == "clock" else None  # the log says so
                moved = await asyncio.to_thread(
                    service.apply_decision,
                    table_id,
                    due.step,
                    updated,
                    decided.moves,
                    decided.cpu,
                    timeout,
                )
            except Cancelled:
                raise
            except (BotError, ActionError) as error:
                log.warning(
                    "table %s: the %s bot made no move at step %d (%s); the cheap bot moves",
                    table_id,
                    due.bot,
                    due.step,
                    error,
                )
                await asyncio.shield(self._advance(due, fallback=True))
                return 0.0
            if moved is not None:
                committed = True
                await self.notifier.publish(table_id, moved.live.step)
            return 0.0
        finally:
            if not committed:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(service.release, table_id, due.step)
