"""Export stored games as one flat row per game: CSV, JSON or Parquet, for pandas and
spreadsheets.

Every column is a plain number or text, named the same in every format (the list is in
docs/lab.md): the run and cell the game belongs to, the cell's settings (its varied
label, seats, one ``option_NAME`` column per option), the game's outcome (``winners``
as ``0;2``, ``won_N`` per seat, ``score_N``), its length, Ludii's per-game values under
their names in snake case (``duration_turns``, ``lead_change``, ``drama_average``...: the
cell's figure is their mean), the lab's own flow facts, and the action counts as JSON
text (one object per seat). Columns a game lacks are empty (CSV) or null.

Parquet needs ``pyarrow``, an optional package: without it the export says so in one
line and writes nothing.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.lab.metrics import OWN_PER_GAME, PER_GAME
from ranchhand.lab.store import Run, RunCell, Store

FORMATS = ("csv", "json", "parquet")
INSTALL_PYARROW = "parquet export needs pyarrow: pip install pyarrow (or use --format csv|json)"

Row = dict[str, Any]


def column(name: str) -> str:
    """A metric's name as a column: lower case, words joined by ``_``.

    >>> column("Duration (turns)"), column("winner behind ≥ 25%"), column("option dice")
    ('duration_turns', 'winner_behind_25', 'option_dice')
    """
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def rows(store: Store, run: Run, shown: RunCell) -> Iterator[Row]:
    """One flat row per game of a run's cell, in index order."""
    cell = shown.cell
    players = len(cell.seats)
    fixed: Row = {
        "run": run.id,
        "cell": cell.id,
        "game": cell.game,
        "version": cell.version,
        "label": ", ".join(f"{k}={v}" for k, v in shown.label.items()),
        "players": players,
        "seats": ",".join(cell.seats),
        "cell_seed": str(cell.seed),
        **{column(f"option {k}"): v for k, v in sorted(cell.options.items())},
    }
    for g in store.games(cell, run.games):
        row: Row = dict(fixed)
        row.update(
            index=g.index,
            game_seed=str(g.seed),
            winners=";".join(map(str, g.winners)),
            truncated=int(g.truncated),
        )
        for seat in range(players):
            row[f"won_{seat}"] = None if g.truncated else int(seat in g.winners)
        for seat in range(players):
            row[f"score_{seat}"] = g.scores[seat] if g.scores and seat < len(g.scores) else None
        row.update(turns=g.turns, moves=g.decisions, choices=g.choices)
        row.update({column(name): pick(g) for name, pick in PER_GAME.items()})
        row.update({column(name): pick(g) for name, pick in OWN_PER_GAME.items()})
        row["actions"] = json.dumps(list(g.actions), sort_keys=True)
        yield row


def collect(store: Store, run_ids: Sequence[int]) -> list[Row]:
    """Every game of these runs as flat rows (a cell in two runs appears under each)."""
    found: list[Row] = []
    for run_id in run_ids:
        run = store.run(run_id)
        for shown in store.run_cells(run_id):
            found.extend(rows(store, run, shown))
    return found


def columns(found: Sequence[Row]) -> list[str]:
    """Every column, in first-seen order (cells of other options add their own)."""
    names: dict[str, None] = {}
    for row in found:
        names.update(dict.fromkeys(row))
    return list(names)


def write(found: Sequence[Row], fmt: str, out: Path) -> None:
    """Write ``found`` to ``out`` as ``fmt``; every row gets every column."""
    if fmt not in FORMATS:
        raise OptionError(f"unknown format {fmt!r}; formats are: {', '.join(FORMATS)}")
    names = columns(found)
    full = [{name: row.get(name) for name in names} for row in found]
    if fmt == "parquet":
        try:
            import pyarrow as pa  # type: ignore[import-not-found,unused-ignore]
            import pyarrow.parquet as pq  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise OptionError(INSTALL_PYARROW) from None
        texts = [k for k in names if k.startswith("option_")]  # mixed types across cells
        table = pa.Table.from_pylist(
            [{**row, **{k: None if row[k] is None else str(row[k]) for k in texts}} for row in full]
        )
        pq.write_table(table, out)
        return
    if fmt == "json":
        out.write_text(json.dumps(full, indent=None, default=str) + "\n", encoding="utf-8")
        return
    with out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=names)
        writer.writeheader()
        writer.writerows(full)
