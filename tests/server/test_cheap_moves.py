"""What makes a move cheap must not make it wrong: a move is checked against the cached
state without reading the database, so a stale copy (another process moved, handed a
seat over, or a seat was claimed) must never commit and must never refuse a good move;
log lines are written only for those who may read them, so a spectator who arrives late
must still read the whole log. Two services on one database stand for two processes
(SQLite, and PostgreSQL when one answers)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from ranchhand.core.records import Record, Step
from ranchhand.server.errors import Conflict
from ranchhand.server.live import HUMAN
from ranchhand.server.store import make_engine, migrate
from ranchhand.server.tables import TableService
from ranchhand.server.views import table_view
from tests.server.helpers import expected_views


@pytest.fixture
def services(db_url: str) -> Iterator[tuple[TableService, TableService]]:
    engines = [make_engine(db_url), make_engine(db_url)]
    migrate(engines[0])
    yield TableService(engines[0]), TableService(engines[1])
    for engine in engines:
        engine.dispose()


def a_move(service: TableService, table_id: str, tokens: dict[int, str], rng: random.Random):
    live = service.current(table_id)
    seat = next(s for s in live.state.acting_players() if s in tokens)
    return seat, str(rng.choice(live.state.legal_actions(seat))), live.step


def test_a_stale_copy_never_commits_and_never_refuses_a_good_move(
    services: tuple[TableService, TableService],
) -> None:
    one, two = services
    made = one.create("rancho", 2, {"max_turns": 40}, ["human", "human"], open_seats=[1])
    table, tokens = made.id, dict(made.tokens)
    rng = random.Random(4)
    two.current(table)  # the other process has it cached too

    # Someone claims the open seat through `one`: its new token plays through `two`,
    # whose copy still has the seat open.
    claimed = one.claim(table, 1)
    tokens[1] = claimed.token
    copy = two._cached(table)
    assert copy is not None and copy.meta.is_open(1)
    for _ in range(50):
        if 1 in one.current(table).state.acting_players():
            break
        seat, action, step = a_move(one, table, tokens, rng)
        one.act(table, tokens[seat], action, step)
    seat, action, step = a_move(one, table, tokens, rng)
    assert seat == 1
    assert two.act(table, tokens[1], action, step).seat == 1

    # `one` moves on: `two`'s copy is behind. A move made against the step `two` saw
    # is stale; a move made against the new step is good although `two` is behind.
    old = two.current(table).step
    seat, action, step = a_move(one, table, tokens, rng)
    one.act(table, tokens[seat], action, step)
    with pytest.raises(Conflict, match="stale step"):
        two.act(table, tokens[seat], action, old)
    seat, action, step = a_move(one, table, tokens, rng)
    one.act(table, tokens[seat], action, step)
    seat, action, step = a_move(one, table, tokens, rng)
    copy = two._cached(table)
    assert copy is not None and copy.step < step
    assert two.act(table, tokens[seat], action, step).live.step > step

    # A seat handed to a bot through `one` is the bot's: `two`, whose copy says a
    # person sits there, must not take that person's move.
    two.current(table)
    live = one.current(table)
    mover = live.state.acting_players()[0]
    one.set_seat(table, tokens[mover], mover, "random")
    copy = two._cached(table)
    assert copy is not None and copy.meta.kinds[mover] == HUMAN
    legal = str(live.state.legal_actions(mover)[0])
    with pytest.raises(Conflict):
        two.act(table, tokens[mover], legal, live.step)


def test_a_spectator_who_arrives_late_reads_the_whole_log(
    services: tuple[TableService, TableService],
) -> None:
    one, two = services
    seats = ["human", "greedy", "human"]
    made = one.create("rocket-ranchers", 3, {}, seats)
    table, tokens = made.id, dict(made.tokens)
    rng = random.Random(8)
    views: list[tuple[int, dict[str, object]]] = []
    for turn in range(400):
        live = one.current(table)
        if live.finished:
            break
        if turn == 15:  # a spectator comes, to the other process
            live, seat = two.view_seat(table, None)
            assert seat is None
            views.append((live.step, table_view(live, None)))
        if turn > 15 and turn % 3 == 0:
            watched = two.current(table)  # what that process's sockets are sent
            views.append((watched.step, table_view(watched, None)))
        if turn == 30:  # and one to this process
            live, _ = one.view_seat(table, None)
            views.append((live.step, table_view(live, None)))
        seat, action, step = a_move(one, table, tokens, rng)
        moved = one.act(table, tokens[seat], action, step)
        if turn > 30:
            views.append((moved.live.step, table_view(moved.live, None)))
    live = one.current(table)
    record = Record(
        game=live.meta.game,
        players=live.meta.players,
        options=dict(live.meta.options),
        version=live.game.version,
        engine="test",
        seats=list(seats),
        seed=live.meta.seed,
        steps=[Step(p, a) for p, a in live.moves],
    )
    expected = expected_views(record, list(live.meta.names))
    assert len(views) > 20
    for step, view in views:
        assert view["log"] == expected[step][None]["log"], f"step {step}"


def test_bot_seats_without_a_token_get_no_log_lines(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'tables.db'}")
    migrate(engine)
    service = TableService(engine)
    made = service.create("glory-ranch", 3, {}, ["human", "greedy", "random"])
    live = service.current(made.id)
    assert live.events and all(entry[2] == entry[3] == "" for entry in live.events)
    assert all(entry[1] for entry in live.events)  # the person's lines are there
    engine.dispose()


@pytest.mark.parametrize(
    ("seats", "clock", "delay"),
    [
        (["human", "random"], None, 0.0),
        (["human", "human"], None, 0.0),
        (["human", "random"], 30.0, 0.0),
        (["human", "greedy", "random"], None, 5.0),  # the bots wait: work for the runner
    ],
)
def test_a_table_vouched_for_from_the_cache_expects_what_its_row_says(
    tmp_path: Path, seats: list[str], clock: float | None, delay: float
) -> None:
    """The bot runner takes a move's state from the cache, without a query, when one
    process alone writes the tables; what it then concludes (nothing to do, or a look
    at the row) must agree with the row at every step of whole games."""
    from ranchhand.server.bots import _expects_anything

    engine = make_engine(f"sqlite:///{tmp_path / 'vouch.db'}")
    migrate(engine)
    service = TableService(engine)
    made = service.create(
        "rancho", len(seats), {"max_turns": 12}, seats, bot_delay=delay, clock=clock
    )
    assert service.settled(made.id, 0) is None  # not alone: never vouched for
    service.solo = True
    rng = random.Random(len(seats))
    tokens = dict(made.tokens)
    checked = 0
    while True:
        live = service.current(made.id)
        assert service.settled(made.id, live.step) is live
        assert service.settled(made.id, live.step + 1) is None  # a step not seen here
        assert _expects_anything(live) == (service.due(made.id) is not None)
        checked += 1
        if live.finished:
            break
        people = [p for p in live.state.acting_players() if seats[p] == HUMAN]
        if people:
            seat = people[0]
            action = str(rng.choice(live.state.legal_actions(seat)))
            service.act(made.id, tokens[seat], action, live.step)
        else:  # what the runner does for bots and chance that wait
            service.advance(made.id, live.step, "bot")
    assert checked > 5
    engine.dispose()
