"""Rancho in a real browser: a whole game by clicking, the builders' texts, the phone size.

Two browser contexts play two human seats against a greedy bot through the table page;
along the way they use the deal builder (pick what you want, confirm) and the
arrangement editor (pick an animal, click a space, confirm), and every ``data-action``
on the page is checked: one of the view's legal actions, or an ``arrange`` text the
engine accepts in that position. Skipped (conftest) without Chromium or Playwright.
Screenshots go to ``$RANCHHAND_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import httpx

from ranchhand.core.errors import ActionError
from ranchhand.core.registry import load
from ranchhand.games.rancho.state import RanchoState
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    WebServer,
    create_table,
    open_seat,
    page_errors,
    play_by_clicking,
)

ACTIONS = "() => [...document.querySelectorAll('#main [data-action]')].map((e) => e.dataset.action)"


def seat_view(server: WebServer, table: str, token: str) -> dict[str, Any]:
    reply = httpx.get(
        f"{server.base}/api/tables/{table}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def why_illegal(view: dict[str, Any], text: str) -> str | None:
    """Why ``text`` is not legal for the viewer in the view's position (None: legal)."""
    if text in view["legal_actions"]:
        return None
    if not text.startswith("arrange "):
        return f"{text!r} is not one of the legal actions {view['legal_actions']}"
    game = load("rancho", view["players"], **view["options"])
    data = {k: v for k, v in view["observation"].items() if k not in ("observer", "turn")}
    state = RanchoState.from_json(game, data)  # type: ignore[arg-type]
    state.turn = view["turn"]
    you = view["you"]
    try:
        action = state.parse_action(text, you)
    except ActionError as error:
        return f"{text!r} does not parse: {error}"
    return state.why_illegal(action, you)


def check_page_actions(page: Any, server: WebServer, table: str, token: str) -> int:
    """Every data-action on the page is legal now; returns how many were checked."""
    view = seat_view(server, table, token)
    if str(view["step"]) != page.evaluate("document.body.dataset.step"):
        return 0  # the table moved on between the two looks
    texts = page.evaluate(ACTIONS)
    for text in texts:
        problem = why_illegal(view, text)
        assert problem is None, f"the page offers {text!r}: {problem}"
    return len(texts)


def wait_step(page: Any, step: str) -> None:
    page.wait_for_function(
        "(step) => document.body.dataset.step !== step"
        " || document.getElementById('error').textContent !== ''",
        arg=step,
    )
    assert page.evaluate("document.getElementById('error').textContent") == ""


def acting(pages: list[Any]) -> Any | None:
    for page in pages:
        if page.evaluate("document.body.dataset.acting") == "true":
            return page
    return None


def use_builders(
    pages: list[Any], tokens: dict[int, str], server: WebServer, table: str, rng: random.Random
) -> dict[str, int]:
    """Play a few turns through the deal builder and the arrangement editor."""
    done = {"deals": 0, "arranges": 0, "checked": 0}
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline and (done["deals"] < 3 or done["arranges"] < 2):
        page = acting(pages)
        if page is None:
            if any(p.query_selector("[data-outcome]") for p in pages):
                break
            time.sleep(0.05)
            continue
        token = tokens[int(page.evaluate("document.body.dataset.you"))]
        step = page.evaluate("document.body.dataset.step")
        done["checked"] += check_page_actions(page, server, table, token)
        chips = page.query_selector_all(".rancho-builder .rancho-chip")
        if chips and done["deals"] < 3:
            rng.choice(chips).click()
            confirm = page.query_selector(".rancho-builder [data-action]")
            assert confirm is not None, "a chosen deal shows no confirm button"
            done["checked"] += check_page_actions(page, server, table, token)
            confirm.click()
            wait_step(page, step)
            done["deals"] += 1
            continue
        opener = page.query_selector(".rancho-arranger button:has-text('Move animals by hand')")
        if opener is not None and done["arranges"] < 2 and try_arrange(page, opener, rng):
            done["checked"] += check_page_actions(page, server, table, token)
            page.click(".rancho-arranger [data-action]")
            wait_step(page, step)
            done["arranges"] += 1
            continue
        # nothing to build here: roll on (the first button is the step's main action)
        page.click("#controls .rancho-main-actions [data-action]")
        wait_step(page, step)
    return done


def try_arrange(page: Any, opener: Any, rng: random.Random) -> bool:
    """Open the editor and move pieces by clicking until its confirm button is live."""
    opener.click()
    for _ in range(6):
        pieces = page.query_selector_all(".rancho-arranger [aria-label='Your animals'] button")
        if not pieces:
            break
        rng.choice(pieces).click()
        for _ in range(3):  # a cow or a horse takes two or three clicks
            targets = page.query_selector_all(".rancho-targets button")
            if not targets:
                break
            rng.choice(targets).click()
        if page.query_selector(".rancho-arranger [data-action]") is not None:
            return True
    page.click(".rancho-arranger button:has-text('Close')")
    return False


def shoot(page: Any, name: str) -> None:
    folder = os.environ.get("RANCHHAND_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"rancho-{name}.png"), full_page=True)


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']}"


def test_whole_game_by_clicking(server: WebServer, browser: Any) -> None:
    started = time.monotonic()
    made = create_table(
        server, "rancho", ["human", "human", "greedy"], ["Ann", "Bo", "greedy"], max_turns=90
    )
    table = made["id"]
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE)]
    try:
        seats = [s for s in made["seats"] if s["kind"] == "human"]
        pages = [open_seat(c, s["url"]) for c, s in zip(contexts, seats, strict=True)]
        assert all(p.query_selector("#board svg.rancho-board") for p in pages)
        shoot(pages[0], "desktop-start")
        tokens = {s["seat"]: s["token"] for s in seats}
        rng = random.Random(7)
        done = use_builders(pages, tokens, server, table, rng)
        print("builders used:", done)
        assert done["deals"] + done["arranges"] > 0, done
        assert done["checked"] > 0
        shoot(pages[0], "desktop-midgame")
        shoot(pages[1], "phone-midgame")
        no_horizontal_scroll(pages[1])
        outcome = play_by_clicking(pages, rng, max_moves=1500)
        assert set(outcome) >= {"winners", "reason"}
        for page in pages:
            page.wait_for_selector("[data-outcome]")
            assert page.query_selector("#end .rancho-end") is not None
            assert page_errors(page) == []
        no_horizontal_scroll(pages[1])
        shoot(pages[0], "desktop-end")
        shoot(pages[1], "phone-end")
    finally:
        for made_context in contexts:
            made_context.close()
    # How long it took, for the log only: a busy machine doubled it once (105 s against
    # about 40), so a bound here measured the machine, not the table.
    print(f"a whole game by clicking: {time.monotonic() - started:.0f} s")


def test_phone_builder_and_board(server: WebServer, browser: Any) -> None:
    made = create_table(server, "rancho", ["human", "greedy"], ["Ann", "greedy"], dogs="all")
    phone = browser.new_context(viewport=PHONE)
    try:
        seat = made["seats"][0]
        page = open_seat(phone, seat["url"])
        no_horizontal_scroll(page)
        board = page.query_selector("#board svg.rancho-board")
        assert board is not None and board.get_attribute("viewBox")
        assert board.query_selector("title") is not None
        # every button of the module is a real button the keyboard reaches
        for button in page.query_selector_all("#controls [data-action]"):
            assert button.evaluate("(e) => e.tagName") == "BUTTON"
        # the builder: a free pasture clicked on the board offers its purchase
        step = page.evaluate("document.body.dataset.step")
        buyable = page.query_selector_all("#board .rancho-click")
        if buyable:
            buyable[0].click()
            confirm = page.wait_for_selector(".rancho-builder [data-action^='buy ']")
            view = seat_view(server, made["id"], seat["token"])
            assert confirm.get_attribute("data-action") in view["legal_actions"]
            no_horizontal_scroll(page)
            shoot(page, "phone-builder")
            confirm.click()
            wait_step(page, step)
        assert page_errors(page) == []
    finally:
        phone.close()
