"""Bots that choose without looking are handed no observation, and choose the same."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from ranchhand.bots.random_bot import RandomBot
from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import play


class Witness:
    """Wraps a bot: asks it every choice twice, once with the observation and once as the
    runner would (None when it says it will not look), and checks both answers agree."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.unseen = self.seen = 0

    def bind(self, game: Any) -> None:
        bind = getattr(self.bot, "bind", None)
        if bind is not None:
            bind(game)

    def needs_observation(self, legal_actions: Sequence[Hashable]) -> bool:
        return True  # the witness itself always looks, to compare

    def act(self, observation: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        state = rng.getstate()
        looking = self.bot.act(observation, legal, rng)
        if self.bot.needs_observation(legal):
            self.seen += 1
            return looking
        self.unseen += 1
        after = rng.getstate()
        rng.setstate(state)
        blind = self.bot.act(None, legal, rng)
        assert blind == looking and rng.getstate() == after
        return blind


@pytest.mark.parametrize("game_id", ["rancho", "rocket-ranchers", "glory-ranch"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_choices_made_without_looking_are_the_choices_made_looking(game_id: str, bot: str) -> None:
    game = load(game_id, 3, max_turns=40)
    make = bot_factory(game_id, bot)
    witnesses = [Witness(make()) for _ in range(3)]
    play(game, witnesses, seed=5)
    unseen = sum(w.unseen for w in witnesses)
    if bot == "random":
        assert unseen > 0 and not any(w.seen for w in witnesses)
    elif game_id != "rancho":  # Rancho's greedy bot looks at every choice
        assert unseen > 0


def test_the_runner_hands_a_random_bot_no_observation() -> None:
    handed: list[Any] = []

    class Recording(RandomBot):
        def act(self, observation: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
            handed.append(observation)
            return super().act(observation, legal, rng)

    play(load("glory-ranch", 2, max_turns=5), [Recording(), Recording()], seed=1)
    assert handed and all(o is None for o in handed)
