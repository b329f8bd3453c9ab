"""The log in words, run against every registered game at 2 and 4 players:
``describe_words`` never raises and tells each viewer nothing ``describe_for`` hides.

Two checks of "nothing more": actions (or chance outcomes) whose notation reads the same
to a viewer are told to that viewer in the same words; and a state resampled for the
viewer (its hidden cards redrawn, :meth:`State.resample`) tells the viewer the same
words for the same action wherever it tells the same notation.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable

import pytest

from ranchhand.core import CHANCE, GameDefinitionError, State
from ranchhand.core.registry import GAME_MODULES, game_class, load

GAMES = sorted(GAME_MODULES)
CASES = [
    (game, players)
    for game in GAMES
    for players in (2, 4)
    if game_class(game).min_players <= players <= game_class(game).max_players
]
NAMES = ("Ann", "Bob", "Cy", "Di")
STEPS = 160
"""Steps of each random game checked (the first ones hold every kind of turn)."""
COMPARED = 8
"""Actions compared at each step, at most (chance nodes may offer hundreds)."""


def _candidates(state: State, player: int, rng: random.Random) -> list[Hashable]:
    if player == CHANCE:
        outcomes = [action for action, _ in state.chance_outcomes()]
    else:
        outcomes = list(state.legal_actions(player))
    return rng.sample(outcomes, min(COMPARED, len(outcomes)))


def _mover(state: State) -> int:
    player = state.current_player()
    return player if player == CHANCE else state.acting_players()[0]


def _resampled(state: State, viewer: int, rng: random.Random) -> State | None:
    try:
        return state.resample(viewer, rng)
    except GameDefinitionError:
        return None


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_words_tell_nothing_the_notation_hides(game_id: str, players: int) -> None:
    rng = random.Random(f"{game_id}/{players}")
    names = NAMES[:players]
    state = load(game_id, players).new_initial_state()
    viewers: list[int | None] = [None, *range(players)]
    for step in range(STEPS):
        if state.is_terminal():
            break
        player = _mover(state)
        for viewer in viewers:
            heard: dict[str, set[str]] = defaultdict(set)
            for action in _candidates(state, player, rng):
                words = state.describe_words(viewer, action, player, names)
                assert isinstance(words, str) and words.strip(), (game_id, action)
                heard[state.describe_for(viewer, action, player)].add(words)
            told_apart = {line: said for line, said in heard.items() if len(said) > 1}
            assert not told_apart, f"{game_id}, viewer {viewer}: {told_apart}"
        action = state.sample_chance(rng) if player == CHANCE else None
        if action is None:
            action = rng.choice(state.legal_actions(player))
        if step % 4 == 0:
            for viewer in range(players):
                other = _resampled(state, viewer, rng)
                if other is None or not other.is_legal(action, player):
                    continue
                line = state.describe_for(viewer, action, player)
                if other.describe_for(viewer, action, player) != line:
                    continue
                assert other.describe_words(viewer, action, player, names) == (
                    state.describe_words(viewer, action, player, names)
                ), f"{game_id}: viewer {viewer} told apart what {line!r} hides"
        state.apply(action, player)
