"""What the lobby reads from the server: the bot levels of ``GET /api/games`` (in words,
each one a seat kind ``POST /api/tables`` takes), ``GET /api/lobby``'s counts and expiry
time, and ``GET /api/tables?before=`` to page through the finished games."""

from __future__ import annotations

import time
from typing import Any

from ranchhand.core.registry import GAME_MODULES, game_module, own_levels
from tests.server.conftest import client_for


def create(client: Any, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert reply.status_code == 201, reply.text
    made: dict[str, Any] = reply.json()
    return made


def test_every_game_lists_its_bot_levels_in_words(sqlite_client: Any) -> None:
    games = sqlite_client.get("/api/games").json()["games"]
    assert {g["id"] for g in games} == set(GAME_MODULES)  # other tests may register a toy
    for game in games:
        levels = game["bot_levels"]
        kinds = [level["kind"] for level in levels]
        assert kinds[:3] == ["easy", "normal", "hard"], game["id"]
        assert len(kinds) == len(set(kinds))
        # Every bot of the registry is offered, by its own name or a level it equals.
        named = {alias for level in levels for alias in [level["kind"], *level["same_as"]]}
        assert {"random", "ismcts", *game_module(game["id"]).BOTS} <= named
        # The older list keeps every name it had, and gains the levels.
        assert {"random", *game_module(game["id"]).BOTS, "easy", "normal", "hard"} <= set(
            game["bots"]
        )
        for level in levels:
            assert level["label"] and level["doc"] and isinstance(level["search"], bool)
        by_kind = {level["kind"]: level for level in levels}
        easy = "Greedy (easy)" if "greedy" in game_module(game["id"]).BOTS else "Random (easy)"
        assert by_kind["easy"]["label"] == easy and not by_kind["easy"]["search"]
        own = own_levels(game["id"])
        for strength, cap in (("normal", "0.5 s a move"), ("hard", "3 s a move")):
            if strength in own:  # the game's own bot, said by its label
                assert by_kind[strength]["label"].startswith(f"{strength.capitalize()}: ")
            else:
                assert by_kind[strength]["search"] and cap in by_kind[strength]["label"]
    farmer = next(g for g in games if g["id"] == "super-farmer")
    labels = {level["kind"]: level["label"] for level in farmer["bot_levels"]}
    assert labels["optimal"].startswith("Optimal") and labels["daring"].startswith("Daring")
    # Super Farmer's normal level is its racer; the shared search is still offered by name
    assert labels["normal"].startswith("Normal: Racer")
    assert labels["ismcts"] == "Search (up to 0.5 s a move)"


def test_each_level_seats_a_bot(sqlite_client: Any) -> None:
    games = sqlite_client.get("/api/games").json()["games"]
    for game in games:
        for level in game["bot_levels"]:
            seats = ["human", level["kind"]]
            made = create(sqlite_client, game["id"], seats, bot_delay=0)
            assert [s["kind"] for s in made["seats"]] == seats


def test_the_lobby_counts_tables_and_says_when_an_idle_one_closes(db_url: str) -> None:
    with client_for(db_url, expire_after=7200.0, expire_bots_only_after=600.0) as client:
        before = client.get("/api/lobby").json()
        assert before["expire_after"] == 7200.0 and before["expire_bots_only_after"] == 600.0
        create(client, "rancho", ["human", "human"], open=[1])
        create(client, "rancho", ["human", "human"])
        after = client.get("/api/lobby").json()["counts"]
        # PostgreSQL's database is the session's: other tests' tables count too.
        gained = {key: after[key] - before["counts"][key] for key in after}
        assert gained == {"playing": 2, "free": 1, "finished": 0}


def test_finished_tables_page_on_with_before(sqlite_client: Any) -> None:
    made = []
    for _ in range(3):
        made.append(create(sqlite_client, "rocket-ranchers", ["greedy", "greedy"], bot_delay=0))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        finished = sqlite_client.get("/api/tables?status=finished").json()["tables"]
        if len(finished) == 3:
            break
        time.sleep(0.2)
    times = [t["updated"] for t in finished]
    assert times == sorted(times, reverse=True)
    assert sqlite_client.get("/api/lobby").json()["counts"]["finished"] == 3
    after_first = sqlite_client.get(f"/api/tables?status=finished&before={finished[0]['updated']}")
    assert [t["id"] for t in after_first.json()["tables"]] == [t["id"] for t in finished[1:]]
    assert sqlite_client.get("/api/tables?before=nan").status_code in (400, 422)
    # Finished tables are not among the playing ones the lobby lists first.
    playing = sqlite_client.get("/api/tables?status=playing").json()["tables"]
    assert not {t["id"] for t in made} & {t["id"] for t in playing}


def test_an_expired_table_is_neither_listed_nor_counted(sqlite_client: Any) -> None:
    made = create(sqlite_client, "rancho", ["human", "human"], open=[1])
    assert sqlite_client.get("/api/lobby").json()["counts"]["free"] == 1
    service = sqlite_client.app.state.service
    closed = service.expire(60, 60, now=time.time() + 3600)
    assert made["id"] in {table for table, _ in closed}
    assert sqlite_client.get("/api/lobby").json()["counts"] == {
        "playing": 0,
        "free": 0,
        "finished": 0,
    }
    for query in ("", "?free=true", "?status=playing", "?status=finished"):
        listed = sqlite_client.get(f"/api/tables{query}").json()["tables"]
        assert made["id"] not in {t["id"] for t in listed}
    assert sqlite_client.get("/api/tables?status=expired").status_code in (400, 422)
