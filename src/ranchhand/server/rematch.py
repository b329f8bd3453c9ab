"""Play again: a new table with the same game, options, seats and names, where each
person's new seat is theirs alone.

Whoever sits at a finished table may start the rematch; it is made once (the finished
table's ``next_table`` is set by a conditional UPDATE, so two players asking together
make one table). Nobody, the one who asked included, is handed another person's seat:

- a seat that belonged to a person waits for that person. It has no token hash until
  the holder of the OLD seat's token asks (``POST`` or ``GET .../again``), and its new
  token is derived from that old token (an HMAC of the rematch's id and the seat, keyed
  by the old token), so only the old token's holder can ever learn it, asking again
  gives the same token, and the server stores nothing but its hash;
- a seat that was open and never claimed is open again, for anyone;
- bots are bots again.

A stranger who claimed an open seat of the finished table is a seated player like any
other: they get their own new seat, and nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import time
from dataclasses import dataclass

from sqlalchemy import delete, false, or_, select, update

from ranchhand.server import store
from ranchhand.server.errors import Conflict, NeedsToken, NoSuchTable
from ranchhand.server.live import HUMAN, Meta, token_hash
from ranchhand.server.tables import TableService

log = logging.getLogger("ranchhand.server")


@dataclass(frozen=True)
class Rematch:
    """The rematch of a finished table as one seat may know it."""

    id: str
    meta: Meta
    seat: int | None
    """The caller's seat at the rematch (the same number as at the finished table)."""
    token: str | None
    """The caller's new token; None for a spectator or a seat that is no person's now."""
    created: bool
    """True for the one request that made the rematch."""


def derived_token(old_token: str, rematch_id: str, seat: int) -> str:
    """The rematch seat's token: computable only with the old seat's token.

    >>> a = derived_token("old-secret", "T1", 0)
    >>> a == derived_token("old-secret", "T1", 0), a == derived_token("other", "T1", 0)
    (True, False)
    >>> len(a)
    32
    """
    mac = hmac.new(
        old_token.encode("utf-8", "surrogatepass"),
        f"ranchhand-rematch:{rematch_id}:{seat}".encode(),
        hashlib.sha256,
    ).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")


def next_table(service: TableService, table_id: str) -> str | None:
    """The rematch made from ``table_id``, if anyone started one."""
    with service.engine.connect() as db:
        return db.execute(
            select(store.tables.c.next_table).where(store.tables.c.id == table_id)
        ).scalar_one_or_none()


def start(service: TableService, table_id: str, token: str | None) -> Rematch:
    """Make the rematch of the finished ``table_id`` (once), and sit the caller down.

    Only a seated player may start one (401 without a token, 403 with a wrong one).
    """
    live, seat = service.view_seat(table_id, token)
    if seat is None or token is None:
        raise NeedsToken("a seat's token is needed to start another game")
    if not live.finished:
        raise Conflict("the game is not over yet")
    made = next_table(service, table_id)
    created = False
    if made is None:
        made, created = _create(service, live.meta)
    return _seat(service, made, seat, token, created)


def find(service: TableService, table_id: str, token: str | None) -> Rematch:
    """The rematch of ``table_id`` as the caller may know it (404 until someone starts one).

    With the token of a person's seat at the finished table, that seat's new token;
    without a token, only the table (to watch it).
    """
    _, seat = service.view_seat(table_id, token)
    made = next_table(service, table_id)
    if made is None:
        raise NoSuchTable("nobody has started another game from this table yet")
    if seat is None or token is None:
        return Rematch(made, service.current(made).meta, None, None, False)
    return _seat(service, made, seat, token, False)


def _create(service: TableService, meta: Meta) -> tuple[str, bool]:
    """Make the rematch table and link it; the id of whichever rematch won the race."""
    was_open = [s for s in range(meta.players) if meta.is_open(s)]
    created = service.create(
        meta.game,
        meta.players,
        dict(meta.options),
        list(meta.created_seats),
        list(meta.names),
        bot_delay=meta.bot_delay,
        clock=meta.clock,
        clock_bot=meta.clock_bot,
        open_seats=was_open,
    )
    tables, seats = store.tables.c, store.seats.c
    with service.engine.begin() as db:
        linked = db.execute(
            update(store.tables)
            .where(tables.id == meta.id, tables.next_table.is_(None))
            .values(next_table=created.id)
        )
        if linked.rowcount == 1:
            # The tokens create() made were never shown to anyone: each person's seat now
            # waits for its owner (see derived_token).
            db.execute(
                update(store.seats)
                .where(seats.table_id == created.id, seats.token_hash.is_not(None))
                .values(token_hash=None)
            )
            db.execute(
                update(store.tables)
                .where(tables.id == created.id)
                .values(rematch_of=meta.id, updated=time.time())
            )
    service.forget(created.id)
    if linked.rowcount == 1:
        log.info("table %s: rematch %s started", meta.id, created.id)
        return created.id, True
    # Another player's request made the rematch first: this table was never announced.
    with service.engine.begin() as db:
        for table in (store.moves, store.seats):
            db.execute(delete(table).where(table.c.table_id == created.id))
        db.execute(delete(store.tables).where(tables.id == created.id))
    winner = next_table(service, meta.id)
    assert winner is not None
    return winner, False


def _seat(service: TableService, made: str, seat: int, old_token: str, created: bool) -> Rematch:
    """Give the holder of ``seat``'s old token their seat at rematch ``made``."""
    live = service.current(made)
    meta = live.meta
    if meta.kinds[seat] != HUMAN or meta.is_open(seat):
        return Rematch(made, meta, seat, None, created)  # a bot's seat, or anyone's to claim
    token = derived_token(old_token, made, seat)
    wanted = token_hash(token)
    if meta.hashes[seat] == wanted:
        return Rematch(made, meta, seat, token, created)
    seats = store.seats.c
    with service.engine.begin() as db:
        taken = db.execute(
            update(store.seats)
            .where(
                seats.table_id == made,
                seats.seat == seat,
                seats.kind == HUMAN,
                seats.open == false(),
                # the same owner asking twice at once: both find their own hash
                or_(seats.token_hash.is_(None), seats.token_hash == wanted),
            )
            .values(token_hash=wanted)
        )
        if taken.rowcount == 1:
            db.execute(
                update(store.tables).where(store.tables.c.id == made).values(updated=time.time())
            )
    service.forget(made)
    if taken.rowcount != 1:
        # Only this seat's owner can compute `wanted`; a different hash means the seat
        # is not waiting for them (it was handed over); say so rather than guess.
        raise Conflict(f"seat {seat} of the new table is no longer waiting for you")
    log.info("table %s: seat %d of the rematch taken by its owner", made, seat)
    return Rematch(made, service.current(made).meta, seat, token, created)
