"""Rancho's "roll and end turn" at the terminal: newborns that do not fit go back without
a question when there is one way to make them fit; with several, the player is asked and
the screen says why."""

from __future__ import annotations

import io
import random

from rich.console import Console

import ranchhand
from ranchhand.cli.play import HumanSeat, Table
from ranchhand.core.registry import game_module
from ranchhand.games.rancho.actions import Roll
from ranchhand.games.rancho.state import RETURN, RanchoState


def _returning(choices: int) -> RanchoState:
    """A two-player game played at random (rolling with "roll and end turn" now and then)
    up to a return after "roll and end turn" with one choice, or with several."""
    for seed in range(200):
        state = ranchhand.load("rancho", 2).new_initial_state()
        rng = random.Random(seed)
        for _ in range(600):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply(state.chance_outcomes().sample(rng))
                continue
            player = state.acting_players()[0]
            legal = state.legal_actions(player)
            assert isinstance(state, RanchoState)
            if state.phase == RETURN and state.settled:
                if min(len(legal), 2) == choices:
                    return state
                break
            action = Roll(True) if Roll() in legal and rng.random() < 0.3 else rng.choice(legal)
            state.apply(action, player)
    raise AssertionError("no such position in 200 games")


def _seat(state: RanchoState, answers: list[str]) -> tuple[HumanSeat, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, color_system=None)
    player = state.acting_players()[0]
    table = Table(console, game_module("rancho").VIEW, state.game, {player}, ["Ann", "Bob"])
    return HumanSeat(table, lambda prompt: answers.pop(0)), out


def test_one_way_to_fit_is_taken_without_a_question() -> None:
    state = _returning(1)
    player = state.acting_players()[0]
    (only,) = state.legal_actions(player)
    seat, out = _seat(state, [])  # any question would pop from an empty list
    assert seat.choose(state, player) == only
    assert out.getvalue().strip() == f"Your newborns do not all fit: {only} (the only way)."


def test_several_ways_to_fit_ask_and_say_why() -> None:
    state = _returning(2)
    player = state.acting_players()[0]
    legal = state.legal_actions(player)
    seat, out = _seat(state, ["1"])
    assert seat.choose(state, player) == legal[0]
    screen = out.getvalue()
    assert f"P{player}'s newborns do not all fit; which go back is P{player}'s to choose." in screen
    assert max(len(line) for line in screen.splitlines()) <= 80
