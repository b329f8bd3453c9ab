"""The keyboard and the text alternatives, in a real browser, for each game.

Issue 10 promises: every action reachable by keyboard; icons have text alternatives;
colours are never the only signal. For each game one human seat plays a greedy bot:

- at every position the seat may act in, every rendered element carrying
  ``data-action`` or ``data-choose`` is a button (``<button>`` or ``role="button"``),
  takes the focus, is in the Tab order and has a non-empty accessible name; once per
  game (and with a builder open) Playwright's own accessible-name computation agrees,
  and pressing Tab from the top of the page reaches every one of them;
- no ``<img>``, ``role="img"`` or drawn ``<svg>`` lacks a text alternative (an SVG that
  is only decoration is ``aria-hidden``);
- ten moves are played with the keyboard alone: focus an element, press Enter or Space,
  and the table's step advances. The moves go through each game's builder: Rancho's
  deal builder (a chip or a gold-edged hex, then Confirm), Rocket Ranchers' beam builder
  (beam, turn, a place chosen on the board's cards, then Take), and a local choice keeps
  the focus where it was (the elements are redrawn, the focus is put back).

Skipped (conftest) without Chromium or Playwright.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from tests.web.conftest import STEP_TIMEOUT_MS, create_table, open_seat, page_errors

MOVES = 10

# Every rendered element that acts or chooses, as the keyboard and a screen reader meet it.
AUDIT = """() => {
  const nameOf = (e) => {
    const by = e.getAttribute('aria-labelledby');
    const text = (id) => (document.getElementById(id) || {}).textContent || '';
    if (by) return by.split(/\\s+/).map(text).join(' ');
    if (e.getAttribute('aria-label')) return e.getAttribute('aria-label');
    const title = [...e.children].find((c) => c.tagName.toLowerCase() === 'title');
    if (title) return title.textContent;
    return e.textContent || e.getAttribute('title') || '';
  };
  const before = document.activeElement;
  document.querySelectorAll('[data-rh-kb]').forEach((e) => e.removeAttribute('data-rh-kb'));
  const found = [...document.querySelectorAll('#main [data-action], #main [data-choose]')]
    .filter((e) => e.checkVisibility() && !e.disabled)
    .filter((e) => e.getAttribute('aria-disabled') !== 'true');
  const out = found.map((e, i) => {
    e.setAttribute('data-rh-kb', String(i));
    e.focus({ preventScroll: true });
    return {
      i,
      what: e.getAttribute('data-action') || 'choose ' + e.getAttribute('data-choose'),
      tag: e.tagName.toLowerCase(),
      role: e.getAttribute('role') || (e.tagName === 'BUTTON' ? 'button' : ''),
      tabIndex: e.tabIndex,
      focused: document.activeElement === e,
      name: nameOf(e).replace(/\\s+/g, ' ').trim(),
    };
  });
  const back = before && before !== document.body && before.isConnected;
  if (back) before.focus({ preventScroll: true });
  else if (document.activeElement) document.activeElement.blur();
  return out;
}"""

# Pictures without words: an <img> without alt, a role="img" or a drawn <svg> with no name
# (an <svg> that is only decoration must be aria-hidden).
UNNAMED_PICTURES = """() => {
  const hidden = (e) => !!e.closest('[aria-hidden="true"]');
  const named = (e) => !!(e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') ||
    [...e.children].some((c) => c.tagName.toLowerCase() === 'title' && c.textContent.trim()));
  const bad = [];
  for (const e of document.querySelectorAll('img')) {
    if (!e.hasAttribute('alt')) bad.push(e.outerHTML.slice(0, 120));
  }
  for (const e of document.querySelectorAll('[role="img"], svg')) {
    const nested = e.parentElement && e.parentElement.closest('svg');
    if (e.tagName.toLowerCase() === 'svg' && nested) continue;
    if (hidden(e) || named(e)) continue;
    bad.push(e.outerHTML.slice(0, 120));
  }
  return bad;
}"""

# Press Tab from the brand link on and note every element the focus visits.
TABBABLE_COUNT = """() => [...document.querySelectorAll(
  'a[href], button, input, select, textarea, summary, [tabindex]')]
  .filter((e) => e.tabIndex >= 0 && !e.disabled && e.checkVisibility()).length"""
TAB_WATCH = """() => {
  window.rhVisited = new Set();
  if (!window.rhWatching) {
    document.addEventListener('focusin', (ev) => {
      const k = ev.target.getAttribute && ev.target.getAttribute('data-rh-kb');
      if (k !== null && window.rhVisited) window.rhVisited.add(k);
    });
    window.rhWatching = true;
  }
}"""


def audit(page: Any, *, deep: bool = False) -> list[dict[str, Any]]:
    """Check every acting or choosing element; with ``deep``, Playwright's names and Tab."""
    found: list[dict[str, Any]] = page.evaluate(AUDIT)
    for item in found:
        assert item["role"] == "button", f"not a button: {item}"
        assert item["tabIndex"] >= 0 and item["focused"], f"cannot take the focus: {item}"
        assert re.search(r"\w", item["name"]), f"no accessible name: {item}"
    assert page.evaluate(UNNAMED_PICTURES) == []
    if deep:
        from playwright.sync_api import expect

        for item in found:
            marked = page.locator(f"[data-rh-kb='{item['i']}']")
            expect(marked).to_have_role("button", timeout=1000)
            expect(marked).to_have_accessible_name(re.compile(r"\w"), timeout=1000)
        tab_through(page, found)
    return found


def tab_through(page: Any, found: list[dict[str, Any]]) -> None:
    """From the top of the page, Tab reaches every element that acts or chooses."""
    page.evaluate(TAB_WATCH)
    page.locator("header .brand").focus()
    presses = page.evaluate(TABBABLE_COUNT) + 2
    for _ in range(presses):
        page.keyboard.press("Tab")
    visited = set(page.evaluate("[...window.rhVisited]"))
    missed = [item["what"] for item in found if str(item["i"]) not in visited]
    assert not missed, f"Tab never reaches {missed} ({presses} presses)"


def state(page: Any) -> dict[str, str]:
    got: dict[str, str] = page.evaluate(
        """() => ({step: document.body.dataset.step, acting: document.body.dataset.acting,
                  error: document.getElementById('error').textContent,
                  over: document.querySelector('[data-outcome]') ? 'yes' : ''})"""
    )
    return got


def press(page: Any, selector: str, rng: random.Random, key: str | None = None) -> Any:
    """Focus one of the matching elements (no mouse) and press Enter or Space on it."""
    elements = page.locator(selector)
    count = elements.count()
    assert count, f"nothing matches {selector}"
    chosen = elements.nth(rng.randrange(count))
    chosen.focus()
    page.keyboard.press(key or rng.choice(["Enter", "Space"]))
    return chosen


def focused(page: Any, attribute: str) -> str | None:
    value: str | None = page.evaluate(
        "(a) => document.activeElement && document.activeElement.getAttribute(a)", attribute
    )
    return value


def wait_moved(page: Any, before: dict[str, str]) -> None:
    page.wait_for_function(
        "(s) => document.body.dataset.step !== s || document.getElementById('error').textContent",
        arg=before["step"],
        timeout=STEP_TIMEOUT_MS,
    )
    assert not state(page)["error"], state(page)


# ------------------------------------------------------------------ one move per game


def rancho_move(page: Any, rng: random.Random, done: dict[str, int]) -> None:
    chips = page.locator(".rancho-builder .rancho-chip")
    hexes = page.locator("#board .rancho-click[aria-label^='buy ']")
    if chips.count() or hexes.count():
        if hexes.count() and (not chips.count() or rng.random() < 0.5):
            label = press(page, "#board .rancho-click[aria-label^='buy ']", rng).get_attribute(
                "aria-label"
            )
            assert focused(page, "aria-label") == label  # redrawn, the focus stays
            done["hex"] += 1
        else:
            text = press(page, ".rancho-builder .rancho-chip", rng).inner_text()
            assert page.evaluate("document.activeElement.textContent.trim()") == text.strip()
        audit(page, deep=done["deep"] < 2)
        done["deep"] += 1
        press(page, ".rancho-builder [data-action]", rng)
        done["builder"] += 1
        return
    press(page, "#controls .rancho-main-actions [data-action]", rng, "Enter")


def rocket_move(page: Any, rng: random.Random, done: dict[str, int]) -> None:
    beams = page.locator("#controls [data-choose=beam]:enabled")
    if not beams.count():  # placing cards, or after: a button (end, a corral)
        press(page, "#controls [data-action]", rng)
        return
    beam = press(page, "#controls [data-choose=beam]:enabled", rng).get_attribute("data-k")
    assert focused(page, "data-k") == beam  # redrawn, the focus stays on the beam
    if not page.locator("#controls [data-choose=rotation][aria-pressed=true]").count():
        press(page, "#controls [data-choose=rotation]:enabled", rng)
    # the place chosen on the board: a card the beam would take, by keyboard
    cell = press(page, "#board [data-choose=place]", rng)
    assert page.locator("#board .rr-take").count() > 0  # the preview of what it takes
    assert page.locator("#board .rr-ring rect").count() == 2  # the focus ring shows
    assert focused(page, "data-cell") == cell.get_attribute("data-cell")
    confirm = page.locator("#controls [data-action^='beam ']")
    assert confirm.count() == 1
    audit(page, deep=done["deep"] < 2)
    done["deep"] += 1
    confirm.focus()
    page.keyboard.press(rng.choice(["Enter", "Space"]))
    done["builder"] += 1


def glory_move(page: Any, rng: random.Random, done: dict[str, int]) -> None:
    press(page, "#board [data-action], #controls [data-action]", rng)


def super_farmer_move(page: Any, rng: random.Random, done: dict[str, int]) -> None:
    press(page, "#controls .sf-choices > [data-action], #controls .sf-choices > .sf-list > *", rng)


PLAYERS = {
    "rancho": rancho_move,
    "rocket-ranchers": rocket_move,
    "glory-ranch": glory_move,
    "super-farmer": super_farmer_move,
}
BUILDERS = ("rancho", "rocket-ranchers")
"""The games whose moves are built from several choices before the confirming press."""


@pytest.mark.parametrize("game", list(PLAYERS))
def test_every_action_by_keyboard(server: Any, browser: Any, game: str) -> None:
    started = time.monotonic()
    move = PLAYERS[game]
    table = create_table(server, game, ["human", "greedy"], ["Ann", "greedy"])
    made = browser.new_context(viewport={"width": 1280, "height": 900})
    made.set_default_timeout(STEP_TIMEOUT_MS)
    rng = random.Random(10)
    done = {"moves": 0, "builder": 0, "hex": 0, "deep": 0, "checked": 0}
    try:
        page = open_seat(made, table["seats"][0]["url"])
        page.wait_for_selector("body[data-acting=true]")
        done["checked"] += len(audit(page, deep=True))
        while done["moves"] < MOVES:
            page.wait_for_selector("body[data-acting=true], [data-outcome]")
            before = state(page)
            if before["over"]:
                break
            done["checked"] += len(audit(page))
            move(page, rng, done)
            wait_moved(page, before)
            done["moves"] += 1
        assert done["moves"] == MOVES, done
        if game in BUILDERS:
            assert done["builder"] > 0, done
        assert not page_errors(page)
    finally:
        made.close()
    print(f"{game}: {done} in {time.monotonic() - started:.1f}s")
