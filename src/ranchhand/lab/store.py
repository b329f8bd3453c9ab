"""The results store: every lab run and every game it played, in one SQLite file.

SQLite because it ships with Python, is one file a designer can copy or open with any
SQL tool, and takes one writer at a time safely. A *cell* is one setting of a run (game
and rules version, seats, every option, run seed); its games are keyed by their index,
so a rerun of the same cell finds the games it already has and plays only the rest (an
interrupted run resumes the same way). A *run* is one command and the cells it covered.
Seeds are 64-bit unsigned, beyond SQLite's signed integers, so they are kept as text.
The tables are described in docs/lab.md.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ranchhand.core.errors import RanchhandError
from ranchhand.lab.flow import Flow
from ranchhand.lab.ludii import MoveFacts
from ranchhand.lab.trace import LabGame

SCHEMA = """
CREATE TABLE IF NOT EXISTS cells (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    version TEXT NOT NULL,
    players INTEGER NOT NULL,
    seats TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    UNIQUE (game, version, seats, options, seed)
);
CREATE TABLE IF NOT EXISTS games (
    cell INTEGER NOT NULL REFERENCES cells(id),
    idx INTEGER NOT NULL,
    seed TEXT NOT NULL,
    winners TEXT NOT NULL,
    winner INTEGER,
    truncated INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    choices INTEGER NOT NULL,
    points INTEGER NOT NULL,
    lead_changes INTEGER NOT NULL,
    winner_last INTEGER,
    winner_deficit REAL,
    winner_final REAL,
    lead_from INTEGER,
    scores TEXT,
    details TEXT NOT NULL,
    decision_moves INTEGER,
    move_lead_changes INTEGER,
    drama_total REAL,
    drama_max REAL,
    stability REAL,
    decisive_at INTEGER,
    uncertainty_total REAL,
    actions TEXT,
    evaluated INTEGER,
    PRIMARY KEY (cell, idx)
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    games INTEGER NOT NULL,
    backend TEXT NOT NULL,
    command TEXT NOT NULL,
    status TEXT NOT NULL,
    played INTEGER NOT NULL DEFAULT 0,
    reused INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS run_cells (
    run INTEGER NOT NULL REFERENCES runs(id),
    cell INTEGER NOT NULL REFERENCES cells(id),
    position INTEGER NOT NULL,
    label TEXT NOT NULL,
    PRIMARY KEY (run, cell)
);
"""

_GAME_COLUMNS = (
    "cell, idx, seed, winners, winner, truncated, turns, decisions, choices, points, "
    "lead_changes, winner_last, winner_deficit, winner_final, lead_from, scores, details, "
    "decision_moves, move_lead_changes, drama_total, drama_max, stability, decisive_at, "
    "uncertainty_total, actions, evaluated"
)

ADDED_COLUMNS = (
    ("decision_moves", "INTEGER"),
    ("move_lead_changes", "INTEGER"),
    ("drama_total", "REAL"),
    ("drama_max", "REAL"),
    ("stability", "REAL"),
    ("decisive_at", "INTEGER"),
    ("uncertainty_total", "REAL"),
    ("actions", "TEXT"),
    ("evaluated", "INTEGER"),
)
"""Columns of lab version 2 (Ludii's metrics, action counts): added to an older store's
games table when it is opened (its old games keep NULL there and belong to old cells)."""


class StoreError(RanchhandError):
    """The store cannot be opened or read (a path that is not a database, a full disk)."""


def default_path() -> Path:
    """``$RANCHHAND_STORE``, else ``lab.sqlite`` in the user's data folder (XDG)."""
    named = os.environ.get("RANCHHAND_STORE")
    if named:
        return Path(named).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "ranchhand" / "lab.sqlite"


@dataclass(frozen=True)
class Cell:
    """One stored setting: the game, seats, every option and the seed its games share."""

    id: int
    game: str
    version: str
    seats: tuple[str, ...]
    options: dict[str, Any]
    seed: int


@dataclass(frozen=True)
class RunCell:
    cell: Cell
    label: dict[str, Any]
    """The settings that set this cell apart in its run (the swept options and seats)."""


@dataclass(frozen=True)
class Run:
    id: int
    started: str
    kind: str
    game: str
    games: int
    backend: str
    command: str
    status: str
    played: int
    reused: int
    seconds: float


class Store:
    """An open store file; use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(SCHEMA)
            self._migrate()
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the store {self.path}: {error}") from None

    def _migrate(self) -> None:
        have = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        with self.db:
            for name, kind in ADDED_COLUMNS:
                if name not in have:
                    self.db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ cells
    def cell(
        self, game: str, version: str, seats: Sequence[str], options: dict[str, Any], seed: int
    ) -> Cell:
        """The stored cell of this setting, made if new."""
        key = (game, version, json.dumps(list(seats)), _options_text(options), str(seed))
        with self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO cells (game, version, players, seats, options, seed) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (key[0], key[1], len(seats), *key[2:]),
            )
        (cell_id,) = self.db.execute(
            "SELECT id FROM cells WHERE game=? AND version=? AND seats=? AND options=? AND seed=?",
            key,
        ).fetchone()
        return Cell(cell_id, game, version, tuple(seats), dict(options), seed)

    def stored(self, cell: Cell, below: int) -> set[int]:
        """The indices under ``below`` of the games this cell already has."""
        rows = self.db.execute("SELECT idx FROM games WHERE cell=? AND idx<?", (cell.id, below))
        return {idx for (idx,) in rows}

    def add_games(self, cell: Cell, games: Iterable[LabGame]) -> None:
        """Keep finished games (one transaction; a game already kept is left as it is)."""
        rows = [_row(cell.id, g) for g in games]
        if not rows:
            return
        marks = ", ".join("?" * len(rows[0]))
        with self.db:
            insert = f"INSERT OR IGNORE INTO games ({_GAME_COLUMNS}) VALUES ({marks})"
            self.db.executemany(insert, rows)

    def games(self, cell: Cell, below: int) -> Iterator[LabGame]:
        """The cell's stored games under index ``below``, in index order."""
        query = f"SELECT {_GAME_COLUMNS} FROM games WHERE cell=? AND idx<? ORDER BY idx"
        for row in self.db.execute(query, (cell.id, below)):
            yield _game(row)

    # ------------------------------------------------------------------- runs
    def start_run(self, kind: str, game: str, games: int, backend: str, command: str) -> int:
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO runs (started, kind, game, games, backend, command, status) "
                "VALUES (?, ?, ?, ?, ?, ?, 'running')",
                (started, kind, game, games, backend, command),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_run_cell(self, run: int, cell: Cell, position: int, label: dict[str, Any]) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO run_cells VALUES (?, ?, ?, ?)",
                (run, cell.id, position, json.dumps(label)),
            )

    def finish_run(
        self,
        run: int,
        status: str,
        played: int,
        reused: int,
        seconds: float,
        games: int | None = None,
    ) -> None:
        """Record how a run ended; ``games`` (per cell) when it differs from the start's (a
        tune stops adding games once every setting is decided)."""
        with self.db:
            self.db.execute(
                "UPDATE runs SET status=?, played=?, reused=?, seconds=? WHERE id=?",
                (status, played, reused, seconds, run),
            )
            if games is not None:
                self.db.execute("UPDATE runs SET games=? WHERE id=?", (games, run))

    def runs(self) -> list[Run]:
        rows = self.db.execute(f"SELECT {_RUN_COLUMNS} FROM runs ORDER BY id")
        return [Run(*row) for row in rows]

    def run(self, run_id: int) -> Run:
        row = self.db.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id=?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"the store {self.path} has no run {run_id}")
        return Run(*row)

    def run_cells(self, run_id: int) -> list[RunCell]:
        rows = self.db.execute(
            "SELECT c.id, c.game, c.version, c.seats, c.options, c.seed, r.label "
            "FROM run_cells r JOIN cells c ON c.id = r.cell WHERE r.run=? ORDER BY r.position",
            (run_id,),
        )
        return [
            RunCell(
                Cell(cid, game, version, tuple(json.loads(seats)), json.loads(opts), int(seed)),
                json.loads(label),
            )
            for cid, game, version, seats, opts, seed, label in rows
        ]


_RUN_COLUMNS = "id, started, kind, game, games, backend, command, status, played, reused, seconds"


def _options_text(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, default=str)


def _row(cell: int, g: LabGame) -> tuple[Any, ...]:
    f, m = g.flow, g.moves
    return (
        cell,
        g.index,
        str(g.seed),
        json.dumps(list(g.winners)),
        g.winners[0] if len(g.winners) == 1 and not g.truncated else None,
        int(g.truncated),
        g.turns,
        g.decisions,
        g.choices,
        f.points,
        f.lead_changes,
        None if f.winner_last is None else int(f.winner_last),
        f.winner_deficit,
        f.winner_final,
        f.lead_from,
        None if g.scores is None else json.dumps(list(g.scores)),
        json.dumps(g.details, default=str),
        m.decision_moves,
        m.lead_changes,
        m.drama_total,
        m.drama_max,
        m.stability,
        m.decisive_at,
        m.uncertainty_total,
        json.dumps(list(g.actions)),
        m.evaluated,
    )


def _game(row: Sequence[Any]) -> LabGame:
    (_, idx, seed, winners, _, truncated, turns, decisions, choices, points, changes,
     last, behind, final, lead_from, scores, details, decision_moves, move_changes,
     drama_total, drama_max, stability, decisive_at, uncertainty, actions,
     evaluated) = row  # fmt: skip
    moves = MoveFacts(decisions, decision_moves or 0, move_changes, drama_total, drama_max,
                      stability, decisive_at, uncertainty, evaluated)  # fmt: skip
    return LabGame(
        idx,
        tuple(json.loads(winners)),
        bool(truncated),
        turns,
        None if scores is None else tuple(json.loads(scores)),
        json.loads(details),
        int(seed),
        decisions,
        choices,
        Flow(points, changes, None if last is None else bool(last), behind, final, lead_from),
        moves,
        tuple(json.loads(actions)) if actions else (),
    )
