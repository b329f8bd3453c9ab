"""The greedy bot: legal under every option, clearly better than random, sensible choices."""

from __future__ import annotations

import random

import pytest

from ranchhand.bots import RandomBot
from ranchhand.core import play, replay
from ranchhand.games.rocket_ranchers.actions import REBOOT, Beam, Dogship
from ranchhand.games.rocket_ranchers.bots import GreedyBot
from ranchhand.games.rocket_ranchers.game import RocketGame
from tests.games.rocket_ranchers.helpers import position, table

OPTION_SETS = [
    {},
    {"abundance_table": "scoring-card", "abundance_counts": "dots"},
    {"variety_counts": "all", "cat_chain": True},
    {"corral_scoring": "variety"},
]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [2, 5])
def test_greedy_plays_whole_games_under_every_option(players: int, options: dict) -> None:
    game = RocketGame(players, **options)
    result = play(game, [GreedyBot() for _ in range(players)], seed=players, record=True)
    assert result.record is not None
    assert replay(result.record).outcome() == result.outcome


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_beats_random_clearly(players: int) -> None:
    game = RocketGame(players)
    wins = 0
    games = 12
    for seed in range(games):
        seat = seed % players
        seats = [GreedyBot() if p == seat else RandomBot() for p in range(players)]
        wins += play(game, seats, seed=seed).outcome.winners == (seat,)
    assert wins >= games - 1


def test_greedy_takes_cards_for_its_corral() -> None:
    named = {
        "c3": "kow/tundra/2",
        "d3": "kow/desert/2",
        "c4": "kow/jungle/1",
        "d4": "kow/mountains/2",
    }
    corral = {"founder": "bako/desert/3", "face_up": ["kow/grassland/1"]}
    state = position(named, seats=[{"corrals": [corral], "dogship_up": False}])
    action = GreedyBot().act(state.observe(0), state.legal_actions(), random.Random(0))
    assert action == Beam("O4", 0, "c3")


def test_greedy_avoids_leading_on_space_cats_late() -> None:
    state = table({"a1": "cat", "b1": "kow/tundra/2", "a2": "cat"})
    state.floof = [3, 3]
    state.set_deck({"woolbee/tundra/2": 1})
    action = GreedyBot().act(state.observe(0), state.legal_actions(), random.Random(0))
    assert isinstance(action, Beam | Dogship)
    if isinstance(action, Beam):
        assert "a1" not in action.cell


def test_greedy_reboots_when_every_face_up_beam_loses_points() -> None:
    checkerboard = {f"{c}{r}": "cat" for r in range(1, 5) for c in "abcd"[(r + 1) % 2 :: 2]}
    state = position(  # only the line of 2 is face up, and it always meets a cat
        checkerboard, seats=[{"floof": 3, "beams_up": ["I2"], "dogship_up": False}]
    )  # the bot already has the most Space Cats: every cat costs it
    action = GreedyBot().act(state.observe(0), state.legal_actions(), random.Random(0))
    assert action == REBOOT
