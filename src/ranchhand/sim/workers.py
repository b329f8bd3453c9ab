"""Worker processes of a simulation: work handed out a few chunks ahead, stops that are
prompt and leave nothing behind.

Why not ``ProcessPoolExecutor``: it builds every task up front, has workers die on
the terminal's Ctrl-C in the middle of a record, and gives no way to ask them to
finish the game at hand and report what they did. Here each worker has its own
pipe; the parent hands out ``(start, stop)`` ranges of game indices, never more
than a fixed number of games past the first unreported one, and reads results as
they come. Stopping (a signal to the parent, see :class:`StopControl`) sets an
event the workers check between games: each finishes its current game, sends what
it played and exits. A second signal, or a worker that does not answer within
:data:`GRACE` seconds, is killed. Workers ignore the terminal's SIGINT (the parent
decides for the run), treat SIGTERM like the parent's stop, and leave on their own
when their parent is gone (a watcher thread compares ``os.getppid()``), so no
worker outlives its run.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from ranchhand.core.game import GameSummary
from ranchhand.sim.tally import InOrder

TICK = 0.1
"""Seconds between checks for a stop, a signal or a lost parent (bounds the delay)."""

GRACE = 2.0
"""Seconds a stopping worker has to finish its game and report before it is killed."""

Play = Callable[[int], GameSummary]


class StopControl:
    """What the parent heard: the first SIGINT or SIGTERM asks for a clean stop, a second
    for an immediate one. Handlers only set flags, so a signal never lands in the middle
    of adding up results; the run's loops look at the flags every :data:`TICK`.
    """

    def __init__(self) -> None:
        self.signal: int | None = None
        self.force = False
        self.reason: str | None = None

    def request(self, signum: int, frame: object = None) -> None:
        if self.signal is None and self.reason is None:
            self.signal = signum
            self.reason = signal.Signals(signum).name
        else:
            self.force = True

    def fail(self, reason: str) -> None:
        """Stop because something broke (a worker died), not because someone asked."""
        if self.reason is None:
            self.reason = reason

    @property
    def requested(self) -> bool:
        return self.reason is not None

    @contextlib.contextmanager
    def catching(self, *, leaving: bool = False) -> Iterator[StopControl]:
        """Handle SIGINT and SIGTERM while the run lasts (main thread only; elsewhere the
        caller's handling is left alone), then put the previous handlers back.

        With ``leaving`` (a command about to exit), a run stopped by a signal ignores
        further ones instead: a second Ctrl-C landing after the report would otherwise
        turn a clean exit into a KeyboardInterrupt traceback.
        """
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        caught = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.request) for sig in caught}
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                stopped = leaving and self.signal is not None
                signal.signal(sig, signal.SIG_IGN if stopped else handler)


# ------------------------------------------------------------------ the worker side
def _watch_parent(parent: int, leaving: threading.Event) -> None:
    """Leave when the parent is gone: first cleanly, then (if stuck writing to a pipe
    nobody reads) at once. Records are written atomically, so no record is cut."""
    while os.getppid() == parent:
        time.sleep(TICK)
    leaving.set()
    time.sleep(GRACE)
    os._exit(1)


def _portable(error: BaseException) -> BaseException:
    """``error`` with the worker's traceback as a note, or a RuntimeError if it cannot
    cross the pipe."""
    text = "".join(traceback.format_exception(error)).rstrip()
    try:
        error.add_note(f"in a simulation worker:\n{text}")
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"simulation worker failed:\n{text}")


def _work(play: Play, conn: Connection, stop: Any, parent: int, each: bool) -> None:
    """A worker's life: play the ranges it is sent until told to stop or to leave.

    Sends ``(start, results, done, error)``: the games ``start``... it played, whether
    that ends the range it was working on, and an exception if one was raised. With
    ``each`` (records are being written) every game is sent as soon as its record is
    on disk, so the parent knows of every record even if this process is killed.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    leaving = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: leaving.set())
    threading.Thread(target=_watch_parent, args=(parent, leaving), daemon=True).start()

    def stopping() -> bool:
        return leaving.is_set() or bool(stop.is_set())

    try:
        while not stopping():
            if not conn.poll(TICK):
                continue
            task = conn.recv()
            if task is None:
                return
            start, end = task
            first, played = start, []
            for index in range(start, end):
                if stopping():
                    break
                try:
                    played.append(play(index))
                except Exception as error:
                    conn.send((first, played, False, _portable(error)))
                    return
                if each:
                    conn.send((first, played, False, None))
                    first, played = index + 1, []
            conn.send((first, played, first + len(played) == end, None))
    except (EOFError, OSError):
        return  # the parent is gone or closed our pipe: nothing left to report to


# ------------------------------------------------------------------ the parent side
@dataclass
class _Worker:
    process: Any
    conn: Connection
    tasks: deque[list[int]] = field(default_factory=deque)  # [next index, stop] each


def _context() -> Any:
    """Fork where there is fork: workers inherit the loaded game and registry (a test's
    toy game included) without pickling; elsewhere the platform's default."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


@dataclass
class PoolResult:
    """How a parallel run ended: ``error`` a worker raised (to re-raise), or nothing."""

    error: BaseException | None = None
    killed: int = 0


def run_pool(
    play: Play,
    games: int,
    jobs: int,
    chunk: int,
    order: InOrder,
    control: StopControl,
    *,
    each: bool = False,
    progress: Callable[[int], None] | None = None,
) -> PoolResult:
    """Play games ``0 .. games - 1`` on ``jobs`` processes, feeding ``order`` as they end.

    At most ``4 * jobs`` chunks are handed out past the first game not yet added up,
    so neither the work list nor the results waiting for an earlier chunk grow with
    ``games``. Returns when every game is played or ``control`` asks for a stop.
    """
    ctx = _context()
    stop = ctx.Event()
    workers: list[_Worker] = []
    result = PoolResult()
    ahead = chunk * jobs * 4
    starts = iter(range(0, games, chunk))
    pending = next(starts, None)

    def receive(worker: _Worker) -> bool:
        """Read one message; False when the worker is gone."""
        try:
            first, played, done, error = worker.conn.recv()
        except (EOFError, OSError):
            return False
        order.offer(first, played)
        if progress and played:
            progress(len(played))
        if worker.tasks:
            head = worker.tasks[0]
            head[0] = first + len(played)
            if done or head[0] >= head[1]:
                worker.tasks.popleft()
        if error is not None and result.error is None:
            result.error = error
            control.fail(f"{type(error).__name__} in a worker")
        return True

    try:
        for _ in range(jobs):
            mine, theirs = ctx.Pipe()
            process = ctx.Process(
                target=_work, args=(play, theirs, stop, os.getpid(), each), daemon=True
            )
            process.start()
            theirs.close()
            workers.append(_Worker(process, mine))
        while not control.requested:
            for depth in (1, 2):  # one range each first, so neighbours run side by side
                for worker in workers:
                    if pending is None or len(worker.tasks) >= depth:
                        continue
                    if pending - order.next >= ahead:
                        break
                    end = min(pending + chunk, games)
                    worker.conn.send((pending, end))
                    worker.tasks.append([pending, end])
                    pending = next(starts, None)
            busy: dict[Any, _Worker] = {w.conn: w for w in workers if w.tasks}
            if not busy:
                break
            for conn in wait(list(busy), timeout=TICK):
                worker = busy[conn]
                if not receive(worker):
                    control.fail(f"a worker process died ({_death(worker.process)})")
                    break
    finally:
        result.killed = _shutdown(workers, stop, control, receive)
    return result


def _death(process: Any) -> str:
    """How a worker ended: its exit code, or the signal that killed it."""
    process.join(timeout=GRACE)
    code = process.exitcode
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def _shutdown(
    workers: list[_Worker], stop: Any, control: StopControl, receive: Callable[[_Worker], bool]
) -> int:
    """End every worker: told to leave when all is done, else asked to stop and given
    :data:`GRACE` seconds to report its last games, then killed. Returns how many were
    killed."""
    if control.requested:
        stop.set()
    else:
        for worker in workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
    live = list(workers)
    deadline = time.monotonic() + GRACE
    while live and time.monotonic() < deadline and not control.force:
        conns: dict[Any, _Worker] = {w.conn: w for w in live}
        for conn in wait(list(conns), timeout=TICK):
            if not receive(conns[conn]):
                live.remove(conns[conn])
    for worker in live:
        worker.process.kill()
    for worker in workers:
        worker.process.join(timeout=GRACE)
        if worker.process.is_alive():  # pragma: no cover - kill cannot be ignored
            worker.process.kill()
            worker.process.join()
        worker.conn.close()
    return len(live)
