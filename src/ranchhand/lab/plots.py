"""The report's figures, drawn with matplotlib and returned as inline SVG text.

Each function takes the cells' metrics with their labels and returns one ``<svg>``
element, so the report stays one file that reads offline. Figures are made directly
(no ``pyplot``): no display, no global figure list, nothing to close. Every axis is
labelled; rates and counts start at zero; histograms of several cells share their bins.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ranchhand.lab.estimate import Estimate
from ranchhand.lab.metrics import CellMetrics

Cells = Sequence[tuple[str, CellMetrics]]

NO_METADATA: dict[str, str | None] = {"Creator": None, "Date": None, "Format": None, "Type": None}
"""No date, no links to metadata schemas: the same store gives the same figures."""

MAX_UNIT_BINS = 60
"""Integer data spanning at most this many values get one bin per value."""


def svg(figure: Figure) -> str:
    """The figure as an ``<svg>`` element (without the XML prologue)."""
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as text, not glyph paths
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata=NO_METADATA)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def shared_bins(values: Sequence[float]) -> list[float]:
    """One set of bin edges for every cell: a bin per value for integers over a short
    range, else 30 equal bins over the whole range of all cells.

    >>> shared_bins([1, 2, 4])
    [0.5, 1.5, 2.5, 3.5, 4.5]
    >>> len(shared_bins([0.0, 0.5, 1.0]))
    31
    """
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low <= MAX_UNIT_BINS:
        return [x - 0.5 for x in range(int(low), int(high) + 2)]
    if high == low:
        return [low - 0.5, high + 0.5]
    return [float(x) for x in np.linspace(low, high, 31)]


def _histograms(cells: Cells, values: Callable[[CellMetrics], Sequence[float]], xlabel: str) -> str:
    """Step histograms, one per cell, on shared bins, as a share of each cell's games (so
    cells of different sizes compare)."""
    figure = Figure(figsize=(7, 3.2))
    axes = figure.subplots()
    everything = [v for _, m in cells for v in values(m)]
    if everything:
        bins = shared_bins(everything)
        for label, m in cells:
            data = list(values(m))
            if data:
                weights = [1 / len(data)] * len(data)
                axes.hist(data, bins=bins, weights=weights, histtype="step", linewidth=1.5,
                          label=label)  # fmt: skip
    axes.set_xlabel(xlabel)
    axes.set_ylabel("share of games")
    axes.set_ylim(bottom=0)
    if len(cells) > 1:
        axes.legend(fontsize="small")
    return svg(figure)


def lengths(cells: Cells) -> str:
    return _histograms(cells, lambda m: m.lengths, "turns per game (completed games)")


def lead_changes(cells: Cells) -> str:
    return _histograms(
        cells, lambda m: m.changes, "Lead change per game (share of moves where the leader changes)"
    )


def drama(cells: Cells) -> str:
    return _histograms(
        cells, lambda m: m.dramas, "Drama per game (winner's mean gap to the top evaluation)"
    )


def _error(e: Estimate) -> tuple[float, float]:
    """The lengths of an error bar below and above (never negative)."""
    return max(0.0, e.value - e.low), max(0.0, e.high - e.value)


def seat_rates(cells: Cells) -> str:
    """Win rate by seat with 95% error bars, grouped by cell, and each cell's fair share."""
    figure = Figure(figsize=(7, 3.2))
    axes = figure.subplots()
    players = max((m.players for _, m in cells), default=0)
    width = 0.8 / max(1, players)
    for seat in range(players):
        xs: list[float] = []
        ys: list[float] = []
        errors: list[list[float]] = [[], []]
        for x, (_, m) in enumerate(cells):
            rate = m.seats.rates[seat] if seat < len(m.seats.rates) else None
            if rate is not None:
                xs.append(x - 0.4 + width * (seat + 0.5))
                ys.append(rate.value)
                below, above = _error(rate)
                errors[0].append(below)
                errors[1].append(above)
        axes.bar(xs, ys, width, yerr=errors, capsize=3, label=f"seat {seat}")
    for x, (_, m) in enumerate(cells):
        axes.hlines(m.seats.fair, x - 0.45, x + 0.45, colors="black", linestyles="dashed")
    axes.set_xticks(range(len(cells)), [label for label, _ in cells], fontsize="small")
    axes.set_ylabel("win rate (dashed: fair share)")
    axes.set_ylim(0, 1.04)
    axes.legend(fontsize="small", ncols=min(max(players, 1), 6))
    return svg(figure)


Pick = Callable[[CellMetrics], Estimate | None]


def _ludii(name: str) -> Pick:
    return lambda m: m.ludii.get(name)


EFFECTS: tuple[tuple[str, str, Pick], ...] = (
    ("Duration (turns)", "turns per game", _ludii("Duration (turns)")),
    ("Balance", "1 − win-rate spread", _ludii("Balance")),
    ("Completion", "share of games", _ludii("Completion")),
    ("Lead change", "share of moves", _ludii("Lead change")),
    ("Drama (average)", "evaluation gap", _ludii("Drama (average)")),
    ("Decisiveness", "share of the game", _ludii("Decisiveness")),
)
"""Each panel: its title, its y axis, and the figure it draws."""

SOLITAIRE_EFFECTS: tuple[tuple[str, str, Pick], ...] = (
    ("Duration (turns)", "turns per game", _ludii("Duration (turns)")),
    ("median turns (completed)", "turns", lambda m: m.turns_median),
    ("Completion", "share of games", _ludii("Completion")),
    ("Branching factor", "legal actions per move", _ludii("Branching factor")),
)
RATES = {"share of games", "share of moves", "share of the game", "1 − win-rate spread"}
"""Axes on a 0-1 scale: drawn to 1 (a little above, so a bar at 1 shows)."""


def _point(axes: Axes, x: float, e: Estimate, color: str, label: str | None = None) -> None:
    below, above = _error(e)
    axes.errorbar([x], [e.value], yerr=[[below], [above]], fmt="o", capsize=4, color=color,
                  label=label)  # fmt: skip


def effects(cells: Cells) -> str:
    """Each headline metric across the cells with its 95% interval (the option effects),
    and every seat's win rate; every axis labelled and starting at zero."""
    solitaire = all(m.solitaire for _, m in cells)
    panels = SOLITAIRE_EFFECTS if solitaire else EFFECTS
    count = len(panels) + (0 if solitaire else 1)
    columns = 3 if count > 4 else 2
    rows = -(-count // columns)
    figure = Figure(figsize=(3.4 * columns, 2.9 * rows))
    grid = figure.subplots(rows, columns, squeeze=False)
    labels = [label for label, _ in cells]
    flat = list(grid.flat)
    for axes, (name, unit, pick) in zip(flat, panels, strict=False):
        for x, (_, m) in enumerate(cells):
            e = pick(m)
            if e is not None:
                _point(axes, x, e, "C0")
        axes.set_title(name, fontsize="medium")
        axes.set_ylabel(unit, fontsize="small")
        if unit in RATES:
            axes.set_ylim(0, 1.04)
        else:
            axes.set_ylim(bottom=0)
    if not solitaire:
        axes = flat[len(panels)]
        players = max(m.players for _, m in cells)
        offset = 0.6 / max(1, players)
        for seat in range(players):
            for x, (_, m) in enumerate(cells):
                rate = m.seats.rates[seat] if seat < len(m.seats.rates) else None
                if rate is not None:
                    shift = x - 0.3 + offset * (seat + 0.5)
                    _point(axes, shift, rate, f"C{seat}", None if x else f"seat {seat}")
        axes.set_title("win rate by seat", fontsize="medium")
        axes.set_ylabel("win rate", fontsize="small")
        axes.set_ylim(0, 1.04)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize="x-small", ncols=2)
    for axes in flat[count:]:
        axes.set_visible(False)
    for axes in flat[:count]:
        axes.set_xlim(-0.5, len(cells) - 0.5)
        axes.set_xticks(range(len(cells)), labels, fontsize="x-small", rotation=20)
    figure.tight_layout()
    return svg(figure)
