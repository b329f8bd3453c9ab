"""SIGKILL ``ranchhand serve`` mid-game, start it again, finish the game: nothing lost.

A client plays every human seat over HTTP and remembers each acknowledged (200)
move. The server is killed between moves and at random moments while a client
thread is posting moves, then restarted on the same database (a SQLite file, or
a PostgreSQL database of the test's own). After each restart:

- the table continues from its last committed move: the view is exactly the one
  the last acknowledged move returned, unless the move in flight at the kill was
  committed too;
- re-sending the move that was in flight, with the step it was made against, is
  accepted if and only if it had not been committed (a committed one is now stale);
- a WebSocket client that reconnects is first sent exactly that state.

At the end, the record holds every acknowledged move at the step it was made
against, no human move that nobody sent, and replays with ``ranchhand.core.replay``.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from ranchhand.core import Record, replay
from tests.server.procs import (
    Server,
    create_table,
    fresh_postgres_database,
    get_view,
    http_client,
    human_tokens,
    next_move,
    post_move,
    ws_connect,
    ws_view_at,
)

pytest.importorskip("websockets")

Move = tuple[int, int, str]
"""(seat, step it was made against, action text)."""


@dataclass
class Table:
    """One table as the client knows it: the acknowledged moves and the last view."""

    id: str
    tokens: dict[int, str]
    acked: list[Move] = field(default_factory=list)
    last_view: dict[str, Any] | None = None
    """The view the last acknowledged move returned (its seat's view)."""
    in_flight: list[Move] = field(default_factory=list)
    """Moves sent when the server died, answered by nobody."""
    errors: list[BaseException] = field(default_factory=list)
    """What went wrong in the client thread."""
    posting: threading.Event = field(default_factory=threading.Event)
    """Set by the client thread while a move is on its way."""


def play(server: Server, table: Table, rng: random.Random, moves: int) -> bool:
    """Play up to ``moves`` moves; False once the game is over."""
    with http_client() as client:
        for _ in range(moves):
            move = next_move(client, server.base, table.id, table.tokens, rng)
            if move is None:
                return False
            acknowledge(table, move, post_move(client, server.base, table.id, *_args(table, move)))
    return True


def _args(table: Table, move: Move) -> tuple[str, int, str]:
    seat, step, action = move
    return table.tokens[seat], step, action


def acknowledge(table: Table, move: Move, reply: httpx.Response) -> None:
    assert reply.status_code == 200, f"{move}: {reply.status_code} {reply.text}"
    view = reply.json()
    assert view["step"] > move[1] and view["you"] == move[0], view
    table.acked.append(move)
    table.last_view = view


def settle(server: Server, table: Table) -> None:
    """Wait until one of our seats is to act (bots done), and remember its view."""
    with http_client() as client:
        move = next_move(client, server.base, table.id, table.tokens, random.Random(0))
        assert move is not None, "the game ended too soon for this test"
        table.last_view = get_view(client, server.base, table.id, table.tokens[move[0]])


def play_until_killed(server: Server, table: Table, seed: int, stop: threading.Event) -> None:
    """The client thread: moves back to back until the server dies under it."""
    try:
        _play_until_killed(server, table, seed, stop)
    except BaseException as error:
        table.errors.append(error)


def _play_until_killed(server: Server, table: Table, seed: int, stop: threading.Event) -> None:
    rng = random.Random(seed)
    deadline = time.monotonic() + 30
    with http_client() as client:
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                move = next_move(client, server.base, table.id, table.tokens, rng)
            except (httpx.TransportError, AssertionError):
                return  # killed while choosing: nothing was sent
            if move is None:
                return
            table.posting.set()
            try:
                reply = post_move(client, server.base, table.id, *_args(table, move))
            except httpx.TransportError:
                table.in_flight.append(move)
                return
            finally:
                table.posting.clear()
            acknowledge(table, move, reply)


def check_restarted(server: Server, table: Table) -> None:
    """The table after a restart is the last committed one, exactly.

    Bots may have moved after the last acknowledged move and before the kill: then
    the table is further on, and the record check at the end vouches for those steps.
    In these games only one seat acts at a time while it is a bot's turn, so a move
    in flight was committed if and only if the table went past its step.
    """
    assert table.last_view is not None
    last = table.last_view
    with http_client() as client:
        now = get_view(client, server.base, table.id, table.tokens[last["you"]])
        assert now["step"] >= last["step"], "committed steps went missing"
        pending = table.in_flight[-1] if table.in_flight else None
        if pending is not None and pending[1] >= last["step"]:
            seat, step, action = pending
            committed = now["step"] > step
            if not committed and now["step"] == last["step"]:
                assert now == last, "the restarted table is not the last acknowledged one"
            reply = post_move(client, server.base, table.id, table.tokens[seat], step, action)
            print(f"in flight at the kill: {pending}, committed: {committed}")
            if committed:
                assert 400 <= reply.status_code < 500, f"stale move accepted: {reply.text}"
                assert "error" in reply.json()
                table.acked.append(pending)  # it is in the log: count it as ours
            else:
                acknowledge(table, pending, reply)
            table.in_flight.pop()
        elif now["step"] == last["step"]:
            assert now == last, "the restarted table is not the last acknowledged one"
        # A client that reconnects is first sent exactly the committed state (taken
        # when one of our seats is to act, so that no bot moves in between).
        move = next_move(client, server.base, table.id, table.tokens, random.Random(0))
        if move is None:
            return
        seat = move[0]
        expected = get_view(client, server.base, table.id, table.tokens[seat])
        with ws_connect(f"{server.ws_base}/ws/tables/{table.id}?token={table.tokens[seat]}") as ws:
            first, _seconds = ws_view_at(ws, 0, timeout=10)
        assert first == expected


def check_record(server: Server, table: Table) -> None:
    with http_client() as client:
        reply = client.get(f"{server.base}/api/tables/{table.id}/record")
    assert reply.status_code == 200, reply.text
    record = Record.from_json(reply.json())
    replay(record)
    actions = [(step.player, step.action) for step in record.steps]
    for seat, step, action in table.acked:
        assert actions[step] == (seat, action), f"acknowledged move {action!r} lost at {step}"
    ours = {step for _seat, step, _action in table.acked}
    extra = [
        i for i, (player, _a) in enumerate(actions) if player in table.tokens and i not in ours
    ]
    assert not extra, f"human moves nobody acknowledged: {[actions[i] for i in extra]}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.db'}"
    else:
        with fresh_postgres_database() as url:
            yield url


GAMES = {
    # Glory Ranch (simultaneous choices) between two people on SQLite; Rocket
    # Ranchers with a greedy bot (a short delay) between two people on PostgreSQL. Both are cut
    # short by max_turns to keep the test quick.
    "sqlite": {
        "game": "glory-ranch",
        "players": 2,
        "seats": ["human", "human"],
        "options": {"max_turns": 40},
    },
    "postgresql": {
        "game": "rocket-ranchers",
        "players": 3,
        "seats": ["human", "greedy", "human"],
        "options": {"max_turns": 20},
        "bot_delay": 0.05,  # the bot moves on its own: killed while it waits, it resumes
    },
}


def test_kill_restart_and_finish(db_url: str, tmp_path: Path) -> None:
    seed = int(os.environ.get("RANCHHAND_KILL_SEED", random.randrange(10**6)))
    print(f"RANCHHAND_KILL_SEED={seed}")  # shown when the test fails: rerun with it
    rng = random.Random(seed)
    server = Server(db_url, tmp_path)
    backend = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    try:
        server.start()
        with http_client() as client:
            created = create_table(client, server.base, GAMES[backend])
        table = Table(created["id"], human_tokens(created))
        # Killed between two moves.
        assert play(server, table, rng, 8)
        settle(server, table)
        server.kill()
        server.start()
        check_restarted(server, table)
        # Killed at random moments while a client thread sends moves back to back.
        for _round in range(3):
            stop = threading.Event()
            client_thread = threading.Thread(
                target=play_until_killed, args=(server, table, rng.randrange(10**9), stop)
            )
            client_thread.start()
            # A few moves in, then at a random moment of a request's length after one
            # is sent: before it arrives, while it is committed, or as the reply leaves.
            wanted, deadline = len(table.acked) + rng.randint(1, 5), time.monotonic() + 20
            while len(table.acked) < wanted and client_thread.is_alive():
                assert time.monotonic() < deadline, "the client thread made no progress"
                time.sleep(0.002)
            table.posting.wait(5)  # mostly while a move is on its way
            time.sleep(rng.uniform(0, 0.02))
            server.kill()
            stop.set()
            client_thread.join(30)
            assert not client_thread.is_alive()
            if table.errors:
                raise table.errors[0]
            server.start()
            check_restarted(server, table)
        # Finish the game on the restarted server.
        while play(server, table, rng, 50):
            pass
        with http_client() as client:
            final = get_view(client, server.base, table.id, None)
        assert final["status"] == "finished" and final["outcome"] is not None
        check_record(server, table)
    except BaseException:
        print(server.tail())
        raise
    finally:
        server.stop()
