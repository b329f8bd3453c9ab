"""Chat and presence in the browser (issue 19): two people online in two browser contexts.

A line written on one seat's page shows on the other's as text (markup stays visible
characters); each seat chip carries ``data-presence``; when one context closes, the
other sees that seat go offline, and once it has been offline long enough (a short
``hand_over_after`` here) a "hand to a bot" button hands it to the table's bot. A
spectator reads the chat without a form to write in.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, WebServer, create_table, open_seat, page_errors

expect = pytest.importorskip("playwright.sync_api").expect

WAIT_MS = 20_000
"""A generous wait: the machine is shared, and presence moves at heartbeats."""


@pytest.fixture(scope="module")
def chat_server() -> Iterator[WebServer]:
    folder = Path(tempfile.mkdtemp(prefix="ranchhand-chat-"))
    limits = ("presence_heartbeat=0.3", "hand_over_after=2")
    running = WebServer(folder, limits=limits).start()
    try:
        yield running
    finally:
        running.stop()
        shutil.rmtree(folder, ignore_errors=True)


def chip(page: Any, seat: int) -> Any:
    return page.locator(f"#seats li[data-seat='{seat}']")


def test_chat_round_trip_and_presence_going_offline(chat_server: WebServer, browser: Any) -> None:
    table = create_table(
        chat_server, "rocket-ranchers", ["human", "human", "random"], ["Ann", "Bo", "Cy"]
    )
    ann_url, bo_url = table["seats"][0]["url"], table["seats"][1]["url"]
    first = browser.new_context(viewport=DESKTOP)
    second = browser.new_context(viewport=DESKTOP)
    try:
        ann = open_seat(first, ann_url)
        bo = open_seat(second, bo_url)
        expect(ann.locator("form[data-chat]")).to_be_visible(timeout=WAIT_MS)
        expect(bo.locator("form[data-chat]")).to_be_visible(timeout=WAIT_MS)

        # Ann writes; Bo reads it, markup and all, as text.
        said = "hello <b>Bo</b> & <img src=x onerror=alert(1)>"
        ann.locator("form[data-chat] input").fill(said)
        ann.locator("form[data-chat] button[type=submit]").click()
        line = bo.locator("[data-chat-message]").filter(has_text="hello")
        expect(line).to_have_count(1, timeout=WAIT_MS)
        expect(line.locator(".chat-name")).to_have_text("Ann")
        expect(line.locator(".chat-text")).to_have_text(said)
        assert line.locator("b, img").count() == 0
        expect(ann.locator("[data-chat-message]")).to_have_count(1, timeout=WAIT_MS)
        expect(ann.locator("form[data-chat] input")).to_have_value("")

        # An empty line is refused on the page, and nothing is sent.
        bo.locator("form[data-chat] input").fill("   ")
        bo.locator("form[data-chat] button[type=submit]").click()
        expect(bo.locator("[data-chat-error]")).not_to_be_empty()

        # Both are online, seen from either page; the bot's seat has nobody.
        expect(chip(ann, 1)).to_have_attribute("data-presence", "online", timeout=WAIT_MS)
        expect(chip(bo, 0)).to_have_attribute("data-presence", "online", timeout=WAIT_MS)
        expect(chip(ann, 2)).to_have_attribute("data-presence", "offline", timeout=WAIT_MS)
        assert ann.locator("[data-hand-over]").count() == 0

        # Bo's browser closes: Ann sees Bo offline, then may hand Bo's seat to the bot.
        assert page_errors(bo) == []
        second.close()
        expect(chip(ann, 1)).to_have_attribute("data-presence", "offline", timeout=WAIT_MS)
        hand = ann.locator("[data-hand-over='1']")
        expect(hand).to_be_visible(timeout=WAIT_MS)
        hand.click()
        expect(chip(ann, 1)).to_contain_text("bot: greedy", timeout=WAIT_MS)
        expect(ann.locator("[data-chat-message].system")).to_contain_text(
            "handed Bo's seat to the greedy bot", timeout=WAIT_MS
        )
        expect(ann.locator("[data-hand-over]")).to_have_count(0, timeout=WAIT_MS)

        # Bo comes back and takes the seat back from his own page.
        third = browser.new_context(viewport=DESKTOP)
        try:
            back = open_seat(third, bo_url)
            take = back.locator("[data-take-back='1']")
            expect(take).to_be_visible(timeout=WAIT_MS)
            take.click()
            expect(chip(ann, 1)).not_to_contain_text("bot:", timeout=WAIT_MS)
            expect(chip(ann, 1)).to_have_attribute("data-presence", "online", timeout=WAIT_MS)
            expect(back.locator("[data-take-back]")).to_have_count(0, timeout=WAIT_MS)
            assert page_errors(back) == []
        finally:
            third.close()

        # A spectator reads the chat, and has no form to write in.
        watcher = open_seat(first, table["spectate"])
        expect(watcher.locator("[data-chat-message]").first).to_contain_text(
            "hello", timeout=WAIT_MS
        )
        expect(watcher.locator("[data-chat-readonly]")).to_be_visible(timeout=WAIT_MS)
        expect(watcher.locator("form[data-chat]")).to_be_hidden()
        expect(chip(watcher, 0)).to_have_attribute("data-presence", "online", timeout=WAIT_MS)
        assert page_errors(ann) == [] and page_errors(watcher) == []
    finally:
        first.close()
        second.close()
