"""The lobby as a person uses it, in a real browser: creating a table lands on your seat in
the same tab (no new tab, no stray ``null``), with the other people's links in an
"Invite" box; the turn clock and the bots' delay chosen in the lobby reach the table; the
bot levels are offered in words; your name is remembered; "My tables" lists the seats this
browser holds, your turn first; finished games are under "Finished games", not in the main
list; counts read as English."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.web.conftest import (
    DESKTOP,
    STEP_TIMEOUT_MS,
    WebServer,
    finished_view,
    page_errors,
    watch,
)

WAIT_MS = 20_000


def table_of(server: WebServer, table: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    view: dict[str, Any] = httpx.get(
        f"{server.base}/api/tables/{table}", headers=headers, timeout=10
    ).json()
    return view


def no_null(text: str) -> bool:
    return re.search(r"\bnull\b|\bundefined\b", text) is None


def lobby(context: Any, server: WebServer) -> Any:
    page = watch(context.new_page())
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-kind-0 option", state="attached")
    return page


def test_create_lands_on_your_seat_with_the_invitations_and_the_pace(
    server: WebServer, context: Any
) -> None:
    page = lobby(context, server)
    page.select_option("#game", "glory-ranch")
    page.select_option("#players", "3")
    page.select_option("#seat-kind-0", "human")
    page.select_option("#seat-kind-1", "human")
    page.select_option("#seat-kind-2", "easy")
    page.fill("#seat-name-0", "Ann")
    page.fill("#seat-name-1", "Bo")
    assert page.is_hidden("#clock-bot")
    page.select_option("#clock", "60")
    page.select_option("#clock-bot", "random")
    page.select_option("#bot-delay", "1.5")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/[^#]+#token="), timeout=WAIT_MS)
    page.wait_for_selector("body[data-step]", timeout=WAIT_MS)
    assert len(context.pages) == 1  # the same tab: no popup
    assert page.get_attribute("body", "data-you") == "0"
    table = page.url.split("/tables/")[1].split("#")[0]
    token = page.url.split("#token=")[1]

    # Bo's link waits in the Invite box, and opens Bo's seat.
    invite = page.locator("[data-invite] [data-invite-seat='1']")
    expect(invite).to_be_visible(timeout=WAIT_MS)
    link = invite.locator("a[data-seat-link]").get_attribute("href") or ""
    assert f"/tables/{table}#token=" in link and token not in link
    assert table_of(server, table, link.split("#token=")[1])["you"] == 1
    assert no_null(page.inner_text("#main"))
    assert "1 link to send" in page.inner_text("[data-invite] summary")
    # Seen once, the box is folded on the next visit, the link still in it.
    page.reload()
    page.locator("[data-invite] [data-invite-seat='1']").wait_for(state="attached")
    assert page.get_attribute("[data-invite]", "open") is None

    # Back in the lobby, the table offers this browser its seat.
    page.goto(server.base + "/")
    mine = page.locator(f"#tables [data-table='{table}'] a[data-your-seat]")
    expect(mine).to_have_attribute("href", f"/tables/{table}#token={token}", timeout=WAIT_MS)

    view = table_of(server, table, token)
    assert view["clock"] is not None and view["clock"]["seconds"] == 60
    assert view["clock"]["bot"] == "random"
    assert view["bot_delay"] == 1.5
    assert [s["kind"] for s in view["seats"]] == ["human", "human", "easy"]
    assert [s["name"] for s in view["seats"]][:2] == ["Ann", "Bo"]
    assert page_errors(page) == []


def test_the_lobby_offers_bot_levels_in_words(server: WebServer, context: Any) -> None:
    page = lobby(context, server)
    page.select_option("#game", "super-farmer")
    options = page.locator("#seat-kind-1 option")
    values = options.evaluate_all("(os) => os.map((o) => o.value)")
    labels = options.evaluate_all("(os) => os.map((o) => o.textContent)")
    for kind in ("human", "open", "easy", "normal", "hard", "optimal", "daring", "random"):
        assert kind in values
    assert "Greedy (easy)" in labels
    assert any(label.startswith("Normal: Racer") for label in labels), labels
    assert any(label.startswith("Search (") and "s a move" in label for label in labels)
    page.select_option("#seat-kind-1", "hard")
    expect(page.locator("#bot-doc [data-bot-level='hard']")).to_be_visible()
    page.select_option("#game", "rancho")
    values = page.locator("#seat-kind-1 option").evaluate_all("(os) => os.map((o) => o.value)")
    assert "optimal" not in values and {"easy", "normal", "hard"} <= set(values)
    labels = page.locator("#seat-kind-1 option").evaluate_all(
        "(os) => os.map((o) => o.textContent)"
    )
    assert any(label.startswith("Search (normal") and "s a move" in label for label in labels)
    assert no_null(page.inner_text("body"))


def test_your_name_is_remembered_and_my_tables_lists_your_turn_first(
    server: WebServer, context: Any
) -> None:
    page = lobby(context, server)
    assert page.input_value("#seat-name-0") == ""
    page.select_option("#game", "rocket-ranchers")
    page.select_option("#players", "2")
    page.select_option("#seat-kind-0", "human")
    page.select_option("#seat-kind-1", "human")
    page.fill("#seat-name-0", "Zed")
    page.fill("#seat-name-1", "Yu")
    page.click("label.check")  # hot seat: this device holds both seats
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"#tokens="), timeout=WAIT_MS)
    page.wait_for_selector("body[data-step], body[data-handoff]", timeout=WAIT_MS)
    hot_table = page.url.split("/tables/")[1].split("#")[0]
    page.wait_for_function(  # both seats kept (each connection's first view keeps its own)
        """() => { const kept = JSON.parse(localStorage.getItem('ranchhand.tables') || '[]');
                   return kept.length && Object.keys(kept[0].seats).length === 2; }"""
    )

    # Back in the lobby (a reload of a new page), the name is there.
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-kind-0 option", state="attached")
    assert page.input_value("#seat-name-0") == "Zed"

    # A seat whose turn is not now: Ann against a person who has not come yet.
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "rocket-ranchers", "seats": ["human", "human"], "names": ["Ann", "Bo"]},
        timeout=30,
    ).json()
    acting = table_of(server, made["id"])["to_act"]
    mine = next(s for s in made["seats"] if s["seat"] not in acting)
    seat_page = watch(context.new_page())
    seat_page.goto(mine["url"])
    seat_page.wait_for_selector("body[data-step]")
    seat_page.close()
    # And a table this server never heard of, kept from another time.
    page.evaluate(
        """() => {
          const kept = JSON.parse(localStorage.getItem('ranchhand.tables'));
          kept.push({id: 'gone-table', game: 'rancho', hot: false, saved: 1,
                     seats: {0: {token: 'not-a-token', name: 'Old'}}});
          localStorage.setItem('ranchhand.tables', JSON.stringify(kept));
        }"""
    )

    page.click("a[data-my-tables]")
    page.wait_for_url("**/my")
    rows = page.locator("[data-my-list] [data-my-table]")
    expect(rows).to_have_count(3, timeout=WAIT_MS)
    first = rows.first
    assert first.get_attribute("data-my-table") == hot_table
    assert "your turn" in first.inner_text()
    waiting = page.locator(f"[data-my-table='{made['id']}']")
    assert waiting.get_attribute("data-state") == "playing"
    assert "waiting for" in waiting.inner_text() and "your turn" not in waiting.inner_text()
    gone = page.locator("[data-my-table='gone-table']")
    assert gone.get_attribute("data-state") == "gone"
    gone.locator("[data-forget]").click()
    expect(gone).to_have_count(0)
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('ranchhand.tables'))")
    assert [entry["id"] for entry in kept] == [made["id"], hot_table]
    assert no_null(page.inner_text("body"))
    # The link opens the seat this browser holds.
    first.locator("a").first.click()
    page.wait_for_selector("body[data-step], body[data-handoff]", timeout=WAIT_MS)
    assert "#tokens=" in page.url
    assert page_errors(page) == []


def test_joining_fills_in_the_remembered_name(server: WebServer, context: Any) -> None:
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "rancho", "seats": ["human", "human"], "names": ["Ann", "x"], "open": [1]},
        timeout=30,
    ).json()
    page = lobby(context, server)
    page.evaluate("() => localStorage.setItem('ranchhand.name', JSON.stringify('Quinn'))")
    page.reload()
    row = page.locator(f"#tables [data-table='{made['id']}']")
    row.locator("[data-join='1']").click()
    name = row.locator("form.join-form input")
    expect(name).to_have_value("Quinn")
    name.fill("Quincy")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/tables/{made['id']}#token=*", timeout=WAIT_MS)
    page.wait_for_selector("body[data-step]")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('ranchhand.name'))") == "Quincy"
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('ranchhand.tables'))")
    assert kept[0]["id"] == made["id"] and kept[0]["seats"]["1"]["name"] == "Quincy"


def test_finished_games_are_under_history_and_counts_read_as_english(
    server: WebServer, context: Any
) -> None:
    finished = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "rocket-ranchers", "seats": ["greedy", "greedy"], "bot_delay": 0},
        timeout=30,
    ).json()["id"]
    waiting = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "rancho", "seats": ["human", "easy"], "names": ["Ann", "Bot"], "open": [0]},
        timeout=30,
    ).json()["id"]
    finished_view(server, finished, within=120)

    page = lobby(context, server)
    row = page.locator(f"#tables [data-table='{waiting}']")
    expect(row).to_be_visible(timeout=WAIT_MS)
    text = row.inner_text()
    assert "2 players: 1 person, 1 bot" in text and "1 free seat" in text
    assert "waiting for 1 player" in text and "1 people" not in text
    # The tables with a free seat come first.
    first = page.locator("#tables [data-table]").first
    assert first.get_attribute("data-free") != ""
    assert page.locator(f"#tables [data-table='{finished}']").count() == 0
    counts = page.locator("[data-lobby-counts]")
    expect(counts).to_contain_text("finished", timeout=WAIT_MS)
    assert re.search(r"\b1 tables\b|\b1 games\b", counts.inner_text()) is None
    expiry = "nothing happens for 1 day (1 hour where only bots sit)"  # serve's defaults
    expect(page.locator("[data-expiry]")).to_contain_text(expiry)

    page.click("#history summary")
    done = page.locator(f"#history-list [data-table='{finished}']")
    expect(done).to_be_visible(timeout=WAIT_MS)
    assert done.locator(f"a[data-replay='{finished}']").get_attribute("href") == (
        f"/replay#table={finished}"
    )
    assert page.locator(f"#history-list [data-table='{waiting}']").count() == 0
    assert no_null(page.inner_text("body"))
    assert page_errors(page) == []


def test_creating_inviting_and_my_tables_raise_no_csp_violation(
    server: WebServer, browser: Any
) -> None:
    from tests.web.test_csp import recording, violations

    strict = browser.new_context(viewport=DESKTOP, bypass_csp=False)
    strict.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        console = recording(strict)
        page = lobby(strict, server)
        page.select_option("#game", "rancho")
        page.select_option("#players", "3")
        page.select_option("#seat-kind-1", "human")
        page.select_option("#seat-kind-2", "open")
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(r"#token="), timeout=WAIT_MS)
        page.locator("[data-invite] [data-invite-open]").wait_for(timeout=WAIT_MS)
        page.goto(server.base + "/my")
        page.locator("[data-my-list] [data-my-table]").first.wait_for(timeout=WAIT_MS)
        page.goto(server.base + "/")
        page.click("#history summary")
        page.locator("#history-list li").first.wait_for(timeout=WAIT_MS)
        assert violations(page, console) == []
        assert page_errors(page) == []
    finally:
        strict.close()
