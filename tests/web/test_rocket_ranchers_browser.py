"""Rocket Ranchers in a real browser: a whole game played by clicking the drawn table.

Two browser contexts are two human seats, a greedy bot the third. Every move goes
through the module's own controls: a beam, its turn and a place chosen (with the
preview of the cells checked) and then confirmed; collected cards placed with their
buttons; dogship swaps by clicking two cards on the board; reboot and end as buttons.
At every move each ``data-action`` on the acting page must be one of the legal actions
the server gives that seat. A spectator's page never holds a founding card, a seat's
page only its own; the phone-sized page has no horizontal scroll.

Set ``RANCHHAND_WEB_SHOTS=DIR`` to save screenshots (desktop and 375x812) there.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import PHONE, STEP_TIMEOUT_MS, create_table, open_seat, page_errors

GAME = "rocket-ranchers"
SHOTS = os.environ.get("RANCHHAND_WEB_SHOTS", "")


def _view(server: Any, table: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    reply = httpx.get(f"{server.base}/api/tables/{table}", headers=headers, timeout=10)
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def _shown_actions(page: Any) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "[data-action]", "els => els.map((e) => e.getAttribute('data-action'))"
    )
    return found


def _shoot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"rocket-ranchers-{name}.png"), full_page=True)


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the phone page is {width}px wide"


def _beam(page: Any, rng: random.Random, legal: set[str]) -> None:
    """Choose a beam, a turn and a place (checking the preview), then confirm."""
    beams = page.locator("#controls [data-choose=beam]:enabled")
    beams.nth(rng.randrange(beams.count())).click()
    if not page.locator("#controls [data-choose=rotation][aria-pressed=true]").count():
        turns = page.locator("#controls [data-choose=rotation]:enabled")
        turns.nth(rng.randrange(turns.count())).click()
    places = page.locator("#controls [data-choose=place]")
    place = places.nth(rng.randrange(places.count()))
    place.focus()
    # the preview: the cells the place takes are outlined on the board
    cells = (place.get_attribute("aria-label") or "").removeprefix("take ").split()
    assert page.locator("#board .rr-take").count() == len(cells) > 0
    place.click()
    assert set(_shown_actions(page)) <= legal  # the builder offers legal texts only
    confirm = page.locator("#controls [data-action^='beam ']")
    assert confirm.count() == 1
    assert confirm.get_attribute("data-action") == place.get_attribute("data-place")
    confirm.click()


def _swap(page: Any, rng: random.Random, legal: set[str]) -> None:
    """The dogship: two cards of one biome clicked on the board."""
    mode = page.locator("#controls [data-choose=mode-swap][aria-pressed=false]")
    if mode.count():
        mode.click()
    firsts = page.locator("#board [data-choose=swap-first]")
    firsts.nth(rng.randrange(firsts.count())).click()
    assert set(_shown_actions(page)) <= legal
    seconds = page.locator("#board [data-action^='dogship ']")
    seconds.nth(rng.randrange(seconds.count())).click()


def _move(page: Any, view: dict[str, Any], rng: random.Random) -> None:
    phase = view["observation"]["phase"]
    legal = set(view["legal_actions"])
    swaps = any(a.startswith("dogship ") for a in legal)
    if phase == "place":
        buttons = page.locator("#controls [data-action]")
        buttons.nth(rng.randrange(buttons.count())).click()
    elif phase == "after":
        if swaps and rng.random() < 0.3:
            _swap(page, rng, legal)
        else:
            page.locator("#controls [data-action=end]").click()
    elif "reboot" in legal and rng.random() < 0.08:
        page.locator("#controls [data-action=reboot]").click()
    elif swaps and rng.random() < 0.08:
        _swap(page, rng, legal)
    else:
        _beam(page, rng, legal)


def test_a_whole_game_by_clicking(server: Any, browser: Any) -> None:
    started = time.monotonic()
    rng = random.Random(10)
    table = create_table(server, GAME, ["human", "greedy", "human"], names=["Ann", "greedy", "Bo"])
    tid = table["id"]
    seats = {s["seat"]: s for s in table["seats"] if s["kind"] == "human"}
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in seats]
    phone = browser.new_context(viewport=PHONE)
    try:
        for made in (*contexts, phone):
            made.set_default_timeout(STEP_TIMEOUT_MS)
        pages = {
            seat: open_seat(made, seats[seat]["url"])
            for seat, made in zip(sorted(seats), contexts, strict=True)
        }
        watcher = open_seat(phone, table["spectate"])
        moves = 0
        checked_phone = False
        while True:
            page = next(
                (p for p in pages.values() if p.evaluate("document.body.dataset.acting") == "true"),
                None,
            )
            if page is None:
                if any(p.locator("[data-outcome]").count() for p in pages.values()):
                    break
                time.sleep(0.03)
                continue
            seat = int(page.evaluate("document.body.dataset.you"))
            view = _view(server, tid, seats[seat]["token"])
            assert str(view["step"]) == page.evaluate("document.body.dataset.step")
            legal = set(view["legal_actions"])
            shown = _shown_actions(page)
            assert shown and set(shown) <= legal, set(shown) - legal
            mine = len(view["observation"]["corrals"][seat])
            assert page.locator("#board .rr-founder").count() == mine  # only its own
            if moves == 40:
                _shoot(page, "desktop")
            step = view["step"]
            _move(page, view, rng)
            page.wait_for_function(
                "s => document.body.dataset.step !== s"
                " || document.getElementById('error').textContent",
                arg=str(step),
            )
            assert not page.evaluate("document.getElementById('error').textContent"), moves
            moves += 1
            if moves >= 30 and not checked_phone:
                watcher.wait_for_function("document.body.dataset.step !== '0'")
                assert watcher.locator(".rr-corral").count() > 0
                assert watcher.locator(".rr-founder").count() == 0
                assert watcher.locator("[data-action]").count() == 0
                _no_sideways_scroll(watcher)
                _shoot(watcher, "phone-spectator")
                checked_phone = True
            assert moves < 600, "the game did not end"
        for page in pages.values():
            page.wait_for_selector("[data-outcome]")
            breakdown = page.locator("#end .rr-final")
            assert breakdown.count() == 3
            assert page.locator("#end .rr-final.rr-won").count() >= 1
            assert not page_errors(page)
        _shoot(next(iter(pages.values())), "end")
        watcher.wait_for_selector("[data-outcome]")
        # once over, every founding card is turned up for everyone
        assert (
            watcher.locator("#end .rr-founder").count()
            == watcher.locator("#end .rr-corral").count()
        )
        _no_sideways_scroll(watcher)
        assert not page_errors(watcher)
        assert checked_phone
    finally:
        for made in (*contexts, phone):
            made.close()
    took = time.monotonic() - started
    print(f"rocket-ranchers browser game: {moves} clicked moves in {took:.1f}s")


def test_phone_beam_preview_fits(server: Any, browser: Any) -> None:
    """At 375x812 a seat choosing a beam sees the preview and never scrolls sideways."""
    table = create_table(server, GAME, ["human", "greedy"])
    phone = browser.new_context(viewport=PHONE)
    try:
        phone.set_default_timeout(STEP_TIMEOUT_MS)
        page = open_seat(phone, table["seats"][0]["url"])
        page.wait_for_selector("body[data-acting=true]")
        page.locator("#controls [data-choose=beam]:enabled").last.click()
        place = page.locator("#controls [data-choose=place]").first
        place.hover()
        assert page.locator("#board .rr-take").count() == 4  # O4: the square
        place.click()
        assert page.locator("#controls [data-action^='beam O4']").count() == 1
        _no_sideways_scroll(page)
        _shoot(page, "phone")
        assert not page_errors(page)
    finally:
        phone.close()
