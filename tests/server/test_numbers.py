"""Numbers through the JSON API: finite, in range, and whatever is accepted replays.

JSON as Python reads it takes ``NaN``, ``Infinity`` and ``1e400`` (infinite); a table's
options, bot delay and clock refuse them with 400 naming the field. An option at its
largest allowed value makes a table whose record is read back by the untrusted reader
and replays.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from ranchhand.core import Record, replay
from ranchhand.core.data import load_json
from ranchhand.core.options import MAX_TURNS_LIMIT


def _post(client: Any, body: str) -> Any:
    return client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('{"game": "rancho", "options": {"max_turns": NaN}}', "finite number"),
        ('{"game": "rancho", "options": {"max_turns": Infinity}}', "finite number"),
        ('{"game": "rancho", "options": {"max_turns": -Infinity}}', "finite number"),
        ('{"game": "rancho", "options": {"max_turns": 1e400}}', "finite number"),
        ('{"game": "rancho", "options": {"max_turns": 1e308}}', "1e+308 is above the maximum"),
        (
            '{"game": "rancho", "options": {"max_turns": 100000000000000000000000000000000000}}',
            "(36 digits) is above the maximum 100000",
        ),
        ('{"game": "rancho", "options": {"max_turns": 100001}}', "above the maximum 100000"),
        ('{"game": "rancho", "options": {"max_turns": "\\u0663"}}', "in ASCII digits"),
        ('{"game": "rancho", "options": {"max_turns": 2.5}}', "expected an integer"),
        ('{"game": "glory-ranch", "options": {"target": 501}}', "above the maximum 500"),
        ('{"game": "rancho", "bot_delay": NaN}', "bot_delay: Input should be a finite number"),
        ('{"game": "rancho", "bot_delay": Infinity}', "bot_delay: Input should be a finite"),
        ('{"game": "rancho", "clock": 1e400}', "clock: Input should be a finite number"),
        ('{"game": "rancho", "clock": NaN}', "clock: Input should be a finite number"),
    ],
)
def test_numbers_that_are_not_finite_or_in_range_are_400(
    sqlite_client: Any, body: str, expected: str
) -> None:
    reply = _post(sqlite_client, body)
    assert reply.status_code == 400, reply.text
    assert expected in reply.json()["error"], reply.json()


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("rancho", {"max_turns": MAX_TURNS_LIMIT}),
        ("glory-ranch", {"target": 500, "rps_ties": 1000, "max_turns": MAX_TURNS_LIMIT}),
        ("rocket-ranchers", {"max_turns": float(MAX_TURNS_LIMIT)}),
    ],
)
def test_the_largest_options_make_a_record_that_replays(
    sqlite_client: Any, game: str, options: dict[str, Any]
) -> None:
    created = sqlite_client.post(
        "/api/tables", json={"game": game, "seats": ["greedy", "greedy"], "options": options}
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    deadline = time.monotonic() + 120
    while True:
        record = sqlite_client.get(f"/api/tables/{table_id}/record")
        if record.status_code == 200:
            break
        assert record.status_code == 409, record.text
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    read = Record.from_json(load_json(record.text, "record"))
    assert read.options["max_turns"] == MAX_TURNS_LIMIT
    assert isinstance(read.options["max_turns"], int), "stored as the option's own type"
    assert replay(read).outcome() == read.outcome
