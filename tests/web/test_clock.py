"""The turn clock in a real browser (docs/web.md, "Visible clocks"): two people online at a
table with a 3-second clock. Each person's seat has a ``[data-clock]`` element; the running
one's ``data-seconds`` counts down from the server's deadline (even on a computer whose
clock is ten minutes slow), the others show the full time, and when the time runs out
the clock's bot moves and both pages' logs say so in words. Skipped (conftest) without
Chromium or Playwright."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.conftest import STEP_TIMEOUT_MS, WebServer, create_table, open_seat, page_errors
from tests.web.test_alerts import wait_for

CLOCK = 3
WAIT_S = 3 * STEP_TIMEOUT_MS / 1000
"""Long enough for a timeout to be handled on a loaded machine."""
SLOW_CLOCK = "{ const real = Date.now; Date.now = () => real() - 600000; }"
"""This page's computer is ten minutes behind the server."""

CLOCKS = """() => [...document.querySelectorAll('[data-clock]')].map((e) => ({
  seat: Number(e.dataset.clock), seconds: Number(e.dataset.seconds),
  running: e.classList.contains('running'), text: e.textContent}))"""


def test_the_clock_counts_down_and_the_timeout_is_told(server: WebServer, browser: Any) -> None:
    timed = create_timed(server)
    contexts = [browser.new_context(), browser.new_context()]
    contexts[1].add_init_script(SLOW_CLOCK)
    try:
        pages = [open_seat(c, s["url"]) for c, s in zip(contexts, timed["seats"], strict=True)]
        for page in pages:
            clocks = wait_for(lambda page=page: page.evaluate(CLOCKS), "the clocks", WAIT_S)
            assert sorted(c["seat"] for c in clocks) == [0, 1]
            running = [c for c in clocks if c["running"]]
            assert len(running) == 1
            assert all(c["seconds"] == CLOCK for c in clocks if not c["running"])
            # It counts down, from the server's time: the slow page too (else 600 s).
            seen = {running[0]["seconds"]}
            wait_for(
                lambda page=page, seen=seen: seen.add(running_seconds(page)) or len(seen) >= 2,
                "the clock to count down",
                WAIT_S,
            )
            assert max(seen) <= CLOCK and min(seen) < max(seen)
        # The time runs out: the clock's bot moves for the seat, and every page says so.
        for page in pages:
            line = wait_for(
                lambda page=page: [
                    t for t in page.locator("#log li").all_inner_texts() if "ran out of time" in t
                ],
                "the timeout in the log",
                WAIT_S,
            )[0]
            assert line.split(" ran out of time: ")[0] in ("Ann", "Bob")
            assert " played for them: " in line
        assert all(page_errors(p) == [] for p in pages)
    finally:
        for made_context in contexts:
            made_context.close()


def running_seconds(page: Any) -> int:
    clocks = page.evaluate(CLOCKS)
    return next((c["seconds"] for c in clocks if c["running"]), -1)


def create_timed(server: WebServer) -> dict[str, Any]:
    body = {
        "game": "super-farmer",
        "seats": ["human", "human"],
        "names": ["Ann", "Bob"],
        "options": {"max_turns": 30},
        "clock": CLOCK,
        "clock_bot": "greedy",
    }
    reply = httpx.post(f"{server.base}/api/tables", json=body, timeout=30)
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def test_a_table_without_a_clock_shows_none(server: WebServer, context: Any) -> None:
    made = create_table(server, "super-farmer", ["human", "greedy"], ["Ann", "Bot"])
    page = open_seat(context, made["seats"][0]["url"])
    assert page.evaluate(CLOCKS) == []
    assert page.locator("#clocks").is_hidden()
