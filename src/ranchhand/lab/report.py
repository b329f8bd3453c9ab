"""The lab report: one self-contained HTML page of stored runs, readable offline.

For each run: the command that reproduces it, what is significant (seat fairness per
cell, paired comparisons between cells, in plain sentences), a table of headline metrics
per cell, the figures (option effects for every seat, seat win rates, lengths, lead
change, drama; inline SVG), and per cell Ludii's metrics and the lab's own with their
95% intervals, impact per card and action, and the game's own facts (``Game.summary``).
A solitaire run shows what solitaire means: completion and the distribution of turns
with its median, no seats, leads or drama. Everything is read from the store, never from
a live run, so a report made tomorrow from the same store is the same page.
"""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ranchhand.core.registry import load
from ranchhand.lab import impact, ladder, plots
from ranchhand.lab.estimate import Estimate
from ranchhand.lab.metrics import (
    EVALUATED,
    FLOW,
    LUDII,
    MARGIN,
    CellMetrics,
    measure,
    per_game,
)
from ranchhand.lab.significance import Comparison, Fairness, compare, corrected, fairness, p_text
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

LUDII_DEFINITIONS = {
    "Balance": "1 − (largest − smallest seat win rate), rates over every game (Ludii). "
    "Interval: the spread simultaneous Wilson intervals of the seat rates allow",
    "Completion": "share of games that ended with a winner (not a draw, not cut off)",
    "Drawishness": "share of games that ended with no winner or everyone winning",
    "Timeouts": "share of games cut off by max_turns",
    "Duration (turns)": "turns per game, every game",
    "Duration (moves)": "moves (actions chosen by players) per game, every game",
    "Branching factor": "legal actions at a move, averaged over the game's moves, then games",
    "Decision moves": "share of a game's moves with more than one legal action",
    "Lead change": "share of a game's moves before which the set of top-evaluated players "
    "differs from the one before the previous move",
    "Drama (average)": "how far the winner's evaluation is below the top evaluation, "
    "averaged over the game's moves",
    "Drama (max)": "the largest such gap in the game",
    "Decisiveness": "share of the game played before the winner's evaluation first rose "
    "above the best any loser ever reached (low: decided early)",
    "Stability": "sum over players of the variance of their evaluation over the game",
    "Uncertainty": "entropy of the evaluations taken as win chances, over log(players), "
    "averaged over the game's moves (1: anyone's game, 0: settled)",
}
"""One line per Ludii metric (docs/lab.md has the formulas and Ludii's sources)."""

OWN_DEFINITIONS = {
    "seat win rate": "share of completed games the seat won (a shared win counts for each "
    "winner); fair share = mean winners per game / players",
    "turns (completed games)": "turns per game that ended by the rules",
    "lead changes per game": "times the sole leader by standing (the game's own units, "
    "read after every turn) differs from the previous sole leader",
    "winner ever last": "share of won games in which the winner was once strictly last",
    f"winner behind ≥ {MARGIN:.0%}": f"share of won games in which the winner once trailed the "
    f"leader by ≥ {MARGIN:.0%} of the winner's final standing",
    "lead held for good": "share of the game after the point from which the winner led by "
    "standing for good (the opposite direction of Ludii's Decisiveness)",
}
"""The lab's own measures, which say what Ludii's do not."""

COMPARED = ("Duration (turns)", "Completion", "Lead change", "Drama (average)", "Decisiveness")
SOLITAIRE_COMPARED = ("Duration (turns)", "Completion")


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


PERCENT = {"Completion", "Drawishness", "Timeouts", "Decision moves", "winner ever last",
           f"winner behind ≥ {MARGIN:.0%}"}  # fmt: skip


def _estimate(e: Estimate | None, percent: bool = False) -> str:
    if e is None:
        return "–"
    show = (lambda x: f"{x:.1%}") if percent else (lambda x: f"{x:.3g}")
    return f"{show(e.value)} <span class=dim>[{show(e.low)}, {show(e.high)}]</span>"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _headline(cells: Sequence[Shown], solitaire: bool) -> str:
    names = (
        ["Completion", "Timeouts", "Duration (turns)", "Branching factor"]
        if solitaire
        else [
            "Balance",
            "Completion",
            "Duration (turns)",
            "Lead change",
            "Drama (average)",
            "Decisiveness",
        ]
    )
    head = ["cell", "games", *names] + (["median turns (completed)"] if solitaire else [])
    rows = []
    for s in cells:
        m = s.metrics
        row = [html.escape(s.label), str(m.games)]
        row += [_estimate(m.ludii.get(n), n in PERCENT) for n in names]
        if solitaire:
            row.append(_estimate(m.turns_median))
        rows.append(row)
    return _table(head, rows)


def shown_ludii(m: CellMetrics) -> list[str]:
    """Ludii's metrics worth showing for this cell: alone at the table, nothing depends on
    opponents (no balance, draws, or evaluation of who leads)."""
    if m.solitaire:
        return [n for n in LUDII if n not in EVALUATED and n not in ("Balance", "Drawishness")]
    return list(LUDII)


def shown_own(m: CellMetrics) -> list[str]:
    return [n for n in m.own if not (m.solitaire and n in FLOW)]


def _cell_section(s: Shown, fair: Fairness | None) -> str:
    m = s.metrics
    options = html.escape(json.dumps(s.cell.cell.options, sort_keys=True))
    parts = [f"<h3>{html.escape(s.label)}</h3>",
             f"<p class=dim>options {options}; {html.escape(reading(s.cell.cell.version))}"
             f"</p>"]  # fmt: skip
    if not m.solitaire:
        bots = zip(s.cell.cell.seats, m.seats.advantage, strict=True)
        tests = {t.seat: t for t in fair.seats} if fair else {}
        parts.append(_table(
            ["seat", "bot", "wins", "win rate [95%]", "advantage", "fair? (Holm p)"],
            [
                [
                    str(seat),
                    html.escape(bot),
                    str(m.seats.wins[seat]),
                    _estimate(m.seats.rates[seat], True),
                    "–" if adv is None else f"{adv:+.1%}",
                    html.escape(p_text(tests[seat].p)) if seat in tests else "–",
                ]
                for seat, (bot, adv) in enumerate(bots)
            ],
        ))  # fmt: skip
    else:
        parts.append(
            f"<p>Solitaire: completed {_estimate(m.ludii.get('Completion'), True)} of "
            f"{m.games} games; median length {_estimate(m.turns_median)} turns.</p>"
        )
    ludii = [[html.escape(n), _estimate(m.ludii.get(n), n in PERCENT) + _sd(m.ludii.get(n))]
             for n in shown_ludii(m)]  # fmt: skip
    parts.append("<h4>Ludii's metrics</h4>" + _table(["metric", "value [95%]"], ludii))
    own = [[html.escape(n), _estimate(m.own.get(n), n in PERCENT) + _sd(m.own.get(n))]
           for n in shown_own(m)]  # fmt: skip
    parts.append("<h4>The lab's own measures</h4>" + _table(["measure", "value [95%]"], own))
    parts.append(_length_impact(m) if m.solitaire else "")
    found = impact.lifts(
        ([g.actions[p] if p < len(g.actions) else {} for p in range(m.players)], g.winners)
        for g in m.played
        if not g.truncated and g.actions
    )
    if found:
        rows = [[html.escape(f.label), f"{f.used_wins}/{f.used}", f"{f.unused_wins}/{f.unused}",
                 f"{f.lift:+.1%} <span class=dim>[{f.low:+.1%}, {f.high:+.1%}]</span>"
                 + (" *" if f.clear else "")] for f in found[:IMPACT_ROWS]]  # fmt: skip
        parts.append(
            "<details><summary>impact per card and action (win rate of the seats that chose "
            "it at least once minus the others'; * the interval leaves out 0)</summary>"
            + _table(["chosen", "won/used", "won/not", "lift [95%]"], rows)
            + "</details>"
        )
    facts = _table(["game fact", "value"], [[html.escape(k), html.escape(v)]
                                            for k, v in flatten(m.summary)])  # fmt: skip
    parts.append(f"<details><summary>the game's own facts</summary>{facts}</details>")
    return "".join(parts)


IMPACT_ROWS = 15


def _length_impact(m: CellMetrics) -> str:
    """A solitaire's impact per card and action: the difference in turns it goes with."""
    found = impact.length_lifts(
        (g.actions[0], g.turns) for g in m.played if not g.truncated and g.actions
    )
    if not found:
        return ""
    rows = [[html.escape(f.label), str(f.used), str(f.unused),
             f"{f.lift:+.3g} <span class=dim>[{f.low:+.3g}, {f.high:+.3g}]</span>"
             + (" *" if f.clear else "")] for f in found[:IMPACT_ROWS]]  # fmt: skip
    return (
        "<details><summary>impact per action on length (turns of the games that chose it "
        "at least once minus the others'; * the interval leaves out 0)</summary>"
        + _table(["chosen", "games with", "games without", "turns [95%]"], rows)
        + "</details>"
    )


def reading(version: str) -> str:
    """Which evaluation a cell's Ludii metrics read, from its version (``+search32x10``).

    >>> reading("3+lab2+search16x8")
    'evaluation: 16 greedy playouts before every 8th move'
    >>> reading("3+lab2")
    "evaluation: the game's own, before every move"
    """
    found = re.search(r"\+search([0-9]+)x([0-9]+)", version)
    if not found:
        return "evaluation: the game's own, before every move"
    every = "every move" if found[2] == "1" else f"every {_ordinal(int(found[2]))} move"
    return f"evaluation: {found[1]} greedy playouts before {every}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _sd(e: Estimate | None) -> str:
    return "" if e is None or e.sd is None else f" <span class=dim>sd {e.sd:.3g}</span>"


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


def fairness_of(m: CellMetrics) -> Fairness | None:
    """The seat-fairness test over the cell's single-winner games (none alone)."""
    if m.solitaire:
        return None
    wins = [0] * m.players
    for g in m.played:
        if not g.truncated and len(g.winners) == 1:
            wins[g.winners[0]] += 1
    return fairness(wins)


def _pairs(shown: Sequence[Shown]) -> list[tuple[Shown, Shown]]:
    """The pairs of cells to compare: those differing in one varied setting (every pair
    when the cells differ in one setting only)."""
    pairs = []
    for i, a in enumerate(shown):
        for b in shown[i + 1 :]:
            la, lb = a.cell.label, b.cell.label
            differing = [k for k in la.keys() | lb.keys() if la.get(k) != lb.get(k)]
            if len(differing) <= 1:
                pairs.append((a, b))
    return pairs


def comparisons(shown: Sequence[Shown]) -> list[Comparison]:
    """Every paired comparison of the run, Holm-corrected together."""
    found = []
    for a, b in _pairs(shown):
        ma, mb = a.metrics, b.metrics
        solitaire = ma.solitaire and mb.solitaire
        names = list(SOLITAIRE_COMPARED if solitaire else COMPARED)
        if not solitaire and ma.players == mb.players:
            names += [f"seat {s} wins" for s in range(ma.players)]
        paired = a.cell.cell.seed == b.cell.cell.seed
        for name in names:
            pick_a, pick_b = per_game(name, ma.players), per_game(name, mb.players)
            va = {g.index: v for g in ma.played if (v := pick_a(g)) is not None}
            vb = {g.index: v for g in mb.played if (v := pick_b(g)) is not None}
            c = compare(name, a.label, b.label, va, vb, paired)
            if c is not None:
                found.append(c)
    return corrected(found) if found else []


SENTENCES = 12
"""Significant comparisons said in words at most (the rest are in the table)."""


def _significance(
    shown: Sequence[Shown], fair: dict[str, Fairness | None], arena: bool = False
) -> str:
    """Seat fairness per cell and the paired comparisons, in sentences. In an arena only
    the lineups of identical bots test the seats, and lineups are not compared (the ladder
    does that)."""
    items = []
    several = len(shown) > 1
    for s in shown:
        test = fair[s.label]
        if test is not None and not (arena and len(set(s.cell.cell.seats)) > 1):
            prefix = f"{s.label}: " if several else ""
            items += [html.escape(prefix + line) for line in test.sentences()]
    compared = [] if arena else comparisons(shown)
    clear = [c for c in compared if c.significant]
    items += [html.escape(c.sentence(len(compared))) for c in clear[:SENTENCES]]
    if len(clear) > SENTENCES:
        items.append(f"{len(clear) - SENTENCES} more significant differences are in the table.")
    if compared:
        rest = len(compared) - len(clear)
        items.append(
            f"{rest} of {len(compared)} comparisons between cells are not significant "
            f"at 5% after Holm's correction" + (" (table below)." if rest else ".")
        )
    body = "".join(f"<li>{i}</li>" for i in items) or "<li>Nothing to test.</li>"
    table = ""
    if compared:
        rows = [[html.escape(c.metric), html.escape(c.a), html.escape(c.b), str(c.n),
                 f"{c.diff:+.3g} <span class=dim>[{c.low:+.3g}, {c.high:+.3g}]</span>",
                 html.escape(p_text(c.p_adjusted)), "paired" if c.paired else "unpaired"]
                for c in compared]  # fmt: skip
        table = (
            "<details><summary>every comparison (B − A)</summary>"
            + _table(["metric", "A", "B", "games", "B − A [95%]", "Holm p", ""], rows)
            + "</details>"
        )
    return f"<h3>What is significant</h3><ul>{body}</ul>{table}"


def run_section(store: Store, run: Run) -> str:
    """A run's part of the report: command, tests, headline table, figures, every cell."""
    shown = [
        Shown(label_text(c.label, c.cell.seats), c, cell_metrics(store, run, c))
        for c in store.run_cells(run.id)
    ]
    pairs = [(s.label, s.metrics) for s in shown]
    solitaire = all(s.metrics.solitaire for s in shown)
    fair = {s.label: fairness_of(s.metrics) for s in shown}
    state = "" if run.status == "done" else f" ({html.escape(run.status)}: partial)"
    parts = [
        f"<h2>Run {run.id}: {html.escape(run.kind)} of {html.escape(run.game)}{state}</h2>",
        f"<p>{run.games} games per cell, started {html.escape(run.started)} UTC on the "
        f"{html.escape(run.backend)} backend. Reproduce it exactly with:</p>",
        f"<pre>{html.escape(run.command)}</pre>",
        _arena(run, shown),
        _significance(shown, fair, run.kind == "arena"),
        _headline(shown, solitaire),
        _figure(
            plots.effects(pairs),
            "Each metric per cell with its 95% interval"
            + ("." if solitaire else ", and every seat's win rate."),
        ),
    ]
    if solitaire:
        parts.append(_figure(plots.lengths(pairs), "Game length in turns (solitaire)."))
    else:
        parts += [
            _figure(plots.seat_rates(pairs), "Win rate by seat, 95% Wilson intervals."),
            _figure(plots.lengths(pairs), "Game length in turns."),
            _figure(plots.lead_changes(pairs), "Ludii's Lead change, per game."),
            _figure(plots.drama(pairs), "Ludii's Drama (average), per game."),
        ]
    parts += [_cell_section(s, fair[s.label]) for s in shown]
    return "\n".join(parts)


def _arena(run: Run, shown: Sequence[Shown]) -> str:
    """The ladder of an arena run (nothing for other runs)."""
    if run.kind != "arena":
        return ""
    cells = [(s.cell.cell.seats, s.metrics) for s in shown]
    report = ladder.ladder(run.game, shown[0].cell.cell.seed if shown else 0, cells)
    return "" if report is None else ladder.section(report)


def _definitions() -> str:
    ludii = "".join(
        f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in LUDII_DEFINITIONS.items()
    )
    own = "".join(
        f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in OWN_DEFINITIONS.items()
    )
    return (
        "<details><summary>definitions</summary><p>Ludii's metrics, by Ludii's definitions "
        "(a move is an action a player chooses; the evaluation is the game's estimate of "
        f"each player's chance to win, read before every move):</p><ul>{ludii}</ul>"
        f"<p>The lab's own measures:</p><ul>{own}</ul></details>"
    )


def render(store: Store, run_ids: Sequence[int]) -> str:
    """The whole HTML page for these runs."""
    runs = [store.run(i) for i in run_ids]
    games = ", ".join(dict.fromkeys(r.game for r in runs))
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    body = "\n".join(run_section(store, r) for r in runs)
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>ranchhand lab: {html.escape(games)}</title><style>{STYLE}</style></head>"
        f"<body><h1>ranchhand lab report: {html.escape(games)}</h1>"
        f"<p class=dim>Made {made} with <code>ranchhand report</code>. Intervals are 95%: "
        f"Wilson for shares, Student t for means, order statistics for medians, "
        f"simultaneous seat intervals for Balance.</p>"
        f"{_definitions()}{body}</body></html>\n"
    )
