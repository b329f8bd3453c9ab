"""Joining a free seat from the lobby, in a real browser: a table made with a seat open for
anyone is listed with a "Join" button; another person (another browser context) joins it
with the keyboard, lands on the seat's page and plays."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.conftest import WebServer, open_seat, page_errors, watch


def free_seats(server: WebServer, table: str) -> list[int]:
    rows = httpx.get(f"{server.base}/api/tables", timeout=10).json()["tables"]
    return next(row["free"] for row in rows if row["id"] == table)


def test_join_a_free_seat_from_the_lobby_and_move(
    server: WebServer, context: Any, browser: Any
) -> None:
    made = httpx.post(
        f"{server.base}/api/tables",
        json={
            "game": "rocket-ranchers",
            "seats": ["human", "human"],
            "names": ["Ann", "Player 1"],
            "open": [1],
        },
        timeout=30,
    )
    assert made.status_code == 201, made.text
    created = made.json()
    table = created["id"]
    assert created["seats"][1]["url"] is None and free_seats(server, table) == [1]
    ann = open_seat(context, created["seats"][0]["url"])

    other = browser.new_context(viewport={"width": 375, "height": 812})
    other.set_default_timeout(10_000)
    try:
        lobby = watch(other.new_page())
        lobby.goto(server.base + "/")
        lobby.click("[data-filter='free']")
        lobby.wait_for_selector("#tables[data-shown='free']")
        row = lobby.locator(f"#tables li[data-table='{table}']")
        join = row.locator("[data-join='1']")
        join.wait_for()
        assert "1 free seat" in row.inner_text()
        join.focus()
        lobby.keyboard.press("Enter")  # keyboard reachable: a real button
        name = row.locator("form.join-form input")
        name.wait_for()
        from playwright.sync_api import expect

        expect(name).to_be_focused()  # waits: the form may be drawn a frame later
        lobby.keyboard.type("Bo")
        lobby.keyboard.press("Enter")
        lobby.wait_for_url(f"**/tables/{table}#token=*")
        lobby.wait_for_selector("body[data-step]")
        assert lobby.get_attribute("body", "data-you") == "1"
        assert free_seats(server, table) == []
        # Ann's page hears the new name without a reload.
        ann.wait_for_function("document.body.innerText.includes('P1 Bo')")

        # Whoever is to act moves by clicking; the other page follows.
        pages = {0: ann, 1: lobby}
        acting = httpx.get(f"{server.base}/api/tables/{table}", timeout=10).json()["to_act"]
        page = pages[acting[0]]
        page.wait_for_selector("body[data-acting='true']")
        step = page.get_attribute("body", "data-step")
        page.evaluate("document.getElementById('all-actions').open = true")
        page.locator("#all-actions [data-action]").first.click()
        page.wait_for_function(f"document.body.dataset.step !== '{step}'")
        new_step = page.get_attribute("body", "data-step")
        for other_page in pages.values():
            other_page.wait_for_function(
                f"Number(document.body.dataset.step) >= {int(new_step or 0)}"
            )

        # A second try at the same seat is refused and says so.
        again = watch(other.new_page())
        again.goto(server.base + "/")
        assert again.locator(f"#tables [data-table='{table}'] [data-join]").count() == 0
        claim = httpx.post(f"{server.base}/api/tables/{table}/seats/1/claim", json={}, timeout=10)
        assert claim.status_code == 409
        for each in (lobby, ann, again):
            assert page_errors(each) == []
    finally:
        other.close()


def test_the_keyboard_focus_survives_the_lobby_refresh(server: WebServer, context: Any) -> None:
    """The list is redrawn every few seconds; someone who has tabbed to "Join" keeps the focus
    there, so the Enter they press next opens the form rather than falling on the page."""
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "glory-ranch", "seats": ["human", "human"], "open": [1]},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    page = watch(context.new_page())
    page.goto(server.base + "/")
    row = f"#tables li[data-table='{table}']"
    page.locator(f"{row} [data-join='1']").focus()
    page.evaluate("row => { document.querySelector(row).dataset.before = 'yes'; }", row)
    # The next periodic refresh draws a new row (the marked one is gone) ...
    page.wait_for_function(
        "row => { const r = document.querySelector(row); return r && !r.dataset.before; }",
        arg=row,
        timeout=30_000,
    )
    # ... and the focus is on the same seat's button in it.
    assert page.evaluate("document.activeElement.dataset.join") == "1"
    assert page.evaluate("document.activeElement.closest('li').dataset.table") == table
    page.keyboard.press("Enter")
    page.locator(f"{row} form.join-form input").wait_for()
    assert page_errors(page) == []


def test_the_lobby_creates_a_table_with_an_open_seat(server: WebServer, context: Any) -> None:
    page = watch(context.new_page())
    page.goto(server.base + "/")
    page.select_option("#game", "glory-ranch")
    page.select_option("#players", "3")
    page.select_option("#seat-kind-0", "human")
    page.select_option("#seat-kind-1", "open")
    page.select_option("#seat-kind-2", "easy")
    page.fill("#seat-name-0", "Ann")
    page.click("button[type=submit]")
    # The creator lands on their seat in this tab; the open seat is told in "Invite".
    page.wait_for_url("**/tables/*#token=*")
    page.wait_for_selector("body[data-step]")
    assert page.get_attribute("body", "data-you") == "0"
    table = page.url.split("/tables/")[1].split("#")[0]
    invite = page.locator("[data-invite]")
    invite.wait_for()
    assert invite.locator("[data-seat-link]").count() == 0  # nobody else holds a link
    assert invite.locator("[data-invite-open]").get_attribute("data-invite-open") == "1"
    assert free_seats(server, table) == [1]
    page.goto(server.base + "/")
    page.wait_for_selector(f"#tables [data-table='{table}'] [data-join='1']")
    assert page_errors(page) == []
