"""A recorded game replays to the same end: the rules have not drifted.

The record (3 players, seed 7: greedy, random, greedy) was made with
``ranchhand.core.play(..., record=True)``. Regenerate it only on purpose, when a
rule change is meant to change games: see ``regenerate`` below.
"""

from __future__ import annotations

from pathlib import Path

from ranchhand.bots import RandomBot
from ranchhand.core import Record, play, replay
from ranchhand.games.rocket_ranchers.bots import GreedyBot
from ranchhand.games.rocket_ranchers.game import RocketGame

GOLDEN = Path(__file__).parent / "golden" / "greedy-random-greedy-seed7.json"


def regenerate() -> None:  # pragma: no cover - run by hand after an intended rule change
    game = RocketGame(3)
    seats = [GreedyBot(), RandomBot(), GreedyBot()]
    result = play(game, seats, seed=7, record=True, seat_names=["greedy", "random", "greedy"])
    assert result.record is not None
    result.record.save(GOLDEN)


def test_the_golden_record_replays_to_its_outcome() -> None:
    record = Record.load(GOLDEN)
    final = replay(record)
    outcome = final.outcome()
    assert outcome is not None and outcome == record.outcome
    assert outcome.winners == (2,) and outcome.scores == (54.0, -5.0, 58.0)
    assert final.turn == record.turns and final.turn % 3 == 0
    assert final.deck_size == 0
