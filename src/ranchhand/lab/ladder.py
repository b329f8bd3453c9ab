"""An arena kept in the store, read back as a ladder: ratings with intervals, the gap
between every two bots with its interval, and the head-to-head counts behind them.

An arena sweep (``ranchhand sweep GAME --arena a,b,c``) stores one cell per lineup; here
each cell's single-winner wins by seat become the arena's result table and
:func:`ranchhand.sim.arena.analyse` fits the Bradley-Terry ratings (with half a win each
way as a prior). Where one bot never beat another, the size of their gap rests on that
prior alone, so the ladder says so and shows what the games do tell: the count, and a
Wilson interval on the winner's share.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ranchhand.lab.metrics import CellMetrics
from ranchhand.sim.arena import ArenaReport, Lineup, analyse
from ranchhand.sim.stats import wilson_interval


def lineup_of(seats: Sequence[str], m: CellMetrics) -> Lineup:
    """A stored cell as an arena lineup: sole wins by seat; the rest are draws."""
    wins = [0] * len(seats)
    for g in m.played:
        if not g.truncated and len(g.winners) == 1:
            wins[g.winners[0]] += 1
    return Lineup(tuple(seats), m.games, tuple(wins), m.games - sum(wins))


def ladder(
    game: str, seed: int, cells: Sequence[tuple[Sequence[str], CellMetrics]]
) -> ArenaReport | None:
    """The arena of these cells (their lineups), or None without two different bots."""
    bots = list(dict.fromkeys(bot for seats, _ in cells for bot in seats))
    if len(bots) < 2 or not cells:
        return None
    table = [lineup_of(seats, m) for seats, m in cells]
    return analyse(game, len(cells[0][0]), bots, seed, table)


def _row(cells: Sequence[str]) -> str:
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _span(interval: tuple[float, float]) -> str:
    return f"{interval[0]:+.0f} .. {interval[1]:+.0f}"


def section(report: ArenaReport) -> str:
    """The ladder as HTML: ratings, gaps, head-to-head counts, and the prior's warnings."""
    order = sorted(report.bots, key=lambda b: -report.ratings[b])
    ratings = "".join(
        _row([html.escape(b), f"{report.ratings[b]:+.0f}", _span(report.intervals[b])])
        for b in order
    )
    gaps, notes = [], []
    for (a, b), (low, high) in report.gaps.items():
        if report.ratings[a] < report.ratings[b]:
            a, b, low, high = b, a, -high, -low
        key = tuple(sorted((a, b)))
        wa, wb, draws = report.counts.get((key[0], key[1]), [0.0, 0.0, 0.0])
        won, lost = (wa, wb) if key[0] == a else (wb, wa)
        decided = int(won + lost)
        share_low, share_high = wilson_interval(int(won), decided) if decided else (0.0, 1.0)
        clear = " *" if low > 0 else ""
        gaps.append(_row([
            html.escape(a), html.escape(b), f"{report.ratings[a] - report.ratings[b]:+.0f} "
            f"<span class=dim>[{low:+.0f}, {high:+.0f}]</span>{clear}",
            f"{int(won)}–{int(lost)}–{int(draws)}",
            f"{share_low:.0%}–{share_high:.0%}" if decided else "–",
        ]))  # fmt: skip
        if decided and lost == 0:
            notes.append(
                f"{html.escape(b)} never beat {html.escape(a)} in {decided} decided games: "
                f"how large their gap is rests on the prior (half a win each way); the games "
                f"say {html.escape(a)} wins at least {share_low:.0%} of them (95%)."
            )
    head = "<tr><th>bot</th><th>Elo</th><th>95% interval</th></tr>"
    gap_head = ("<tr><th>stronger</th><th>weaker</th><th>Elo gap [95%]</th>"
                "<th>won–lost–drawn</th><th>share won, 95%</th></tr>")  # fmt: skip
    seats = ", ".join(f"seat {s}: {r:.0%}" for s, r in enumerate(report.seats))
    return (
        "<h3>Arena</h3>"
        f"<table>{head}{ratings}</table>"
        f"<table>{gap_head}{''.join(gaps)}</table>"
        "<p class=dim>Bradley–Terry ratings on the Elo scale (random at 0 when it plays), "
        "intervals from 200 seeded resamples of the games; a gap's interval comes from the "
        "same resamples. * the gap's interval leaves out 0. Head to head: the stronger "
        "bot's games against the weaker one (one alone against copies of the other, every "
        f"seat in turn). Seats with identical bots: {html.escape(seats) or '–'}.</p>"
        + "".join(f"<p>{n}</p>" for n in notes)
    )
