"""Settings for the whole test run.

The servers the tests start (dozens of ``ranchhand serve`` processes, most of them for a
few seconds) do not prepare the bots' tables in the background
(``ranchhand.server.prepare``): each would start the same 20 CPU seconds of work beside
the tests and be stopped before it ends. ``tests/server/test_prepare.py`` turns it on.

``browser`` (session scope) is the one Chromium of a test process, for every browser
test (tests/web, tests/lab): Playwright's sync driver cannot start while another runs in
the same process, so two fixtures each starting their own fail as soon as one process
runs tests of both.
"""

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("RANCHHAND_PREPARE_BOTS", "0")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # Playwright's wait_for_function compiles its predicate in the page, which the
        # server's Content-Security-Policy refuses (no 'unsafe-eval'): contexts bypass
        # the policy unless asked not to (tests/web/test_csp.py checks the pages under it).
        new_context = launched.new_context
        launched.new_context = lambda **options: new_context(**{"bypass_csp": True, **options})
        try:
            yield launched
        finally:
            launched.close()
