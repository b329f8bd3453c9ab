"""The report at the edges: seats that win every game or none, solitaire, six players.

Stores are filled with constructed games (no play), so every game count from 1 to 500
is checked quickly; a few are rendered whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.figure import Figure

from ranchhand.core.game import Summary
from ranchhand.lab import plots
from ranchhand.lab.estimate import proportion
from ranchhand.lab.metrics import balance, measure
from ranchhand.lab.report import render
from tests.lab.helpers import made, stored


def test_intervals_hold_the_estimate_for_every_count_up_to_500() -> None:
    """The crash was an error bar of negative length: at 0% or 100% rounding left a Wilson
    bound a hair past the estimate (174 of the counts 1..500). Every count now gives bars
    of length at least zero, and matplotlib takes them."""
    axes = Figure().subplots()
    games = [made(i, (0,), 2) for i in range(500)]
    for n in range(1, 501):
        for wins in (0, n):
            e = proportion(wins, n)
            assert e is not None and e.low <= e.value <= e.high
            assert min(plots._error(e)) >= 0
            if n in (4, 10, 14, 19, 24, 29, 33):  # counts that used to fail
                plots._point(axes, 0, e, "C0")
        b = balance(games[:n], 2)
        assert b is not None and b.low <= b.value <= b.high and b.value == 0.0


@pytest.mark.parametrize("n", [4, 500])
def test_a_seat_that_wins_every_game_is_reported(tmp_path: Path, n: int) -> None:
    games = [made(i, (0,), 2, game="rancho") for i in range(n)]
    store, run = stored(tmp_path / "s.sqlite", "rancho", 2, games)
    with store:
        page = render(store, [run])
    assert "Seat 0 wins more often" in page or n < 6  # too few games to call it
    assert page.count("<svg") == 5


@pytest.mark.parametrize("winners", [(0,), ()])
def test_solitaire_view(tmp_path: Path, winners: tuple[int, ...]) -> None:
    games = [made(i, winners, 1, not winners, "super-farmer") for i in range(30)]
    store, run = stored(tmp_path / "s.sqlite", "super-farmer", 1, games)
    with store:
        page = render(store, [run])
    assert "median turns (completed)" in page and "Solitaire:" in page
    assert "Lead change" not in page.split("</details>", 1)[1]  # only in the definitions
    assert "Drama" not in page.split("</details>", 1)[1] and "win rate by seat" not in page
    assert page.count("<svg") == 2


def test_six_players_show_every_seat(tmp_path: Path) -> None:
    games = [made(i, (i % 6,), 6, game="rancho") for i in range(60)]
    store, run = stored(tmp_path / "s.sqlite", "rancho", 6, games)
    with store:
        page = render(store, [run])
    assert "No seat wins significantly" in page
    effects = page[page.index("<svg") : page.index("</svg>")]
    assert all(f"seat {s}" in effects for s in range(6))  # effects for every seat


def test_histograms_share_their_bins() -> None:
    few = measure([made(i, (0,), 2) for i in range(5)], 2, Summary())
    many = measure([made(i, (1,), 2) for i in range(7, 90)], 2, Summary())
    bins = plots.shared_bins([*few.lengths, *many.lengths])
    assert bins[0] <= min(few.lengths + many.lengths) and bins[-1] >= max(many.lengths)
    assert plots.shared_bins([0.0, 1.0, 250.0])[-1] == 250.0
