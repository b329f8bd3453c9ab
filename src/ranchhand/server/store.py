"""The database: SQLAlchemy 2 tables, engines, and the schema's migrations.

Three tables hold everything:

- ``tables``: one row per game table: the game, options, seats as created, the
  secret seed (never sent to a client before the game is over), status, the
  current step and turn (kept with every move, for the lobby), times and the
  per-table bot delay and turn clock;
- ``seats``: who sits where now (``human`` or a bot's name), the seat's display
  name and the SHA-256 hash of its token (the token itself is never stored); an
  ``open`` seat (migration 0002) is a human seat free for anyone to claim: it has
  no token hash until someone claims it, and is then an ordinary seat;
- ``moves``: the append-only log, one row per step in the engine's notation
  (chance included), keyed by (table, step). That key is what makes two moves
  at once safe: both try to write the same step, the database keeps one.

A finished table's "play again" table is ``tables.next_table`` (migration 0003), and
the rematch names its origin in ``rematch_of``. Migration 0004 adds what bounds a
table's costs: ``creator`` (a keyed hash of the creating client's address, to count
its open tables), ``bot_cpu`` (its search bots' CPU seconds, for the cap) and the
search lease (``bot_lease_step``, ``bot_lease_until``: one process computes a step's
decision), and ``server_keys`` (the random secret that keys client hashes). Migration
0005 adds ``chat`` (a table's chat lines), ``presence`` (who holds a seat's WebSocket,
per connection, with a heartbeat) and the chat's options on ``tables``. Migration 0006
adds ``moves.timeout``: the clock's bot that made a move for a seat out of time.

SQLite is the default (a file, WAL mode, a busy timeout); PostgreSQL is reached
with ``postgresql+psycopg://``. ``migrate`` brings any database to the newest
schema with Alembic; ``serve`` runs it on start.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Double,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    false,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from ranchhand.core.errors import OptionError

log = logging.getLogger("ranchhand.server")

DEFAULT_DB = "sqlite:///ranchhand.db"
BUSY_TIMEOUT_MS = 30_000
"""How long an SQLite writer waits for another to finish before giving up."""

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("step", Integer, nullable=False),
    Column("turn", Integer, nullable=False),
    Column("to_act", JSON, nullable=False),
    Column("outcome", JSON, nullable=True),
    Column("bot_delay", Double, nullable=False),
    Column("clock", Double, nullable=True),
    Column("clock_bot", String(64), nullable=False),
    Column("created", Double, nullable=False),
    Column("updated", Double, nullable=False),
    Column("next_table", String(32), nullable=True),
    Column("rematch_of", String(32), nullable=True),
    Column("creator", String(64), nullable=True),
    Column("bot_cpu", Double, nullable=False, server_default=text("0")),
    Column("bot_lease_step", Integer, nullable=True),
    Column("bot_lease_until", Double, nullable=True),
    Column("chat_spectators", Boolean, nullable=False, server_default=false()),
    Column("chat_record", Boolean, nullable=False, server_default=false()),
    Index("ix_tables_status_updated", "status", "updated"),
    Index("ix_tables_creator_status", "creator", "status"),
)

server_keys = Table(
    "server_keys",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)
"""Named secrets of the server, made at random by the migration that adds them."""

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("open", Boolean, nullable=False, server_default=false()),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("step", Integer, primary_key=True),
    Column("player", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created", Double, nullable=False),
    Column("timeout", String(64), nullable=True),
)

chat = Table(
    "chat",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("system", Boolean, nullable=False, server_default=false()),
    Column("created", Double, nullable=False),
)
"""A table's chat lines (migration 0005, :mod:`ranchhand.server.chat`)."""

presence = Table(
    "presence",
    metadata,
    Column("conn", String(32), primary_key=True),
    Column("process", String(32), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("state", String(8), nullable=False),
    Column("since", Double, nullable=False),
    Column("seen", Double, nullable=False),
    Index("ix_presence_table", "table_id", "seat"),
    Index("ix_presence_process", "process", "state"),
)
"""Each seat-holding WebSocket's presence (migration 0005, :mod:`ranchhand.server.presence`)."""

MIGRATIONS = Path(__file__).parent / "migrations"


def check_url(url: str) -> str:
    """``url`` if SQLAlchemy can read it and it names SQLite or PostgreSQL."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise OptionError(
            f"--db: {url!r} is not a database URL; e.g. sqlite:///ranchhand.db or "
            "postgresql+psycopg://user@host/db"
        ) from None
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise OptionError(
            f"--db: {parsed.get_backend_name()} is not supported; use sqlite:///FILE or "
            "postgresql+psycopg://user@host/db"
        )
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() != "psycopg":
        raise OptionError("--db: PostgreSQL is reached through psycopg 3: postgresql+psycopg://...")
    return url


def make_engine(url: str, *, pool_size: int = 10) -> Engine:
    """An engine for ``url``: SQLite with WAL and a busy timeout, or PostgreSQL."""
    check_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(
            url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (``alembic upgrade head``).

    On PostgreSQL an advisory lock makes processes starting together take turns.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(72177001)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    log.info("database schema is up to date (%s)", safe_url(engine))


def safe_url(engine_or_url: Engine | str) -> str:
    """The database URL without its password, for logs."""
    url = engine_or_url.url if isinstance(engine_or_url, Engine) else make_url(engine_or_url)
    return url.render_as_string(hide_password=True)


DUE_BATCH = 64
"""Tables the bot runner looks at in one query at most."""


class Compiled:
    """One statement compiled once for a dialect, run on the DBAPI cursor.

    A statement built and executed through SQLAlchemy Core costs about 250 us of Python
    on SQLite, a prebuilt one about 100 us (cache key, execution context, result); the
    cursor itself about 30 us. The few statements every move runs go this way; their
    parameters are plain values (JSON is encoded by :meth:`Hot.json`).
    """

    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.order: tuple[str, ...] | None = (
            tuple(compiled.positiontup) if compiled.positional else None
        )
        self.fixed = {k: v for k, v in compiled.params.items() if v is not None}
        """Values written in the statement itself (``status = 'playing'``)."""

    def args(self, params: dict[str, Any]) -> Any:
        if self.fixed:
            params = {**self.fixed, **params}
        return params if self.order is None else tuple(params[name] for name in self.order)

    def run(self, connection: Any, params: dict[str, Any]) -> Any:
        """Execute on ``connection`` (a DBAPI connection); the cursor."""
        cursor = connection.cursor()
        cursor.execute(self.sql, self.args(params))
        return cursor

    def run_many(self, connection: Any, rows: list[dict[str, Any]]) -> None:
        cursor = connection.cursor()
        cursor.executemany(self.sql, [self.args(row) for row in rows])
        cursor.close()


class Direct:
    """Each thread's own DBAPI connection for the statements of a move, taken out of the
    engine's pool (so made with its settings: SQLite's pragmas) and closed when the
    engine is disposed.

    Through the pool, every use of PostgreSQL costs two more round trips than the
    statement (a ping when checked out, a rollback when given back after a read); a
    connection of the thread's own, in autocommit mode, costs the statement alone, and a
    move's commit is one statement (:attr:`Hot.commit_pg`). A connection that fails is
    dropped; a read is tried once more on a new one (the database may have restarted).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        dbapi = engine.dialect.dbapi
        assert dbapi is not None
        self.lost: tuple[type[Exception], ...] = (dbapi.OperationalError, dbapi.InterfaceError)
        self._local = threading.local()
        self._held: set[Any] = set()
        self._lock = threading.Lock()
        event.listen(engine, "engine_disposed", lambda _engine: self.close())

    def connection(self) -> Any:
        held = getattr(self._local, "held", None)
        if held is not None and not getattr(held.dbapi_connection, "broken", False):
            return held.dbapi_connection
        if held is not None:
            self._drop(held)
        fairy = self.engine.raw_connection()
        fairy.detach()
        dbapi_connection = fairy.dbapi_connection
        assert dbapi_connection is not None
        if self.postgres:
            dbapi_connection.autocommit = True
        with self._lock:
            self._held.add(fairy)
        self._local.held = fairy
        return fairy.dbapi_connection

    def read(self, statement: Compiled, params: dict[str, Any]) -> list[Any]:
        """Every row ``statement`` selects."""
        for attempt in (1, 2):
            try:
                cursor = statement.run(self.connection(), params)
                rows = cursor.fetchall()
                cursor.close()
                return list(rows)
            except self.lost:
                self._drop(getattr(self._local, "held", None))
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _drop(self, held: Any) -> None:
        self._local.held = None
        if held is None:
            return
        with self._lock:
            self._held.discard(held)
        with contextlib.suppress(Exception):
            held.close()

    def close(self) -> None:
        """Let go of every thread's connection (the engine is disposed).

        An SQLite connection is never closed from here: another thread may be inside a
        statement on it (a bot runner's read while the server stops), and closing it
        under that thread crashes the process (seen: a segmentation fault). It closes
        when its thread's local storage goes, as the thread ends."""
        with self._lock:
            held, self._held = self._held, set()
        if not self.postgres:
            return
        for fairy in held:
            with contextlib.suppress(Exception):
                fairy.close()


class Hot:
    """The statements of a move, compiled for ``engine``'s dialect on first use (see
    :class:`Compiled`):

    - ``mark``: a table's step and time of last change (is the cached state current?);
    - ``due(n)``: what the bot runner reads of ``n`` tables after they changed (each
      row and its seats' kinds);
    - ``progress``: the row after a move, only if it is still as the move found it;
    - ``progress_cpu``: the same, with the search bots' CPU;
    - ``insert_moves``: the new moves, in one ``executemany``.
    """

    DUE = ("status", "step", "to_act", "updated", "bot_delay", "clock", "clock_bot", "game")
    PROGRESS = ("status", "step", "turn", "to_act", "outcome", "updated")

    def __init__(self, engine: Engine) -> None:
        self.dialect = engine.dialect
        self.postgres = self.dialect.name == "postgresql"
        dbapi = self.dialect.dbapi
        assert dbapi is not None
        self.integrity_error: type[Exception] = dbapi.IntegrityError
        self._due: dict[int, Compiled] = {}

    @functools.cached_property
    def mark(self) -> Compiled:
        t = tables.c
        return Compiled(select(t.step, t.updated).where(t.id == bindparam("id")), self.dialect)

    def due(self, count: int) -> Compiled:
        known = self._due.get(count)
        if known is None:
            t, s = tables.c, seats.c
            ids: list[Any] = [bindparam(f"id{i}") for i in range(count)]
            known = self._due[count] = Compiled(
                select(t.id, *(t[name] for name in self.DUE), t.bot_cpu, s.kind)
                .select_from(tables.join(seats, s.table_id == t.id))
                .where(t.id.in_(ids))
                .order_by(t.id, s.seat),
                self.dialect,
            )
        return known

    def _progress(self, **more: Any) -> Compiled:
        t = tables.c
        values: dict[str, Any] = {name: bindparam(name) for name in self.PROGRESS}
        return Compiled(
            update(tables)
            .where(
                t.id == bindparam("id"),
                t.step == bindparam("was_step"),
                t.updated == bindparam("was_updated"),
                t.status == "playing",
            )
            .values(**values, **more),
            self.dialect,
        )

    @functools.cached_property
    def progress(self) -> Compiled:
        return self._progress()

    @functools.cached_property
    def progress_cpu(self) -> Compiled:
        return self._progress(bot_cpu=bindparam("bot_cpu"))

    COMMIT_PG = """WITH changed AS (
    UPDATE tables SET status = %(status)s, step = %(step)s, turn = %(turn)s,
        to_act = %(to_act)s, outcome = %(outcome)s, updated = %(updated)s{more}
    WHERE id = %(id)s AND step = %(was_step)s AND updated = %(was_updated)s
        AND status = 'playing'
    RETURNING id)
INSERT INTO moves (table_id, step, player, action, created)
SELECT changed.id, new.step, new.player, new.action, %(updated)s
FROM changed, unnest(%(steps)s::integer[], %(players)s::integer[], %(actions)s::text[])
    AS new(step, player, action)"""
    """A move's commit on PostgreSQL in one statement, so one round trip in autocommit:
    the row is updated only if it is still as the move found it, and the moves are
    inserted only if it was (the count inserted says which)."""

    TIMED = (
        ("action, created)", "action, created, timeout)"),
        ("new.action, %(updated)s", "new.action, %(updated)s, new.timeout"),
        ("%(actions)s::text[])", "%(actions)s::text[], %(timeouts)s::text[])"),
        ("AS new(step, player, action)", "AS new(step, player, action, timeout)"),
    )
    """How a commit whose moves include a clock's timeout (``moves.timeout``, 0006) also
    writes that column; every other commit leaves it out (null), as before 0006."""

    @functools.cached_property
    def commit_pg(self) -> str:
        return self.COMMIT_PG.format(more="")

    @functools.cached_property
    def commit_pg_cpu(self) -> str:
        return self.COMMIT_PG.format(more=", bot_cpu = %(bot_cpu)s")

    def commit_pg_timed(self, cpu: bool) -> str:
        """:attr:`commit_pg` (``cpu``: :attr:`commit_pg_cpu`) writing ``moves.timeout``
        from the ``timeouts`` array too."""
        sql = self.commit_pg_cpu if cpu else self.commit_pg
        for old, new in self.TIMED:
            sql = sql.replace(old, new)
        return sql

    MOVE = ("table_id", "step", "player", "action", "created")

    def _insert(self, names: tuple[str, ...]) -> Compiled:
        return Compiled(
            moves.insert().values(**{name: bindparam(name) for name in names}), self.dialect
        )

    @functools.cached_property
    def insert_moves(self) -> Compiled:
        return self._insert(self.MOVE)

    @functools.cached_property
    def insert_moves_timed(self) -> Compiled:
        """:attr:`insert_moves` with ``moves.timeout`` (a commit with a clock's timeout)."""
        return self._insert((*self.MOVE, "timeout"))

    def json(self, value: Any) -> Any:
        """``value`` as a JSON column's parameter for this driver."""
        if self.postgres:
            from psycopg.types.json import Json

            return Json(value)
        return json.dumps(value)

    @staticmethod
    def read_json(value: Any) -> Any:
        """A JSON column as the driver returns it (psycopg decodes it, sqlite3 does not)."""
        return json.loads(value) if isinstance(value, str) else value
