"""Glory Ranch in a real browser: a whole game played by clicking the drawn table.

Two browser contexts are two human seats (P0 Ann, P1 Bo) beside a greedy bot, with a
small target so the game ends in a few rounds. At every move both pages are checked:

- every ``data-action`` on a page is one of that seat's legal actions, and the
  acting seat's board and controls offer every legal action (nothing needs the
  "All actions" fallback list);
- the humans steer toward rock-paper-scissors with each other (they play contest cards
  and challenge the other human); when one has chosen, the other's page holds nothing
  of that sign (the sign words occur exactly as often as before the choice);
- each page's content is kept; at the end the server's record is replayed and no
  page ever named a card of another seat's hand that its own view did not show.

A phone-sized page (375x812) is played for a while: never any horizontal scroll.
Skipped, saying why, without /usr/bin/chromium or playwright (see conftest.py).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx

from ranchhand.core.records import Record, replay_steps
from ranchhand.games.glory_ranch import GloryRanch
from ranchhand.web.catalog.glory_ranch import catalog
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    STEP_TIMEOUT_MS,
    WebServer,
    create_table,
    open_seat,
    page_errors,
)

GAME = "glory-ranch"
TARGET = 15
SIGNS = ("rock", "paper", "scissors")
CARDS = catalog(GloryRanch(3))["cards"]
CONTEST_CARDS = {i for i, c in CARDS.items() if any(e["do"] == "rps" for e in c["effects"])}

ACTIONS_ON_PAGE = """(scope) => [...document.querySelectorAll(scope + ' [data-action]')]
  .map((e) => e.getAttribute('data-action'))"""
# the page as a person could read it, without the help panel's notation examples
# (which name a few cards: 'play wyvern', 'give roc') and without the log, which is
# the view's own text and is compared separately
PAGE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  for (const e of copy.querySelectorAll('#notation, script, style')) e.remove();
  return copy.innerHTML;
}"""


def view_of(server: WebServer, table: str, token: str) -> dict[str, Any]:
    reply = httpx.get(
        f"{server.base}/api/tables/{table}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    reply.raise_for_status()
    view: dict[str, Any] = reply.json()
    return view


def page_step(page: Any) -> int | None:
    step = page.evaluate("document.body.dataset.step")
    return None if step in (None, "") else int(step)


def settle(page: Any, step: int) -> None:
    """Wait until ``page`` draws the view of ``step`` (or the game's end)."""
    page.wait_for_function(
        "(step) => Number(document.body.dataset.step) >= step"
        " && document.body.dataset.acting !== undefined",
        arg=step,
        timeout=STEP_TIMEOUT_MS,
    )


def sign_counts(page: Any) -> dict[str, int]:
    text = page.evaluate(PAGE_TEXT).lower()
    return {sign: len(re.findall(rf"\b{sign}\b", text)) for sign in SIGNS}


def card_pattern(card_id: str) -> re.Pattern[str]:
    name = re.escape(CARDS[card_id]["name"]).replace("'", "(?:'|&#39;|&#x27;)")
    return re.compile(rf"(?<![\w-])(?:{name}|{re.escape(card_id)})(?![\w-])", re.IGNORECASE)


def seen_cards(view: dict[str, Any]) -> set[str]:
    """The cards a view names anywhere (its observation and its log lines)."""
    text = json.dumps(view["observation"]) + "\n" + "\n".join(view["log"])
    return {i for i in CARDS if card_pattern(i).search(text)}


def choose_action(view: dict[str, Any], offered: list[str], rng: random.Random) -> str:
    """A clicked action: steer toward contests between the two humans, else at random."""
    me = view["you"]
    contest = [a for a in offered if a.startswith("play ") and a.split()[1] in CONTEST_CARDS]
    if contest:
        return rng.choice(contest)
    effect = view["observation"].get("effect") or {}
    if effect.get("do") == "rps":
        other = [f"target {h}" for h in (0, 1) if h != me and f"target {h}" in offered]
        if other:
            return other[0]
    return rng.choice(offered)


class Table:
    """A table of two human seats (P0, P1: one browser context each) and maybe a bot,
    played by clicking with every check of this module at each move."""

    def __init__(self, server: WebServer, browser: Any, context: Any, seats: list[str]) -> None:
        self.server = server
        made = create_table(
            server, GAME, seats, names=["Ann", "Bo", "Gus"][: len(seats)], target=TARGET
        )
        self.id = made["id"]
        self.tokens = [made["seats"][0]["token"], made["seats"][1]["token"]]
        self.second = browser.new_context(viewport=DESKTOP)
        self.second.set_default_timeout(STEP_TIMEOUT_MS)
        self.pages = [
            open_seat(context, made["seats"][0]["url"]),
            open_seat(self.second, made["seats"][1]["url"]),
        ]
        self.snapshots: list[tuple[int, int, str, set[str]]] = []  # step, seat, page, seen
        self.contests = 0
        self.moves = 0

    def close(self) -> None:
        self.second.close()

    def views(self) -> list[dict[str, Any]]:
        return [view_of(self.server, self.id, token) for token in self.tokens]

    def play(self, rng: random.Random, until_contest: bool = False) -> str:
        """Click until the game ends (or, with ``until_contest``, one contest was checked)."""
        while True:
            views = self.views()
            step = views[0]["step"]
            for page in self.pages:
                settle(page, step)
            if views[0]["status"] == "finished":
                return "finished"
            if until_contest and self.contests:
                return "contest"
            for seat, (page, view) in enumerate(zip(self.pages, views, strict=True)):
                on_page = page.evaluate(ACTIONS_ON_PAGE, "body")
                assert set(on_page) <= set(view["legal_actions"]), (seat, on_page, view)
                drawn = module_actions(page)
                assert set(drawn) == set(view["legal_actions"]), (seat, drawn, view)
                self.snapshots.append((step, seat, page.evaluate(PAGE_TEXT), seen_cards(view)))
            acting = [s for s, v in enumerate(views) if v["legal_actions"]]
            assert acting, f"no human may act at step {step}: {views[0]['to_act']}"
            seat = rng.choice(acting)
            self.click(seat, views, rng)

    def click(self, seat: int, views: list[dict[str, Any]], rng: random.Random) -> None:
        view, page, other = views[seat], self.pages[seat], 1 - seat
        step = view["step"]
        action = choose_action(view, module_actions(page), rng)
        shots(page, f"glory-ranch-{action.split()[0]}")
        contest = action.startswith("choose ") and "choose rock" in views[other]["legal_actions"]
        before = sign_counts(self.pages[other]) if contest else None
        page.locator(
            f"#board [data-action='{action}'], #controls [data-action='{action}']"
        ).first.click()
        self.moves += 1
        page.wait_for_function(
            "(step) => Number(document.body.dataset.step) > step"
            " || document.getElementById('error').textContent !== ''",
            arg=step,
        )
        assert not page.evaluate("document.getElementById('error').textContent"), action
        if contest:
            # one sign is in and the other seat has yet to choose: its page, redrawn from
            # its new view, holds the sign words exactly as often as before
            settle(self.pages[other], step + 1)
            after = view_of(self.server, self.id, self.tokens[other])
            assert "choose rock" in after["legal_actions"], after["to_act"]
            assert after["observation"]["my_sign"] is None
            assert sign_counts(self.pages[other]) == before, (action, before)
            mine = self.pages[seat].locator(".gr-rps").inner_text().lower()
            assert f"you chose {action.split()[1]}" in mine
            self.contests += 1

    def finish(self) -> None:
        final = self.views()
        for seat, page in enumerate(self.pages):
            page.wait_for_selector("[data-outcome]")
            outcome = json.loads(page.get_attribute("[data-outcome]", "data-outcome"))
            assert outcome == final[seat]["outcome"], outcome
            assert page.locator(".gr-end .gr-winner").count() == 1
            assert "scored" in page.locator(".gr-end").inner_text()
            self.snapshots.append((final[0]["step"], seat, page.evaluate(PAGE_TEXT), set()))
        check_no_hand_leaks(self.server, self.id, self.tokens, self.snapshots, final)
        for page in self.pages:
            assert page_errors(page) == []


def module_actions(page: Any) -> list[str]:
    actions: list[str] = page.evaluate(ACTIONS_ON_PAGE, "#board")
    return actions + page.evaluate(ACTIONS_ON_PAGE, "#controls")


def test_whole_game_by_clicking(server: WebServer, browser: Any, context: Any) -> None:
    """Two humans and a greedy bot play to the end screen by clicking the drawn table."""
    started = time.monotonic()
    table = Table(server, browser, context, ["human", "human", "greedy"])
    try:
        assert table.play(random.Random(10)) == "finished"
        table.finish()
        shots(table.pages[0], "glory-ranch-end")
    finally:
        table.close()
    elapsed = time.monotonic() - started
    print(f"glory-ranch: {table.moves} clicks, {table.contests} contests, {elapsed:.1f}s")


def test_rock_paper_scissors_stays_secret(server: WebServer, browser: Any, context: Any) -> None:
    """Two humans alone: every contest card challenges the other; after the first
    contest's first sign, the other page showed nothing of it (checked in click)."""
    rng = random.Random(4)
    for _ in range(12):  # about 12% of games to 15 Glory end before any contest card
        table = Table(server, browser, context, ["human", "human"])
        try:
            if table.play(rng, until_contest=True) == "contest":
                return
        finally:
            table.close()
    raise AssertionError("twelve games without a rock-paper-scissors contest")


def shots(page: Any, name: str) -> None:
    """A screenshot to $RANCHHAND_SCREENSHOTS/<name>.png when that folder is set (the
    first moment of each kind: the table at a play, a target, a pick...)."""
    folder = os.environ.get("RANCHHAND_SCREENSHOTS")
    if folder and not (Path(folder) / f"{name}.png").exists():
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def check_no_hand_leaks(
    server: WebServer,
    table: str,
    tokens: list[str],
    snapshots: list[tuple[int, int, str, set[str]]],
    final_views: list[dict[str, Any]],
) -> None:
    """No page named a card in another seat's hand at that step that its view did not show."""
    reply = httpx.get(
        f"{server.base}/api/tables/{table}/record",
        headers={"Authorization": f"Bearer {tokens[0]}"},
        timeout=10,
    )
    reply.raise_for_status()
    record = Record.from_json(reply.json())
    hands: list[list[set[str]]] = []  # per step, per seat: the card ids held
    for state, _step in replay_steps(record):
        held = state.to_json()["data"]["hands"]
        hands.append([set(_ids(h)) for h in held])
    for step, seat, text, seen in snapshots:
        if not seen:
            seen = seen_cards(final_views[seat])
        others = set().union(*(h for s, h in enumerate(hands[step]) if s != seat))
        for card_id in sorted(others - seen):
            assert not card_pattern(card_id).search(text), (
                f"step {step}: seat {seat}'s page names {card_id}, held by another seat"
                " and not in its own view"
            )


def _ids(hand: Any) -> list[str]:
    """Card ids of a hand as the state's JSON writes it (a list or an id -> count map)."""
    if isinstance(hand, dict):
        return [i for i, n in hand.items() if n]
    return list(hand)


def test_phone_has_no_horizontal_scroll(server: WebServer, browser: Any) -> None:
    rng = random.Random(3)
    made = create_table(server, GAME, ["human", "greedy", "greedy"], target=TARGET)
    phone = browser.new_context(viewport=PHONE)
    phone.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        page = open_seat(phone, made["seats"][0]["url"])
        token = made["seats"][0]["token"]
        for _ in range(40):
            view = view_of(server, made["id"], token)
            settle(page, view["step"])
            width = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            assert width[0] <= width[1], f"horizontal scroll at step {view['step']}: {width}"
            if view["status"] == "finished" or not view["legal_actions"]:
                break
            offered = page.evaluate(ACTIONS_ON_PAGE, "#board")
            assert offered, view["legal_actions"]
            action = rng.choice(offered)
            shots(page, f"glory-ranch-phone-{action.split()[0]}")
            page.locator(f"#board [data-action='{action}']").first.click()
            page.wait_for_function(
                "(step) => Number(document.body.dataset.step) > step", arg=view["step"]
            )
        assert page_errors(page) == []
    finally:
        phone.close()
