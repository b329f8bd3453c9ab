"""Every page works under the server's Content-Security-Policy: no violation reported.

The policy refuses inline scripts, ``<style>`` elements and style attributes; the
pages keep their styles in files, constructed style sheets and the CSSOM, and their
WebSocket is allowed by ``connect-src 'self'``. A violation is caught both as the
browser's ``securitypolicyviolation`` event and as its console message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import (
    DESKTOP,
    STEP_TIMEOUT_MS,
    WebServer,
    create_table,
    open_seat,
    page_errors,
    watch,
)

RECORDER = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


def violations(page: Any, console: list[str]) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found + [line for line in console if "Content Security Policy" in line]


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A context under the server's policy (the shared fixture's bypasses it)."""
    made = browser.new_context(viewport=DESKTOP, bypass_csp=False)
    made.set_default_timeout(STEP_TIMEOUT_MS)
    yield made
    made.close()


def recording(context: Any) -> list[str]:
    context.add_init_script(RECORDER)
    console: list[str] = []
    context.on("console", lambda message: console.append(message.text))
    return console


@pytest.mark.parametrize("game", ["rancho", "rocket-ranchers", "glory-ranch", "super-farmer"])
def test_a_table_page_draws_under_the_policy(server: WebServer, context: Any, game: str) -> None:
    console = recording(context)
    made = create_table(server, game, ["human", "human"])
    page = open_seat(context, made["seats"][0]["url"])
    page.wait_for_selector("body[data-connection='connected']")
    sheets = page.evaluate("document.adoptedStyleSheets.length")
    assert sheets >= 1, "the game's style sheet was not adopted"
    assert violations(page, console) == []
    assert page_errors(page) == []


def test_the_lobby_replay_and_rules_pages_raise_no_violation(
    server: WebServer, context: Any
) -> None:
    console = recording(context)
    made = create_table(server, "rocket-ranchers", ["greedy", "greedy"])
    page = watch(context.new_page())
    page.goto(f"{server.base}/")
    page.wait_for_selector("#game option", state="attached")
    page.goto(f"{server.base}/replay#table={made['id']}")
    page.wait_for_selector("body[data-step='0']")
    page.click("#last")  # the viewer opens at step 0; the end is drawn too
    page.wait_for_selector("#where[data-outcome]")
    page.goto(f"{server.base}/rules/glory-ranch")
    page.wait_for_selector("article h1")
    assert violations(page, console) == []
    assert page_errors(page) == []
