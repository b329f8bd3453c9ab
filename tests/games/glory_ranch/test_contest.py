"""Rock-paper-scissors ties: replayed as the rulebook says, but never forever."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from ranchhand.bots.base import Bot
from ranchhand.core import SIMULTANEOUS, OptionError, play
from ranchhand.games.glory_ranch import GloryRanch
from ranchhand.games.glory_ranch.actions import Choose
from tests.games.glory_ranch.helpers import do, hand, table


class AlwaysRock(Bot):
    """Shows rock in every contest; otherwise plays the first legal action."""

    name = "always-rock"

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        return Choose("rock") if Choose("rock") in legal_actions else legal_actions[0]


def test_ties_replay_then_void_the_contest_at_the_limit() -> None:
    state = table(2, hands={0: ["duel", "plain", "fairy"]}, rps_ties=3)
    do(state, "play duel")
    for throw in (1, 2):
        state.apply_text("choose rock", 0)
        state.apply_text("choose rock", 1)
        assert state.current_player() == SIMULTANEOUS, throw
        assert state.stack[-1][4] == throw
        assert state.log[-1] == "P0 and P1 both show rock: again"
    state.apply_text("choose paper", 0)
    state.apply_text("choose paper", 1)
    assert state.log[-1] == "P0 and P1 both show paper: 3 ties, the contest is void"
    # nobody won: no card was given or stolen, and play goes on to player 1
    assert hand(state, 0) == ["fairy", "plain"]
    assert hand(state, 1) == ["plain", "plain"]
    assert state.current_player() == 1


def test_a_win_after_ties_resolves_normally() -> None:
    state = table(2, hands={0: ["duel", "fairy", "fairy"]}, rps_ties=2)
    do(state, "play duel")
    do(state, "choose rock", player=0)
    do(state, "choose rock", player=1)
    do(state, "choose scissors", player=0)
    do(state, "choose paper", player=1)
    assert "P0 shows scissors, P1 shows paper: P0 wins" in state.log


def test_the_limit_is_an_option_with_bounds() -> None:
    assert GloryRanch(2).rps_ties == 10
    assert GloryRanch(2, rps_ties="4").rps_ties == 4
    with pytest.raises(OptionError, match="rps_ties: 0 is below the minimum 1"):
        GloryRanch(2, rps_ties=0)


@pytest.mark.parametrize("max_turns", [0, 50])
@pytest.mark.parametrize("players", [2, 4])
def test_bots_that_always_show_rock_finish_their_games(players: int, max_turns: int) -> None:
    game = GloryRanch(players, max_turns=max_turns)
    result = play(game, [AlwaysRock() for _ in range(players)], seed=players)
    if max_turns:
        assert result.turns <= max_turns
        assert result.outcome.truncated or result.outcome.reason == "target reached"
    else:
        assert result.outcome.reason == "target reached"
