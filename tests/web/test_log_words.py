"""The log in words and what changed on the board, in a real browser.

The table page shows each log entry in words (``view.words``) with its notation as the
entry's ``title``; "Show notation" switches the whole log back to notation and is
remembered in the browser. After a bot's move, the board elements that move changed
carry the class ``changed`` (a highlight that fades); with reduced motion there is no
animation. Skipped (conftest) without Chromium or Playwright.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.conftest import DESKTOP, WebServer, open_seat, page_errors

WAIT_MS = 30_000
LOG_TEXTS = (
    "() => [...document.querySelectorAll('#log li')].map((li) => [li.textContent, li.title])"
)
KEYED = "() => document.querySelectorAll('#board [data-key], #board [data-space]').length"
CHANGED = """() => [...document.querySelectorAll('#board .changed')].map((e) =>
  [e.dataset.key || e.dataset.space || e.dataset.seat || '', getComputedStyle(e).animationName])"""


def bot_table(server: WebServer) -> dict[str, Any]:
    """Rancho: Ann (a person) against a greedy bot that waits a little between moves."""
    body = {"game": "rancho", "seats": ["human", "greedy"], "names": ["Ann", "Bob"]}
    reply = httpx.post(f"{server.base}/api/tables", json={**body, "bot_delay": 0.3}, timeout=30)
    assert reply.status_code == 201, reply.text
    made: dict[str, Any] = reply.json()
    return made


def seat_view(server: WebServer, table: str, token: str) -> dict[str, Any]:
    reply = httpx.get(
        f"{server.base}/api/tables/{table}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def bobs_lines(page: Any) -> int:
    return sum(text.startswith("Bob ") for text, _ in page.evaluate(LOG_TEXTS))


def after_bobs_turn(page: Any) -> None:
    """Ann rolls and ends her turn (answering what the dice ask of her, if anything); the
    page waits until Bob (the bot) played his turn and it is Ann's again."""
    from playwright.sync_api import expect

    body = page.locator("body")
    expect(body).to_have_attribute("data-acting", "true", timeout=WAIT_MS)
    bobs = bobs_lines(page)  # Bob's earlier turns are in the log already
    page.locator('#controls [data-action="roll and end turn"]').click()
    for _ in range(40):
        expect(body).to_have_attribute("data-acting", "true", timeout=WAIT_MS)
        if bobs_lines(page) > bobs:
            return
        step = body.get_attribute("data-step") or ""
        page.evaluate("() => { document.getElementById('all-actions').open = true; }")
        page.locator("#action-list [data-action]").first.click()
        expect(body).not_to_have_attribute("data-step", step, timeout=WAIT_MS)
    raise AssertionError("Bob never played")


def test_the_log_speaks_words_and_keeps_the_notation(server: WebServer, browser: Any) -> None:
    from playwright.sync_api import expect

    made = bot_table(server)
    seat = made["seats"][0]
    context = browser.new_context(viewport=DESKTOP)
    try:
        context.set_default_timeout(WAIT_MS)
        page = open_seat(context, seat["url"])
        after_bobs_turn(page)
        view = seat_view(server, made["id"], seat["token"])
        expect(page.locator("body")).to_have_attribute("data-step", str(view["step"]))
        shown = page.evaluate(LOG_TEXTS)
        assert [text for text, _ in shown] == view["words"]
        assert [title for _, title in shown] == view["log"]
        assert any(text.startswith("You rolled") for text, _ in shown), shown
        assert any(text.startswith("Bob ") for text, _ in shown), shown
        assert not any(text.startswith(("P0 ", "P1 ", "chance:")) for text, _ in shown)

        switch = page.locator("[data-log-notation]")
        expect(switch).to_have_count(1)
        switch.check()
        expect(page.locator("#log li").first).to_have_text(view["log"][0])
        assert [text for text, _ in page.evaluate(LOG_TEXTS)] == view["log"]
        page.reload()
        page.wait_for_selector("body[data-step]")
        expect(page.locator("[data-log-notation]")).to_be_checked()
        expect(page.locator("#log li").first).to_have_text(view["log"][0])
        page.locator("[data-log-notation]").uncheck()
        expect(page.locator("#log li").first).to_have_text(view["words"][0])
        assert page_errors(page) == []
    finally:
        context.close()


def test_what_a_bots_move_changed_is_marked(server: WebServer, browser: Any) -> None:
    made = bot_table(server)
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
        try:
            context.set_default_timeout(WAIT_MS)
            page = open_seat(context, made["seats"][0]["url"])
            after_bobs_turn(page)
            changed = page.evaluate(CHANGED)
            assert changed, "the bot's last move changed something on the board"
            # Not everything: a strike changes up to every pasture's title (a roll's
            # fox and wolf across the prices), so no finer bound holds here; the exact
            # rule is checked on a drawn board below.
            assert len(changed) < page.evaluate(KEYED), "only what changed is marked"
            animations = {name for _, name in changed}
            if motion == "reduce":
                assert animations == {"none"}, changed
            else:
                assert animations <= {"rh-changed", "rh-changed-svg"} and animations, changed
            assert page_errors(page) == []
        finally:
            context.close()


MARKED = """async () => {
  const { markChanges } = await import("/static/changes.js");
  const board = document.createElement("div");
  document.body.append(board);
  const draw = (spaces, step, you = 0) => {
    board.replaceChildren(...spaces.map(([id, text, inner]) => {
      const space = document.createElement("div");
      space.dataset.space = id;
      space.append(text);
      if (inner) {
        const piece = document.createElement("span");
        piece.dataset.key = inner;
        piece.append(inner);
        space.append(piece);
      }
      return space;
    }));
    markChanges(board, { id: "t", you, step });
    return [...board.querySelectorAll(".changed")].map((e) =>
      [e.dataset.space || e.dataset.key, e.classList.contains("entered")]);
  };
  return [
    draw([["a", "free"], ["b", "free"], ["c", "pen", "cow"]], 1),
    draw([["a", "free"], ["b", "struck"], ["c", "pen", "horse"], ["d", "free"]], 2),
    draw([["a", "free"], ["b", "struck"], ["c", "pen", "horse"], ["d", "free"]], 2),
    draw([["a", "struck"], ["b", "free"], ["c", "pen", "horse"], ["d", "struck"]], 3),
    draw([["a", "free"], ["b", "free"], ["c", "pen", "horse"], ["d", "free"]], 4, 1),
  ];
}"""


def test_exactly_what_changed_is_marked(server: WebServer, context: Any) -> None:
    """The board module's rule on a drawn board: the first view of a seat marks nothing;
    then exactly the keyed things whose text changed (the innermost: a piece, not its
    space) or that appeared; the same step drawn again keeps its marks; however much
    changed, all of it and nothing else; another seat's first view marks nothing."""
    page = context.new_page()
    page.goto(f"{server.base}/")  # a page of the server that draws no board of its own
    first, second, again, most, other = page.evaluate(MARKED)
    assert first == []
    assert second == [["b", False], ["horse", True], ["d", True]]
    assert again == second
    assert most == [["a", False], ["b", False], ["d", False]]
    assert other == []
