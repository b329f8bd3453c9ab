"""The board fits its share of an 80x24 screen; the end screen breaks every score down."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from ranchhand.core import CHANCE
from ranchhand.core.view import BOARD_LINES, SUMMARY_LINES
from ranchhand.games.rocket_ranchers import VIEW
from ranchhand.games.rocket_ranchers.bots import GreedyBot
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.observation import RocketObservation
from ranchhand.games.rocket_ranchers.scoring import score_corral
from ranchhand.games.rocket_ranchers.state import RocketState


def _lines(renderable: object, width: int = 80) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


def _played(players: int, seed: int, greedy: bool, every: int = 1) -> list[RocketState]:
    """Every ``every``-th decision of one game (random or greedy players), and its end."""
    state = RocketGame(players).new_initial_state()
    rng = random.Random(seed)
    bot = GreedyBot()
    seen = []
    decisions = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
            continue
        if decisions % every == 0:
            seen.append(state.clone())
        decisions += 1
        legal = state.legal_actions()
        state.apply(bot.act(state.observe(player), legal, rng) if greedy else rng.choice(legal))
    seen.append(state)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_board_fits_16_lines_of_80_columns_in_every_position(players: int) -> None:
    """Random players found the most corrals, greedy ones fill them: both, sampled."""
    for seed, greedy in ((players, False), (players + 10, True)):
        states = _played(players, seed, greedy, every=6)
        for index, state in enumerate(states[:-1]):
            viewer = None if index % 3 == 2 else state.current_player()
            board = _lines(VIEW.render(state.observe(viewer)))
            assert len(board) <= BOARD_LINES, "\n".join(board)
            assert max(len(line) for line in board) <= 80, "\n".join(board)
            summary = _lines(VIEW.render_actions_compact(state.legal_actions(), 80))
            assert len(summary) <= SUMMARY_LINES and max(map(len, summary)) <= 80, summary
        wide = _lines(VIEW.render(states[-2].observe(0)), 140)
        assert len(wide) <= BOARD_LINES and max(map(len, wide)) <= 140


def test_the_board_says_whose_turn_what_to_do_and_the_deck() -> None:
    state = _played(3, 1, True, every=12)[1]
    board = _lines(VIEW.render(state.observe(state.current_player())))
    assert board[0].startswith(f"Turn {state.turn} · P{state.current_player()} (you) to play")
    assert f"deck {state.deck_size} ({state.deck_cats} cats)" in board[0]
    assert board[1].split() == ["a", "b", "c", "d"]
    assert [line[:2] for line in board[2:6]] == ["1 ", "2 ", "3 ", "4 "]
    scores = state.observe(0).scores()
    for player in range(3):
        line = next(line for line in board if line[2:].startswith(f"P{player} "))
        assert f" {scores[player].total} " in line


def _finished(corrals: tuple, floof: tuple, deck: int = 0, turn: int = 40) -> RocketObservation:
    game = RocketGame(2)
    return RocketObservation(
        player=0,
        tables=game.tables,
        options=game.options,
        current=-4,
        phase="start",
        display=(-1,) * 16,
        corrals=corrals,
        floof=floof,
        beams=(15, 15),
        dogship=(True, True),
        pending=(),
        deck_size=deck,
        deck_cats=0,
        turn=turn,
        over=True,
    )


def test_the_end_screen_breaks_each_score_down_by_corral() -> None:
    kind = RocketGame(2).tables.kind_by_text.__getitem__
    kows = tuple(kind(f"kow/{b}/{d}") for b in ("desert", "grassland") for d in (1, 2))
    woolbees = tuple(kind(f"woolbee/{b}/1") for b in ("desert", "jungle", "tundra"))
    obs = _finished(
        (
            ((kind("kelk/tundra/2"), (*kows, kind("kow/desert/3"))), (kind("bako/desert/1"), ())),
            ((kind("flama/jungle/2"), woolbees),),
        ),
        (3, 1),
    )
    screen = "\n".join(_lines(VIEW.render(obs)))
    assert screen.startswith("Game over after 40 turns · P1 wins with 10 points")
    assert "P0 (you): 7 = Abundance 12 + Variety 0 + Space Cats -5 (3 cats: the most)" in screen
    assert "★ P1: 10 = Abundance 0 + Variety 8 + Space Cats 2 (1 cat: 2 each)" in screen
    assert "1▒Kel●●T Kow DDGGD A12" in screen  # five Kows: Abundance 12, founder turned up
    assert "2▒Bak●D 0" in screen  # founding card alone: nothing either way
    assert "1▒Fla●●J Woo DJT V8" in screen  # three biomes: Variety 8
    assert not re.search(r"\d\.0\b", screen)


def test_the_end_screen_names_the_tie_break_or_says_there_is_no_winner() -> None:
    kind = RocketGame(2).tables.kind_by_text.__getitem__
    one = ((kind("kelk/tundra/2"), ()),)
    other = ((kind("flama/jungle/2"), ()),)
    tie = "\n".join(_lines(VIEW.render(_finished((one, other), (0, 0)))))
    assert tie.startswith("Game over after 40 turns · P1 wins with -5 points (tie: the later seat)")
    stopped = "\n".join(_lines(VIEW.render(_finished((one, other), (0, 0), deck=20))))
    assert "no winner" in stopped.splitlines()[0] and "★" not in stopped


def test_the_end_screen_of_a_played_game_agrees_with_the_outcome() -> None:
    state = _played(4, 3, True)[-1]
    outcome = state.outcome()
    assert outcome is not None and not outcome.truncated
    details = state.details()
    screen = "\n".join(_lines(VIEW.render(state.observe(1))))
    best = outcome.winners[0]
    assert (
        f"P{best}{' (you)' if best == 1 else ''} wins with {details['score'][best]} points"
        in (screen.splitlines()[0])
    )
    for player in range(4):
        assert (
            f"{details['score'][player]} = Abundance {details['abundance'][player]} + Variety "
            f"{details['variety'][player]} + Space Cats {details['cats'][player]} "
        ) in screen
        for number, corral in enumerate(state.corrals[player], start=1):
            score = score_corral(state.tables, state.game.options, corral)
            way = f"{score.scored_as[0].upper()}{score.points}" if score.points else "0"
            assert re.search(rf"\b{number}▒\S+ [^\n]*?{way}\b", screen)
    assert not re.search(r"\d\.0\b", screen)
