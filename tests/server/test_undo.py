"""Undo at a table (``POST /api/tables/{id}/undo``, the WebSocket's ``{"undo": true}``):
the terminal's rules online, the log append-only (an undo is a step of its own, player
-2), and every reader of that log agreeing on what it took back: the server reloading
the table, the bot worker, a record, the replay viewer and ``ranchhand replay``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ranchhand.core.game import CHANCE
from ranchhand.core.records import Record, RecordError, replay, replay_steps
from ranchhand.core.registry import load
from ranchhand.core.undo import UNDO_PLAYER, UNDO_TEXT, effective
from ranchhand.server.app import Settings, create_app
from ranchhand.server.botpool import Job, _Memory
from ranchhand.server.limits import LimitSettings, Rate
from ranchhand.server.live import HUMAN, Live, Meta
from ranchhand.web.replays import UNDONE
from tests.server.conftest import TestClient, client_for
from tests.server.helpers import auth, tokens_of

RANCHO = {"game": "rancho", "seats": ["human", "human"], "names": ["Ann", "Bob"]}
NOTHING = "nothing to undo"


def new_table(client: Any, **extra: Any) -> tuple[str, dict[int, str]]:
    reply = client.post("/api/tables", json={**RANCHO, **extra})
    assert reply.status_code == 201, reply.text
    created = reply.json()
    return created["id"], tokens_of(created)


def view(client: Any, table: str, token: str | None = None) -> dict[str, Any]:
    headers = auth(token) if token else {}
    reply = client.get(f"/api/tables/{table}", headers=headers)
    assert reply.status_code == 200, reply.text
    got: dict[str, Any] = reply.json()
    return got


def move(client: Any, table: str, token: str, action: str, step: int) -> dict[str, Any]:
    reply = client.post(
        f"/api/tables/{table}/actions", json={"action": action, "step": step}, headers=auth(token)
    )
    assert reply.status_code == 200, reply.text
    got: dict[str, Any] = reply.json()
    return got


def undo(client: Any, table: str, token: str | None, step: int) -> Any:
    headers = auth(token) if token else {}
    return client.post(f"/api/tables/{table}/undo", json={"step": step}, headers=headers)


def token_of(tokens: dict[int, str], viewer: int | None) -> str | None:
    """The viewer's token (None: a spectator's view)."""
    return None if viewer is None else tokens[viewer]


def trades(seen: dict[str, Any]) -> list[str]:
    return [a for a in seen["legal_actions"] if a.startswith("trade")]


def to_a_trade(client: Any, table: str, tokens: dict[int, str], rng: random.Random) -> int:
    """Play random moves until a seat may trade; that seat."""
    for _ in range(400):
        acting = view(client, table)["to_act"]
        seat = acting[0]
        seen = view(client, table, tokens[seat])
        if trades(seen):
            return int(seat)
        move(client, table, tokens[seat], rng.choice(seen["legal_actions"]), seen["step"])
    raise AssertionError("nobody could trade in 400 moves")


def comparable(seen: dict[str, Any]) -> dict[str, Any]:
    """A view without what only says when it was made (the clock's times)."""
    return {k: v for k, v in seen.items() if k not in ("clock",)}


def test_a_rancho_turn_of_trades_is_taken_back_one_by_one(sqlite_client: Any) -> None:
    client = sqlite_client
    table, tokens = new_table(client)
    seat = to_a_trade(client, table, tokens, random.Random(1))
    token, other = tokens[seat], tokens[1 - seat]
    start = view(client, table, token)
    assert start["undo"] == 0
    first = move(client, table, token, trades(start)[0], start["step"])
    assert first["undo"] == 1
    assert view(client, table, other)["undo"] == 0, "only the seat that moved may undo"
    assert view(client, table)["undo"] == 0, "a spectator never may"
    second = first
    if trades(first):
        second = move(client, table, token, trades(first)[0], first["step"])
        assert second["undo"] == 2
    back = undo(client, table, token, second["step"])
    assert back.status_code == 200, back.text
    after = back.json()
    assert after["step"] == second["step"] + 1, "an undo is a step of the log"
    if second is not first:
        assert after["observation"] == first["observation"]
        assert after["undo"] == 1
        after = undo(client, table, token, after["step"]).json()
    assert after["observation"] == start["observation"]
    assert after["legal_actions"] == start["legal_actions"]
    assert after["undo"] == 0
    refused = undo(client, table, token, after["step"])
    assert refused.status_code == 409
    assert refused.json()["error"].startswith(NOTHING)
    assert "dice roll" in refused.json()["error"]


def test_undo_stops_at_a_roll_and_at_another_players_move(sqlite_client: Any) -> None:
    client = sqlite_client
    table, tokens = new_table(client)
    seat = to_a_trade(client, table, tokens, random.Random(2))
    seen = view(client, table, tokens[seat])
    assert "roll" in seen["legal_actions"]
    rolled = move(client, table, tokens[seat], "roll", seen["step"])
    assert rolled["undo"] == 0
    if seat in rolled["to_act"]:  # the roll did not end the turn: the seat may still trade
        refused = undo(client, table, tokens[seat], rolled["step"])
        assert refused.status_code == 409 and refused.json()["error"].startswith(NOTHING)
    seen = view(client, table, tokens[seat])
    while seat in seen["to_act"]:  # end the turn: another player's move comes next
        ends = [a for a in ("end turn", "roll and end turn") if a in seen["legal_actions"]]
        move(client, table, tokens[seat], (ends or seen["legal_actions"])[0], seen["step"])
        seen = view(client, table, tokens[seat])
    nxt = view(client, table)["to_act"][0]
    assert nxt != seat
    refused = undo(client, table, tokens[seat], view(client, table)["step"])
    assert refused.status_code == 409
    assert "not your turn" in refused.json()["error"]


def test_undo_is_refused_stale_to_spectators_and_to_another_seat(sqlite_client: Any) -> None:
    client = sqlite_client
    table, tokens = new_table(client)
    seat = to_a_trade(client, table, tokens, random.Random(3))
    seen = view(client, table, tokens[seat])
    done = move(client, table, tokens[seat], trades(seen)[0], seen["step"])
    stale = undo(client, table, tokens[seat], done["step"] - 1)
    assert stale.status_code == 409 and "stale step" in stale.json()["error"]
    assert undo(client, table, None, done["step"]).status_code == 401
    assert undo(client, table, "not-a-token", done["step"]).status_code == 403
    theirs = undo(client, table, tokens[1 - seat], done["step"])
    assert theirs.status_code == 409 and "not your turn" in theirs.json()["error"]
    bad = client.post(f"/api/tables/{table}/undo", json={"step": -1}, headers=auth(tokens[seat]))
    assert bad.status_code == 400
    assert view(client, table)["step"] == done["step"], "nothing was written"
    with client.websocket_connect(f"/ws/tables/{table}") as watcher:
        watcher.receive_json()
        watcher.send_json({"undo": True, "step": done["step"]})
        assert "spectators cannot undo" in watcher.receive_json()["error"]
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens[seat]}") as mine:
        assert mine.receive_json()["undo"] == 1
        mine.send_json({"undo": True, "step": done["step"], "more": 1})
        assert "nothing else" in mine.receive_json()["error"]
        mine.send_json({"undo": True, "step": done["step"]})
        after = mine.receive_json()
        assert after["step"] == done["step"] + 1 and after["undo"] == 0
        assert after["observation"] == seen["observation"]


def test_every_viewer_reads_the_undo_in_its_log(sqlite_client: Any) -> None:
    client = sqlite_client
    table, tokens = new_table(client)
    view(client, table)  # watched: the spectator's lines are written too
    seat = to_a_trade(client, table, tokens, random.Random(4))
    seen = view(client, table, tokens[seat])
    done = move(client, table, tokens[seat], trades(seen)[0], seen["step"])
    before = {v: view(client, table, token_of(tokens, v)) for v in (None, 0, 1)}
    assert undo(client, table, tokens[seat], done["step"]).status_code == 200
    name = ["Ann", "Bob"][seat]
    for viewer in (None, 0, 1):
        now = view(client, table, token_of(tokens, viewer))
        was = before[viewer]["log"][-1]
        assert now["log"][-1] == was.replace(": ", " took back: ", 1), (viewer, now["log"])
        assert now["log"][:-1] == before[viewer]["log"]
        words = now["words"][-1]
        assert words.startswith("You took back: " if viewer == seat else f"{name} took back: ")
        assert len(now["words"]) == len(now["log"])


def test_a_reloaded_table_equals_the_one_in_memory(db_url: str) -> None:
    """SQLite and PostgreSQL (when one answers): the undo row is written and read back."""
    url = db_url
    with client_for(url) as client:
        table, tokens = new_table(client)
        view(client, table)
        seat = to_a_trade(client, table, tokens, random.Random(5))
        seen = view(client, table, tokens[seat])
        done = move(client, table, tokens[seat], trades(seen)[0], seen["step"])
        assert undo(client, table, tokens[seat], done["step"]).status_code == 200
        again = view(client, table, tokens[seat])
        if trades(again):  # a second trade after the undo: undone and kept moves mixed
            move(client, table, tokens[seat], trades(again)[-1], again["step"])
        memory = {v: comparable(view(client, table, token_of(tokens, v))) for v in (None, 0, 1)}
    with client_for(url) as client:  # a new server: the table is replayed from its log
        for viewer in (None, 0, 1):
            assert comparable(view(client, table, token_of(tokens, viewer))) == memory[viewer]


def play_with_undos(
    client: Any, table: str, tokens: dict[int, str], rng: random.Random, limit: int = 3000
) -> tuple[int, list[tuple[int | None, dict[str, Any]]]]:
    """Random moves (and an undo where one may, one time in three) until the end; the
    undos made and every view received."""
    undos = 0
    views: list[tuple[int | None, dict[str, Any]]] = []
    for _ in range(limit):
        spectator = view(client, table)
        views.append((None, spectator))
        if spectator["status"] == "finished":
            return undos, views
        movers = []
        for seat, token in tokens.items():
            seen = view(client, table, token)
            views.append((seat, seen))
            if seen["legal_actions"]:
                movers.append((seat, seen))
        seat, seen = rng.choice(movers)
        if seen["undo"] and rng.random() < 0.34:
            reply = undo(client, table, tokens[seat], seen["step"])
            undos += 1
        else:
            action = rng.choice(seen["legal_actions"])
            reply = client.post(
                f"/api/tables/{table}/actions",
                json={"action": action, "step": seen["step"]},
                headers=auth(tokens[seat]),
            )
        assert reply.status_code == 200, reply.text
        views.append((seat, reply.json()))
    raise AssertionError(f"table {table} did not finish in {limit} moves")


def test_a_record_with_undos_replays_everywhere(sqlite_client: Any, tmp_path: Path) -> None:
    client = sqlite_client
    table, tokens = new_table(client, options={"max_turns": 12})
    undos, _ = play_with_undos(client, table, tokens, random.Random(6))
    assert undos > 0
    data = client.get(f"/api/tables/{table}/record").json()
    assert [UNDO_PLAYER, UNDO_TEXT] in data["actions"]
    record = Record.from_json(json.loads(json.dumps(data)))
    final = replay(record)
    assert final.outcome() == record.outcome
    # The bot worker replays the stored log (undo steps included) to the same state.
    moves = tuple((s.player, s.action) for s in record.steps)
    job = Job(table, record.game, record.players, record.options, 0, moves, ())
    worked = _Memory().table(job)
    assert worked.state.to_json() == final.to_json()
    first = next(i for i, s in enumerate(record.steps) if s.player == UNDO_PLAYER)
    memory = _Memory()  # a worker that saw the table before the undo goes on from there
    memory.table(Job(table, record.game, record.players, record.options, 0, moves[:first], ()))
    assert memory.table(job).state.to_json() == final.to_json()
    # The web replay viewer steps through it, the undo a step of its own: the table
    # after it is the table before the action it took back.
    where = next(i for i, s in enumerate(record.steps) if s.player == UNDO_PLAYER)
    states = [s.to_json() for s, _ in replay_steps(record)]
    shown_at = {}
    for step in (where - 1, where, where + 1, len(record.steps)):
        reply = client.post("/api/replays", json={"record": data, "step": step, "seat": "all"})
        assert reply.status_code == 200, reply.text
        shown_at[step] = reply.json()
    assert shown_at[where]["replay"]["next_player"] == UNDO_PLAYER
    assert shown_at[where + 1]["log"][-1] == UNDONE
    assert (
        shown_at[where + 1]["seat_views"][0]["observation"]
        == (shown_at[where - 1]["seat_views"][0]["observation"])
    )
    assert shown_at[len(record.steps)]["outcome"] == data["outcome"]
    # ``ranchhand replay`` checks it and shows the undo as a step.
    path = tmp_path / "undone.json"
    record.save(path)
    from ranchhand.cli.main import app

    shown = CliRunner().invoke(app, ["replay", str(path), "--show", "--no-pause"])
    assert shown.exit_code == 0, shown.output
    assert f"{where}: undo" in shown.output
    assert "verified" in shown.output
    assert states[-1] == final.to_json()


def test_old_records_and_bad_undo_steps(sqlite_client: Any) -> None:
    game = load("rancho", 2)
    old = Record.start(game, ["human", "human"], 1)
    assert Record.from_json(old.to_json()).steps == []
    data = old.to_json()
    data["actions"] = [[UNDO_PLAYER, "roll"]]
    with pytest.raises(RecordError, match="undo"):
        Record.from_json(data)
    data["actions"] = [[UNDO_PLAYER, UNDO_TEXT]]
    with pytest.raises(RecordError, match=NOTHING):
        replay(Record.from_json(data))
    data["actions"] = [[-3, UNDO_TEXT]]
    with pytest.raises(RecordError):
        Record.from_json(data)


def live_table(game_id: str, players: int) -> Live:
    game = load(game_id, players)
    meta = Meta(
        id="t", game=game.id, players=players, options=dict(game.options),
        created_seats=(HUMAN,) * players, kinds=(HUMAN,) * players,
        names=tuple(f"N{i}" for i in range(players)), hashes=(None,) * players,
        seed=7, bot_delay=0.0, clock=None, clock_bot="random", created=0.0,
    )  # fmt: skip
    return Live(meta, game, game.new_initial_state())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["rancho", "glory-ranch", "rocket-ranchers"]),
    seed=st.integers(0, 2**32),
    undo_rate=st.floats(0.1, 0.6),
)
def test_an_undo_restores_the_state_before_the_undone_action(
    game: str, seed: int, undo_rate: float
) -> None:
    """Random legal moves and undos: each undo brings back exactly the state before the
    action it takes back; a replay of the log (a server's, a record's) ends where the
    table is; leaving out each undo and what it undid gives the same final state."""
    rng = random.Random(seed)
    live = live_table(game, 2)
    before: list[tuple[int, str]] = []  # (step, the state's JSON before it) per undoable action
    states: dict[int, str] = {}
    for _ in range(300):
        if live.finished:
            break
        if live.state.current_player() == CHANCE:
            live.chance_move()
            continue
        seat = live.state.acting_players()[0]
        if live.undoable(seat) and rng.random() < undo_rate:
            undone = live.trail.run[-1][0]
            live.undo()
            assert json.dumps(live.state.to_json(), sort_keys=True) == states[undone]
            continue
        states[live.step] = json.dumps(live.state.to_json(), sort_keys=True)
        before.append((live.step, states[live.step]))
        live.apply(seat, rng.choice(live.state.legal_actions(seat)))
    again = live_table(game, 2)
    for player, text in live.moves:
        again.replay(player, text)
    assert again.state.to_json() == live.state.to_json()
    assert again.events == live.events
    plain = live_table(game, 2)
    for player, text in effective(live.moves):
        plain.apply(player, plain.state.parse_action(text, player))
    assert plain.state.to_json() == live.state.to_json()


def test_undos_draw_on_the_actions_rate(sqlite_url: str) -> None:
    """An undo costs what a move costs: past the client's actions rate, 429 (HTTP), an
    error frame (WebSocket)."""
    limits = LimitSettings(actions=Rate(2, 60, 3))
    with TestClient(create_app(Settings(db=sqlite_url, limits=limits))) as client:
        table, tokens = new_table(client)
        statuses = [undo(client, table, tokens[1], 0).status_code for _ in range(4)]
        assert statuses[:3] == [409] * 3 and statuses[3] == 429, statuses
        assert "actions" in undo(client, table, tokens[0], 0).json()["error"]
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as mine:
            mine.receive_json()
            mine.send_json({"undo": True, "step": 0})
            assert "actions" in mine.receive_json()["error"]
