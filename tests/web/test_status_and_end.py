"""What issue 19 found wrong in the shell's words, in a real browser: the status line of
those not acting named a seat twice ("Waiting: P0 Ann Ann plays a card") and the end
screen of a game without scores showed a Score column of dashes. (Hot seat's header
during a hand-off is checked in test_shell.py's hand-off test.)"""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from tests.web.conftest import WebServer, create_table, open_seat, page_errors, watch
from tests.web.test_shell import view_of

GAMES = ["glory-ranch", "rancho", "rocket-ranchers", "super-farmer"]
NAMES = ["Ann", "Bob"]
WAIT_MS = 30_000


def doubled(text: str) -> list[str]:
    """The names ``text`` holds more than once, and any "P0 Ann Ann"."""
    found = [name for name in NAMES if len(re.findall(rf"\b{name}\b", text)) > 1]
    found += re.findall(r"\b(\w+) \1\b", text)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_the_waiting_line_names_each_seat_once(server: WebServer, context: Any, game: str) -> None:
    made = create_table(server, game, ["human", "human"], NAMES)
    table = made["id"]
    tokens = [seat["token"] for seat in made["seats"]]
    pages = [open_seat(context, seat["url"]) for seat in made["seats"]]
    rng = random.Random(game)
    checked = 0
    for _ in range(40):
        views = [view_of(server, table, token) for token in tokens]
        if views[0]["status"] != "playing":
            break
        step = views[0]["step"]
        acting = [s for s in (0, 1) if views[s]["legal_actions"]]
        waiting = [s for s in (0, 1) if not views[s]["legal_actions"]]
        for seat in waiting:
            page = pages[seat]
            page.wait_for_function(
                "(step) => document.body.dataset.step === String(step)", arg=step, timeout=WAIT_MS
            )
            line = page.inner_text("#turn")
            assert line.strip(), f"{game}: seat {seat} shows no status line"
            assert doubled(line) == [], f"{game}, step {step}, seat {seat}: {line!r}"
            checked += 1
        if not acting:
            continue
        mover = rng.choice(acting)
        action = rng.choice(views[mover]["legal_actions"])
        reply = httpx.post(
            f"{server.base}/api/tables/{table}/actions",
            json={"action": action, "step": step},
            headers={"Authorization": f"Bearer {tokens[mover]}"},
            timeout=30,
        )
        assert reply.status_code == 200, reply.text
    assert checked >= 5, f"{game}: only {checked} waiting lines seen"
    for page in pages:
        assert page_errors(page) == []


@pytest.mark.parametrize("game", ["rancho", "super-farmer"])
def test_a_game_without_scores_ends_with_its_own_result(
    server: WebServer, context: Any, game: str
) -> None:
    made = create_table(server, game, ["greedy", "greedy"], NAMES)
    page = watch(context.new_page())
    page.goto(made["spectate"])
    page.wait_for_selector("#end:not([hidden]) table.scores", timeout=WAIT_MS)
    heads = page.locator("#end table.scores thead th").all_inner_texts()
    assert heads == ["Player", "Result"]
    cells = [text.strip() for text in page.locator("#end table.scores td").all_inner_texts()]
    assert len(cells) == 2
    assert all(cells) and not any(re.fullmatch(r"[-–—\s]*", text) for text in cells), cells
    view = httpx.get(f"{server.base}/api/tables/{made['id']}", timeout=10).json()
    winner = view["outcome"]["winners"][0]
    row = page.locator("#end table.scores tbody tr.winner")
    assert NAMES[winner] in row.inner_text()
    assert f"herd complete after {view['turn']} turns" in row.locator("td").inner_text()
    assert page_errors(page) == []


def test_a_game_with_scores_keeps_its_score_column(server: WebServer, context: Any) -> None:
    made = create_table(server, "glory-ranch", ["greedy", "greedy"], NAMES)
    page = watch(context.new_page())
    page.goto(made["spectate"])
    page.wait_for_selector("#end:not([hidden]) table.scores", timeout=WAIT_MS)
    assert page.locator("#end table.scores thead th").all_inner_texts() == ["Player", "Score"]
    view = httpx.get(f"{server.base}/api/tables/{made['id']}", timeout=10).json()
    shown = sorted(float(t) for t in page.locator("#end table.scores td").all_inner_texts())
    assert shown == sorted(view["outcome"]["scores"])
