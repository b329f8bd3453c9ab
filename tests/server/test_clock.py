"""The turn clock as viewers see it: the view's clock fields (a page counts down from the
server's time), and the log line of a move the clock's bot made for a seat whose time ran
out, told to every viewer from that viewer's own ``describe_for`` and kept across a
restart (``moves.timeout``, migration 0006)."""

from __future__ import annotations

import time
from typing import Any

from ranchhand.server.live import Live
from ranchhand.server.store import make_engine, migrate
from ranchhand.server.tables import TableService
from tests.server.conftest import client_for
from tests.server.helpers import auth, create, tokens_of

NAMES = ["Ann", "Bob"]


def expected_timeout_lines(live: Live, viewer: int | None) -> list[str]:
    """Each timed-out move's line for ``viewer``, made by replaying the log with that
    viewer's ``describe_for``: what the viewer was shown of the move, nothing more."""
    state = live.game.new_initial_state()
    lines = []
    for step, (player, text) in enumerate(live.moves):
        action = state.parse_action(text, player)
        bot = live.timeouts.get(step)
        if bot is not None:
            told = state.describe_for(viewer, action, player)
            said = f"{NAMES[player]} ran out of time: {bot} played for them:"
            lines.append(f"{said} {live.meta.label(player)}: {told}")
        state.apply(action, player)
    return lines


def wait_out(live: Live) -> None:
    assert live.meta.clock is not None
    while time.time() < live.updated + live.meta.clock:
        time.sleep(0.05)


def test_a_timeout_is_told_to_every_viewer_and_survives_a_restart(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    service = TableService(engine)
    made = service.create(
        "rocket-ranchers", 2, {}, ["human", "human"], NAMES, clock=3, clock_bot="greedy"
    )
    live = service.current(made.id)
    silent = list(live.state.acting_players())
    due = service.due(made.id)
    assert due is not None and due.kind == "clock"
    assert service.advance(made.id, live.step, "clock") is None  # not yet: time is left
    wait_out(live)
    moved = service.advance(made.id, live.step, "clock")
    assert moved is not None
    after = service.current(made.id)
    assert set(after.timeouts.values()) == {"greedy"}
    assert sorted(after.moves[s][0] for s in after.timeouts) == sorted(silent)
    # What the clock's bot played is final: the seat cannot take it back with an undo.
    assert all(after.undoable(seat) == 0 for seat in silent)
    logs: dict[int | None, list[str]] = {}
    for viewer in (None, 0, 1):
        lines = after.log_for(viewer)
        expected = expected_timeout_lines(after, viewer)
        assert len(expected) == len(silent)
        assert all(line in lines for line in expected), (viewer, lines, expected)
        # A move by a person, a bot seat or chance is never marked.
        marked = [line for line in lines if " ran out of time: " in line]
        assert len(marked) == len(expected)
        logs[viewer] = list(lines)
    engine.dispose()

    # Another process, or the same server after a restart, tells the same log.
    engine = make_engine(db_url)
    again = TableService(engine).current(made.id)
    assert again.timeouts == after.timeouts
    for viewer, lines in logs.items():
        assert again.log_for(viewer) == lines
    engine.dispose()


def test_a_search_clock_bots_decision_is_marked(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    service = TableService(engine)
    made = service.create(
        "glory-ranch", 3, {}, ["human", "human", "human"], [*NAMES, "Cy"], clock=1,
        clock_bot="normal",
    )  # fmt: skip
    live = service.current(made.id)
    due = service.due(made.id)
    assert due is not None and due.kind == "clock" and due.search
    seat = live.state.acting_players()[0]
    text = live.text(live.state.legal_actions(seat)[0])
    moved = service.apply_decision(
        made.id, live.step, live.updated, [(seat, text)], 0.0, timeout="normal"
    )
    assert moved is not None
    lines = service.current(made.id).log_for(seat)
    assert any(line.startswith(f"{NAMES[seat]} ran out of time: normal played for them: ")
               for line in lines)  # fmt: skip
    engine.dispose()


def test_the_view_gives_the_clock_and_the_servers_time(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        created = create(
            client, "rocket-ranchers", ["human", "greedy"], players=2, clock=3,
            names=["Ann", "greedy"],
        )  # fmt: skip
        table, token = created["id"], tokens_of(created)[0]
        before = time.time()
        view: dict[str, Any] = client.get(f"/api/tables/{table}", headers=auth(token)).json()
        after = time.time()
        clock = view["clock"]
        assert clock["seconds"] == 3 and clock["bot"]
        assert before <= clock["now"] <= after
        assert 0 < clock["deadline"] - clock["now"] <= 3
        people = [s for s in view["to_act"] if view["seats"][s]["kind"] == "human"]
        assert clock["running"] == (people if len(people) == len(view["to_act"]) else [])
        spectator = client.get(f"/api/tables/{table}").json()
        assert spectator["clock"]["deadline"] == clock["deadline"]
        plain = create(client, "rocket-ranchers", ["human", "greedy"], players=2)
        assert client.get(f"/api/tables/{plain['id']}").json()["clock"] is None


def test_every_seat_and_the_spectator_read_the_timeout(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        created = create(
            client, "rocket-ranchers", ["human", "human"], players=2, clock=1, names=NAMES
        )
        table, tokens = created["id"], tokens_of(created)
        with client.websocket_connect(f"/ws/tables/{table}") as watcher:
            start = watcher.receive_json()
            seen, deadline = start, time.time() + 15
            while seen["step"] == start["step"] and time.time() < deadline:
                seen = watcher.receive_json()
        assert seen["step"] > start["step"]
        timed = [NAMES[s] for s in start["to_act"]]
        for headers in ({}, auth(tokens[0]), auth(tokens[1])):
            log = client.get(f"/api/tables/{table}", headers=headers).json()["log"]
            for name in timed:
                assert any(line.startswith(f"{name} ran out of time: ") for line in log), log
