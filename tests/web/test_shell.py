"""The shell every game plugs into, in a real browser: lobby, spectator, reconnect, hot
seat, replay viewer, rules, phone width."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx

from tests.web.conftest import (
    PHONE,
    WebServer,
    create_table,
    finished_view,
    open_seat,
    page_errors,
    play_by_clicking,
    watch,
)


def view_of(server: WebServer, table: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    reply = httpx.get(f"{server.base}/api/tables/{table}", headers=headers, timeout=10)
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def card_names(server: WebServer, table: str) -> dict[str, str]:
    catalog = httpx.get(f"{server.base}/api/tables/{table}/catalog", timeout=10).json()
    return {card: data.get("name", card) for card, data in catalog.get("cards", {}).items()}


def secret_cards(hand: list[str], seen: dict[str, Any], names: dict[str, str]) -> list[str]:
    """The cards of ``hand`` that nothing in the view ``seen`` mentions, by id or name
    (a card has copies: the viewer may hold or have seen another)."""
    public = json.dumps(seen)
    return [card for card in hand if card not in public and names.get(card, card) not in public]


def shown(page: Any) -> str:
    """The page's document, less the help panel's notation (its examples name cards)."""
    notation: str = page.evaluate("document.getElementById('notation').innerHTML")
    content: str = page.content()
    return content.replace(notation, "") if notation else content


def leaked(content: str, cards: list[str], names: dict[str, str]) -> list[str]:
    found = []
    for card in cards:
        for text in {card, names.get(card, card)}:
            match = re.search(rf"(?<![\w-]){re.escape(text)}(?![\w-])", content)
            if match:
                found.append(f"{text}: ...{content[match.start() - 120 : match.end() + 40]}...")
    return found


def test_the_lobby_creates_a_table_and_shows_each_seats_link(
    server: WebServer, context: Any
) -> None:
    page = watch(context.new_page())
    page.goto(server.base + "/")
    page.select_option("#game", "glory-ranch")
    page.select_option("#players", "3")
    page.select_option("#seat-kind-0", "human")
    page.select_option("#seat-kind-1", "human")
    page.select_option("#seat-kind-2", "easy")
    page.fill("#seat-name-0", "Ann")
    assert page.locator("#options select, #options input").count() >= 1
    page.click("button[type=submit]")
    # Ann lands on her seat in this tab; the other person's link is in her Invite box.
    page.wait_for_url("**/tables/*#token=*")
    page.wait_for_selector("body[data-step]")
    assert page.get_attribute("body", "data-you") == "0"
    links = page.locator("[data-invite] a[data-seat-link]")
    links.first.wait_for()
    assert links.count() == 1
    other = links.first.get_attribute("href") or ""
    assert "/tables/" in other and "#token=" in other and other not in page.url
    assert "P0 Ann" in page.inner_text("#seats")
    page.goto(server.base + "/")
    page.wait_for_selector("#tables [data-table]")
    assert page_errors(page) == []


def test_a_spectator_sees_no_hand(server: WebServer, context: Any) -> None:
    made = create_table(server, "glory-ranch", ["human", "human", "greedy"], ["Ann", "Bo", "Cy"])
    page = open_seat(context, made["spectate"])
    page.wait_for_selector("#turn:not(:empty)")
    spectator = view_of(server, made["id"])
    names = card_names(server, made["id"])
    content = shown(page)
    for seat in made["seats"]:
        if seat["token"]:
            hand = view_of(server, made["id"], seat["token"])["observation"]["hand"]
            assert leaked(content, secret_cards(hand, spectator, names), names) == []
    assert page.locator("#all-actions button[data-action]").count() == 0
    assert "watching" in page.inner_text("#title")


def test_the_page_follows_the_table_after_the_server_restarts(
    server: WebServer, context: Any
) -> None:
    made = create_table(server, "rancho", ["human", "human"], ["Ann", "Bo"])
    page = open_seat(context, made["seats"][1]["url"])
    step = page.get_attribute("body", "data-step")
    server.stop()
    page.wait_for_selector("body[data-connection=reconnecting]")
    server.start()
    page.wait_for_selector("body[data-connection=connected]", timeout=15_000)
    mover = made["seats"][0]["token"]
    view = view_of(server, made["id"], mover)
    reply = httpx.post(
        f"{server.base}/api/tables/{made['id']}/actions",
        json={"action": view["legal_actions"][0], "step": view["step"]},
        headers={"Authorization": f"Bearer {mover}"},
        timeout=10,
    )
    assert reply.status_code == 200, reply.text
    page.wait_for_function(f"document.body.dataset.step !== '{step}'")
    assert page_errors(page) == []


def test_hot_seat_hand_off_leaves_nothing_of_the_previous_hand(
    server: WebServer, context: Any
) -> None:
    made = create_table(server, "glory-ranch", ["human", "human", "greedy"], ["Ann", "Bo", "Cy"])
    tokens = [s["token"] for s in made["seats"][:2]]
    names = card_names(server, made["id"])
    page = open_seat(context, f"{server.base}/tables/{made['id']}#tokens={','.join(tokens)}")
    rng = random.Random(7)
    handoffs = 0
    for _ in range(60):
        page.wait_for_selector("body[data-acting=true], body[data-handoff]:not([data-handoff=''])")
        handoff = page.get_attribute("body", "data-handoff") or ""
        if handoff:
            nxt = int(handoff)
            previous = 1 - nxt
            old_hand = view_of(server, made["id"], tokens[previous])["observation"]["hand"]
            new_view = view_of(server, made["id"], tokens[nxt])
            hidden = secret_cards(old_hand, new_view, names)
            assert leaked(shown(page), hidden, names) == [], "during the hand-off screen"
            # The header names whom the device goes to, nothing of the seat that had it.
            people = ("Ann", "Bo")
            header = " ".join(page.inner_text("#title").split())
            assert f"passing the device to P{nxt} {people[nxt]}" in header, header
            assert "you are" not in header and people[previous] not in header, header
            assert people[previous] not in page.title()
            page.click("[data-handoff-to]")
            page.wait_for_selector("#seat-area:not([hidden])")
            page.wait_for_function("document.body.dataset.handoff === ''")
            assert leaked(shown(page), hidden, names) == [], "after the hand-off"
            assert page.get_attribute("body", "data-you") == str(nxt)
            assert f"you are P{nxt} {people[nxt]}" in " ".join(page.inner_text("#title").split())
            handoffs += 1
            if handoffs == 3:
                break
            continue
        step = page.get_attribute("body", "data-step")
        page.evaluate("document.getElementById('all-actions').open = true")
        buttons = page.locator("#all-actions [data-action]")
        buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(
            f"document.body.dataset.step !== '{step}' || document.body.dataset.handoff"
        )
    assert handoffs == 3
    assert page_errors(page) == []


def test_the_replay_viewer_steps_through_a_finished_game(server: WebServer, context: Any) -> None:
    made = create_table(server, "glory-ranch", ["greedy", "greedy"])
    finished_view(server, made["id"])
    page = watch(context.new_page())
    page.goto(f"{server.base}/replay#table={made['id']}")
    page.wait_for_function("document.body.dataset.step === '0'")
    last = int(page.get_attribute("#step", "max") or 0)
    page.click("#last")
    page.wait_for_selector("#where[data-outcome]")
    assert last > 10 and f"Step {last} of {last}" in page.inner_text("#where")
    page.click("#back")
    page.wait_for_function(f"document.body.dataset.step === '{last - 1}'")
    page.wait_for_selector("#where:not([data-outcome])")
    page.click("#first")
    page.wait_for_function("document.body.dataset.step === '0'")
    page.select_option("#seat", "0")
    page.fill("#step", "5")
    page.wait_for_function("document.body.dataset.step === '5'")
    assert page.locator("#boards .board").count() == 1
    page.select_option("#seat", "all")
    page.wait_for_function("document.querySelectorAll('#boards .board').length === 2")
    assert page_errors(page) == []


def test_an_uploaded_record_that_is_not_one_is_refused(server: WebServer) -> None:
    bad = httpx.post(
        f"{server.base}/api/replays", json={"record": {"format": "nope"}, "step": 0}, timeout=10
    )
    assert bad.status_code == 400 and "format" in bad.json()["error"]
    files = {"record": {"format": "ranchhand-record/1", "game": "rocket-ranchers", "players": 2}}
    files["record"]["options"] = {"deck": "/etc/passwd"}
    refused = httpx.post(f"{server.base}/api/replays", json=files, timeout=10)
    assert refused.status_code == 400


def test_the_rules_page_renders_the_rules_and_the_notation(server: WebServer, context: Any) -> None:
    page = watch(context.new_page())
    page.goto(f"{server.base}/rules/rocket-ranchers")
    assert "Rocket Ranchers" in page.inner_text("article h1")
    assert page.locator("article strong").count() >= 2
    assert page.locator("article p").count() >= 3
    assert "beam" in page.inner_text("#notation")
    assert httpx.get(f"{server.base}/rules/chess", timeout=10).status_code == 404


def test_pages_fit_a_phone_without_horizontal_scrolling(server: WebServer, browser: Any) -> None:
    phone = browser.new_context(viewport=PHONE)
    try:
        made = create_table(server, "rancho", ["human", "greedy", "greedy"], ["Ann", "Bo", "Cy"])
        finished = create_table(server, "glory-ranch", ["greedy", "greedy", "greedy"])
        for url in (
            server.base + "/",
            made["seats"][0]["url"],
            f"{server.base}/rules/glory-ranch",
            f"{server.base}/replay#table={finished['id']}",
            finished["spectate"],
        ):
            page = watch(phone.new_page())
            page.goto(url)
            page.wait_for_load_state("networkidle")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{url} is {width} px wide on a phone"
            assert page_errors(page) == []
            page.close()
    finally:
        phone.close()


def test_a_game_ends_with_an_outcome_and_play_again_gives_new_links(
    server: WebServer, context: Any
) -> None:
    made = create_table(server, "glory-ranch", ["human", "greedy"], ["Ann", "Bo"], target=10)
    page = open_seat(context, made["seats"][0]["url"])
    outcome = play_by_clicking([page], random.Random(3), max_moves=400)
    assert set(outcome) >= {"winners", "scores"}
    page.click("text=Play again with the same seats")
    page.wait_for_selector("text=Take your seat")
    href = page.get_attribute("text=Take your seat", "href") or ""
    assert "#token=" in href and made["id"] not in href
