"""Undo in a real browser (docs/web.md, "Undo"): two people online in two browser
contexts at a Rancho table. Ann makes a trade; her page shows `[data-undo]`; she clicks
it; Bob's page logs what she took back, both pages come back to the board as it was,
and Ann's button goes (nothing more to take back). Skipped (conftest) without Chromium
or Playwright."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.conftest import STEP_TIMEOUT_MS, WebServer, create_table, open_seat, page_errors

WAIT_MS = 3 * STEP_TIMEOUT_MS  # a loaded machine: generous, never a fixed sleep


def board_text(page: Any) -> str:
    text: str = page.evaluate("() => document.getElementById('board').textContent")
    return text


def step_of(page: Any) -> int:
    return int(page.evaluate("() => document.body.dataset.step"))


def test_an_undo_online_is_seen_by_the_other_seat(server: WebServer, browser: Any) -> None:
    from playwright.sync_api import expect

    made = create_table(server, "rancho", ["human", "human"], ["Ann", "Bob"])
    contexts = [browser.new_context() for _ in range(2)]
    try:
        for made_context in contexts:
            made_context.set_default_timeout(WAIT_MS)
        ann, bob = (open_seat(c, s["url"]) for c, s in zip(contexts, made["seats"], strict=True))
        table, token = made["id"], made["seats"][0]["token"]
        seen = httpx.get(
            f"{server.base}/api/tables/{table}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert 0 in seen["to_act"], "Ann (seat 0) begins"
        trade = next(a for a in seen["legal_actions"] if a.startswith("trade"))
        expect(ann.locator("body")).to_have_attribute("data-acting", "true", timeout=WAIT_MS)
        before_ann, before_bob = board_text(ann), board_text(bob)
        start = step_of(ann)
        expect(ann.locator("[data-undo]")).to_have_count(0)

        ann.evaluate("() => { document.getElementById('all-actions').open = true; }")
        ann.locator("#action-list").get_by_role("button", name=trade, exact=True).click()
        button = ann.locator("#undo [data-undo]")
        expect(button).to_be_visible(timeout=WAIT_MS)
        expect(button).to_have_attribute("data-undo", "1")
        expect(bob.locator("body")).to_have_attribute("data-step", str(start + 1), timeout=WAIT_MS)
        expect(bob.locator("[data-undo]")).to_have_count(0)  # only the seat that moved

        button.click()
        expect(bob.locator("#log")).to_contain_text("took back", timeout=WAIT_MS)
        expect(ann.locator("#log")).to_contain_text("took back", timeout=WAIT_MS)
        expect(ann.locator("body")).to_have_attribute("data-step", str(start + 2))
        expect(ann.locator("#undo [data-undo]")).to_have_count(0)
        expect(ann.locator("#undo")).to_be_hidden()
        assert board_text(ann) == before_ann, "Ann's board is back as before the trade"
        assert board_text(bob) == before_bob, "Bob's board is back too"
        expect(ann.locator("body")).to_have_attribute("data-acting", "true")
        assert ann.locator("#error").text_content() == ""
        assert page_errors(ann) == [] and page_errors(bob) == []
    finally:
        for made_context in contexts:
            made_context.close()


def test_hot_seat_undoes_with_the_seat_on_screen(server: WebServer, context: Any) -> None:
    """One device holds both seats: the button posts with the token of the seat on
    screen, and a hand-off to the other seat leaves no button behind."""
    from playwright.sync_api import expect

    made = create_table(server, "rancho", ["human", "human"], ["Ann", "Bob"])
    tokens = ",".join(s["token"] for s in made["seats"])
    page = open_seat(context, f"{server.base}/tables/{made['id']}#tokens={tokens}")
    expect(page.locator("body")).to_have_attribute("data-you", "0", timeout=WAIT_MS)
    expect(page.locator("body")).to_have_attribute("data-acting", "true", timeout=WAIT_MS)
    start = step_of(page)
    page.evaluate("() => { document.getElementById('all-actions').open = true; }")
    page.locator("#action-list [data-action^='trade']").first.click()
    button = page.locator("#undo [data-undo]")
    expect(button).to_be_visible(timeout=WAIT_MS)
    button.click()
    expect(page.locator("#log")).to_contain_text("took back", timeout=WAIT_MS)
    expect(page.locator("body")).to_have_attribute("data-step", str(start + 2))
    expect(button).to_have_count(0)
    page.locator("#action-list [data-action='roll and end turn']").click()
    handoff = page.locator("[data-handoff-to]")
    # The dice may leave Ann a choice before the turn passes: a fox and a wolf together
    # ask which strikes first (2 rolls in 144), and newborns that do not fit go back.
    choices = "#action-list [data-action$=' first'], #action-list [data-action^='return']"
    pending = page.locator(choices)
    for _ in range(20):
        page.wait_for_function(
            "(choices) => document.querySelector('[data-handoff-to]') || "
            "(document.body.dataset.acting === 'true' && document.querySelector(choices))",
            arg=choices,
            timeout=WAIT_MS,
        )
        if handoff.count():
            break
        pending.first.click()
    expect(handoff).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("[data-undo]")).to_have_count(0)
    assert page_errors(page) == []
