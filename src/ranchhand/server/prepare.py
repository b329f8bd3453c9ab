"""Before a server's tables need them: the tables its bots read, made once, apart.

The server never solves on demand (a stranger's table must not start a minute of CPU and
hundreds of MB; ``create_app`` sets ``RANCHHAND_SOLVE=never``), so a bot whose best play
reads a table made from a shipped one (Super Farmer's racer, the ``normal`` level, reads
a race table tabled from the shipped solitaire policy: 20 to 45 CPU seconds, up to 520 MB,
71 MB cached) would play its fallback for ever on a fresh machine. ``ranchhand serve``
therefore starts this module's :func:`main` in a process of its own, at the lowest CPU
priority, once per start: it asks every bot of every game to :meth:`Bot.prepare` what it
reads, and exits. A table already cached costs a glance. The bots pick the table up at
their next decision; until then they play as without it. The operator decides this, not a
client: ``serve --no-prepare-bots`` (or ``RANCHHAND_PREPARE_BOTS=0``) skips it.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time

from ranchhand.bots.base import Bot
from ranchhand.core.registry import GAME_MODULES, game_module, own_levels

log = logging.getLogger("ranchhand.server")

NICE = 19
"""The preparing process's niceness: it gives way to the server's own work."""
GRACE = 2.0
"""Seconds a preparing process has to stop when the server stops, before it is killed."""


def preparers() -> list[type[Bot]]:
    """The bot classes of every game (its ``BOTS`` and its own levels) that have something
    to prepare, one for each way of preparing (the hard racer inherits the racer's)."""
    found: dict[object, type[Bot]] = {}
    for name in GAME_MODULES:
        classes = [*game_module(name).BOTS.values(), *own_levels(name).values()]
        for cls in classes:
            if isinstance(cls, type) and issubclass(cls, Bot):
                work = cls.prepare.__func__  # type: ignore[attr-defined]
                if work is not Bot.prepare.__func__:  # type: ignore[attr-defined]
                    found.setdefault(work, cls)  # a subclass that inherits it: once
    return list(found.values())


def main() -> int:
    """Prepare every bot's tables (see the module docstring); one line on stderr for each
    table made and for each that could not be. Exit 0, or 1 if any failed."""
    os.nice(NICE)
    # Stopped by the server (:func:`stop`): exit at once, so a table half written is removed.
    # Ctrl-C at the terminal reaches the whole process group; the server stops this one.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.pop("RANCHHAND_SOLVE", None)  # this process is the one allowed to make them
    failed = 0
    done: set[str] = set()
    for cls in preparers():
        started = time.process_time()
        try:
            made = cls.prepare()
        except Exception as error:  # a full disk, a broken cache: said, and the server goes on
            failed += 1
            print(f"ranchhand serve: could not prepare {cls.name}: {error}", file=sys.stderr)
            continue
        if made is not None and made not in done:
            done.add(made)
            spent = time.process_time() - started
            print(f"ranchhand serve: made {made} ({spent:.0f} CPU s)", file=sys.stderr)
    return 1 if failed else 0


ENV = "RANCHHAND_PREPARE_BOTS"
"""``0`` (or ``false``, ``no``, ``off``): a server started without ``--prepare-bots`` does
not prepare (a test suite that starts servers by the dozen sets it)."""


def wanted(flag: bool | None) -> bool:
    """Whether to prepare: ``flag`` if given (``serve --prepare-bots`` or
    ``--no-prepare-bots``), else unless :data:`ENV` says no."""
    if flag is not None:
        return flag
    return os.environ.get(ENV, "").strip().lower() not in ("0", "false", "no", "off")


def start() -> subprocess.Popen[bytes] | None:
    """:func:`main` in a process of its own at the lowest priority, its lines on this
    process's stderr; None (said in the log) if it cannot be started."""
    env = {k: v for k, v in os.environ.items() if k != "RANCHHAND_SOLVE"}
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "ranchhand.server.prepare"],
            env=env,
            stdin=subprocess.DEVNULL,
        )
    except OSError as error:
        log.warning("could not start preparing the bots' tables: %s", error)
        return None


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """End a preparing process that is still running (the server is stopping): asked to
    stop, it removes a table it was writing; one inside a compiled loop is killed after
    :data:`GRACE` seconds (it has written nothing yet). Tables are written whole or not at
    all, so cutting it short leaves nothing broken."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


if __name__ == "__main__":
    sys.exit(main())
