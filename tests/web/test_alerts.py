"""Turn alerts in a real browser (docs/web.md, "Turn alerts"): two people online in two
browser contexts; the tab's title starts with "▶ " exactly while its seat may act, the
tone's switch is off until chosen and remembered after a reload, a desktop notification
shows only while the tab is hidden and only if allowed, and with prefers-reduced-motion
the banner does not pulse. Skipped (conftest) without Chromium or Playwright."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.web.conftest import (
    STEP_TIMEOUT_MS,
    WebServer,
    _click_random_action,
    create_table,
    open_seat,
    page_errors,
)

MARK = "▶ "
WAIT_S = STEP_TIMEOUT_MS / 1000


def settled(page: Any) -> dict[str, Any]:
    """The page once its seat's view is drawn and no move is in flight: whether it may
    act, its title and whether the banner pulses."""
    state: dict[str, Any] = page.evaluate(
        """() => ({step: document.body.dataset.step, acting: document.body.dataset.acting,
                  title: document.title,
                  pulse: document.getElementById('turn').classList.contains('alert-pulse')})"""
    )
    return state


def wait_for(check: Any, what: str, timeout: float = WAIT_S) -> Any:
    """Poll ``check()`` until it returns something true (a loaded machine may take a while)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def marked_as_acting(page: Any) -> bool:
    """Is the title's mark where the seat's turn says (and the page settled)?"""
    state = settled(page)
    return state["title"].startswith(MARK) == (state["acting"] == "true")


def acting_pages(pages: list[Any]) -> list[Any]:
    """The pages whose seat may act, once there is one."""
    return wait_for(  # type: ignore[no-any-return]
        lambda: [p for p in pages if settled(p)["acting"] == "true"], "a seat to act"
    )


def move(page: Any, rng: random.Random) -> None:
    """Click one of the page's actions and wait for the move to be made."""
    step = settled(page)["step"]
    assert _click_random_action(page, rng)
    wait_for(lambda: settled(page)["step"] != step, "the move to be made")


def permission(page: Any) -> str | None:
    """What the page says of the notifications' permission."""
    found: str | None = page.get_attribute("#alerts", "data-notify-permission")
    return found


def two_seats(server: WebServer, browser: Any, **context: Any) -> tuple[list[Any], list[Any]]:
    made = create_table(server, "super-farmer", ["human", "human"], ["Ann", "Bob"], max_turns=30)
    contexts = [browser.new_context(**context) for _ in range(2)]
    pages = [open_seat(c, s["url"]) for c, s in zip(contexts, made["seats"], strict=True)]
    return contexts, pages


def test_the_title_is_marked_while_the_seat_is_to_act(server: WebServer, browser: Any) -> None:
    contexts, pages = two_seats(server, browser)
    try:
        rng = random.Random(19)
        gained, lost = False, False
        for _ in range(12):
            acting = acting_pages(pages)
            for page in pages:
                wait_for(lambda page=page: marked_as_acting(page), "the title's mark")
            page = acting[0]
            others = [p for p in pages if p is not page]
            assert settled(page)["title"].startswith(MARK)
            assert settled(page)["pulse"], "the banner pulses when reduced motion is not asked"
            move(page, rng)
            for each in pages:
                wait_for(lambda each=each: marked_as_acting(each), "the title's mark")
            if not settled(page)["title"].startswith(MARK):
                lost = True
                gained = gained or any(settled(o)["title"].startswith(MARK) for o in others)
            if lost and gained:
                break
        assert lost, "the title never lost its mark after the seat's move"
        assert gained, "the other seat's title never gained the mark"
        assert all(page_errors(p) == [] for p in pages)
    finally:
        for made in contexts:
            made.close()


def test_the_sound_choice_is_off_then_remembered(server: WebServer, context: Any) -> None:
    made = create_table(server, "super-farmer", ["human", "greedy"], ["Ann", "Bot"])
    page = open_seat(context, made["seats"][0]["url"])
    switch = page.locator("[data-alert-sound]")
    assert not switch.is_checked()
    assert page.evaluate("localStorage.getItem('ranchhand.alerts.sound')") is None
    switch.check()
    assert page.evaluate("localStorage.getItem('ranchhand.alerts.sound')") == "on"
    # The sample tone, made in the page with the Web Audio API (no audio file is fetched).
    wait_for(lambda: page.get_attribute("#alerts", "data-tones"), "the sample tone")
    page.reload()
    page.wait_for_selector("body[data-step]")
    assert page.locator("[data-alert-sound]").is_checked()
    page.locator("[data-alert-sound]").uncheck()
    page.reload()
    page.wait_for_selector("body[data-step]")
    assert not page.locator("[data-alert-sound]").is_checked()
    assert page_errors(page) == []


FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push({title, body: options.body}); }
  close() {}
  static get permission() { return 'granted'; }
  static requestPermission() { return Promise.resolve('granted'); }
};
Object.defineProperty(document, 'hidden', {get: () => window.__hidden === true});
"""


def test_a_notification_only_when_allowed_and_hidden(server: WebServer, browser: Any) -> None:
    contexts, pages = two_seats(server, browser)
    try:
        # Nothing is asked unprompted: the button asks, the page does not.
        for page in pages:
            assert permission(page) == "default"
            assert page.locator("[data-notify]").is_visible()
        contexts[0].grant_permissions(["notifications"])
        pages[0].click("[data-notify]")
        wait_for(lambda: permission(pages[0]) == "granted", "the permission")
        assert not pages[0].locator("[data-notify]").is_visible()
    finally:
        for made in contexts:
            made.close()
    # With a stand-in Notification (headless Chromium shows none): one notice when the
    # turn comes while the tab is hidden, none while it is in view.
    contexts, pages = [], []
    made = create_table(server, "super-farmer", ["human", "human"], ["Ann", "Bob"])
    try:
        for seat in made["seats"]:
            ctx = browser.new_context()
            ctx.add_init_script(FAKE_NOTIFICATIONS)
            contexts.append(ctx)
            page = ctx.new_page()
            page.goto(seat["url"])
            page.wait_for_selector("body[data-step]")
            pages.append(page)
        mover = acting_pages(pages)[0]
        other = next(p for p in pages if p is not mover)
        assert mover.evaluate("window.__notes.length") == 0, "no notice while in view"
        other.evaluate("window.__hidden = true")
        rng = random.Random(3)
        for _ in range(10):  # until the turn passes to the hidden tab
            if settled(other)["acting"] == "true":
                break
            move(acting_pages(pages)[0], rng)
        wait_for(lambda: settled(other)["acting"] == "true", "the hidden tab's turn")
        notes = wait_for(lambda: other.evaluate("window.__notes"), "a notification")
        assert notes[0]["title"].startswith("Your turn")
    finally:
        for ctx in contexts:
            ctx.close()


def test_reduced_motion_keeps_the_banner_still(server: WebServer, browser: Any) -> None:
    contexts, pages = two_seats(server, browser, reduced_motion="reduce")
    try:
        page = acting_pages(pages)[0]
        wait_for(lambda: settled(page)["title"].startswith(MARK), "the title's mark")
        assert not settled(page)["pulse"]
        animation = page.evaluate("getComputedStyle(document.getElementById('turn')).animationName")
        assert animation == "none"
    finally:
        for made in contexts:
            made.close()
