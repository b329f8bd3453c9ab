"""Who is at the table: each seat ``online``, ``away`` or ``offline``, from the live
WebSockets that hold its token, in every process serving the database.

Each such WebSocket has a row in ``presence`` (migration 0005), written by the process
that holds it: ``online`` while its page is visible, ``away`` while the page says it is
hidden or idle (the page sends ``{"presence": "hidden"}`` and the like), ``offline``
once it closed. Every ``heartbeat`` seconds a process marks all its open rows seen; a
row not seen for ``STALE_BEATS`` heartbeats belongs to a process that died, and counts
as the seat gone since it was last seen. So processes on one PostgreSQL agree without
asking each other, and SQLite's single process works the same way.

A seat is online if any of its rows is, else away if any is, else offline; ``since`` is
when that began. Spectators have no rows: they count nowhere. A person's seat offline
for ``hand_over_after`` seconds may be handed to the table's cheap bot by another seat
(``hand_over``), as Board Game Arena lets the others do with a player who left.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine, and_, delete, insert, select, update

from ranchhand.server import store
from ranchhand.server.live import HUMAN

ONLINE, AWAY, OFFLINE = "online", "away", "offline"
PAGE_STATES = {"visible": ONLINE, "hidden": AWAY, "idle": AWAY}
"""What a page may say of itself, and the state it puts its seat in."""
HEARTBEAT = 5.0
"""Seconds between a process's marks that its WebSockets are still open."""
STALE_BEATS = 3
"""Heartbeats a row may miss before its process counts as gone."""
HAND_OVER_AFTER = 120.0
"""Seconds a person's seat must be offline before another seat may hand it to a bot."""
FORGET_AFTER = 7 * 86400.0
"""Seconds after which a closed connection's row is deleted."""
BOTS_KEPT = 10_000


def cheap_bot(game: str) -> str:
    """The bot another seat hands an offline person's seat to: the game's cheap one."""
    from ranchhand.server.tables import _default_bot

    return _default_bot(game)


def seat_states(
    rows: Sequence[Any],
    seats: Sequence[str],
    created: float,
    now: float,
    stale: float,
    hand_over_after: float,
    playing: bool,
) -> list[dict[str, Any]]:
    """Each seat's presence from its rows ``(seat, state, since, seen)``.

    >>> seat_states([(0, "online", 5.0, 99.0), (1, "online", 2.0, 10.0)], ["human"] * 3,
    ...             0.0, 100.0, 15.0, 60.0, True)  # doctest: +NORMALIZE_WHITESPACE
    [{'seat': 0, 'state': 'online', 'since': 5.0, 'hand_over': False},
     {'seat': 1, 'state': 'offline', 'since': 10.0, 'hand_over': True},
     {'seat': 2, 'state': 'offline', 'since': 0.0, 'hand_over': True}]
    """
    by_seat: dict[int, list[Any]] = {}
    for row in rows:
        by_seat.setdefault(int(row[0]), []).append(row)
    states = []
    for seat, kind in enumerate(seats):
        mine = by_seat.get(seat, [])
        live = [r for r in mine if r[1] != OFFLINE and r[3] >= now - stale]
        online = [r[2] for r in live if r[1] == ONLINE]
        away = [r[2] for r in live if r[1] == AWAY]
        if online:
            state, since = ONLINE, min(online)
        elif away:
            state, since = AWAY, min(away)
        else:
            state, since = OFFLINE, max((float(r[3]) for r in mine), default=created)
        states.append(
            {
                "seat": seat,
                "state": state,
                "since": round(float(since), 3),
                "hand_over": playing
                and kind == HUMAN
                and state == OFFLINE
                and now - since >= hand_over_after,
            }
        )
    return states


class PresenceStore:
    """The ``presence`` rows of this process's WebSockets, and every seat's state."""

    def __init__(
        self,
        engine: Engine,
        *,
        heartbeat: float = HEARTBEAT,
        hand_over_after: float = HAND_OVER_AFTER,
    ) -> None:
        self.engine = engine
        self.heartbeat = heartbeat
        self.hand_over_after = hand_over_after
        self.process = secrets.token_hex(8)
        """This process's name in the rows (a new one each start)."""
        self.beats = 0
        self.bots: dict[str, str] = {}
        """Each table's cheap bot (the one a seat is handed to), as last read."""

    @property
    def stale(self) -> float:
        return self.heartbeat * STALE_BEATS

    def join(self, table_id: str, seat: int, state: str = ONLINE) -> str:
        """A row for a new WebSocket of ``seat``; its id."""
        conn, now = secrets.token_hex(12), time.time()
        with self.engine.begin() as db:
            db.execute(
                insert(store.presence).values(
                    conn=conn, process=self.process, table_id=table_id, seat=seat,
                    state=state, since=now, seen=now,
                )
            )  # fmt: skip
        return conn

    def change(self, conn: str, state: str) -> bool:
        """Put the WebSocket ``conn`` in ``state``; False if it already was."""
        now, p = time.time(), store.presence.c
        with self.engine.begin() as db:
            done = db.execute(
                update(store.presence)
                .where(p.conn == conn, p.state != state, p.state != OFFLINE)
                .values(state=state, since=now, seen=now)
            )
        return done.rowcount == 1

    def leave(self, conn: str) -> None:
        """The WebSocket ``conn`` closed: its row says so, and when (older closed rows of
        the same seat go: the newest says when the seat was last there)."""
        now, p = time.time(), store.presence.c
        with self.engine.begin() as db:
            row = db.execute(select(p.table_id, p.seat).where(p.conn == conn)).first()
            if row is None:
                return
            db.execute(
                update(store.presence)
                .where(p.conn == conn)
                .values(state=OFFLINE, since=now, seen=now)
            )
            db.execute(
                delete(store.presence).where(
                    p.table_id == row[0], p.seat == row[1], p.state == OFFLINE, p.conn != conn
                )
            )

    def beat(self) -> None:
        """Mark this process's open rows seen now; now and then forget rows long closed."""
        now, p = time.time(), store.presence.c
        self.beats += 1
        with self.engine.begin() as db:
            db.execute(
                update(store.presence)
                .where(p.process == self.process, p.state != OFFLINE)
                .values(seen=now)
            )
            if self.beats % 100 == 1:
                db.execute(delete(store.presence).where(p.seen < now - FORGET_AFTER))

    def close_process(self) -> None:
        """This process stops: its open rows are closed now (not left to go stale)."""
        now, p = time.time(), store.presence.c
        with self.engine.begin() as db:
            db.execute(
                update(store.presence)
                .where(p.process == self.process, p.state != OFFLINE)
                .values(state=OFFLINE, since=now, seen=now)
            )

    def states(self, table_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Each table's seats' presence (tables that do not exist are left out)."""
        if not table_ids:
            return {}
        now, t, s, p = time.time(), store.tables.c, store.seats.c, store.presence.c
        ids = list(table_ids)
        with self.engine.connect() as db:
            tables = db.execute(
                select(t.id, t.created, t.status, t.game).where(t.id.in_(ids))
            ).all()
            seats = db.execute(
                select(s.table_id, s.seat, s.kind).where(s.table_id.in_(ids)).order_by(s.seat)
            ).all()
            rows = db.execute(
                select(p.table_id, p.seat, p.state, p.since, p.seen).where(
                    and_(p.table_id.in_(ids))
                )
            ).all()
        kinds: dict[str, list[str]] = {}
        for table_id, _seat, kind in seats:
            kinds.setdefault(table_id, []).append(kind)
        by_table: dict[str, list[Any]] = {}
        for table_id, *rest in rows:
            by_table.setdefault(table_id, []).append(rest)
        for table_id, _created, _status, game in tables:
            self.bots[table_id] = cheap_bot(game)
            if len(self.bots) > BOTS_KEPT:
                self.bots.pop(next(iter(self.bots)))
        return {
            table_id: seat_states(
                by_table.get(table_id, []),
                kinds.get(table_id, []),
                float(created),
                now,
                self.stale,
                self.hand_over_after,
                status == "playing",
            )
            for table_id, created, status, _game in tables
        }

    def of(self, table_id: str) -> list[dict[str, Any]]:
        """One table's seats' presence (empty if there is no such table)."""
        return self.states([table_id]).get(table_id, [])
