"""The replay viewer in a real browser (issue 19): the seats' names kept, drawn icons
(no font glyphs), opening at step 0 or the URL's step, autoplay at a remembered speed,
the keyboard."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.conftest import WebServer, create_table, finished_view, page_errors, watch

BUTTONS = ("first", "back", "play", "forward", "last")
WAIT_MS = 30_000


def finished_table(server: WebServer) -> dict[str, Any]:
    """A Glory Ranch game two named bots played to the end as it was made."""
    made = create_table(server, "glory-ranch", ["greedy", "greedy"], ["Ann", "Bob"])
    finished_view(server, made["id"])
    return made


def open_replay(context: Any, server: WebServer, fragment: str) -> Any:
    page = watch(context.new_page())
    page.goto(f"{server.base}/replay#{fragment}")
    page.wait_for_selector("#viewer:not([hidden])", timeout=WAIT_MS)
    page.wait_for_function("document.body.dataset.step !== undefined", timeout=WAIT_MS)
    return page


def step_of(page: Any) -> int:
    return int(page.get_attribute("body", "data-step") or -1)


def wait_step(page: Any, step: int) -> None:
    page.wait_for_function(
        "(step) => document.body.dataset.step === String(step)", arg=step, timeout=WAIT_MS
    )


def test_the_record_keeps_the_names_and_the_viewer_shows_them(
    server: WebServer, context: Any
) -> None:
    made = finished_table(server)
    record = httpx.get(f"{server.base}/api/tables/{made['id']}/record", timeout=10).json()
    assert record["names"] == ["Ann", "Bob"] and record["seats"] == ["greedy", "greedy"]
    page = open_replay(context, server, f"table={made['id']}")
    options = page.locator("#seat option").all_inner_texts()
    assert "P0 Ann" in options and "P1 Bob" in options
    seats = page.inner_text("#seats")
    assert "Ann" in seats and "Bob" in seats and "greedy" not in seats
    assert page_errors(page) == []


def test_the_viewer_opens_at_the_start_and_keeps_the_step_in_the_url(
    server: WebServer, context: Any
) -> None:
    made = finished_table(server)
    page = open_replay(context, server, f"table={made['id']}")
    assert step_of(page) == 0 and page.input_value("#step") == "0"
    last = int(page.get_attribute("#step", "max") or 0)
    assert last > 10 and f"Step 0 of {last}" in page.inner_text("#where")
    page.click("#forward")
    wait_step(page, 1)
    assert "step=1" in page.evaluate("location.hash")
    page.click("#last")
    wait_step(page, last)
    page.wait_for_selector("#where[data-outcome]")
    assert f"step={last}" in page.evaluate("location.hash")
    # A link to a step opens there.
    linked = open_replay(context, server, f"table={made['id']}&step=5")
    wait_step(linked, 5)
    assert linked.input_value("#step") == "5"
    assert page_errors(page) == [] and page_errors(linked) == []


def test_the_buttons_are_drawn_icons_with_labels(server: WebServer, context: Any) -> None:
    made = finished_table(server)
    page = open_replay(context, server, f"table={made['id']}")
    for name in BUTTONS:
        button = page.locator(f"#{name}")
        assert button.get_attribute("aria-label"), name
        assert button.inner_text().strip() == "", f"#{name} shows a text glyph"
        assert button.locator("svg path").count() >= 1, f"#{name} has no drawn icon"
        visible = button.locator("svg:visible")
        assert visible.count() == 1, name
        box = visible.bounding_box()
        assert box is not None and box["width"] >= 12 and box["height"] >= 12, name


def test_autoplay_advances_pauses_and_stops_at_the_end(server: WebServer, context: Any) -> None:
    made = finished_table(server)
    page = open_replay(context, server, f"table={made['id']}")
    last = int(page.get_attribute("#step", "max") or 0)
    page.select_option("#speed", "4")
    assert page.evaluate("localStorage.getItem('ranchhand.replay.speed')") == "4"
    page.click("#play")
    assert page.get_attribute("#play", "aria-label") == "Pause"
    page.wait_for_function("Number(document.body.dataset.step) >= 3", timeout=WAIT_MS)
    page.click("#play")
    assert page.get_attribute("#play", "data-playing") == "false"
    assert page.get_attribute("#play", "aria-label") == "Play"
    # The slider's step, which a view asked for just before the pause may still be
    # drawing: the board comes to it, then stays. No step comes in the time four would
    # have at 4x.
    paused = int(page.input_value("#step"))
    wait_step(page, paused)
    page.wait_for_timeout(1000)
    assert step_of(page) == paused and int(page.input_value("#step")) == paused
    # From near the end, playing reaches the last step and stops there.
    page.evaluate(f"location.hash = 'table={made['id']}&step={last - 3}'")
    wait_step(page, last - 3)
    page.click("#play")
    wait_step(page, last)
    page.wait_for_selector("#play[data-playing=false]", timeout=WAIT_MS)
    page.wait_for_selector("#where[data-outcome]")
    assert page_errors(page) == []


def test_the_speed_is_remembered_and_the_keyboard_drives_the_viewer(
    server: WebServer, context: Any
) -> None:
    made = finished_table(server)
    page = open_replay(context, server, f"table={made['id']}")
    page.select_option("#speed", "2")
    page.reload()
    page.wait_for_selector("#viewer:not([hidden])", timeout=WAIT_MS)
    assert page.input_value("#speed") == "2"
    assert step_of(page) == 0
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.keyboard.press("ArrowLeft")
    wait_step(page, 1)
    page.keyboard.press("Space")
    page.wait_for_selector("#play[data-playing=true]")
    page.wait_for_function("Number(document.body.dataset.step) >= 2", timeout=WAIT_MS)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Space")
    page.wait_for_selector("#play[data-playing=false]")
    page.keyboard.press("End")
    wait_step(page, int(page.get_attribute("#step", "max") or 0))
    page.keyboard.press("Home")
    wait_step(page, 0)
    assert page_errors(page) == []
