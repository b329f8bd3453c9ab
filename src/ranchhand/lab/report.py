"""The lab report: one self-contained HTML page of stored runs, readable offline.

For each run: the command that reproduces it, a table of headline metrics per cell,
the figures (option effects, seat win rates, lengths, lead changes, drama; inline SVG),
and per cell every metric with its 95% interval and the game's own facts
(``Game.summary``). Everything is read from the store, never from a live run, so a
report made tomorrow from the same store is the same page.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ranchhand.core.registry import load
from ranchhand.lab import plots
from ranchhand.lab.estimate import Estimate
from ranchhand.lab.metrics import MARGIN, CellMetrics, measure
from ranchhand.lab.store import Run, RunCell, Store

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 68em; margin: 2em auto; padding: 0 1em;
       color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.7em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
pre { background: #f4f4f4; padding: 0.6em; overflow-x: auto; }
figure { margin: 1em 0; } figcaption { font-size: 0.85em; color: #555; }
svg { max-width: 100%; height: auto; }
.dim { color: #777; font-size: 0.85em; }
"""

DEFINITIONS = (
    ("seat win rate", "share of completed games the seat won (a shared win counts for each "
     "winner); fair share = mean winners per game / players"),
    ("balance", "1 − P/(2(P−1)) · Σ|q_s − 1/P|, q_s the seat's share of all wins: 1 even, "
     "0 one seat always wins"),
    ("lead changes", "times the sole leader by standing differs from the previous sole leader"),
    ("winner ever last", "share of won games in which the winner was once strictly last"),
    ("winner behind", f"share of won games in which the winner once trailed the leader by "
     f"≥ {MARGIN:.0%} of the winner's final standing"),
    ("decisiveness", "share of the game after the point from which the winner led for good"),
    ("branching", "mean legal actions at a decision, averaged over games"),
)  # fmt: skip


@dataclass
class Shown:
    """One cell of a run as the report shows it."""

    label: str
    cell: RunCell
    metrics: CellMetrics


def label_text(label: dict[str, Any], seats: Sequence[str]) -> str:
    """``dice=farmer, dogs=all`` (or the seats when nothing was varied)."""
    return ", ".join(f"{k}={v}" for k, v in label.items()) or ",".join(seats)


def cell_metrics(store: Store, run: Run, shown: RunCell) -> CellMetrics:
    """The metrics of the cell's games under the run's game count."""
    cell = shown.cell
    game = load(cell.game, len(cell.seats), **cell.options)
    return measure(store.games(cell, run.games), len(cell.seats), game.summary())


def _estimate(e: Estimate | None, percent: bool = False) -> str:
    if e is None:
        return "–"
    show = (lambda x: f"{x:.1%}") if percent else (lambda x: f"{x:.2f}")
    return f"{show(e.value)} <span class=dim>[{show(e.low)}, {show(e.high)}]</span>"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _headline(cells: Sequence[Shown]) -> str:
    head = ["cell", "games", "completed", "turns", "balance", "lead changes", "decisiveness",
            "winner ever last"]  # fmt: skip
    rows = [
        [
            html.escape(s.label),
            str(s.metrics.games),
            _estimate(s.metrics.completion, True),
            _estimate(s.metrics.turns),
            _estimate(s.metrics.balance),
            _estimate(s.metrics.lead_changes),
            _estimate(s.metrics.decisiveness),
            _estimate(s.metrics.drama_last, True),
        ]
        for s in cells
    ]
    return _table(head, rows)


def _cell_section(s: Shown) -> str:
    m = s.metrics
    bots = zip(s.cell.cell.seats, m.seats.advantage, strict=True)
    seats = _table(
        ["seat", "bot", "wins", "win rate [95%]", "advantage"],
        [
            [
                str(seat),
                html.escape(bot),
                str(m.seats.wins[seat]),
                _estimate(m.seats.rates[seat], True),
                "–" if adv is None else f"{adv:+.1%}",
            ]
            for seat, (bot, adv) in enumerate(bots)
        ],
    )
    figures = [
        ("completed", _estimate(m.completion, True)),
        ("fair share", f"{m.seats.fair:.1%}"),
        ("balance", _estimate(m.balance)),
        ("turns (mean)", _estimate(m.turns) + _sd(m.turns)),
        ("decisions (mean)", _estimate(m.decisions) + _sd(m.decisions)),
        ("branching", _estimate(m.branching)),
        ("lead changes", _estimate(m.lead_changes) + _sd(m.lead_changes)),
        ("winner ever last", _estimate(m.drama_last, True)),
        (f"winner behind ≥ {MARGIN:.0%}", _estimate(m.drama_margin, True)),
        ("decisiveness", _estimate(m.decisiveness)),
    ]
    metrics = _table(["metric", "value [95%]"], [[html.escape(k), v] for k, v in figures])
    facts = _table(["game fact", "value"], [[html.escape(k), html.escape(v)]
                                            for k, v in flatten(m.summary)])  # fmt: skip
    options = html.escape(json.dumps(s.cell.cell.options, sort_keys=True))
    return (
        f"<h3>{html.escape(s.label)}</h3><p class=dim>options {options}</p>"
        f"{seats}{metrics}<details><summary>the game's own facts</summary>{facts}</details>"
    )


def _sd(e: Estimate | None) -> str:
    return "" if e is None or e.sd is None else f" <span class=dim>sd {e.sd:.2f}</span>"


def flatten(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    """A nested summary as ``(dotted key, short text)`` rows; numbers rounded.

    >>> flatten({"average": {"turns": 12.3456}, "wins": [1, 2]})
    [('average.turns', '12.346'), ('wins', '1, 2')]
    """
    if isinstance(data, dict):
        rows: list[tuple[str, str]] = []
        for key, value in data.items():
            rows += flatten(value, f"{prefix}.{key}" if prefix else str(key))
        return rows
    if isinstance(data, list | tuple):
        if all(not isinstance(x, dict | list | tuple) for x in data):
            return [(prefix, ", ".join(_short(x) for x in data))]
        return [row for i, x in enumerate(data) for row in flatten(x, f"{prefix}[{i}]")]
    return [(prefix, _short(data))]


def _short(value: Any) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def run_section(store: Store, run: Run) -> str:
    """A run's part of the report: command, headline table, figures, every cell."""
    shown = [
        Shown(label_text(c.label, c.cell.seats), c, cell_metrics(store, run, c))
        for c in store.run_cells(run.id)
    ]
    pairs = [(s.label, s.metrics) for s in shown]
    state = "" if run.status == "done" else f" ({html.escape(run.status)}: partial)"
    parts = [
        f"<h2>Run {run.id}: {html.escape(run.kind)} of {html.escape(run.game)}{state}</h2>",
        f"<p>{run.games} games per cell, started {html.escape(run.started)} UTC on the "
        f"{html.escape(run.backend)} backend. Reproduce it exactly with:</p>",
        f"<pre>{html.escape(run.command)}</pre>",
        _headline(shown),
        _figure(plots.effects(pairs), "Option effects: each metric per cell, 95% intervals."),
        _figure(plots.seat_rates(pairs), "Win rate by seat, 95% Wilson intervals."),
        _figure(plots.lengths(pairs), "Game length in turns."),
        _figure(plots.lead_changes(pairs), "Lead changes per game."),
        _figure(plots.drama(pairs), "Drama: how far behind the eventual winner ever was."),
        *(_cell_section(s) for s in shown),
    ]
    return "\n".join(parts)


def render(store: Store, run_ids: Sequence[int]) -> str:
    """The whole HTML page for these runs."""
    runs = [store.run(i) for i in run_ids]
    games = ", ".join(dict.fromkeys(r.game for r in runs))
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    definitions = "".join(
        f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in DEFINITIONS
    )
    body = "\n".join(run_section(store, r) for r in runs)
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>ranchhand lab: {html.escape(games)}</title><style>{STYLE}</style></head>"
        f"<body><h1>ranchhand lab report: {html.escape(games)}</h1>"
        f"<p class=dim>Made {made} with <code>ranchhand report</code>. Intervals are 95%: "
        f"Wilson for shares, normal for means, a bootstrap of games for balance.</p>"
        f"<ul>{definitions}</ul>{body}</body></html>\n"
    )
