"""The board fits its share of an 80x24 screen at every player count; what it shows."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from ranchhand.core import CHANCE
from ranchhand.core.view import BOARD_LINES, SUMMARY_LINES
from ranchhand.games.glory_ranch import BOTS, VIEW, GloryRanch, GloryState
from ranchhand.games.glory_ranch.board import Board
from ranchhand.games.glory_ranch.shorttext import family_codes, short_text
from tests.games.glory_ranch.helpers import do, table

GREEDY = BOTS["greedy"]()


def _lines(renderable: object, width: int = 80) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


def _positions(players: int, seed: int, every: int) -> list[GloryState]:
    """Every ``every``-th decision of a game of greedy and random players, and its end."""
    state = GloryRanch(players).new_initial_state()
    rng = random.Random(seed)
    seen, decisions = [], 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
            continue
        player = state.acting_players()[0]
        if decisions % every == 0:
            seen.append(state.clone())
        decisions += 1
        legal = state.legal_actions(player)
        greedy = rng.random() < 0.5
        action = GREEDY.act(state.observe(player), legal, rng) if greedy else rng.choice(legal)
        state.apply(action, player)
    seen.append(state)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_board_fits_16_lines_of_80_columns_in_every_position(players: int) -> None:
    checked = 0
    for seed in range(3):
        for index, state in enumerate(_positions(players, seed, every=3)):
            acting = state.acting_players()
            viewer = None if index % 4 == 3 or not acting else acting[0]
            board = _lines(VIEW.render(state.observe(viewer)))
            assert len(board) <= BOARD_LINES, "\n".join(board)
            assert max(len(line) for line in board) <= 80, "\n".join(board)
            legal = state.legal_actions(acting[0]) if acting else []
            summary = _lines(VIEW.render_actions_compact(legal, 80))
            assert len(summary) <= SUMMARY_LINES and max(map(len, summary)) <= 80, summary
            checked += 1
    assert checked > 30


def test_a_crowded_ranch_shows_every_position_even_at_six_players() -> None:
    full = ["questing-beast", "hearth-drake", "catoblepas", "thunderbird", "wolpertinger", "roc"]
    state = table(
        6,
        hands={0: ["cinder-wyrm", "wyvern", "selkie", "pixie", "brownie", "kraken", "lindworm"]},
        ranches={p: full for p in range(6)},
        vocabulary=False,
    )
    state.shields = [[0] * 6 for _ in range(6)]
    do(state, "play cinder-wyrm")
    board = _lines(VIEW.render(state.observe(0)))
    assert len(board) <= BOARD_LINES and max(map(len, board)) <= 80, "\n".join(board)
    text = "\n".join(board)
    starts = [i for i, line in enumerate(board) if line[1:3] in {f"P{p}" for p in range(6)}]
    for seat, (start, end) in enumerate(zip(starts, [*starts[1:], len(board) - 1], strict=True)):
        block = " ".join(board[start:end])
        positions = range(1, 8 if seat == 0 else 7)
        assert all(f" {slot} " in block for slot in positions), block
    assert "7 Cinder Wyrm D4" in text  # the card just played, at position 7


def test_the_board_names_families_and_hour_glasses() -> None:
    state = table(
        2,
        hands={0: ["hearth-drake", "roc"]},
        ranches={1: ["selkie", "kraken"]},
        vocabulary=False,
    )
    state.shields[1] = [1, 0]
    board = _lines(VIEW.render(state.observe(0)))
    assert board[0].startswith("Round 1 · target 50 · play → clockwise · deck")
    assert board[1].startswith("D dragon  F fae  B beast  Sp spirit  Se sea  Sk sky")
    assert " P1       0pt hand 2 │ 1 Selkie Se2⧗*  2 Kraken Se3⧗" in board
    hand = "\n".join(board[4:])
    assert "Hearth Drake   D3 -2" in hand and "Roc           Sk5 -3" in hand
    assert "protect a ranch card; ⧗+1 per dragon" in hand  # too long in full: shorthand
    assert board[-1] == "Now: player 0 plays a card from their hand  (your move)"


def test_family_codes_are_the_shortest_prefixes_nobody_shares() -> None:
    assert family_codes(("sea", "sky", "spirit")) == {"sea": "Se", "sky": "Sk", "spirit": "Sp"}
    assert family_codes(("ox", "oxen")) == {"ox": "Ox", "oxen": "Oxe"}
    cards = GloryRanch(2).deck.by_id()
    assert short_text(cards["kappa"]) == "RPS with a player: loser draws 2"
    assert short_text(cards["merrow"]) == "all pass 1 right; reverse play"
    assert short_text(cards["wolpertinger"]) == "⧗+1 per family"


def test_an_empty_ranch_shows_the_last_round_in_parts() -> None:
    state = GloryRanch(2, target=40).setup(
        {"player": [{"hand": ["roc"], "ranch": ["selkie", "hippocamp"]}, {"hand": ["kraken"]}]}
    )
    do(state, "play roc")  # P0's hand is empty: the round ends
    last = state.observe(1).last_round
    # Selkie +1 per Sea (2), Hippocamp +2 per Sea beside (the Selkie), Roc +1 at the right
    assert last == {
        "round": 1,
        "ranches": [["selkie", "hippocamp", "roc"], []],
        "turns": 1,
        "glory": [10, 0],
        "bonus": [5, 0],
        "penalty": [0, 5],
        "points": [15, -5],
        "totals": [15, 0],
        "winners": [0],
    }
    board = "\n".join(_lines(VIEW.render(state.observe(1))))
    assert "round 1: ranch 10 ⧗+5 hand -0 = +15" in board
    assert "round 1: ranch 0 ⧗+0 hand -5 = -5" in board


def test_the_end_screen_names_the_winner_and_breaks_every_score_down() -> None:
    state = GloryRanch(3, target=10).setup(
        {
            "round": 2,
            "current": 1,
            "player": [
                {"hand": ["pixie"], "total": 4},
                {"hand": ["roc"], "ranch": ["lindworm"], "total": 6},
                {"hand": ["kraken", "puck"], "ranch": ["selkie"]},
            ],
        }
    )
    do(state, "play roc")
    assert state.is_terminal()
    board = _lines(VIEW.render(state.observe(None)))
    assert board[0] == "Game over after round 2 · P1 wins with 18 (target 10)"
    assert "★P1: round 2 ranch 11 ⧗+1 hand -0 = +12, total 18" in board
    assert " P0: round 2 ranch 0 ⧗+0 hand -1 = -1, total 3" in board
    assert " P2: round 2 ranch 2 ⧗+1 hand -7 = -4, total 0" in board
    assert len(board) <= BOARD_LINES


def test_the_compact_summary_groups_each_kind_of_action_in_a_line() -> None:
    state = table(
        3,
        hands={0: ["cinder-wyrm", "roc"]},
        ranches={1: ["pixie", "roc", "selkie"], 2: ["puck"]},
        vocabulary=False,
    )
    state.shields[1] = [0, 1, 0]
    do(state, "play cinder-wyrm")
    summary = _lines(VIEW.render_actions_compact(state.legal_actions(), 80))
    assert summary == ["pick SEAT:POSITION, one of 1:1,3, 2:1"]
    state = table(3, hands={0: ["draw-chosen", "plain"]})
    do(state, "play draw-chosen")
    assert _lines(VIEW.render_actions_compact(state.legal_actions(), 80)) == ["target P1, P2"]
    many = GloryRanch(2).ids
    from ranchhand.games.glory_ranch.actions import HandCard

    line = _lines(VIEW.render_actions_compact([HandCard("play", c) for c in many], 40))
    assert len(line) == 1 and line[0].startswith("play wyvern, ") and "more)" in line[0]


def test_the_board_object_lays_out_for_a_wider_screen() -> None:
    state = _positions(6, 1, every=20)[3]
    board = Board(state.observe(0))
    wide = board.lines(140)
    assert len(wide) <= BOARD_LINES and max(line.cell_len for line in wide) <= 140
