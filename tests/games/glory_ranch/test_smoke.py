"""Random play reaches the end for every player count."""

from __future__ import annotations

import pytest

from ranchhand.bots import RandomBot
from ranchhand.core import play
from ranchhand.games.glory_ranch import GloryRanch


@pytest.mark.parametrize("players", range(2, 7))
def test_random_play_ends(players: int) -> None:
    result = play(GloryRanch(players), [RandomBot()] * players, seed=players)
    assert result.outcome.reason == "target reached"
    assert max(result.outcome.scores or ()) >= GloryRanch(players).target
