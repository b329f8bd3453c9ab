"""Process supervision: workers that die with their parent, and a clean exit on SIGTERM.

``ranchhand serve --workers N`` runs uvicorn's supervisor, which starts N worker
processes (multiprocessing's *spawn* context, from its main thread) and restarts
any that die. Nothing in uvicorn stops a worker whose supervisor was killed with
SIGKILL (or crashed): the workers kept the listening socket and served on, with
multiprocessing's resource tracker (which lives as long as any of them holds its
pipe). :func:`worker_app`, the factory every worker builds its app with, makes a
worker follow its parent:

- on Linux, ``prctl(PR_SET_PDEATHSIG, SIGTERM)``: the kernel sends SIGTERM when the
  thread that started the worker ends. uvicorn starts (and restarts) workers from
  the supervisor's main thread, so that is the process's own end;
- everywhere, a thread that waits on multiprocessing's parent sentinel (a pipe
  whose other end only the parent holds: it reads end-of-file once the parent is
  gone) and then sends the worker SIGTERM.

Either way the worker drains as on any SIGTERM (uvicorn's graceful shutdown: no
new connections, requests in flight finish, WebSockets close) and exits; when the
last worker is gone the resource tracker reads end-of-file and exits too.

:class:`StopSignals` is the other half: uvicorn's single-process server re-raises
the SIGTERM it caught once it has drained, so with the default handler back in
place the process died of the signal (exit 143) after a clean shutdown.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI

__all__ = ["StopSignals", "Stopped", "follow_parent", "worker_app"]

log = logging.getLogger("ranchhand.server")

PR_SET_PDEATHSIG = 1
"""From linux/prctl.h."""
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def worker_app() -> FastAPI:
    """The factory uvicorn's workers call: follow the parent, then build the app."""
    follow_parent()
    from ranchhand.server.app import app_from_env, tune_garbage_collector

    app = app_from_env()
    tune_garbage_collector()
    return app


def follow_parent(*, death_signal: bool = True, watch: bool = True) -> bool:
    """Make this process get SIGTERM when the process that started it is gone.

    Does nothing (and answers False) outside a multiprocessing child. Both ways are
    used (``death_signal``, Linux only, and the ``watch`` thread); a test turns one off
    to see that the other works alone. After arming them it checks once that the
    parent is still the one that started us: one that died just before would never
    signal.
    """
    parent = multiprocessing.parent_process()
    if parent is None or parent.pid is None:
        return False
    if death_signal:
        _arm_parent_death_signal()
    if watch:
        threading.Thread(
            target=_watch_parent,
            args=(parent.pid, parent.sentinel),
            name="parent-watch",
            daemon=True,
        ).start()
    if sys.platform != "win32" and os.getppid() != parent.pid:
        _parent_gone(parent.pid)
    return True


def _arm_parent_death_signal() -> bool:
    """Linux only: ask the kernel for SIGTERM when our parent ends. False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) == 0
    except (OSError, AttributeError):
        done = False
    if not done:
        log.warning("prctl(PR_SET_PDEATHSIG) failed; only the parent watch thread remains")
    return done


def _watch_parent(parent_pid: int, sentinel: Any) -> None:
    """Wait until the parent's end of the pipe closes, then stop this worker."""
    with contextlib.suppress(OSError, ValueError):
        multiprocessing.connection.wait([sentinel])
    _parent_gone(parent_pid)


def _parent_gone(parent_pid: int) -> None:
    log.warning("the supervising process [%d] is gone; this worker drains and stops", parent_pid)
    signal.raise_signal(signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """SIGINT or SIGTERM came before the server began to serve: stop without serving.

    A KeyboardInterrupt, as Ctrl-C would be: psycopg then cancels a query in flight (a
    migration waiting for another process's lock) and SQLAlchemy drops the connection
    instead of resetting it, where any other exception left the connection busy.
    """


class StopSignals:
    """SIGINT and SIGTERM for ``ranchhand serve``'s own process, so that a stop exits 0.

    While nothing serves yet (the database being checked and migrated), a signal
    raises :class:`Stopped`: nothing is lost by stopping there, as the migration runs
    in one transaction. Once a uvicorn server is attached, its own handlers take over
    while it runs; a signal that reaches this handler then is either one that came
    just before uvicorn installed them (passed on, so uvicorn stops at once) or the
    one uvicorn re-raises after it has drained, which is ignored: the server returns
    and the process exits 0 like after any clean stop. uvicorn's multi-process
    supervisor installs its handlers for good and returns normally, so it needs no
    help.
    """

    def __init__(self) -> None:
        self.server: uvicorn.Server | None = None
        self.received: list[int] = []
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # signals can only be handled in the main thread (a test's server)
        for sig in STOP_SIGNALS:
            self._previous[sig] = signal.signal(sig, self.handle)

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()

    def handle(self, sig: int, frame: FrameType | None) -> None:
        self.received.append(sig)
        server = self.server
        if server is None:
            raise Stopped(signal.Signals(sig).name)
        if not server.should_exit:
            server.handle_exit(sig, frame)

    def __enter__(self) -> StopSignals:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()
