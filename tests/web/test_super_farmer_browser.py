"""Super Farmer in a real browser: its drawing module plays a whole game by clicking.

One human seat against a greedy bot; every click is a ``data-action`` the module drew
(the shell's "All actions" list only if the module drew none), so a module that draws
an action the server refuses, or throws, fails here. Skipped (conftest) without Chromium.
"""

from __future__ import annotations

import random
from typing import Any

from tests.web.conftest import WebServer, create_table, open_seat, page_errors, play_by_clicking


def test_a_game_is_played_by_clicking_the_modules_buttons(server: WebServer, context: Any) -> None:
    made = create_table(server, "super-farmer", ["human", "greedy"], ["Ann", "Bot"], max_turns=24)
    page = open_seat(context, made["seats"][0]["url"])
    page.wait_for_selector(".sf-table")
    assert page.locator(".sf-table tbody tr").count() == 3, "the herd and two farms"
    assert page.locator(".sf-choices [data-action='roll']").count() == 1
    outcome = play_by_clicking([page], random.Random(14))
    assert outcome is not None
    assert page.locator(".sf-winner").count() == 1 or outcome.get("winners") == []
    assert page_errors(page) == []
