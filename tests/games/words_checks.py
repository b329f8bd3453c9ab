"""The check shared by the per-game tests of the log in words (Glory Ranch, Rocket Ranchers).

``play_telling`` plays a random game and, at every step and for every viewer (seats and
the spectator), tells the action in words on positions the viewer cannot tell apart: the
real one with every outcome of a chance node, and every few steps positions rebuilt from
the viewer's observation (the game's determinization, made ready by the caller so the
action is legal there). Where two of them get the same ``describe_for`` line they must get
the same words; every sentence must pass the caller's ``check`` (no notation, no card the
line does not name).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from ranchhand.core import CHANCE, State

S = TypeVar("S", bound=State)


def play_telling(
    state: S,
    names: Sequence[str],
    rng: random.Random,
    variants: Callable[[S, int | None, Hashable, int, random.Random], list[S]],
    check: Callable[[S, str, str], None],
    steps: int = 10_000,
    every: int = 3,
) -> int:
    """Play ``state`` on at random for at most ``steps`` steps, checking as the module
    says (``variants``: positions the viewer cannot tell from the state where the action
    is legal; ``check``: one position's words against its ``describe_for`` line); the
    number of steps played."""
    viewers = (None, *range(state.game.players))
    played = 0
    while not state.is_terminal() and played < steps:
        player = CHANCE if state.is_chance_node() else rng.choice(state.acting_players())
        if player == CHANCE:
            action = state.chance_outcomes().sample(rng)
            options = list(state.chance_outcomes().actions)
        else:
            action = rng.choice(state.legal_actions(player))
            options = [action]
        for viewer in viewers:
            cases = [(state, a) for a in options]
            if played % every == 0:
                cases += [(v, action) for v in variants(state, viewer, action, player, rng)]
            heard: dict[str, str] = {}
            for position, act in cases:
                line = position.describe_for(viewer, act, player)
                said = position.describe_words(viewer, act, player, names)
                assert said.strip(), (viewer, act)
                check(position, line, said)
                assert heard.setdefault(line, said) == said, (viewer, line, heard[line], said)
        state.apply(action, player)
        played += 1
    return played
