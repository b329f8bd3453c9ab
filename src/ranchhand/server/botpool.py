"""Search bots decide here: a bounded pool of worker processes, off the event loop.

A search bot (``ismcts``, ``normal``, ``hard``) is pure-Python CPU work that holds the
GIL for up to seconds a decision. In a thread of the server it would share one core
with the event loop and every request (a health check waited 1.5 s behind six of them);
in a process of its own it runs beside the server, on another core, and the operating
system keeps the two apart. The pool's processes also run at a lower priority (``nice``
:data:`NICE`), so on a busy machine the server's own work goes first.

What crosses the process boundary is small: the table's game, options and seed, its
move log (texts, as stored) and which seats to play with which bot. A worker rebuilds
the state by replaying the log (cached per table, so usually only the new moves are
applied), lets each bot choose from that seat's observation with the generator
``Random(derive_seed(seed, "bots", step))`` the server itself would use, and answers
with the actions' texts and the CPU seconds it spent. The server checks and commits
them like any move (``TableService.apply_decision``). A table sticks to one worker,
so the bot objects (some remember a turn) live on between its decisions, as they do
in the server's own cache.

Bounds: ``processes`` workers (the server sizes it from the cores); each waiting job
is queued by priority (tables with people first, bots-only tables when nobody waits);
a decision that runs past ``timeout`` seconds has its worker killed (and replaced);
:meth:`BotPool.cancel` drops a table's queued work and kills a worker busy with it;
:meth:`BotPool.close` kills them all. A worker whose server dies exits: between jobs it
reads end-of-file on its pipe; in the middle of one (a search, or the first compile of a
game's kernels, which can take half a minute on a busy machine) a thread of its own sees
within :data:`WATCH` seconds that its parent has gone, so no orphan computes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ranchhand.core.undo import Trail, replay_log

log = logging.getLogger("ranchhand.server")

NICE = 10
"""How much lower than the server the workers run (``os.nice``)."""
TIMEOUT = 60.0
"""Seconds of wall time a job may take before its worker is killed (a search decision
is capped at 0.5 s, ``hard`` at 3 s; this only catches what went wrong)."""
TABLES_KEPT = 32
"""Tables whose replayed state a worker keeps between jobs."""
GAMES_KEPT = 8
"""Loaded games (by game, players and options) a worker keeps for its tables."""
AFFINITY_KEPT = 10_000
"""Tables whose worker the pool remembers."""
WATCH = 0.5
"""Seconds between a worker's looks at whether its server is still its parent."""


def default_processes(workers: int = 1) -> int:
    """Half the cores this process may use, at least one (each of ``workers`` server
    processes gets its share): the other half serves requests and the database."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores // (2 * max(1, workers)))


@dataclass(frozen=True)
class Job:
    """What a worker needs to make some bot decisions at one table."""

    table_id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    moves: tuple[tuple[int, str], ...]
    """The whole log so far (player, action text)."""
    plays: tuple[tuple[int, str], ...]
    """(seat, bot) to play in this order, each while that seat is still to act."""


@dataclass(frozen=True)
class Decided:
    moves: list[tuple[int, str]]
    cpu: float


class BotError(Exception):
    """A job that gave no decision: it timed out, its worker died, or the bot failed."""


class Cancelled(BotError):
    """The table's work was cancelled (the table closed, or the server stops)."""


# ------------------------------------------------------------------ the worker side
@dataclass
class _Table:
    key: tuple[str, int, str]
    state: Any
    moves: list[tuple[int, str]] = field(default_factory=list)
    bots: dict[int, tuple[str, Any]] = field(default_factory=dict)
    trail: Trail = field(default_factory=Trail)
    """What an undo step of the log takes back (the log has them: core/undo.py)."""


class _Memory:
    """A worker's loaded games and replayed tables (both bounded, least recent first out)."""

    def __init__(self) -> None:
        self.games: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
        self.tables: OrderedDict[str, _Table] = OrderedDict()

    def game(self, key: tuple[str, int, str]) -> Any:
        from ranchhand.core.data import files_allowed
        from ranchhand.core.registry import load

        loaded = self.games.get(key)
        if loaded is None:
            with files_allowed(False):
                loaded = load(key[0], key[1], **json.loads(key[2]))
            self.games[key] = loaded
            while len(self.games) > GAMES_KEPT:
                self.games.popitem(last=False)
        self.games.move_to_end(key)
        return loaded

    def table(self, job: Job) -> _Table:
        """The table at the end of ``job.moves``: the kept one moved on, or replayed anew."""
        key = (job.game, job.players, json.dumps(job.options, sort_keys=True))
        kept = self.tables.pop(job.table_id, None)
        known = len(kept.moves) if kept is not None else 0
        if (
            kept is None
            or kept.key != key
            or known > len(job.moves)
            or list(job.moves[:known]) != kept.moves
        ):
            kept, known = _Table(key, self.game(key).new_initial_state()), 0
        new = job.moves[known:]
        kept.state = replay_log(kept.state, new, trail=kept.trail, first=known)
        kept.moves.extend(new)
        self.tables[job.table_id] = kept
        while len(self.tables) > TABLES_KEPT:
            self.tables.popitem(last=False)
        return kept

    def play(self, job: Job) -> list[tuple[int, str]]:
        from ranchhand.core.registry import bot_factory
        from ranchhand.core.runner import derive_seed

        table = self.table(job)
        made: list[tuple[int, str]] = []
        for seat, kind in job.plays:
            state = table.state
            if state.is_terminal() or seat not in state.acting_players():
                break
            known = table.bots.get(seat)
            if known is None or known[0] != kind:
                known = table.bots[seat] = (kind, bot_factory(state.game, kind)())
            rng = random.Random(derive_seed(job.seed, "bots", len(table.moves)))
            action = known[1].act(state.observe(seat), state.legal_actions(seat), rng)
            table.trail.before(state, seat, len(table.moves))
            state.apply(action, seat)
            table.moves.append((seat, str(action)))
            made.append((seat, str(action)))
        return made


def _watch(server: int) -> None:
    """Exit at once when the process that started this worker is no longer its parent
    (the server died, and the worker was handed to another): the pipe's end-of-file is
    only read between jobs. Also when the server was gone before the watch began."""
    while os.getppid() == server:
        time.sleep(WATCH)
    os._exit(0)


def _serve(connection: Connection, server: int | None = None) -> None:
    """A worker: answer jobs until the server closes the pipe or is gone (``server``:
    its pid, watched by :func:`_watch`)."""
    if server is not None:
        threading.Thread(target=_watch, args=(server,), name="watch", daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    with contextlib.suppress(OSError):
        os.nice(NICE)
    memory = _Memory()
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        started = time.process_time()
        reply: tuple[Any, ...]
        try:
            reply = ("ok", memory.play(job), time.process_time() - started)
        except Exception as error:  # the server logs it and falls back
            memory.tables.pop(getattr(job, "table_id", ""), None)
            reply = ("error", f"{type(error).__name__}: {error}", time.process_time() - started)
        try:
            connection.send(reply)
        except (BrokenPipeError, OSError):
            return


# ------------------------------------------------------------------ the server side
@dataclass(order=True)
class _Queued:
    priority: int
    order: int
    job: Job = field(compare=False)
    future: asyncio.Future[Decided] = field(compare=False)


@dataclass(eq=False)
class _Worker:
    process: Any
    connection: Connection
    queue: list[_Queued] = field(default_factory=list)
    current: _Queued | None = None
    timer: asyncio.TimerHandle | None = None
    tables: int = 0
    """Tables the pool sends here (for placing a new table on the least busy worker)."""


class BotPool:
    """``processes`` worker processes, started on first use; see the module docstring."""

    def __init__(self, processes: int, *, timeout: float = TIMEOUT) -> None:
        if processes < 1:
            raise ValueError(f"a bot pool needs at least one process, got {processes}")
        self.processes = processes
        self.timeout = timeout
        self._workers: list[_Worker] = []
        self._where: OrderedDict[str, _Worker] = OrderedDict()
        self._order = itertools.count()
        self._closed = False
        self.cpu = 0.0
        """CPU seconds all decisions took (for logs and benchmarks)."""

    @property
    def started(self) -> int:
        return len(self._workers)

    async def run(self, job: Job, *, priority: int = 0) -> Decided:
        """The decisions of ``job`` (lower ``priority`` goes first); BotError if none."""
        if self._closed:
            raise Cancelled("the bot pool is closed")
        if not self._workers:
            try:
                self._workers = [self._spawn() for _ in range(self.processes)]
            except Exception as error:  # no processes here: the caller falls back
                raise BotError(f"bot processes cannot start: {error}") from error
        worker = self._worker_for(job.table_id)
        future: asyncio.Future[Decided] = asyncio.get_running_loop().create_future()
        heapq.heappush(worker.queue, _Queued(priority, next(self._order), job, future))
        self._next(worker)
        return await future

    def cancel(self, table_id: str) -> None:
        """Drop ``table_id``'s queued jobs and stop any decision being made for it."""
        worker = self._where.pop(table_id, None)
        if worker is None:
            return
        worker.tables -= 1
        kept = []
        for queued in worker.queue:
            if queued.job.table_id == table_id:
                if not queued.future.done():
                    queued.future.set_exception(Cancelled(f"table {table_id}: bots cancelled"))
            else:
                kept.append(queued)
        heapq.heapify(kept)
        worker.queue = kept
        if worker.current is not None and worker.current.job.table_id == table_id:
            self._restart(worker, Cancelled(f"table {table_id}: bots cancelled"))

    def forget(self, table_id: str) -> None:
        """``table_id`` needs nothing more for now: free its place (unless it has work)."""
        worker = self._where.get(table_id)
        if worker is None:
            return
        busy = worker.current is not None and worker.current.job.table_id == table_id
        if not busy and all(q.job.table_id != table_id for q in worker.queue):
            del self._where[table_id]
            worker.tables -= 1

    async def close(self) -> None:
        """Kill every worker; waiting and running jobs end with Cancelled."""
        self._closed = True
        for worker in self._workers:
            self._stop(worker, Cancelled("the server stops"))
            for queued in worker.queue:
                if not queued.future.done():
                    queued.future.set_exception(Cancelled("the server stops"))
            worker.queue.clear()
        for worker in self._workers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(worker.process.wait, 5)
        self._workers.clear()
        self._where.clear()

    # ------------------------------------------------------------- internals
    def _spawn(self) -> _Worker:
        """A new worker: ``python -m ranchhand.server.botpool FD PID`` on one end of a
        socket pair, watching this process (``PID``). A fresh interpreter inherits nothing
        of the server (no threads, sockets, database connections, nor its main module,
        which multiprocessing would import again), and its end of the pair is all it
        shares with it."""
        ours, theirs = socket.socketpair()
        module, fd = "ranchhand.server.botpool", str(theirs.fileno())
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", module, fd, str(os.getpid())],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        return _Worker(process, Connection(ours.detach()))

    def _worker_for(self, table_id: str) -> _Worker:
        worker = self._where.get(table_id)
        if worker is None or worker not in self._workers:
            worker = min(self._workers, key=lambda w: (w.tables, len(w.queue)))
            worker.tables += 1
            self._where[table_id] = worker
            while len(self._where) > AFFINITY_KEPT:
                _, old = self._where.popitem(last=False)
                old.tables -= 1
        self._where.move_to_end(table_id)
        return worker

    def _next(self, worker: _Worker) -> None:
        """Send ``worker`` its next job if it is idle."""
        while worker.current is None and worker.queue:
            queued = heapq.heappop(worker.queue)
            if queued.future.done():  # its waiter went away
                continue
            try:
                worker.connection.send(queued.job)
            except (BrokenPipeError, OSError):
                heapq.heappush(worker.queue, queued)
                self._restart(worker, None)
                return
            worker.current = queued
            loop = asyncio.get_running_loop()
            loop.add_reader(worker.connection.fileno(), self._answered, worker)
            worker.timer = loop.call_later(self.timeout, self._timed_out, worker)

    def _answered(self, worker: _Worker) -> None:
        queued = worker.current
        try:
            reply = worker.connection.recv()
        except (EOFError, OSError):
            self._restart(worker, BotError("the bot process died"))
            return
        self._idle(worker)
        if queued is not None and not queued.future.done():
            if reply[0] == "ok":
                self.cpu += reply[2]
                queued.future.set_result(Decided(reply[1], reply[2]))
            else:
                queued.future.set_exception(BotError(reply[1]))
        self._next(worker)

    def _timed_out(self, worker: _Worker) -> None:
        self._restart(worker, BotError(f"no decision within {self.timeout:g} s"))

    def _idle(self, worker: _Worker) -> None:
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(worker.connection.fileno())
        if worker.timer is not None:
            worker.timer.cancel()
        worker.current, worker.timer = None, None

    def _stop(self, worker: _Worker, error: BotError | None) -> None:
        queued = worker.current
        self._idle(worker)
        if worker.process.poll() is None:
            worker.process.kill()
        worker.connection.close()
        if queued is not None and error is not None and not queued.future.done():
            queued.future.set_exception(error)

    def _restart(self, worker: _Worker, error: BotError | None) -> None:
        """Kill ``worker`` (failing its job with ``error``) and put a new one in its place."""
        self._stop(worker, error)
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(1)
        if error is not None:
            log.warning("bot pool: a worker was replaced (%s)", error)
        try:
            fresh = self._spawn()
        except Exception as failed:  # its jobs fail (the runner falls back); the next retries
            log.error("bot pool: a worker cannot start: %s", failed)
            for queued in worker.queue:
                if not queued.future.done():
                    queued.future.set_exception(BotError(f"bot processes cannot start: {failed}"))
            worker.queue.clear()
            return
        worker.process, worker.connection = fresh.process, fresh.connection
        self._next(worker)


if __name__ == "__main__":  # a worker, started by BotPool._spawn
    _serve(Connection(int(sys.argv[1])), int(sys.argv[2]))
