"""The report's figures, drawn with matplotlib and returned as inline SVG text.

Each function takes the cells' metrics with their labels and returns one ``<svg>``
element, so the report stays one file that reads offline. Figures are made directly
(no ``pyplot``): no display, no global figure list, nothing to close.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import matplotlib
from matplotlib.figure import Figure

from ranchhand.lab.estimate import Estimate
from ranchhand.lab.metrics import CellMetrics

Cells = Sequence[tuple[str, CellMetrics]]

NO_METADATA: dict[str, str | None] = {"Creator": None, "Date": None, "Format": None, "Type": None}
"""No date, no links to metadata schemas: the same store gives the same figures."""


def svg(figure: Figure) -> str:
    """The figure as an ``<svg>`` element (without the XML prologue)."""
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as text, not glyph paths
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata=NO_METADATA)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _histograms(cells: Cells, values: Callable[[CellMetrics], Sequence[float]], xlabel: str) -> str:
    """Step histograms, one per cell, on shared bins."""
    figure = Figure(figsize=(7, 3.2))
    axes = figure.subplots()
    everything = [v for _, m in cells for v in values(m)]
    if everything:
        low, high = min(everything), max(everything)
        integral = all(float(v).is_integer() for v in everything)
        bins: int | list[float] = (
            [x - 0.5 for x in range(int(low), int(high) + 2)]
            if integral and high - low <= 60
            else 30
        )
        for label, m in cells:
            data = list(values(m))
            if data:
                axes.hist(data, bins=bins, histtype="step", linewidth=1.5, label=label)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    if len(cells) > 1:
        axes.legend(fontsize="small")
    return svg(figure)


def lengths(cells: Cells) -> str:
    return _histograms(cells, lambda m: m.lengths, "turns per game (completed games)")


def lead_changes(cells: Cells) -> str:
    return _histograms(cells, lambda m: m.changes, "lead changes per game")


def drama(cells: Cells) -> str:
    return _histograms(
        cells, lambda m: m.deficits, "winner's largest deficit / winner's final standing"
    )


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
                errors[0].append(rate.value - rate.low)
                errors[1].append(rate.high - rate.value)
        axes.bar(xs, ys, width, yerr=errors, capsize=3, label=f"seat {seat}")
    for x, (_, m) in enumerate(cells):
        axes.hlines(m.seats.fair, x - 0.45, x + 0.45, colors="black", linestyles="dashed")
    axes.set_xticks(range(len(cells)), [label for label, _ in cells], fontsize="small")
    axes.set_ylabel("win rate (dashed: fair share)")
    axes.legend(fontsize="small", ncols=min(players, 6))
    return svg(figure)


EFFECTS: tuple[tuple[str, Callable[[CellMetrics], Estimate | None]], ...] = (
    ("turns per game", lambda m: m.turns),
    ("seat 0 win rate", lambda m: m.seats.rates[0] if m.seats.rates else None),
    ("balance", lambda m: m.balance),
    ("lead changes", lambda m: m.lead_changes),
    ("decisiveness", lambda m: m.decisiveness),
    ("winner ever last", lambda m: m.drama_last),
)


def effects(cells: Cells) -> str:
    """Each headline metric across the cells with its 95% interval: the option effects."""
    figure = Figure(figsize=(9, 5))
    grid = figure.subplots(2, 3, sharex=True)
    for axes, (name, pick) in zip(grid.flat, EFFECTS, strict=True):
        for x, (_, m) in enumerate(cells):
            e = pick(m)
            if e is not None:
                axes.errorbar([x], [e.value], yerr=[[e.value - e.low], [e.high - e.value]],
                              fmt="o", capsize=4)  # fmt: skip
        axes.set_xlim(-0.5, len(cells) - 0.5)
        axes.set_title(name, fontsize="medium")
        axes.set_xticks(range(len(cells)), [label for label, _ in cells], fontsize="x-small",
                        rotation=20)  # fmt: skip
    figure.tight_layout()
    return svg(figure)
