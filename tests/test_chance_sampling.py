"""Chance drawn from counts must be the draw the listed outcomes give, number for number."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from ranchhand.core import CHANCE
from ranchhand.core.chance import ChanceOutcomes, draw_weighted
from ranchhand.core.game import State
from ranchhand.core.registry import bot_factory, game_class, load
from ranchhand.core.runner import play

GAMES = ("rancho", "rocket-ranchers", "glory-ranch")


def _every_face(state: State) -> set[Hashable]:
    """Every chance action the game can name (drawn or not), to ask which are outcomes now."""
    game = state.game
    faces: set[Hashable] = set()
    for name in ("draws", "steals"):
        faces.update(getattr(game, name, ()))
    tables = getattr(state, "tables", None)
    if tables is not None:
        faces.update(tables.draws)
        faces.add(tables.draw_cat)
    return faces


@pytest.mark.parametrize("game_id", GAMES)
def test_sample_chance_draws_as_the_listed_outcomes_do(game_id: str) -> None:
    checked = 0

    def at_chance(state: State, player: int, action: Hashable) -> None:
        nonlocal checked
        if player != CHANCE:
            return
        outcomes = state.chance_outcomes()
        for seed in range(3):
            fast, listed = random.Random(seed), random.Random(seed)
            assert state.sample_chance(fast) == outcomes.sample(listed)
            assert fast.getstate() == listed.getstate()  # the same numbers consumed
        for face in _every_face(state) | set(outcomes.actions):
            assert state.is_legal(face, CHANCE) == (face in outcomes), face
        checked += 1

    cls = game_class(game_id)
    for players in (cls.min_players, cls.max_players):
        game = load(game_id, players, max_turns=40)
        make = bot_factory(game_id, "random")
        play(game, [make() for _ in range(players)], seed=players, listener=at_chance)
    assert checked > 20


def test_draw_weighted_matches_chance_outcomes_sample() -> None:
    rng = random.Random(7)
    for _ in range(200):
        weights = [rng.choice((0, 0, 1, 2, 5)) for _ in range(rng.randrange(1, 8))] + [1]
        positive = [(i, w) for i, w in enumerate(weights) if w]
        outcomes = ChanceOutcomes([i for i, _ in positive], [w for _, w in positive])
        seed = rng.randrange(1 << 30)
        assert draw_weighted(random.Random(seed), weights, sum(weights)) == outcomes.sample(
            random.Random(seed)
        )
