"""A table's chat: lines kept in the database (``chat``, migration 0005), text only.

Who may write: a seat, with its token; a spectator only where the table allows it
(``chat_spectators``, chosen at creation). Everyone who can see the table reads it.
A line is text and nothing else: control characters and the marks that reorder text
(bidirectional overrides) are taken out, line breaks and tabs become spaces, and what
is left must be 1 to ``max_chars`` characters, else 422. Pages set it as text
(``textContent``), never as HTML.

Lines are numbered per table (``seq``, from 1). Two lines written at once by two
processes may pick the same number: the key (table, seq) keeps one, the other is
written again with the next. A table holds at most ``max_lines`` lines.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, insert, select
from sqlalchemy.exc import IntegrityError

from ranchhand.server import store
from ranchhand.server.errors import Conflict, NoSuchTable, TableError

MAX_CHARS = 500
"""Characters a chat line may have, after cleaning (``serve --limit chat_max_chars=N``)."""
MAX_LINES = 5000
"""Lines one table's chat may hold (``serve --limit chat_max_lines=N``)."""
RECENT = 100
"""Lines a WebSocket gets when it connects, and a poll at most."""
SPECTATOR = "spectator"
"""The name a spectator's line is shown with (a spectator has no name at the table)."""
_REORDERING = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}
OPTIONS_KEPT = 10_000
"""Tables whose chat options this process remembers (they never change)."""


class Unprocessable(TableError):
    """422: the request is well formed, but its text cannot be a chat line."""

    status = 422


def clean(text: str, max_chars: int = MAX_CHARS) -> str:
    """``text`` as a chat line: control and reordering characters out, line breaks and
    tabs as spaces, the ends stripped; Unprocessable (422) if nothing is left or too much.

    >>> clean("  hi\\tthere\\x1b[31m  ")
    'hi there[31m'
    >>> clean("a\\u202eb")
    'ab'
    """
    kept = []
    for char in text:
        if char in "\t\n\r\v\f":
            kept.append(" ")
        elif char in _REORDERING or unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn"):
            continue
        else:
            kept.append(char)
    line = "".join(kept).strip()
    if not line:
        raise Unprocessable("text: a chat line needs some text (empty after cleaning)")
    if len(line) > max_chars:
        raise Unprocessable(
            f"text: a chat line is at most {max_chars} characters, this one has {len(line)}"
        )
    return line


@dataclass(frozen=True)
class ChatOptions:
    """A table's chat options, chosen when it was created."""

    spectators: bool = False
    """Spectators may write."""
    record: bool = False
    """The chat is part of the finished table's record."""


def message(row: Any) -> dict[str, Any]:
    """A chat row as sent to every viewer: nothing but what anyone at the table sees."""
    return {
        "seq": int(row["seq"]),
        "seat": None if row["seat"] is None else int(row["seat"]),
        "name": row["name"],
        "text": row["text"],
        "time": float(row["created"]),
        "system": bool(row["system"]),
    }


class ChatStore:
    """Chat lines of the tables in one database; thread-safe."""

    def __init__(
        self, engine: Engine, *, max_chars: int = MAX_CHARS, max_lines: int = MAX_LINES
    ) -> None:
        self.engine = engine
        self.max_chars = max_chars
        self.max_lines = max_lines
        self._options: OrderedDict[str, ChatOptions] = OrderedDict()
        self._lock = threading.Lock()

    def options(self, table_id: str) -> ChatOptions:
        """The table's chat options (NoSuchTable if there is no such table)."""
        with self._lock:
            known = self._options.get(table_id)
        if known is not None:
            return known
        t = store.tables.c
        with self.engine.connect() as db:
            row = db.execute(
                select(t.chat_spectators, t.chat_record).where(t.id == table_id)
            ).first()
        if row is None:
            raise NoSuchTable(f"no table {table_id!r}")
        found = ChatOptions(spectators=bool(row[0]), record=bool(row[1]))
        with self._lock:
            self._options[table_id] = found
            while len(self._options) > OPTIONS_KEPT:
                self._options.popitem(last=False)
        return found

    def post(
        self, table_id: str, seat: int | None, name: str, text: str, *, system: bool = False
    ) -> dict[str, Any]:
        """Write one line (cleaned here) and return it as sent to viewers."""
        line = clean(text, self.max_chars)
        c = store.chat.c
        for _attempt in range(5):
            try:
                with self.engine.begin() as db:
                    last = db.execute(
                        select(func.max(c.seq)).where(c.table_id == table_id)
                    ).scalar_one_or_none()
                    seq = int(last or 0) + 1
                    if seq > self.max_lines:
                        raise Conflict(
                            f"this table's chat is full ({self.max_lines} lines); "
                            "nothing more can be said here"
                        )
                    row = {
                        "table_id": table_id,
                        "seq": seq,
                        "seat": seat,
                        "name": name,
                        "text": line,
                        "system": system,
                        "created": time.time(),
                    }
                    db.execute(insert(store.chat).values(**row))
            except IntegrityError:
                continue  # another line took this number (rolled back): take the next
            return message(row)
        raise Conflict("the chat is busy; send the line again")

    def recent(self, table_id: str, after: int = 0, limit: int = RECENT) -> list[dict[str, Any]]:
        """The last ``limit`` lines after ``after``, oldest first."""
        c = store.chat.c
        with self.engine.connect() as db:
            rows = (
                db.execute(
                    select(store.chat)
                    .where(c.table_id == table_id, c.seq > after)
                    .order_by(c.seq.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
        return [message(row) for row in reversed(rows)]

    def every(self, table_id: str) -> list[dict[str, Any]]:
        """Every line of the table, oldest first (for its record)."""
        c = store.chat.c
        with self.engine.connect() as db:
            rows = (
                db.execute(select(store.chat).where(c.table_id == table_id).order_by(c.seq))
                .mappings()
                .all()
            )
        return [message(row) for row in rows]
