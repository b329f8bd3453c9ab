"""The browser one command away: ``ranchhand play GAME --browser`` and ``ranchhand serve
--open``.

The server runs in this process as ``ranchhand serve`` would (SQLite in this folder by
default). Beside it a thread waits until ``/api/health`` answers, creates the table
through the public HTTP API (``POST /api/tables``, the very request a script or the
lobby sends), prints the seat's link, and opens it in the browser. The link is always
printed: on a machine without a browser (a server reached over SSH) it is the way in.
Nothing here reaches into the server: it is one more client.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import webbrowser
from collections.abc import Callable
from typing import Any

from rich.console import Console

from ranchhand.cli.safe import plain

READY_TIMEOUT = 60.0
"""Seconds to wait for the server to answer before giving up on the table (a first start
creates the database; a slow disk or a busy machine may take a while)."""


def local_base(host: str, port: int, root_path: str = "") -> str:
    """The address this machine reaches the server at: an 'every interface' host (0.0.0.0,
    ::) is reached on the loopback."""
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}.get(host, host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}{root_path.rstrip('/')}"


def table_request(
    game: str, kinds: list[str], options: dict[str, str], names: list[str] | None
) -> dict[str, Any]:
    """The body of ``POST /api/tables`` for a table with these seats (``human`` or a bot)."""
    body: dict[str, Any] = {"game": game, "seats": kinds, "options": options}
    if names is not None:
        body["names"] = names
    return body


def seat_link(created: dict[str, Any]) -> str:
    """The page for the people at this keyboard: one human seat's link, or the hot-seat page
    holding every human seat (``#tokens=T0,T1``), or the spectator page when bots play alone."""
    tokens = [seat["token"] for seat in created["seats"] if seat.get("token")]
    if len(tokens) == 1:
        return next(seat["url"] for seat in created["seats"] if seat.get("token"))
    if tokens:
        return f"{created['spectate']}#tokens={','.join(tokens)}"
    return str(created["spectate"])


def can_open_browser() -> bool:
    """Whether :func:`webbrowser.open` would show a page in a window: $BROWSER names one,
    a desktop session runs, or the system has its own opener. Without these, Python's
    module may start a text browser (lynx, w3m) on this very terminal, over the server's
    output: then only the link is printed."""
    if os.environ.get("BROWSER"):
        return True
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class TableOpener(threading.Thread):
    """Waits for the server at ``base``, creates the table ``body`` (or none: the lobby),
    prints its link and opens it. If the server refuses the table it says why and stops
    the server (SIGTERM to this process, which ``ranchhand serve`` drains on), so the
    command ends with :attr:`failed` set instead of serving an empty lobby."""

    def __init__(
        self,
        base: str,
        body: dict[str, Any] | None,
        console: Console,
        *,
        opener: Callable[[str], bool] = webbrowser.open,
        timeout: float = READY_TIMEOUT,
    ) -> None:
        super().__init__(name="ranchhand-open", daemon=True)
        self.base, self.body, self.console = base, body, console
        self.opener, self.timeout = opener, timeout
        self.failed: str | None = None
        self.link: str | None = None

    def run(self) -> None:
        if not self._wait_ready():
            return
        link = f"{self.base}/"
        if self.body is not None:
            try:
                created = _post_json(f"{self.base}/api/tables", self.body)
            except _Refused as error:
                self._fail(f"the server refused the table: {error}")
                return
            link = seat_link(created)
        self.link = link
        self.console.print(f"\n[bold]Your table:[/] {plain(link)}", soft_wrap=True)
        opened = can_open_browser() and _quietly(self.opener, link)
        if opened:
            self.console.print("Opened in your browser. Ctrl-C here stops the server.")
        else:
            port = urllib.parse.urlsplit(self.base).port
            self.console.print(
                "No browser to open here: open the link in a browser on this machine (from "
                f"another over SSH: ssh -L {port}:127.0.0.1:{port} THIS-HOST, then the link "
                "there). Ctrl-C here stops the server."
            )

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/api/health", timeout=2) as answer:
                    if answer.status == 200:
                        return True
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        self.console.print(
            f"[yellow]The server did not answer at {plain(self.base)} within "
            f"{self.timeout:.0f} s; no table was created.[/]"
        )
        return False

    def _fail(self, message: str) -> None:
        self.failed = message
        self.console.print(f"[bold red]error:[/] {plain(message)}", soft_wrap=True)
        os.kill(os.getpid(), signal.SIGTERM)


class _Refused(Exception):
    """The server answered the request with an error (its ``{"error": ...}`` message)."""


def _post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return dict(json.loads(answer.read()))
    except urllib.error.HTTPError as error:
        try:
            message = str(json.loads(error.read()).get("error", error.reason))
        except (ValueError, AttributeError):
            message = str(error.reason)
        raise _Refused(message) from None
    except OSError as error:
        raise _Refused(str(error)) from None


def _quietly(opener: Callable[[str], bool], link: str) -> bool:
    """Open ``link``; a browser that fails to start is not an error (the link is printed)."""
    try:
        return bool(opener(link))
    except Exception:
        return False
