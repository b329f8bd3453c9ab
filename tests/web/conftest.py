"""Browser tests: a real ``ranchhand serve`` and Debian's Chromium driven by Playwright.

Every test here is skipped, saying why, when ``/usr/bin/chromium`` or the
``playwright`` package is missing (``pip install -e '.[web]'``; as root,
``apt-get install -y chromium``). Playwright's own browser download is never used.

Fixtures and helpers the game tests share:

- ``server`` (module scope): a :class:`WebServer`, a ``ranchhand serve`` subprocess on
  a free port with a temporary SQLite database; ``server.base`` is its address,
  ``server.stop()`` / ``server.start()`` restart it on the same port and database.
- ``browser`` (module scope): a Playwright Chromium browser; ``context`` (function
  scope): a fresh browser context (its own cookies and storage) at desktop size, closed
  afterwards; ``browser.new_context(viewport=PHONE)`` for a phone.
- ``create_table(server, game, seats, names=None, **options) -> dict``: ``POST
  /api/tables`` (``seats`` like ``["human", "human", "greedy"]``); the reply holds each
  human seat's ``url`` and ``token``, and ``spectate``.
- ``open_seat(context, url) -> Page``: a new page at ``url`` once the table is drawn
  (``body[data-step]`` is set).
- ``play_by_clicking(pages, rng, max_moves=2000) -> dict``: plays until an element with
  ``data-outcome`` appears and returns the outcome (``{"winners", "scores",
  "reason"}``). Each round it finds a page whose seat is to act (``body[data-acting=
  "true"]``), clicks a random visible, enabled element carrying ``data-action`` in it
  (the game module's board and controls first; the "All actions" list if the module
  shows none), and waits for the page's step to change or an error to show. A refused
  click is allowed a few times, then fails the test with the page's error line.
  Hot-seat pages' "pass the device" buttons (`[data-handoff-to]`) are clicked as they come.
- ``finished_view(server, table, within=60.0) -> dict``: the table's public view once
  its game is over (a bots-only game may end just after the request that made it).
- ``page_errors(page) -> list[str]``: JavaScript errors the page raised (attach with
  ``watch(page)`` right after creating it; ``open_seat`` does this).

The page's body carries the state a test waits on: ``data-step``, ``data-status``
(``playing`` / ``finished``), ``data-you``, ``data-acting`` (``true`` when this
seat may move now and no move is in flight), ``data-connection`` (``connected`` /
``reconnecting`` / ``closed``) and ``data-handoff`` (a hot-seat hand-off screen's seat).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import wait_for

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}
READY_TIMEOUT = 30.0
STEP_TIMEOUT_MS = 10_000


def browser_unavailable() -> str | None:
    """Why browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[web]')"
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (as root: apt-get install -y chromium)"
    return None


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    reason = browser_unavailable()
    if reason is None:
        return
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.skip(reason=reason))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class WebServer:
    """``ranchhand serve`` in a subprocess; restartable on the same port and database."""

    def __init__(self, folder: Path, limits: tuple[str, ...] = ()) -> None:
        self.folder = folder
        self.limits = limits
        """More ``serve --limit NAME=VALUE`` items (a test's own timings)."""
        self.db = f"sqlite:///{folder / 'tables.db'}"
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = folder / "server.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> WebServer:
        command = [sys.executable, "-m", "ranchhand", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", self.db, "--log-level", "warning"]
        # One browser plays many tables quickly from one address: the per-client rates and
        # the open-tables cap (tested in tests/server) would refuse a fast machine's run.
        from ranchhand.server.limits import RATE_NAMES

        for limit in (
            *(f"{name}=off" for name in RATE_NAMES),
            "max_open_tables_per_client=1000000",
            *self.limits,
        ):
            command += ["--limit", limit]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ranchhand serve exited:\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"ranchhand serve did not answer in {READY_TIMEOUT}s:\n{self.tail()}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, sig)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


@pytest.fixture(scope="module")
def server() -> Iterator[WebServer]:
    folder = Path(tempfile.mkdtemp(prefix="ranchhand-web-"))
    running = WebServer(folder).start()
    try:
        yield running
    finally:
        running.stop()
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium under a Playwright driver of its own, both gone on leaving.

    One driver per test module, never per session: Playwright's sync API runs an event
    loop in the test thread while its driver lives, so a second driver (another module's
    browser) could not start, and the asyncio tests of tests/server could not run their
    own loops. About 0.7 s a module.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        # Playwright's wait_for_function compiles its predicate in the page, which the
        # server's Content-Security-Policy refuses (no 'unsafe-eval'): contexts bypass
        # the policy unless asked not to (test_csp.py checks the pages under it).
        new_context = launched.new_context
        launched.new_context = lambda **options: new_context(**{"bypass_csp": True, **options})
        yield launched


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    made = browser.new_context(viewport=DESKTOP)
    made.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        yield made
    finally:
        made.close()


def create_table(
    server: WebServer,
    game: str,
    seats: list[str],
    names: list[str] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A new table through the API (``POST /api/tables``); its reply, with seat links."""
    body: dict[str, Any] = {"game": game, "seats": seats, "options": options}
    if names is not None:
        body["names"] = names
    reply = httpx.post(f"{server.base}/api/tables", json=body, timeout=30)
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def finished_view(server: WebServer, table: str, within: float = 60.0) -> dict[str, Any]:
    """The table's public view once its game is over, through a real server (as
    ``tests.server.helpers.wait_finished`` through a test client, which says why)."""

    def over() -> dict[str, Any] | None:
        reply = httpx.get(f"{server.base}/api/tables/{table}", timeout=10)
        assert reply.status_code == 200, reply.text
        view: dict[str, Any] = reply.json()
        return view if view["status"] == "finished" else None

    found: dict[str, Any] = wait_for(over, within, f"table {table}'s end")
    return found


def watch(page: Any) -> Any:
    """Remember the page's JavaScript errors (see :func:`page_errors`)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page._ranchhand_errors = errors
    return page


def page_errors(page: Any) -> list[str]:
    return list(getattr(page, "_ranchhand_errors", []))


def open_seat(context: Any, url: str) -> Any:
    """A page at ``url``, returned once the table is drawn (or a hand-off screen is up)."""
    page = watch(context.new_page())
    page.goto(url)
    page.wait_for_selector("body[data-step], body[data-handoff]:not([data-handoff=''])")
    return page


CLICKABLE = """(fallback) => {
  document.querySelectorAll('[data-rh-pick]').forEach((e) => e.removeAttribute('data-rh-pick'));
  if (fallback) document.getElementById('all-actions').open = true;
  const usable = (e) => {
    if (e.disabled || e.getAttribute('aria-disabled') === 'true') return false;
    if (!fallback && e.closest('#all-actions')) return false;
    if (e.closest('[hidden], details:not([open])')) return false;
    const box = e.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const found = [...document.querySelectorAll('#main [data-action]')].filter(usable);
  found.forEach((e, i) => e.setAttribute('data-rh-pick', String(i)));
  return found.length;
}"""


def _state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(
        """() => ({step: document.body.dataset.step, acting: document.body.dataset.acting,
                  handoff: document.body.dataset.handoff || '',
                  outcome: (document.querySelector('[data-outcome]') || {getAttribute: () => null})
                           .getAttribute('data-outcome'),
                  error: (document.getElementById('error') || {}).textContent || ''})"""
    )
    return state


def play_by_clicking(pages: list[Any], rng: random.Random, max_moves: int = 2000) -> dict[str, Any]:
    """Click random legal actions on whichever page may act until the game ends."""
    refusals = 0
    idle_since = time.monotonic()
    for _ in range(max_moves * 3):
        states = [_state(page) for page in pages]
        for state in states:
            if state["outcome"] is not None:
                outcome: dict[str, Any] = json.loads(state["outcome"])
                return outcome
        for page, state in zip(pages, states, strict=True):
            if state["handoff"]:
                page.click("[data-handoff-to]")
                idle_since = time.monotonic()
                break
        else:
            ready = [(p, s) for p, s in zip(pages, states, strict=True) if s["acting"] == "true"]
            if not ready:
                if time.monotonic() - idle_since > STEP_TIMEOUT_MS / 1000:
                    raise AssertionError(f"no page may act and the game is not over: {states}")
                time.sleep(0.05)
                continue
            page, state = rng.choice(ready)
            if not _click_random_action(page, rng):
                raise AssertionError(f"seat may act but shows no data-action element: {state}")
            try:
                page.wait_for_function(
                    "([step, error]) => document.body.dataset.step !== step"
                    " || (document.getElementById('error').textContent !== error"
                    "     && document.getElementById('error').textContent !== '')"
                    " || document.querySelector('[data-outcome]')"
                    " || (document.body.dataset.handoff || '') !== ''",
                    arg=[state["step"], state["error"]],
                    timeout=STEP_TIMEOUT_MS,
                )
            except Exception as error:
                raise AssertionError(f"the page did not answer a click: {_state(page)}") from error
            error_text = _state(page)["error"]
            if error_text and error_text != state["error"]:
                refusals += 1
                if refusals > 5:
                    raise AssertionError(f"the server refused clicked actions: {error_text}")
            idle_since = time.monotonic()
    raise AssertionError(f"no outcome after {max_moves} moves")


def _click_random_action(page: Any, rng: random.Random) -> bool:
    """Click one usable ``data-action`` element: the module's first, else "All actions"."""
    for fallback in (False, True):
        count: int = page.evaluate(CLICKABLE, fallback)
        if count:
            page.click(f"[data-rh-pick='{rng.randrange(count)}']")
            return True
    return False
