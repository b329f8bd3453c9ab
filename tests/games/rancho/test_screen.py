"""The terminal drawing fits its budget on every board at every player count, and the
spectator's view."""

from __future__ import annotations

import io
import random

from rich.console import Console

from ranchhand.core import CHANCE
from ranchhand.core.view import BOARD_LINES, SCREEN_WIDTH, SUMMARY_LINES
from ranchhand.games.rancho import VIEW
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import RanchoState


def size(renderable: object) -> tuple[int, int, str]:
    """Lines and widest line of ``renderable`` drawn at 80 columns, and the text."""
    console = Console(width=SCREEN_WIDTH, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    text = console.export_text()
    lines = text.splitlines()
    return len(lines), max(len(line.rstrip()) for line in lines), text


def positions(players: int, board: str, seed: int, every: int = 7) -> list[RanchoState]:
    """Positions of a random game, every ``every`` steps, late ones crowded."""
    state = RanchoGame(players, board=board, dogs="all").new_initial_state()
    rng = random.Random(seed)
    seen = []
    for step in range(400):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            action = state.chance_outcomes().sample(rng)
        else:
            legal = state.legal_actions(player)
            # Buying and trading up more often than at random fills the board.
            deals = [a for a in legal if str(a).startswith(("buy", "trade"))]
            action = rng.choice(deals if deals and rng.random() < 0.7 else legal)
        state.apply(action, player)
        if step % every == 0 and state.current_player() != CHANCE:
            seen.append(state.clone())
    seen.append(state)
    return seen


def test_the_board_fits_its_lines_and_columns_everywhere() -> None:
    for board in ("hex-rings", "hex-compact"):
        for players in range(2, 7):
            for state in positions(players, board, seed=players):
                viewer = state.current_player() if state.current_player() >= 0 else None
                height, width, text = size(VIEW.render(state.observe(viewer)))
                assert height <= BOARD_LINES and width <= SCREEN_WIDTH, text
                if not state.is_terminal():
                    legal = state.legal_actions(state.current_player())
                    height, width, text = size(VIEW.render_actions_compact(legal))
                    assert height <= SUMMARY_LINES and width <= SCREEN_WIDTH, text


def test_the_legend_gives_the_marks_and_each_rings_price() -> None:
    _, _, text = size(VIEW.render(RanchoGame(6).new_initial_state().observe(0)))
    for mark in ("r6 6 rabbits", "S sheep", "C/H part of a cow/horse", "# pen", "^^ forest"):
        assert mark in text
    assert "2.x 1" in text and "3.x 2" in text and "4.x 4" in text
    _, _, text = size(
        VIEW.render(RanchoGame(6, board="hex-compact").new_initial_state().observe(0))
    )
    assert "1.x 1" in text and "2.x 2" in text and "3.x 4" in text
    assert "legend" not in VIEW.notation and "0r6" in VIEW.notation


def test_the_dice_always_say_whose_roll_they_were() -> None:
    state = RanchoGame(2).new_initial_state()
    _, _, text = size(VIEW.render(state.observe(0)))
    assert "Rolled" not in text and "Last roll" not in text  # no dice before the first roll
    state.apply_text("trade sheep > 6 rabbit")
    state.apply_text("roll")
    state.apply_text("roll rabbit+horse")
    _, _, text = size(VIEW.render(state.observe(0)))
    assert "Rolled by you: rabbit + horse" in text
    state.apply_text("end turn")
    _, _, text = size(VIEW.render(state.observe(1)))
    assert "Last roll, by P0: rabbit + horse" in text and "by you" not in text
    _, _, text = size(VIEW.render(state.observe(0)))
    assert "Last roll, by you" in text


def test_the_compact_actions_sum_up_moves_trades_and_purchases() -> None:
    state = RanchoGame(2).setup({"players": [{"animals": {"rabbit": 12}}, {}]})
    legal = state.legal_actions()
    _, _, text = size(VIEW.render_actions_compact(legal))
    lines = text.splitlines()
    assert lines[0].startswith("roll · roll and end turn")
    assert lines[1].startswith("trade ") and lines[2].startswith("buy 4.1/4.2 with 4 rabbit")


def test_the_spectator_sees_the_public_table() -> None:
    for state in positions(3, "hex-rings", seed=1, every=25):
        seen = state.observe(None)
        assert seen.player is None and seen is state.observe(None)
        data = seen.to_json()
        assert data["observer"] is None
        assert {**state.observe(0).to_json(), "observer": None} == data
        _, _, text = size(VIEW.render(seen))
        assert "*" not in text.split("\n")[0] and "P0*" not in text and "you" not in text


def test_the_board_command_draws_every_space_with_its_id() -> None:
    import io

    from rich.console import Console

    from ranchhand.games.rancho import GAME, VIEW

    game = GAME(4)
    state = game.new_initial_state()
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(VIEW.render_full(state.observe(1)))
    words = set(out.getvalue().split())
    assert {space.id for space in game.board.spaces} <= words
