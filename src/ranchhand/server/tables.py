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
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, insert, select, true, update
from sqlalchemy.exc import IntegrityError

from ranchhand import __version__
from ranchhand.core.data import files_allowed
from ranchhand.core.errors import ActionError, DataError, OptionError, RanchhandError
from ranchhand.core.game import CHANCE, Game
from ranchhand.core.records import Record, Step
from ranchhand.core.registry import bot_factory, bot_names, canonical_name, load
from ranchhand.server import store
from ranchhand.server.errors import (
    BadRequest,
    Conflict,
    NeedsToken,
    NoSuchTable,
    WrongToken,
)
from ranchhand.server.live import HUMAN, Live, Meta, new_token, token_hash

log = logging.getLogger("ranchhand.server")

MAX_NAME = 32
CACHE_SIZE = 512
"""Tables whose state is kept in memory; others are rebuilt from their log when needed."""
LOBBY_LIMIT = 100


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
    kind: str  # "bot" or "clock"
    at: float


@dataclass(frozen=True)
class Moved:
    """A committed change: the table's new step, and what the caller's seat now sees."""

    live: Live
    seat: int | None
    first: int


class TableService:
    """Tables in one database, with a cache of their states; thread-safe."""

    def __init__(self, engine: Engine, *, cache_size: int = CACHE_SIZE) -> None:
        self.engine = engine
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._lock = threading.Lock()

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
    ) -> Created:
        """A new table; chance and any bot moves due before a person acts are played.

        ``open_seats`` are human seats left free for anyone to :meth:`claim`: they get
        no token now. The other human seats' tokens go to the creator.
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
            bot_delay = 0.0  # a bots-only table with no delay plays out at once
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
        live = Live(meta, loaded, loaded.new_initial_state(), updated=now)
        live.settle(bots=meta.bot_delay == 0)
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
        live = self.current(table_id)
        return live, live.meta.seat_of(token)

    def lobby(
        self, status: str | None = None, limit: int = LOBBY_LIMIT, *, free_only: bool = False
    ) -> list[dict[str, Any]]:
        """The tables a lobby lists, newest first: public facts only.

        ``free`` is the seats anyone may claim now (open, and the game not over);
        ``free_only`` keeps only the tables that have one.
        """
        query = select(store.tables).order_by(store.tables.c.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(store.tables.c.status == status)
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
        """The finished table's record (``ranchhand-record/1``), seed included."""
        live = self.current(table_id)
        if not live.finished:
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
        for _attempt in range(3):
            live = self.current(table_id)
            seat = live.meta.seat_of(token)
            assert seat is not None
            if live.finished:
                raise Conflict("the game is over")
            if live.meta.kinds[seat] != HUMAN:
                raise Conflict(
                    f"seat {seat} is played by the {live.meta.kinds[seat]} bot now; "
                    "take it back first"
                )
            if step is not None and not live.fresh(step, seat):
                raise Conflict(
                    f"stale step: the move was made at step {step}, the table is at step "
                    f"{live.step}; look again and choose"
                )
            acting = live.state.acting_players()
            if seat not in acting:
                waiting = ", ".join(live.meta.label(p) for p in acting) or "nobody"
                raise Conflict(f"it is not your turn; waiting for {waiting}")
            try:
                action = live.state.parse_action(text, seat)
            except ActionError as error:
                raise BadRequest(str(error)) from None
            work = live.fork()
            work.apply(seat, action)
            work.settle(bots=live.meta.bot_delay == 0)
            if self._commit(work, live.step):
                log.info(
                    "table %s: %s moved at step %d (%d steps committed)",
                    table_id,
                    live.meta.label(seat),
                    live.step,
                    work.step - live.step,
                )
                log.debug("table %s step %d: %s", table_id, live.step, str(action))
                return Moved(work, seat, live.step)
            # Lost the race for the step: look again. A move made against a step is
            # still fresh only if the winner's move was another seat's hidden choice
            # at this simultaneous node; a move without a step is checked anew.
        raise Conflict("the table is busy; look again and choose")

    def set_seat(self, table_id: str, token: str | None, seat: int, kind: str) -> Moved:
        """Hand ``seat`` to a bot (a player leaving), or take it back (``human``).

        Only the seat's own token may; a bot due to move then moves.
        """
        if token is None:
            raise NeedsToken("handing a seat over needs that seat's token")
        live = self.current(table_id)
        mine = live.meta.seat_of(token)
        if mine != seat:
            raise WrongToken(f"this token is not seat {seat}'s")
        if live.finished:
            raise Conflict("the game is over")
        if kind != HUMAN:
            try:
                bot_factory(live.meta.game, kind)
            except OptionError as error:
                raise BadRequest(str(error)) from None
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                update(store.seats)
                .where(store.seats.c.table_id == table_id, store.seats.c.seat == seat)
                .values(kind=kind)
            )
            db.execute(
                update(store.tables).where(store.tables.c.id == table_id).values(updated=now)
            )
        self.forget(table_id)
        log.info("table %s: seat %d is now played by %s", table_id, seat, kind)
        return Moved(self.current(table_id), seat, live.step)

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
        live = self.current(table_id)
        if live.finished:
            return None
        if live.bots_due():
            return Due(table_id, live.step, "bot", live.updated + live.meta.bot_delay)
        if live.state.current_player() == CHANCE:
            return Due(table_id, live.step, "bot", live.updated)
        if live.meta.clock is not None:
            return Due(table_id, live.step, "clock", live.updated + live.meta.clock)
        return None

    def advance(self, table_id: str, step: int, kind: str) -> Moved | None:
        """Do what :meth:`due` said, if the table is still at ``step``; None if not."""
        live = self.current(table_id)
        if live.step != step or live.finished:
            return None
        work = live.fork()
        if kind == "clock":
            if live.meta.clock is None or time.time() < live.updated + live.meta.clock:
                return None
            silent = [p for p in work.state.acting_players() if live.meta.kinds[p] == HUMAN]
            for seat in silent:
                if seat in work.state.acting_players():
                    work.bot_move(seat, live.meta.clock_bot)
            work.settle(bots=live.meta.bot_delay == 0)
            what = f"the clock ran out for {', '.join(map(live.meta.label, silent))}"
        else:
            due = work.bots_due()
            if due:
                work.bot_move(due[0], live.meta.kinds[due[0]])
            work.settle(bots=live.meta.bot_delay == 0)
            what = "bots moved" if due else "chance"
        if work.step == live.step or not self._commit(work, live.step):
            return None
        log.info("table %s: %s at step %d", table_id, what, live.step)
        return Moved(work, None, live.step)

    def playing(self) -> list[str]:
        """Every table still being played (to resume their bots and clocks on start)."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(store.tables.c.id).where(store.tables.c.status == "playing")
            ).all()
        return [row[0] for row in rows]

    # ------------------------------------------------------------- storage
    def _commit(self, work: Live, first: int) -> bool:
        """Write ``work``'s moves from step ``first`` in one transaction; False if stale."""
        now = time.time()
        work.updated = now
        try:
            with self.engine.begin() as db:
                self._insert_moves(db, work.meta.id, work, first, now)
                db.execute(
                    update(store.tables)
                    .where(store.tables.c.id == work.meta.id)
                    .values(**_progress(work, now))
                )
        except IntegrityError:
            log.info("table %s: a move for step %d lost a race; refused", work.meta.id, first)
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

    @staticmethod
    def _insert_moves(db: Any, table_id: str, live: Live, first: int, now: float) -> None:
        rows = [
            {"table_id": table_id, "step": i, "player": p, "action": a, "created": now}
            for i, (p, a) in enumerate(live.moves[first:], start=first)
        ]
        if rows:
            db.execute(insert(store.moves), rows)

    def _load(self, table_id: str, cached: Live | None) -> Live:
        """Bring ``cached`` (or a fresh replay) up to the database's last step."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise NoSuchTable("no such table")
        with self.engine.connect() as db:
            if cached is not None:  # the usual case: one small query says nothing changed
                mark = db.execute(
                    select(store.tables.c.step, store.tables.c.updated).where(
                        store.tables.c.id == table_id
                    )
                ).first()
                if mark is not None and (mark[0], mark[1]) == (cached.step, cached.updated):
                    return cached
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
                select(store.moves.c.step, store.moves.c.player, store.moves.c.action)
                .where(store.moves.c.table_id == table_id, store.moves.c.step >= since)
                .order_by(store.moves.c.step)
            ).all()
        meta = _meta(row, seat_rows)
        if cached is not None and cached.meta == meta and not new:
            return cached
        if cached is None:
            game = _load_game(meta.game, meta.players, meta.options)
            live = Live(meta, game, game.new_initial_state())
        else:
            live = cached.fork()
            live.meta = meta
        for index, player, text in new:
            if index != live.step:
                raise RanchhandError(f"table {table_id}: the log skips from {live.step} to {index}")
            live.apply(player, live.state.parse_action(text, player))
        live.updated = row["updated"]
        self._remember(live)
        return live

    def _cached(self, table_id: str) -> Live | None:
        with self._lock:
            live = self._cache.get(table_id)
            if live is not None:
                self._cache.move_to_end(table_id)
            return live

    def _remember(self, live: Live) -> None:
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
