"""The log in words: every Super Farmer action and roll said in plain sentences, players by
name and the viewer as "you", nothing of the notation."""

from __future__ import annotations

import random
import re

import pytest

from ranchhand.core import CHANCE
from ranchhand.core.registry import load
from ranchhand.games.super_farmer.actions import DiceRoll
from ranchhand.games.super_farmer.state import SuperFarmerState
from ranchhand.games.super_farmer.tables import BIG_DOG, FACES, FOX, SMALL_DOG
from ranchhand.games.super_farmer.words import told
from tests.games.super_farmer.helpers import table

NAMES = ("Ann", "Bob", "Cy", "Di")
NOTATION = re.compile(
    r"\b([2-9]|\d\d+) (rabbit|pig|cow|horse|small dog|big dog)\b|\w\+\w|[>]|\broll \w+\+"
)
"""Fragments of the notation ("3 rabbit", "roll pig+fox", ">") no sentence holds."""


def said(state: SuperFarmerState, text: str, viewer: int | None = None) -> str:
    """What ``text`` (the next action, or "wolf-die-face fox-die-face" for a roll) tells
    ``viewer`` in words; then it is applied."""
    player = state.current_player()
    if player == CHANCE:
        wolf, fox = text.split()
        action = DiceRoll(FACES.index(wolf), FACES.index(fox))
        assert state.is_legal(action, CHANCE)
    else:
        action = state.parse_action(text, player)
    before = state.to_json()
    words = state.describe_words(viewer, action, player, NAMES[: state.game.players])
    assert state.to_json() == before, "telling an action must not change the state"
    assert not NOTATION.search(words), words
    state.apply(action, player)
    return words


def test_a_trade_and_a_quiet_roll() -> None:
    state = table({"rabbit": 7}, {}, players=2)
    assert said(state, "trade 6 rabbit > sheep", viewer=1) == (
        "Ann traded 6 rabbits for a sheep with the herd."
    )
    assert said(state, "rabbit sheep", viewer=0) == (
        "You rolled a rabbit and a sheep and bred a rabbit and a sheep. It is Bob's turn."
    )
    assert said(state, "roll", viewer=0) == "Bob rolled the dice."
    assert (
        said(state, "pig pig", viewer=None)
        == "Bob rolled two pigs and bred a pig. It is Ann's turn."
    )


def test_the_fox_takes_the_rabbits_or_a_small_dog_goes_instead() -> None:
    state = table({"rabbit": 9, "sheep": 1}, {}, players=2)
    state.apply_text("roll")
    assert said(state, "sheep fox", viewer=0) == (
        "You rolled a sheep and a fox. The fox took 9 rabbits from you. You bred a sheep. "
        "It is Bob's turn."
    )
    state = table({"rabbit": 9, "small_dog": 2}, {}, players=2)
    state.apply_text("roll")
    assert said(state, "rabbit fox", viewer=1) == (
        "Ann rolled a rabbit and a fox. Ann gave up a small dog to keep the fox away. "
        "Ann bred 5 rabbits. It is your turn."
    )


def test_the_wolf_takes_the_herd_or_a_big_dog_goes_instead() -> None:
    state = table({"rabbit": 4, "sheep": 3, "cow": 1, "horse": 1, "small_dog": 1})
    state.apply_text("roll")
    assert said(state, "wolf horse", viewer=0) == (
        "You rolled a wolf and a horse. The wolf took 4 rabbits, 3 sheep and a cow from you. "
        "You bred a horse."
    )
    state = table({"rabbit": 4, "sheep": 3, "pig": 2, "big_dog": 1}, {}, players=2)
    state.apply_text("roll")
    assert said(state, "wolf rabbit", viewer=None) == (
        "Ann rolled a wolf and a rabbit. Ann gave up a big dog to keep the wolf away. "
        "Ann bred 2 rabbits. It is Bob's turn."
    )


def test_fox_and_wolf_together_and_nothing_to_take() -> None:
    state = table({"rabbit": 4, "sheep": 2, "horse": 1, "small_dog": 1, "big_dog": 1})
    state.apply_text("roll")
    assert said(state, "wolf fox", viewer=0) == (
        "You rolled a wolf and a fox. You gave up a small dog to keep the fox away. "
        "You gave up a big dog to keep the wolf away. You bred nothing."
    )
    state = table({"horse": 1}, {}, players=2)
    state.apply_text("roll")
    assert said(state, "wolf sheep", viewer=1) == (
        "Ann rolled a wolf and a sheep. The wolf found nothing to take. Ann bred nothing. "
        "It is your turn."
    )


def test_a_win_is_told() -> None:
    state = table({"rabbit": 1, "sheep": 1, "pig": 1, "cow": 3}, {}, players=2)
    assert said(state, "trade 2 cow > horse", viewer=1) == (
        "Ann traded 2 cows for a horse with the herd. Ann won with a full herd!"
    )
    state = table({"rabbit": 1, "sheep": 1, "cow": 1, "horse": 1}, {}, players=2)
    state.apply_text("roll")
    assert said(state, "pig pig", viewer=0) == (
        "You rolled two pigs and bred a pig. You won with a full herd!"
    )


OPTIONS = [{}, {"fox": "leave-one", "wolf": "takes-small-dog", "dog": "always"}]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_games_are_told_in_sentences(players: int, options: dict[str, str]) -> None:
    rng = random.Random(players)
    names = NAMES[:players]
    for _ in range(3):
        state = load("super-farmer", players, **options).new_initial_state()
        for _ in range(800):
            if state.is_terminal():
                break
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions(player))
            for viewer in (None, *range(players)):
                words = state.describe_words(viewer, action, player, names)
                assert words[0].isupper() and words[-1] in ".!", words
                assert not re.search(r"\bP\d\b", words), words
                assert not NOTATION.search(words), words
            facts, roller = told(state, action, player), state.player
            was = list(state.animals[roller])
            state.apply(action, player)
            if isinstance(action, DiceRoll):  # what the words say is what the roll did
                change = [0] * len(was)
                for predator, gave, lost in facts.strikes:
                    change[SMALL_DOG if predator == FOX else BIG_DOG] -= gave
                    change = [c - n for c, n in zip(change, lost, strict=True)]
                change = [c + n for c, n in zip(change, facts.bred or (), strict=True)]
                now = [w + c for w, c in zip(was, change, strict=True)]
                assert now == state.animals[roller], (action, facts)
                assert (facts.winner >= 0) == (state.winner >= 0)
