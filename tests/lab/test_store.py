"""The store and the cell runner: games kept, reused on a rerun, resumed after a stop."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from ranchhand.core.registry import GAME_MODULES, game_class
from ranchhand.lab.backends import Backend
from ranchhand.lab.cells import Gaps, run_cell
from ranchhand.lab.flow import Flow
from ranchhand.lab.ludii import MoveFacts
from ranchhand.lab.store import Store
from ranchhand.lab.trace import LabGame, play_traced
from ranchhand.sim.simulate import Simulation, simulate
from ranchhand.sim.workers import StopControl

SIM = Simulation("rancho", ("greedy", "greedy"), 16, 4, (("max_turns", "600"),))
FIGURES = ("wins", "ties", "truncated", "turns", "mean_scores", "summary")


def test_a_game_round_trips_through_the_store(tmp_path: Path) -> None:
    played = LabGame(3, (1,), False, 12, (1.0, 2.0), {"eaten": [1, 2]}, 2**64 - 1, 9, 40,
                     Flow(13, 2, True, 4.0, 20.0, 7),
                     MoveFacts(9, 7, 3, 0.5, 0.25, 0.1, 4, 6.5),
                     ({"deal for sheep": 2}, {}))  # fmt: skip
    with Store(tmp_path / "lab.sqlite") as store:
        cell = store.cell("rancho", "1+lab1", ("a", "b"), {"dice": "twin"}, 5)
        assert store.cell("rancho", "1+lab1", ("a", "b"), {"dice": "twin"}, 5) == cell
        assert store.cell("rancho", "2+lab1", ("a", "b"), {"dice": "twin"}, 5).id != cell.id
        store.add_games(cell, [played, played])
        assert store.stored(cell, 10) == {3} and store.stored(cell, 3) == set()
        assert list(store.games(cell, 10)) == [played]


def test_traced_games_are_the_games_simulate_plays(tmp_path: Path) -> None:
    """Listening changes nothing: the stored cell reports what ``simulate`` reports."""
    with Store(tmp_path / "lab.sqlite") as store:
        kept = run_cell(SIM, Backend(1), store).report.to_json()
    plain = simulate(SIM, jobs=1).to_json()
    for key in FIGURES:
        assert kept[key] == plain[key], key
    traced = play_traced(SIM, 0)
    assert abs(traced.flow.points - (traced.turns + 1)) <= 1  # the start, each turn, the end
    assert traced.decisions > 0 and traced.choices >= traced.decisions
    assert traced.moves.moves == traced.decisions and traced.moves.lead_change is not None
    assert sum(sum(counts.values()) for counts in traced.actions) > 0


def test_a_stopped_run_keeps_its_games_and_a_rerun_plays_only_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "lab.sqlite"
    control = StopControl()
    seen = [0]

    def stop_at_five(done: int) -> None:
        seen[0] += done
        if seen[0] >= 5:
            control.request(signal.SIGINT)

    with Store(path) as store:
        first = run_cell(SIM, Backend(2), store, control, stop_at_five)
        assert first.report.partial and 5 <= first.played < SIM.games
        kept = first.report.tally.games
        assert len(store.stored(first.cell, SIM.games)) == kept  # type: ignore[arg-type]
        again = run_cell(SIM, Backend(2), store)
    assert again.reused == kept and again.played == SIM.games - kept
    whole = simulate(SIM, jobs=1).to_json()
    resumed = again.report.to_json()
    for key in FIGURES:
        assert resumed[key] == whole[key], key
    assert not again.report.partial


def test_gaps_number_the_missing_games() -> None:
    gaps = Gaps.missing(6, {1, 2, 5})
    assert [gaps[p] for p in range(len(gaps))] == [0, 3, 4]
    assert len(Gaps.missing(3, {0, 1, 2})) == 0


@pytest.mark.parametrize("name", list(GAME_MODULES))
def test_every_registered_game_is_traced(name: str) -> None:
    """The lab works for every game: standings read, decisions counted, winners agree."""
    cls = game_class(name)
    sim = Simulation(name, ("random",) * cls.min_players, 1, 2, (("max_turns", "300"),))
    traced = play_traced(sim, 0)
    plain = simulate(sim, jobs=1).to_json()
    assert traced.turns == plain["turns"]["mean"] or traced.truncated
    assert traced.decisions >= 1 and traced.choices >= traced.decisions
    standing = sim.load().new_initial_state().standing()
    if standing is not None:
        assert len(standing) == cls.min_players and traced.flow.points >= 2


def test_an_older_store_gains_the_new_columns(tmp_path: Path) -> None:
    """A store made before Ludii's metrics opens: its games table gains the columns (its
    old games keep NULL there and belong to cells of the old lab version)."""
    import sqlite3

    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE games (cell INTEGER NOT NULL, idx INTEGER NOT NULL, seed TEXT NOT "
            "NULL, winners TEXT NOT NULL, winner INTEGER, truncated INTEGER NOT NULL, turns "
            "INTEGER NOT NULL, decisions INTEGER NOT NULL, choices INTEGER NOT NULL, points "
            "INTEGER NOT NULL, lead_changes INTEGER NOT NULL, winner_last INTEGER, "
            "winner_deficit REAL, winner_final REAL, lead_from INTEGER, scores TEXT, details "
            "TEXT NOT NULL, PRIMARY KEY (cell, idx))"
        )
        db.execute("INSERT INTO games VALUES (1, 0, '5', '[0]', 0, 0, 9, 4, 8, 10, 1, 0, "
                   "1.0, 3.0, 2, NULL, '{}')")  # fmt: skip
    with Store(path) as store:
        cell = store.cell("rancho", "1+lab1", ("a", "b"), {}, 5)
        (old,) = store.games(cell, 10)
    assert old.turns == 9 and old.moves.lead_change is None and old.actions == ()
