"""Tables: the server's domain, with no HTTP in it.

A table is a game with seats (people holding a token, or bots), a secret seed and
an append-only log of moves in the database. Its state is never stored: it is
rebuilt by replaying the log, and kept in memory (:class:`Live`, an LRU cache)
only as a shortcut that is checked against the database on every use.

A move goes: check the token, bring the state up to the database's last step,
check the step the client saw, parse the action for that seat, apply it to a copy
with the chance outcomes and undelayed bot moves that follow, then write all of
them in ONE transaction. The moves table's key (table, step) decides races: of
two moves for one step the database keeps the first, the second fails with an
IntegrityError and is refused as stale (or checked again, see :meth:`act`).
Chance is drawn from ``Random(derive_seed(seed, "chance", step))`` and bots from
``derive_seed(seed, "bots", step)``, so no generator state is kept anywhere.

Inside a request only chance and cheap bots move, within a small budget
(:class:`~ranchhand.server.live.Budget`); search bots, and whatever the budget left,
are the bot runner's (:mod:`ranchhand.server.bots`): :meth:`TableService.due` says
what a table waits for, :meth:`~TableService.advance` does cheap work in this process,
:meth:`~TableService.job` and :meth:`~TableService.apply_decision` carry a search
decision to the process pool and back. A table with no change for long enough is
closed (:meth:`~TableService.expire`): status ``expired``, nothing more is played.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from sqlalchemy import Engine, and_, exists, func, insert, not_, or_, select, true, update
from sqlalchemy.exc import IntegrityError

from ranchhand import __version__
from ranchhand.core.data import files_allowed
from ranchhand.core.errors import ActionError, DataError, OptionError, RanchhandError
from ranchhand.core.game import Game
from ranchhand.core.records import Record, Step
from ranchhand.core.registry import bot_factory, bot_names, canonical_name, load
from ranchhand.server import store
from ranchhand.server.botpool import Job
from ranchhand.server.errors import (
    BadRequest,
    Conflict,
    NeedsToken,
    NoSuchTable,
    TableError,
    WrongToken,
)
from ranchhand.server.live import HUMAN, Budget, Live, Meta, is_search, new_token, token_hash

log = logging.getLogger("ranchhand.server")
_MOVE_COLUMNS = ("step", "player", "action", "timeout")
"""A stored move's columns a table is rebuilt from, in this order; ``timeout`` (migration
0006) where the ``moves`` definition has it (tests/server/test_migrations.py runs this
code on 0001's schema)."""

MAX_NAME = 32
CACHE_SIZE = 512
"""Tables whose state is kept in memory; others are rebuilt from their log when needed."""
LOBBY_LIMIT = 100
SPECTATED_KEPT = 100_000
"""Watched tables remembered (a table forgotten is watched again by its next spectator)."""
EXPIRED = "expired"
"""The status of a table the server closed after no change for too long."""
EXPIRE_BATCH = 500
"""Tables closed at most by one :meth:`TableService.expire` (the next sweep does the rest)."""


class _DueRow(NamedTuple):
    """A row of :attr:`store.Hot.due`."""

    status: str
    step: int
    to_act: Any
    updated: float
    bot_delay: float
    clock: float | None
    clock_bot: str
    game: str
    bot_cpu: float
    kind: str


OPEN_RETRY_AFTER = 60
"""Seconds a client over its open tables is told to wait (a table of its may end or expire)."""


class TooManyTables(TableError):
    """429: the client has as many playing tables as it may; ``Retry-After`` says when to
    look again."""

    status = 429
    headers: ClassVar[dict[str, str]] = {"Retry-After": str(OPEN_RETRY_AFTER)}


class Gone(TableError):
    """410: the table was closed by the server (it expired); nothing more is played."""

    status = 410


@dataclass(frozen=True)
class Created:
    id: str
    tokens: dict[int, str]
    meta: Meta
    step: int


@dataclass(frozen=True)
class Claimed:
    """A seat someone claimed: its new token (shown once) and the table now."""

    seat: int
    token: str
    live: Live


@dataclass(frozen=True)
class Due:
    """What a table waits for that the server does itself: a bot, or a clock running out."""

    table_id: str
    step: int
    kind: str  # "bot" (no seats: chance) or "clock"
    at: float
    seats: tuple[int, ...] = ()
    """The seats to play: the bot due, or every silent person when the clock runs out."""
    bot: str = ""
    """The bot that plays them."""
    search: bool = False
    """That bot searches (seconds a decision): the process pool plays it."""
    people: bool = True
    """Someone sits at the table (its work goes before bots-only tables')."""
    bot_cpu: float = 0.0
    """CPU seconds its search bots have used so far."""


@dataclass(frozen=True)
class Moved:
    """A committed change: the table's new step, and what the caller's seat now sees."""

    live: Live
    seat: int | None
    first: int


class TableService:
    """Tables in one database, with a cache of their states; thread-safe."""

    def __init__(
        self, engine: Engine, *, cache_size: int = CACHE_SIZE, inline: Budget | None = None
    ) -> None:
        self.engine = engine
        self.cache_size = cache_size
        self.inline = inline or Budget()
        """The bot and chance work a request may do after a person's move."""
        self.hot = store.Hot(engine)
        self.direct = store.Direct(engine)
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._spectated: OrderedDict[str, bool] = OrderedDict()
        """Tables someone watched (their spectator's lines are written)."""
        self._lock = threading.Lock()
        self._client_secret: bytes | None = None
        self.hand_over: Any = None
        """Who may hand another's seat to a bot (:class:`ranchhand.server.feeds.HandOver`);
        without it, a seat is changed only with its own token."""
        self.solo = False
        """Whether this process alone writes the tables (the app sets it when it serves
        with a ``LocalNotifier``): then the cache is the database (see :meth:`settled`)."""

    # ------------------------------------------------------------ creating
    def create(
        self,
        game: str,
        players: int | None,
        options: dict[str, Any],
        seats: Sequence[str] | None,
        names: Sequence[str] | None = None,
        *,
        bot_delay: float = 0.0,
        clock: float | None = None,
        clock_bot: str | None = None,
        open_seats: Sequence[int] = (),
        creator: str | None = None,
        max_open: int | None = None,
        chat: dict[str, bool] | None = None,
    ) -> Created:
        """A new table; chance and cheap bot moves due before a person acts are played
        (within the inline budget: the bot runner plays the rest, and every search bot).

        ``open_seats`` are human seats left free for anyone to :meth:`claim`: they get
        no token now. The other human seats' tokens go to the creator. ``creator`` is
        the creating client's key (:meth:`client_key`), counted by :meth:`open_tables_by`:
        with ``max_open``, a creator with that many playing tables is refused
        (TooManyTables, 429). Two creations at the same moment may both pass the count.
        """
        try:
            name = canonical_name(game)
            if players is None:
                players = len(seats) if seats else None
            loaded = _load_game(name, players, options)
            kinds = list(seats) if seats else [HUMAN] * loaded.players
            if len(kinds) != loaded.players:
                raise BadRequest(
                    f"seats: {loaded.id} with {loaded.players} players needs {loaded.players} "
                    f"seats, got {len(kinds)}"
                )
            for kind in set(kinds) - {HUMAN}:
                bot_factory(loaded.id, kind)
            chosen_clock_bot = clock_bot or _default_bot(loaded.id)
            bot_factory(loaded.id, chosen_clock_bot)
        except OptionError as error:
            raise BadRequest(str(error)) from None
        shown = _names(names, kinds)
        free = _open_seats(open_seats, kinds)
        if HUMAN not in kinds and bot_delay <= 0:
            bot_delay = 0.0  # a bots-only table with no delay plays as fast as its bots
        tokens = {
            seat: new_token()
            for seat, kind in enumerate(kinds)
            if kind == HUMAN and seat not in free
        }
        now = time.time()
        meta = Meta(
            id=secrets.token_urlsafe(9),
            game=loaded.id,
            players=loaded.players,
            options=dict(loaded.options),
            created_seats=tuple(kinds),
            kinds=tuple(kinds),
            names=tuple(shown),
            hashes=tuple(token_hash(tokens[s]) if s in tokens else None for s in range(len(kinds))),
            seed=random.SystemRandom().randrange(2**63),
            bot_delay=float(bot_delay),
            clock=clock,
            clock_bot=chosen_clock_bot,
            created=now,
            open=tuple(s in free for s in range(len(kinds))),
        )
        live = Live(
            meta, loaded, loaded.new_initial_state(), updated=now, seen_only=True, spectated=False
        )
        live.settle(bots=meta.bot_delay == 0, budget=self.inline)
        row: dict[str, Any] = {"creator": creator} if creator is not None else {}
        row.update(chat or {})  # the chat's options (``chat_spectators``, ``chat_record``)
        if creator is not None and max_open is not None:
            playing = self.open_tables_by(creator)
            if playing >= max_open:
                raise TooManyTables(
                    f"too many open tables: this client has {playing} tables in play and "
                    f"may have {max_open}; finish or leave one (an idle table expires)"
                )
        with self.engine.begin() as db:
            db.execute(
                insert(store.tables).values(
                    id=meta.id,
                    game=meta.game,
                    players=meta.players,
                    options=meta.options,
                    seats=list(meta.created_seats),
                    seed=meta.seed,
                    bot_delay=meta.bot_delay,
                    clock=meta.clock,
                    clock_bot=meta.clock_bot,
                    created=now,
                    **_progress(live, now),
                    **row,
                )
            )
            db.execute(
                insert(store.seats),
                [
                    {"table_id": meta.id, "seat": s, "kind": k, "name": n, "token_hash": h}
                    for s, (k, n, h) in enumerate(
                        zip(meta.kinds, meta.names, meta.hashes, strict=True)
                    )
                ],
            )
            if free:  # the column's default is false: only open seats are written
                db.execute(
                    update(store.seats)
                    .where(store.seats.c.table_id == meta.id, store.seats.c.seat.in_(free))
                    .values(open=True)
                )
            self._insert_moves(db, meta.id, live, 0, now)
        self._remember(live)
        log.info(
            "table %s created: %s, %d players (%s), %d steps played before the first person",
            meta.id,
            meta.game,
            meta.players,
            ", ".join(f"{k} (open)" if s in free else k for s, k in enumerate(meta.kinds)),
            live.step,
        )
        return Created(meta.id, tokens, meta, live.step)

    # ------------------------------------------------------------- reading
    def current(self, table_id: str, *, at_least: int | None = None) -> Live:
        """The table as the database has it now (or at ``at_least`` steps, if cached)."""
        cached = self._cached(table_id)
        if cached is not None and at_least is not None and cached.step >= at_least:
            return cached
        return self._load(table_id, cached)

    def view_seat(self, table_id: str, token: str | None) -> tuple[Live, int | None]:
        """The table now and the seat ``token`` opens (None: a spectator, from whom on
        the table's spectator lines are written, see :meth:`watched`)."""
        live = self.current(table_id)
        seat = live.meta.seat_of(token)
        if seat is None and not live.spectated:
            live = self.watched(live)
        return live, seat

    def watched(self, live: Live) -> Live:
        """``live`` with its spectator's lines, written from now on for this table."""
        with self._lock:
            self._spectated[live.meta.id] = True
            self._spectated.move_to_end(live.meta.id)
            while len(self._spectated) > SPECTATED_KEPT:
                self._spectated.popitem(last=False)
        if live.spectated:
            return live
        seen = live.fork()
        seen.add_spectator_lines()
        self._remember(seen)
        return seen

    def lobby(
        self,
        status: str | None = None,
        limit: int = LOBBY_LIMIT,
        *,
        free_only: bool = False,
        before: float | None = None,
    ) -> list[dict[str, Any]]:
        """The tables a lobby lists, newest first: public facts only.

        ``free`` is the seats anyone may claim now (open, and the game not over);
        ``free_only`` keeps only the tables that have one. Expired tables are listed
        only when asked for by ``status``. ``before``: only tables last changed before
        it (the lobby's history pages on with the last ``updated`` it was given).
        """
        query = select(store.tables).order_by(store.tables.c.updated.desc()).limit(limit)
        if before is not None:
            query = query.where(store.tables.c.updated < before)
        if status is not None:
            query = query.where(store.tables.c.status == status)
        else:
            query = query.where(store.tables.c.status != EXPIRED)
        if free_only:
            query = query.where(
                store.tables.c.status == "playing",
                store.tables.c.id.in_(
                    select(store.seats.c.table_id).where(store.seats.c.open == true())
                ),
            )
        with self.engine.connect() as db:
            rows = db.execute(query).mappings().all()
            ids = [row["id"] for row in rows]
            seat_rows = (
                db.execute(select(store.seats).where(store.seats.c.table_id.in_(ids)))
                .mappings()
                .all()
                if ids
                else []
            )
        by_table: dict[str, list[dict[str, Any]]] = {}
        for seat in sorted(seat_rows, key=lambda r: r["seat"]):
            by_table.setdefault(seat["table_id"], []).append(
                {
                    "seat": seat["seat"],
                    "kind": seat["kind"],
                    "name": seat["name"],
                    "open": bool(seat["open"]),
                }
            )
        listed = []
        for row in rows:
            seats = by_table.get(row["id"], [])
            free = [s["seat"] for s in seats if s["open"]] if row["status"] == "playing" else []
            if free_only and not free:
                continue
            listed.append(
                {
                    "id": row["id"],
                    "game": row["game"],
                    "players": row["players"],
                    "status": row["status"],
                    "step": row["step"],
                    "turn": row["turn"],
                    "to_act": row["to_act"],
                    "seats": seats,
                    "free": free,
                    "free_seats": len(free),
                    "bot_delay": row["bot_delay"],
                    "clock": row["clock"],
                    "created": row["created"],
                    "updated": row["updated"],
                }
            )
        return listed

    def record(self, table_id: str) -> Record:
        """The finished table's record (``ranchhand-record/1``), seed included.

        An expired table's game can never go on here, so its record (the game so far,
        no outcome) is given too: it can be replayed or resumed at the terminal.
        """
        live = self.current(table_id)
        if not live.finished and not live.expired:
            raise Conflict("the game is not over; its record (with the seed) comes at the end")
        meta = live.meta
        record = Record(
            game=meta.game,
            players=meta.players,
            options=dict(meta.options),
            version=live.game.version,
            engine=__version__,
            seats=list(meta.created_seats),
            seed=meta.seed,
            steps=[Step(p, a) for p, a in live.moves],
            # The names the seats showed ("Ann"), so a replay tells who played; none
            # when every seat went by its kind, as a record made without names.
            names=[] if meta.names == meta.created_seats else list(meta.names),
        )
        record.finish(live.state)
        return record

    # -------------------------------------------------------------- moving
    def act(self, table_id: str, token: str | None, text: str, step: int | None) -> Moved:
        """Play ``text`` for the seat ``token`` opens, made against ``step`` if given.

        Refused with Conflict (409) when the step is stale, it is not the seat's
        turn or the game is over; BadRequest (400) when the text is no legal action.
        A move that loses a race for its step is checked once more against the
        new state when it still may stand (no step given, or a simultaneous node).
        """
        if token is None:
            raise NeedsToken("a move needs the seat's token (Authorization: Bearer TOKEN)")
        # The cached state is used as it is, unchecked: the commit is conditional on the
        # table's row being exactly what it was made from, so a stale copy can never
        # commit; a move refused, or a commit that finds the row changed, is looked at
        # again against the database.
        live = self._cached(table_id)
        checked = live is None
        if live is None:
            live = self.current(table_id)
        races = 0
        while True:
            try:
                seat, action = _check_move(live, token, text, step)
            except TableError:
                if checked:
                    raise
                live, checked = self.current(table_id), True
                continue
            work = live.fork()
            work.apply(seat, action)
            work.settle(bots=live.meta.bot_delay == 0, budget=self.inline)
            if self._commit(work, live):
                if log.isEnabledFor(logging.DEBUG):  # a line a move: only when asked for
                    log.debug(
                        "table %s: %s moved at step %d (%d steps committed): %s",
                        table_id,
                        live.meta.label(seat),
                        live.step,
                        work.step - live.step,
                        action,
                    )
                return Moved(work, seat, live.step)
            # The row changed (another move won the step, or a seat changed): look
            # again. A move made against a step is still fresh only if the winner's move
            # was another seat's hidden choice at this simultaneous node; a move without
            # a step is checked anew.
            races += checked
            if races >= 3:
                raise Conflict("the table is busy; look again and choose")
            live, checked = self.current(table_id), True

    def set_seat(self, table_id: str, token: str | None, seat: int, kind: str) -> Moved:
        """Hand ``seat`` to a bot (a player leaving), or take it back (``human``).

        Only the seat's own token may; a bot due to move then moves. With ``hand_over``,
        another seat's token may hand a person's seat offline for long enough to the
        table's cheap bot (:class:`ranchhand.server.feeds.HandOver`); the reply is the
        view of the token's own seat.
        """
        if token is None:
            raise NeedsToken("handing a seat over needs that seat's token")
        live = self.current(table_id)
        mine = live.meta.seat_of(token)
        assert mine is not None
        other = mine != seat
        if other and self.hand_over is None:
            raise WrongToken(f"this token is not seat {seat}'s")
        _refuse_expired(live)
        if live.finished:
            raise Conflict("the game is over")
        if kind != HUMAN:
            try:
                bot_factory(live.meta.game, kind)
            except OptionError as error:
                raise BadRequest(str(error)) from None
        if other:
            self.hand_over.check(live, mine, seat, kind, _default_bot(live.meta.game))
        now = time.time()
        target = [store.seats.c.table_id == table_id, store.seats.c.seat == seat]
        if other:  # only while a person still holds it (its owner may just have come back)
            target.append(store.seats.c.kind == HUMAN)
        with self.engine.begin() as db:
            done = db.execute(update(store.seats).where(*target).values(kind=kind))
            if done.rowcount != 1:
                raise Conflict(f"seat {seat} changed meanwhile; look again")
            db.execute(
                update(store.tables).where(store.tables.c.id == table_id).values(updated=now)
            )
        self.forget(table_id)
        by = f" (handed over by seat {mine}, offline too long)" if other else ""
        log.info("table %s: seat %d is now played by %s%s", table_id, seat, kind, by)
        if other:
            self.hand_over.done(live, mine, seat, kind)
        return Moved(self.current(table_id), mine, live.step)

    def claim(self, table_id: str, seat: int, name: str | None = None) -> Claimed:
        """Take the open ``seat`` (as ``name``, else the name it was created with).

        The token is made here and returned once. One conditional UPDATE (the seat is
        still open and the table still playing) decides between claims that arrive
        together: exactly one changes the row, the others are refused with Conflict.
        """
        live = self.current(table_id)
        meta = live.meta
        if not 0 <= seat < meta.players:
            raise NoSuchTable(f"no seat {seat} at this table (seats 0 to {meta.players - 1})")
        _refuse_expired(live)
        if live.finished:
            raise Conflict("the game is over")
        if not meta.is_open(seat):
            raise Conflict(f"seat {seat} is not free: it was handed out or someone took it")
        shown = meta.names[seat] if name is None else _name(name, "name")
        token = new_token()
        now = time.time()
        seats = store.seats.c
        playing = select(store.tables.c.id).where(
            store.tables.c.id == table_id, store.tables.c.status == "playing"
        )
        with self.engine.begin() as db:
            claimed = db.execute(
                update(store.seats)
                .where(
                    seats.table_id == table_id,
                    seats.seat == seat,
                    seats.open == true(),
                    seats.token_hash.is_(None),
                    seats.table_id.in_(playing),
                )
                .values(open=False, token_hash=token_hash(token), name=shown)
            )
            if claimed.rowcount != 1:
                raise Conflict(f"seat {seat} is not free: someone took it just now")
            db.execute(
                update(store.tables).where(store.tables.c.id == table_id).values(updated=now)
            )
        self.forget(table_id)
        log.info("table %s: open seat %d claimed", table_id, seat)
        return Claimed(seat, token, self.current(table_id))

    def due(self, table_id: str) -> Due | None:
        """What the server itself must do next at this table, and when, if anything."""
        found = self.due_many([table_id])
        if table_id not in found:
            raise NoSuchTable(f"no table {table_id!r}")
        return found[table_id]

    def due_many(self, ids: Sequence[str]) -> dict[str, Due | None]:
        """:meth:`due` of each table of ``ids`` that exists, in one query per
        :data:`store.DUE_BATCH` tables, from their rows and seats alone (no replay):
        every process hears of every change and asks this, most often to learn "nothing"."""
        rows: list[Any] = []
        for start in range(0, len(ids), store.DUE_BATCH):
            batch = ids[start : start + store.DUE_BATCH]
            statement = self.hot.due(len(batch))
            rows += self.direct.read(statement, {f"id{i}": tid for i, tid in enumerate(batch)})
        by_table: dict[str, list[Any]] = {}
        for row in rows:
            by_table.setdefault(row[0], []).append(row)
        return {tid: self._due(tid, found) for tid, found in by_table.items()}

    def _due(self, table_id: str, rows: list[Any]) -> Due | None:
        first = _DueRow(*rows[0][1:])
        if first.status != "playing":
            return None
        kinds = [row[-1] for row in rows]
        to_act = [p for p in self.hot.read_json(first.to_act) if 0 <= p < len(kinds)]
        base = Due(
            table_id, first.step, "bot", first.updated,
            people=HUMAN in kinds, bot_cpu=float(first.bot_cpu),
        )  # fmt: skip
        bots = [p for p in to_act if kinds[p] != HUMAN]
        if bots:
            kind = kinds[bots[0]]
            return replace(
                base,
                at=first.updated + first.bot_delay,
                seats=(bots[0],),
                bot=kind,
                search=is_search(first.game, kind),
            )
        if not to_act:  # a chance node (the game is not over): chance is cheap
            return base
        if first.clock is not None:
            return replace(
                base,
                kind="clock",
                at=first.updated + first.clock,
                seats=tuple(to_act),
                bot=first.clock_bot,
                search=is_search(first.game, first.clock_bot),
            )
        return None

    def advance(
        self, table_id: str, step: int, kind: str, *, fallback: bool = False
    ) -> Moved | None:
        """Do cheap work :meth:`due` said, if the table is still at ``step``; None if not.

        ``kind`` "bot": chance, or the cheap bot due, then chance and cheap bots within
        the inline budget. "clock": the clock bot moves for every silent person. With
        ``fallback`` the game's cheap bot moves instead of the seat's or clock's own (a
        search that failed). A search bot never moves here.
        """
        cheap = _default_bot(self.current(table_id).meta.game) if fallback else None
        live = self.current(table_id)
        if live.step != step or live.finished or live.expired:
            return None
        work = live.fork()
        delayless = live.meta.bot_delay == 0
        if kind == "clock":
            if live.meta.clock is None or time.time() < live.updated + live.meta.clock:
                return None
            chosen = cheap or live.meta.clock_bot
            if is_search(live.meta.game, chosen):
                return None
            silent = [p for p in work.state.acting_players() if live.meta.kinds[p] == HUMAN]
            for seat in silent:
                if seat in work.state.acting_players():
                    work.bot_move(seat, chosen, timeout=True)
            work.settle(bots=delayless, budget=self.inline)
            what = f"the clock ran out for {', '.join(map(live.meta.label, silent))}"
        else:
            due = work.bots_due()
            if due:
                chosen = cheap or live.meta.kinds[due[0]]
                if is_search(live.meta.game, chosen):
                    return None
                work.bot_move(due[0], chosen)
            work.settle(bots=delayless, budget=self.inline)
            what = "bots moved" if due else "chance"
        if work.step == live.step or not self._commit(work, live):
            return None
        log.info("table %s: %s at step %d", table_id, what, live.step)
        return Moved(work, None, live.step)

    def job(self, due: Due) -> tuple[Job, float] | None:
        """The pool's work for a search ``due`` (and the ``updated`` it was made at), or
        None if the table moved on meanwhile."""
        live = self.current(due.table_id)
        if live.step != due.step or live.finished or live.expired:
            return None
        acting = live.state.acting_players()
        if due.kind == "clock":
            if live.meta.clock is None or time.time() < live.updated + live.meta.clock:
                return None
            plays = [(p, due.bot) for p in acting if live.meta.kinds[p] == HUMAN]
        else:
            plays = [(p, due.bot) for p in due.seats if p in acting]
        if not plays:
            return None
        meta = live.meta
        job = Job(
            meta.id, meta.game, meta.players, dict(meta.options), meta.seed,
            tuple(live.moves), tuple(plays),
        )  # fmt: skip
        return job, live.updated

    def apply_decision(
        self,
        table_id: str,
        step: int,
        updated: float,
        made: Sequence[tuple[int, str]],
        cpu: float,
        timeout: str | None = None,
    ) -> Moved | None:
        """Commit the pool's decisions (``made``, costing ``cpu`` seconds) for the table
        as it was at ``step`` and ``updated``, then chance and cheap bots within the inline
        budget; None if the table changed meanwhile (the decisions are dropped).
        ``timeout``: the clock's bot, when the decisions are its moves for seats whose
        time ran out (the log says so).

        ActionError if a decision is no action of its seat (the runner falls back)."""
        live = self.current(table_id)
        if live.step != step or live.updated != updated or live.finished or live.expired:
            return None
        work = live.fork()
        for seat, text in made:
            if seat not in work.state.acting_players():
                raise ActionError(f"seat {seat} is not to act at step {work.step}")
            work.apply(seat, work.state.parse_action(text, seat), timeout)
        work.bot_cpu = live.bot_cpu + cpu
        work.settle(bots=live.meta.bot_delay == 0, budget=self.inline)
        if work.step == live.step or not self._commit(work, live, {"bot_cpu": work.bot_cpu}):
            return None
        log.info(
            "table %s: search bots moved at step %d (%.2f s of CPU, %.1f s in all)",
            table_id,
            live.step,
            cpu,
            work.bot_cpu,
        )
        return Moved(work, None, live.step)

    def lease(self, table_id: str, step: int, seconds: float) -> float:
        """Take the table's search lease for ``step`` (0.0), or learn until when another
        process holds it (its end, a time): only one process computes a decision."""
        t = store.tables.c
        now = time.time()
        with self.engine.begin() as db:
            taken = db.execute(
                update(store.tables)
                .where(
                    t.id == table_id,
                    t.status == "playing",
                    t.step == step,
                    or_(
                        t.bot_lease_until.is_(None),
                        t.bot_lease_until < now,
                        t.bot_lease_step != step,
                    ),
                )
                .values(bot_lease_step=step, bot_lease_until=now + seconds)
            )
            if taken.rowcount == 1:
                return 0.0
            until = db.execute(
                select(t.bot_lease_until).where(t.id == table_id, t.bot_lease_step == step)
            ).scalar_one_or_none()
        return float(until) if until is not None else now

    def release(self, table_id: str, step: int) -> None:
        """Give up the search lease for ``step`` (its decision was not committed)."""
        t = store.tables.c
        with self.engine.begin() as db:
            db.execute(
                update(store.tables)
                .where(t.id == table_id, t.bot_lease_step == step)
                .values(bot_lease_until=None)
            )

    def downgrade(self, table_id: str, limit: float) -> bool:
        """The table's search bots spent their CPU (``limit`` seconds): each search seat,
        and a searching clock bot, becomes the game's cheap bot (greedy, else random) for
        the rest of the game, in the database, so every view shows who plays now.

        False if nothing changed (no search bot left)."""
        live = self.current(table_id)
        if live.finished or live.expired:
            return False
        game = live.meta.game
        fallback = _default_bot(game)
        seats = [p for p, kind in enumerate(live.meta.kinds) if is_search(game, kind)]
        clock = is_search(game, live.meta.clock_bot)
        if not seats and not clock:
            return False
        t, s = store.tables.c, store.seats.c
        with self.engine.begin() as db:
            if seats:
                db.execute(
                    update(store.seats)
                    .where(s.table_id == table_id, s.seat.in_(seats))
                    .values(kind=fallback)
                )
            values: dict[str, Any] = {"updated": time.time()}
            if clock:
                values["clock_bot"] = fallback
            db.execute(update(store.tables).where(t.id == table_id).values(**values))
        self.forget(table_id)
        log.warning(
            "table %s: its search bots used %.0f s of CPU (the cap is %g s); seats %s%s "
            "play as %s from now on",
            table_id,
            live.bot_cpu,
            limit,
            ", ".join(map(str, seats)) or "none",
            " and the clock" if clock else "",
            fallback,
        )
        return True

    def expire(
        self, idle: float, idle_bots_only: float, now: float | None = None
    ) -> list[tuple[str, int]]:
        """Close every playing table with no change for ``idle`` seconds (``idle_bots_only``
        for a table where nobody sits): status ``expired``, nothing more is played.

        Returns each closed table's id and step (at most :data:`EXPIRE_BATCH`). Each is
        closed by a conditional UPDATE, so a move committed meanwhile keeps its table open.
        """
        now = time.time() if now is None else now
        t, s = store.tables.c, store.seats.c
        people = exists(select(s.seat).where(s.table_id == t.id, s.kind == HUMAN))
        stale = and_(
            t.status == "playing",
            or_(
                and_(people, t.updated < now - idle),
                and_(not_(people), t.updated < now - idle_bots_only),
            ),
        )
        closed = []
        with self.engine.begin() as db:
            rows = db.execute(select(t.id, t.step, t.updated).where(stale).limit(EXPIRE_BATCH))
            for table_id, step, updated in rows.all():
                done = db.execute(
                    update(store.tables)
                    .where(t.id == table_id, t.status == "playing", t.updated == updated)
                    .values(status=EXPIRED, updated=now)
                )
                if done.rowcount == 1:
                    closed.append((table_id, step))
        for table_id, step in closed:
            self.forget(table_id)
            log.info("table %s expired at step %d: no change for too long", table_id, step)
        return closed

    def open_tables_by(self, client: str) -> int:
        """How many tables the client with key ``client`` created that are still playing."""
        t = store.tables.c
        with self.engine.connect() as db:
            count = db.execute(
                select(func.count()).where(t.creator == client, t.status == "playing")
            ).scalar_one()
        return int(count)

    def client_key(self, address: str) -> str:
        """A client's key: an HMAC of its address keyed by the database's own secret
        (``server_keys``), the same in every process, not the address (nor a plain hash
        of it, which anyone could reverse by trying every IPv4 address)."""
        if self._client_secret is None:
            self._client_secret = self._secret("client")
        mac = hmac.new(self._client_secret, address.encode("utf-8", "surrogatepass"), "sha256")
        return mac.hexdigest()[:32]

    def _secret(self, name: str) -> bytes:
        keys = store.server_keys.c
        with self.engine.begin() as db:
            value = db.execute(select(keys.value).where(keys.name == name)).scalar_one_or_none()
            if value is None:  # a database whose migration made none: make it now
                value = secrets.token_hex(32)
                db.execute(insert(store.server_keys).values(name=name, value=value))
        return hashlib.sha256(value.encode("ascii")).digest()

    def playing(self) -> list[str]:
        """Every table still being played (to resume their bots and clocks on start)."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(store.tables.c.id).where(store.tables.c.status == "playing")
            ).all()
        return [row[0] for row in rows]

    # ------------------------------------------------------------- storage
    def _commit(self, work: Live, was: Live, extra: dict[str, Any] | None = None) -> bool:
        """Write ``work``'s moves after ``was`` in one transaction; False if stale.

        The ``tables`` row is updated only if it is still exactly ``was`` (its step and
        time of last change, and still playing): a table changed meanwhile by any
        process (a move, a seat handed over or claimed, expiry) refuses the write.
        """
        now = time.time()
        work.updated = now
        hot = self.hot
        outcome = work.state.outcome()
        params = {
            "id": work.meta.id,
            "was_step": was.step,
            "was_updated": was.updated,
            "status": "finished" if outcome is not None else "playing",
            "step": work.step,
            "turn": work.state.turn,
            "to_act": hot.json(list(work.state.acting_players())),
            "outcome": None if outcome is None else hot.json(outcome.to_json()),
            "updated": now,
            **(extra or {}),
        }
        new = work.moves[was.step :]
        try:
            if not self._write(params, was.step, new, work.stored_timeouts(was.step)):
                raise _Stale
        except (IntegrityError, hot.integrity_error, _Stale):
            log.info("table %s: a move for step %d lost a race; refused", work.meta.id, was.step)
            return False
        self._remember(work)
        if work.finished:
            outcome = work.state.outcome()
            log.info(
                "table %s finished after %d steps: %s",
                work.meta.id,
                work.step,
                outcome.reason if outcome else "",
            )
        return True

    def _write(
        self,
        params: dict[str, Any],
        first: int,
        new: list[tuple[int, str]],
        timeouts: list[str | None],
    ) -> bool:
        """Update the row (if it is still as ``params`` say it was) and insert the ``new``
        moves from step ``first`` (with their ``timeouts``: the clock's bot that made a
        move, else None), all or nothing; False if the row had changed."""
        hot, connection = self.hot, self.direct.connection()
        statement = hot.progress_cpu if "bot_cpu" in params else hot.progress
        timed = any(timeout is not None for timeout in timeouts)  # else the column is left out
        if hot.postgres:  # autocommit: one statement is one transaction, one round trip
            cursor = connection.cursor()
            if not new:
                cursor.execute(statement.sql, statement.args(params))
                changed = cursor.rowcount == 1
            else:
                steps = list(range(first, first + len(new)))
                players, actions = [p for p, _ in new], [a for _, a in new]
                extra = {"steps": steps, "players": players, "actions": actions}
                sql = hot.commit_pg_cpu if "bot_cpu" in params else hot.commit_pg
                if timed:
                    extra["timeouts"] = timeouts
                    sql = hot.commit_pg_timed("bot_cpu" in params)
                cursor.execute(sql, {**params, **extra})
                changed = cursor.rowcount == len(new)
            cursor.close()
            return changed
        rows = [
            {"table_id": params["id"], "step": i, "player": p, "action": a}
            | {"created": params["updated"]}
            | ({"timeout": timeout} if timed else {})
            for i, ((p, a), timeout) in enumerate(zip(new, timeouts, strict=True), start=first)
        ]
        try:  # sqlite3 begins the transaction at the first write
            cursor = statement.run(connection, params)
            changed = cursor.rowcount == 1
            cursor.close()
            if changed and rows:
                (hot.insert_moves_timed if timed else hot.insert_moves).run_many(connection, rows)
            if changed:
                connection.commit()
            else:
                connection.rollback()
        except BaseException:
            with contextlib.suppress(Exception):
                connection.rollback()
            raise
        return changed

    @staticmethod
    def _insert_moves(db: Any, table_id: str, live: Live, first: int, now: float) -> None:
        rows = [
            {"table_id": table_id, "step": i, "player": p, "action": a, "created": now}
            | ({"timeout": live.timeouts.get(i)} if live.timeouts else {})
            for i, (p, a) in enumerate(live.moves[first:], start=first)
        ]
        if rows:
            db.execute(insert(store.moves), rows)

    def _load(self, table_id: str, cached: Live | None) -> Live:
        """Bring ``cached`` (or a fresh replay) up to the database's last step."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise NoSuchTable("no such table")
        if cached is not None:  # the usual case: one small query says nothing changed
            marks = self.direct.read(self.hot.mark, {"id": table_id})
            if marks and (marks[0][0], marks[0][1]) == (cached.step, cached.updated):
                return cached
        with self.engine.connect() as db:
            row = (
                db.execute(select(store.tables).where(store.tables.c.id == table_id))
                .mappings()
                .first()
            )
            if row is None:
                raise NoSuchTable(f"no table {table_id!r}")
            seat_rows = (
                db.execute(
                    select(store.seats)
                    .where(store.seats.c.table_id == table_id)
                    .order_by(store.seats.c.seat)
                )
                .mappings()
                .all()
            )
            since = cached.step if cached is not None else 0
            new = db.execute(
                select(*(c for c in store.moves.c if c.name in _MOVE_COLUMNS))
                .where(store.moves.c.table_id == table_id, store.moves.c.step >= since)
                .order_by(store.moves.c.step)
            ).all()
        meta = _meta(row, seat_rows)
        expired = row["status"] == EXPIRED
        bot_cpu = float(row.get("bot_cpu") or 0.0)
        if cached is not None and cached.meta == meta and not new:
            now = (row["updated"], expired, bot_cpu)
            if (cached.updated, cached.expired, cached.bot_cpu) == now:
                return cached
            live = replace(cached, updated=row["updated"], expired=expired, bot_cpu=bot_cpu)
            self._remember(live)
            return live
        if cached is None:
            game = _load_game(meta.game, meta.players, meta.options)
            spectated = table_id in self._spectated
            live = Live(meta, game, game.new_initial_state(), seen_only=True, spectated=spectated)
        else:
            live = cached.fork()
            live.meta = meta
        for index, player, text, *timeout in new:
            if index != live.step:
                raise RanchhandError(f"table {table_id}: the log skips from {live.step} to {index}")
            live.replay(player, text, *timeout)  # an action (the clock's?), or an undo step
        live.updated = row["updated"]
        live.expired = expired
        live.bot_cpu = bot_cpu
        self._remember(live)
        return live

    def peek(self, table_id: str) -> Live | None:
        """The table's cached state, if any, as it is (no query, no cache order change)."""
        with self._lock:
            return self._cache.get(table_id)

    def settled(self, table_id: str, step: int) -> Live | None:
        """The table as the database has it, from the cache alone, when that can be
        vouched for: this process alone writes the tables (:attr:`solo`) and caches a
        state of at least ``step``. Every write here either caches the state it commits
        or drops the table from the cache, so such a state is the table's, but for
        columns no view shows (a bot's lease, a rematch's link). None otherwise: read it.
        """
        if not self.solo or step < 0:
            return None
        live = self.peek(table_id)
        return live if live is not None and live.step >= step else None

    def _cached(self, table_id: str) -> Live | None:
        with self._lock:
            live = self._cache.get(table_id)
            if live is not None:
                self._cache.move_to_end(table_id)
            return live

    def _remember(self, live: Live) -> None:
        if not live.spectated and live.meta.id in self._spectated:
            live.add_spectator_lines()  # made before someone began to watch
        with self._lock:
            known = self._cache.get(live.meta.id)
            if known is not None and known.step > live.step:
                return  # a newer state got here first
            self._cache[live.meta.id] = live
            self._cache.move_to_end(live.meta.id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def forget(self, table_id: str) -> None:
        """Drop a table from this process's cache, after a change made beside the service
        (a seat's row written directly): the next read rebuilds it from the database."""
        with self._lock:
            self._cache.pop(table_id, None)


def _check_move(live: Live, token: str, text: str, step: int | None) -> tuple[int, Any]:
    """The seat ``token`` opens and its action ``text``, if it may play it now at ``live``
    (made against ``step``); else the refusal (TableError)."""
    seat = person_seat(live, token)
    if step is not None and not live.fresh(step, seat):
        raise Conflict(
            f"stale step: the move was made at step {step}, the table is at step "
            f"{live.step}; look again and choose"
        )
    acting = live.state.acting_players()
    if seat not in acting:
        waiting = ", ".join(live.meta.label(p) for p in acting) or "nobody"
        raise Conflict(f"it is not your turn; waiting for {waiting}")
    # The text of an action the seat's view listed is that action (a move's log line is
    # its text, read back by parsing it): found without parsing, most moves.
    for action in live.state.legal_actions(seat):
        if live.text(action) == text:
            return seat, action
    try:
        return seat, live.state.parse_action(text, seat)
    except ActionError as error:
        raise BadRequest(str(error)) from None


def person_seat(live: Live, token: str) -> int:
    """The seat ``token`` opens, if a person plays it and the game goes on (a move's or
    an undo's first checks); else the refusal (TableError)."""
    seat = live.meta.seat_of(token)
    assert seat is not None
    _refuse_expired(live)
    if live.finished:
        raise Conflict("the game is over")
    if live.meta.kinds[seat] != HUMAN:
        raise Conflict(
            f"seat {seat} is played by the {live.meta.kinds[seat]} bot now; take it back first"
        )
    return seat


class _Stale(Exception):
    """The table's row changed since it was read: the transaction is rolled back."""


def _refuse_expired(live: Live) -> None:
    if live.expired:
        raise Gone(
            "this table expired (no move for too long): nothing more can be played here; "
            f"its record so far is at /api/tables/{live.meta.id}/record"
        )


def _load_game(game: str, players: int | None, options: dict[str, Any]) -> Game:
    """Load a game for the server: options may never name a file on this machine."""
    try:
        with files_allowed(False):
            return load(game, players, **options)
    except DataError as error:
        raise OptionError(str(error)) from None


def _default_bot(game: str) -> str:
    return "greedy" if "greedy" in bot_names(game) else "random"


def _names(names: Sequence[str] | None, kinds: Sequence[str]) -> list[str]:
    if names is None:
        return list(kinds)
    if len(names) != len(kinds):
        raise BadRequest(f"names: expected {len(kinds)} names (one per seat), got {len(names)}")
    return [_name(name, f"names[{i}]") for i, name in enumerate(names)]


def _name(name: str, where: str) -> str:
    """A display name, stripped: 1 to MAX_NAME printable characters."""
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise BadRequest(f"{where}: expected 1 to {MAX_NAME} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        raise BadRequest(f"{where}: control or unprintable characters")
    return name


def _open_seats(seats: Sequence[int], kinds: Sequence[str]) -> set[int]:
    """The seats to leave open: each a human seat of this table, named once."""
    free = set()
    for seat in seats:
        if not 0 <= seat < len(kinds):
            raise BadRequest(f"open: no seat {seat} (seats 0 to {len(kinds) - 1})")
        if kinds[seat] != HUMAN:
            raise BadRequest(f"open: seat {seat} is a bot ({kinds[seat]}); only a person's seat")
        if seat in free:
            raise BadRequest(f"open: seat {seat} is named twice")
        free.add(seat)
    return free


def _meta(row: Any, seat_rows: Sequence[Any]) -> Meta:
    return Meta(
        id=row["id"],
        game=row["game"],
        players=row["players"],
        options=dict(row["options"]),
        created_seats=tuple(row["seats"]),
        kinds=tuple(s["kind"] for s in seat_rows),
        names=tuple(s["name"] for s in seat_rows),
        hashes=tuple(s["token_hash"] for s in seat_rows),
        seed=int(row["seed"]),
        bot_delay=float(row["bot_delay"]),
        clock=None if row["clock"] is None else float(row["clock"]),
        clock_bot=row["clock_bot"],
        created=float(row["created"]),
        # .get: a seats row read through the 0001 schema (no such column) is not open
        open=tuple(bool(s.get("open", False)) for s in seat_rows),
    )


def _progress(live: Live, now: float) -> dict[str, Any]:
    """The ``tables`` columns that follow the game: status, step, turn, who acts, outcome."""
    outcome = live.state.outcome()
    return {
        "status": "finished" if outcome is not None else "playing",
        "step": live.step,
        "turn": live.state.turn,
        "to_act": list(live.state.acting_players()),
        "outcome": None if outcome is None else outcome.to_json(),
        "updated": now,
    }
