"""The table page on a phone (375x812 CSS px), for each game.

When it is the seat's turn, the "your turn" line and at least one of the current
choices (an enabled ``data-action`` element of the game's own drawing, not the shell's
"All actions" list) are on the screen without scrolling, and stay there while the
player scrolls through the board (style.css, "phone layout": the turn line sticks to
the top, the controls to the bottom). Every text on the board and the controls renders
at 11 CSS px or more (the computed font size times the SVG's scale as drawn), and the
page never scrolls sideways. When a game ends, the end screen comes into view by itself
even for a player scrolled to the bottom of the page. Skipped (conftest) without Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import PHONE, STEP_TIMEOUT_MS, create_table, open_seat, page_errors

GAMES = ("rancho", "rocket-ranchers", "glory-ranch", "super-farmer")
MIN_PX = 11.0

# Each text on the board and the controls: its size as rendered, in CSS px.
TEXT_SIZES = """(ids) => {
  const sizes = [];
  for (const root of ids.map((id) => document.getElementById(id))) {
    for (const e of root.querySelectorAll('*')) {
      if (['title', 'desc', 'style'].includes(e.localName)) continue;
      if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const box = e.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      let scale = 1;
      if (e instanceof SVGGraphicsElement) {
        const m = e.getScreenCTM();
        scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      }
      const px = parseFloat(getComputedStyle(e).fontSize) * scale;
      const cls = e.getAttribute('class') || e.localName;
      sizes.push({px, text: e.textContent.trim().slice(0, 24), cls});
    }
  }
  return sizes;
}"""

# The enabled choices of the game's own drawing that are wholly on the screen.
CHOICES_IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].filter((e) => {
  if (e.disabled || e.closest('#all-actions, [hidden], details:not([open])')) return false;
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) return false;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return top !== null && (e === top || e.contains(top));
}).length"""

IN_VIEW = """(id) => { const r = document.getElementById(id).getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""

# Scroll so that the middle of the board is in the middle of the screen.
BOARD_MIDDLE = """() => { const r = document.getElementById('board').getBoundingClientRect();
  window.scrollBy(0, r.top + r.height / 2 - innerHeight / 2); return window.scrollY; }"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    made = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    made.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        yield made
    finally:
        made.close()


def choices_in_view(page: Any, selector: str = "#main [data-action]") -> int:
    found: int = page.evaluate(CHOICES_IN_VIEW, selector)
    return found


def assert_legible(page: Any, ids: list[str]) -> None:
    """Every text inside the elements ``ids`` renders at ``MIN_PX`` CSS px or more."""
    sizes = page.evaluate(TEXT_SIZES, ids)
    assert len(sizes) > 5
    small = [s for s in sizes if s["px"] < MIN_PX - 0.05]
    assert not small, f"texts under {MIN_PX} CSS px: {small[:8]}"


def reach_a_data_action(page: Any) -> None:
    """Rocket Ranchers opens on a builder (a beam, its turn, its place: ``data-choose``);
    its confirm button is the first ``data-action``: choose on the screen until it shows."""
    assert choices_in_view(page, "#main [data-choose]"), "the builder's first choice is on screen"
    page.click("#controls [data-choose=beam]:enabled >> nth=0")
    rotation = page.locator("#controls [data-choose=rotation]:enabled")
    if rotation.count() and not page.locator("[data-choose=rotation][aria-pressed=true]").count():
        rotation.first.click()
    page.locator("#board [data-choose=place]").first.click()
    page.wait_for_selector("#controls [data-action^='beam ']")


@pytest.mark.parametrize("game", GAMES)
def test_turn_line_and_choices_on_screen_and_labels_legible(
    server: Any, phone: Any, game: str
) -> None:
    made = create_table(server, game, ["human", "greedy"], ["Ann", "Bot"])
    page = open_seat(phone, made["seats"][0]["url"])
    page.wait_for_selector("body[data-acting=true]")
    page.wait_for_timeout(300)  # the module's drawing settles (Rancho fits its labels)
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(IN_VIEW, "turn"), "the turn line is on the screen"
    assert "turn" in page.locator("#turn").inner_text().lower()
    if game == "rocket-ranchers":
        page.evaluate("window.scrollTo(0, 0)")
        reach_a_data_action(page)
    else:
        assert choices_in_view(page) > 0, "a choice is on the screen without scrolling"
    # scrolled to the middle of the board, both are still there
    assert page.evaluate(BOARD_MIDDLE) > 0, "the board is taller than the screen is left"
    assert page.evaluate(IN_VIEW, "turn"), "the turn line stays on the screen"
    assert choices_in_view(page) > 0, "a choice stays on the screen"
    page.evaluate("window.scrollTo(0, 0)")
    assert_legible(page, ["board", "controls"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page_errors(page) == []


def test_the_end_screen_comes_into_view(server: Any, phone: Any) -> None:
    made = create_table(server, "super-farmer", ["human", "greedy"], ["Ann", "Bot"], max_turns=4)
    page = open_seat(phone, made["seats"][0]["url"])
    for _ in range(20):
        page.wait_for_selector("body[data-acting=true], [data-outcome]")
        if page.locator("[data-outcome]").count():
            break
        step = page.evaluate("document.body.dataset.step")
        # at the bottom of the page, as a player reading the log would be; clicked from
        # there without Playwright scrolling anything into view
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.evaluate("document.querySelector(\"#controls [data-action='roll']\").click()")
        page.wait_for_function(
            "(s) => document.body.dataset.step !== s || document.querySelector('[data-outcome]')",
            arg=step,
        )
    page.wait_for_selector("[data-outcome]")
    page.wait_for_function(
        """() => { const end = document.getElementById('end');
                   const r = end.getBoundingClientRect();
                   return !end.hidden && r.top >= 0 && r.top < innerHeight / 2; }""",
        timeout=STEP_TIMEOUT_MS,
    )
    assert page.evaluate(IN_VIEW, "outcome") or page.locator("#outcome").is_visible()
    assert_legible(page, ["end", "board"])
    assert page_errors(page) == []
