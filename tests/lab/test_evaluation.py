"""The optional search-based evaluation: greedy playouts at sampled moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranchhand.core.errors import OptionError
from ranchhand.lab.backends import Backend
from ranchhand.lab.cells import run_cell
from ranchhand.lab.evaluation import GAME, Evaluation, parse_evaluation
from ranchhand.lab.store import Store
from ranchhand.lab.trace import play_traced
from ranchhand.sim.simulate import Simulation

SIM = Simulation("rancho", ("greedy", "greedy"), 2, 5, (("max_turns", "300"),))
SEARCH = Evaluation("search", 6, 10)


def test_parse() -> None:
    assert parse_evaluation("game") == GAME
    assert parse_evaluation("search") == Evaluation("search", 32, 10)
    assert parse_evaluation("search:8") == Evaluation("search", 8, 10)
    with pytest.raises(OptionError, match="game or search"):
        parse_evaluation("mcts")
    with pytest.raises(OptionError, match=r"1\.\.10000"):
        parse_evaluation("search:0")


def test_the_same_game_read_by_a_search() -> None:
    """The game is the same; only Ludii's evaluated figures change, over every 10th move,
    and the search's reading repeats exactly."""
    plain = play_traced(SIM, 0)
    searched = play_traced(SIM, 0, SEARCH)
    assert searched.winners == plain.winners and searched.turns == plain.turns
    assert searched.decisions == plain.decisions and searched.flow == plain.flow
    moves = searched.moves
    assert moves.evaluated == -(-plain.decisions // 10) and plain.moves.evaluated == plain.decisions
    assert moves.lead_change is not None and 0 < moves.lead_change <= 1
    assert moves.uncertainty is not None and 0 <= moves.uncertainty <= 1
    assert play_traced(SIM, 0, SEARCH) == searched


def test_a_search_read_cell_is_another_cell(tmp_path: Path) -> None:
    with Store(tmp_path / "e.sqlite") as store:
        plain = run_cell(SIM, Backend(1), store)
        searched = run_cell(SIM, Backend(1), store, evaluation=SEARCH)
        assert plain.cell is not None and searched.cell is not None
        assert searched.cell.id != plain.cell.id and searched.played == 2
        assert searched.cell.version.endswith("+search6x10")
        (first, _) = store.games(searched.cell, 2)
        assert first.moves.evaluated == -(-first.decisions // 10)
