"""An undo tells nobody anything new (issue 19): at tables with hidden cards (Glory
Ranch's hands, Rocket Ranchers' founding cards) people play random moves and undo
where they may; every view any seat or spectator receives is checked, as in
test_leaks.py, against what that viewer's own observation gives, the undo's log line
being "P0 ... took back: " and the line that viewer was given for the action."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ranchhand.core.records import Record, replay
from ranchhand.core.undo import UNDO_PLAYER
from tests.server.helpers import create, expected_views, tokens_of
from tests.server.test_leaks import check
from tests.server.test_undo import play_with_undos

SEATS = {
    "rocket-ranchers": ["human", "greedy", "human"],
    "glory-ranch": ["human", "human", "random"],
}


@pytest.mark.parametrize("game", list(SEATS))
def test_an_undo_reveals_nothing_hidden(sqlite_client: Any, game: str) -> None:
    client = sqlite_client
    created = create(client, game, SEATS[game])
    tokens, table = tokens_of(created), created["id"]
    client.get(f"/api/tables/{table}")  # watched from the start: spectator lines too
    undos, views = play_with_undos(client, table, tokens, random.Random(f"undo leaks {game}"))
    assert undos >= 3, f"only {undos} undos: the test would show little"
    record = Record.from_json(client.get(f"/api/tables/{table}/record").json())
    assert sum(s.player == UNDO_PLAYER for s in record.steps) == undos
    replay(record)
    names = [s["name"] for s in created["seats"]]
    expected = expected_views(record, names)
    secret_texts = [*tokens.values(), str(record.seed)]
    for viewer, view in views:
        check(view, viewer, expected[view["step"]][viewer], secret_texts)
        if viewer is None or viewer not in view["to_act"]:
            assert view["undo"] == 0
    seen_undo = [v for _, v in views if any(" took back: " in line for line in v["log"])]
    assert seen_undo, "the undos were in the logs"
