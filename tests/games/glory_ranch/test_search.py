"""The search bot (ismcts) in Glory Ranch: it finds a win one move deep."""

from __future__ import annotations

import random

from ranchhand.bots.ismcts import ISMCTSBot
from ranchhand.core import CHANCE
from ranchhand.games.glory_ranch import GloryRanch, GloryState

# Round 2, P0 to play, target 50. Caladrius discards P0's two other cards: the hand is
# empty, the round ends and P0 scores Wyvern + Roc = 10 -> 55 against P1's 40 + 12 - 3 = 49.
# Anything else lets P1 play their only card, the Roc, go out and score 18 -> 58: P1 wins.
FORCED = {
    "round": 2,
    "current": 0,
    "player": [
        {"hand": ["caladrius", "phoenix", "hearth-drake"], "ranch": ["wyvern", "roc"], "total": 45},
        {"hand": ["roc"], "ranch": ["lindworm", "lindworm"], "total": 40},
    ],
}


def _finish(state: GloryState, rng: random.Random) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.chance_outcomes().sample(rng), CHANCE)
        else:
            player = state.acting_players()[0]
            state.apply(rng.choice(state.legal_actions(player)), player)


def test_the_position_is_a_win_in_one_and_a_loss_otherwise() -> None:
    state = GloryRanch(2).setup(FORCED)
    for action in state.legal_actions(0):
        for seed in range(5):
            line = state.clone()
            line.apply(action, 0)
            _finish(line, random.Random(seed))
            winners = line.outcome().winners  # type: ignore[union-attr]
            assert winners == ((0,) if str(action) == "play caladrius" else (1,)), action


def test_ismcts_finds_the_win_in_one() -> None:
    game = GloryRanch(2)
    state = game.setup(FORCED)
    for seed in range(3):
        bot = ISMCTSBot(game, iterations=60, time_cap=None)
        action = bot.act(state.observe(0), state.legal_actions(0), random.Random(seed))
        assert str(action) == "play caladrius"
