"""A face-down founding card stays secret: in the log, the observation and the terminal view.

The standard deck has one copy of each card, so a card's text names exactly one
card: if it appears in what a viewer gets while it lies face down in another
player's corral, the secret leaked.
"""

from __future__ import annotations

import io
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from ranchhand.core import CHANCE
from ranchhand.games.rocket_ranchers import VIEW
from ranchhand.games.rocket_ranchers.actions import Form
from ranchhand.games.rocket_ranchers.board import founder_text
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState
from ranchhand.games.rocket_ranchers.tables import HIDDEN
from tests.games.rocket_ranchers.helpers import table

CARD = re.compile(r"[a-z]+/[a-z]+/[0-9]")


def _text(renderable: object) -> str:
    console = Console(width=400, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _hidden_from(state: RocketState, viewer: int | None) -> set[str]:
    """The founding cards ``viewer`` may not see now (all of them for a shared screen)."""
    return {
        state.tables.text[founder]
        for seat, mine in enumerate(state.corrals)
        if seat != viewer
        for founder, _ in mine
    }


def _founder_on_screen(state: RocketState, kind: int) -> str:
    """How the view draws a revealed founding card in a corral: '▒Kow●●T'."""
    return founder_text(state.tables, kind).plain


def _check_view(state: RocketState) -> None:
    """Each player's screen shows their own founders and, before the end, no one else's."""
    over = state.is_terminal()
    for viewer in range(state.game.players):
        shown = _text(VIEW.render(state.observe(viewer)))
        for seat, mine in enumerate(state.corrals):
            for founder, _ in mine:
                drawn = _founder_on_screen(state, founder) in shown
                assert drawn == (over or seat == viewer), (viewer, seat, founder)


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_no_viewer_but_the_owner_is_told_a_founding_card(players: int, seed: int) -> None:
    state = RocketGame(players).new_initial_state()
    rng = random.Random(seed)
    views = set(rng.sample(range(40, 400), 2))
    step = 0
    while not state.is_terminal():
        actor = state.current_player()
        action = (
            state.chance_outcomes().sample(rng)
            if actor == CHANCE
            else rng.choice(state.legal_actions())
        )
        for viewer in [None, *range(players)]:
            text = state.describe_for(viewer, action, actor)
            if viewer == actor:
                assert text.startswith(str(action))
                continue
            secret = _hidden_from(state, viewer)
            if isinstance(action, Form):
                secret.add(action.card)
                assert not CARD.search(text), text
            assert not secret & set(CARD.findall(text)), (viewer, text)
        if step in views:
            _check_view(state)
        state.apply(action, actor)
        step += 1
    _check_view(state)


def test_form_is_logged_as_a_face_down_corral_for_the_others() -> None:
    state = table({"a1": "kow/mountains/1", "b1": "bako/desert/3"}, players=3)
    state.apply_text("beam I2 r0 @a1")
    action = state.parse_action("form kow/mountains/1")
    assert state.describe_for(0, action, 0) == "form kow/mountains/1, face down as corral 1"
    for viewer in (1, 2, None):
        assert state.describe_for(viewer, action, 0) == "forms corral 1 with a face-down card"
    state.apply(action)
    occupy = state.parse_action("occupy bako/desert/3 in 1")
    assert state.describe_for(1, occupy, 0).startswith("occupy bako/desert/3 in 1")  # face up


def test_the_terminal_log_keeps_the_founding_card_from_the_other_seat() -> None:
    """The 'since your last turn' panel is built from describe_for, one line per viewer."""
    from ranchhand.cli.play import Table

    state = table({"a1": "kow/mountains/1", "b1": "bako/desert/3"})
    game = state.game
    log = Table(Console(file=io.StringIO()), VIEW, game, {0, 1}, ["human", "human"])
    for text in ("beam I2 r0 @a1", "form kow/mountains/1", "form bako/desert/3"):
        action = state.parse_action(text)
        log.note(state, 0, action)
        state.apply(action)
    seen_by_other = "\n".join(log.since_last_turn(1, state))
    seen_by_owner = "\n".join(log.since_last_turn(0, state))
    assert "kow/mountains/1" not in seen_by_other and "bako/desert/3" not in seen_by_other
    assert "forms corral 1 with a face-down card" in seen_by_other
    assert "forms corral 2 with a face-down card" in seen_by_other
    assert "form kow/mountains/1" in seen_by_owner


def test_the_founding_cards_are_turned_up_when_the_game_ends() -> None:
    state = RocketGame(2).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    founders = [[state.tables.text[f] for f, _ in mine] for mine in state.corrals]
    assert any(founders)
    for viewer in (0, 1):
        seen = state.observe(viewer).to_json()
        assert seen["over"] is True
        assert [[c["founder"] for c in mine] for mine in seen["corrals"]] == founders


def test_the_spectator_sees_what_every_non_owner_sees_and_no_founding_card() -> None:
    """``observe(None)``: the table as it shows to nobody in particular (the server's view)."""
    state = RocketGame(3).new_initial_state()
    rng = random.Random(11)
    checked = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
            continue
        if rng.random() < 0.1:
            seen = state.observe(None)
            assert seen.player is None and seen.to_json()["player"] is None
            assert all(founder == HIDDEN for mine in seen.corrals for founder, _ in mine)
            for seat in range(3):
                for other in range(3):
                    if other != seat:
                        assert state.observe(other).corrals[seat] == seen.corrals[seat]
            mine = state.observe(0)
            assert seen.to_json() | {"player": 0, "corrals": None} == mine.to_json() | {
                "corrals": None
            }
            shown = _text(VIEW.render(seen))
            assert "spectator" in shown.splitlines()[0] and " you" not in shown
            for corrals in state.corrals:
                for founder, _ in corrals:
                    assert _founder_on_screen(state, founder) not in shown
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 5
    final = state.observe(None)
    assert final.corrals == tuple(tuple(mine) for mine in state.corrals)
