"""What the prompt prints back at 80 columns: help, refusals, numbers typed.

Each test drives the real prompt (``HumanSeat.choose``) with typed lines and reads
what an 80-column terminal would show.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from ranchhand.cli.play import HELP, HumanSeat, Table
from ranchhand.core.registry import game_module, load

GAMES = ("rancho", "rocket-ranchers", "glory-ranch")


def _prompt(game_id: str, typed: list[str], undoable: int = 0) -> tuple[str, object, object]:
    """Type ``typed`` (then the first legal action) at the first prompt of a 2-player
    game, pressing Enter at every page of a long text; the screen, the action chosen and
    the legal actions."""
    game = load(game_id, 2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes().actions[0])
    player = state.acting_players()[0]
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    table = Table(console, game_module(game_id).VIEW, game, {player}, ["human", "human"])
    answers = [*typed, str(state.legal_actions(player)[0])]
    seat = HumanSeat(table, lambda prompt: "" if prompt.startswith("-- lines") else answers.pop(0))
    chosen = seat.choose(state, player, undoable)
    return console.file.getvalue(), chosen, state.legal_actions(player)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", GAMES)
def test_help_fits_80_columns_without_ragged_lines(game_id: str) -> None:
    """The help panel's text is fitted before the panel draws it: no line of HELP or
    of the notation is cut at column 76 into an orphan of a word or two."""
    screen, _, _ = _prompt(game_id, ["help"])
    panel = [line for line in screen.splitlines() if line.startswith("│")]
    assert panel and all(len(line) <= 80 for line in screen.splitlines())
    body = [line[2:-2].rstrip() for line in panel]
    source = (HELP + "\n\n" + game_module(game_id).VIEW.notation).splitlines()
    # A word or two at the margin, cut from an indented line above it or from the
    # middle of a paragraph (a hanging continuation, a paragraph's end are fine).
    orphans = [
        line
        for before, line, after in zip(["", *body[:-1]], body, [*body[1:], ""], strict=True)
        if line[:1].strip()
        and len(line.split()) <= 2
        and line not in source
        and (before[:1] == " " or after[:1].strip())
    ]
    assert not orphans, "\n".join(body)
    for line in HELP.splitlines():
        assert line in body, f"HELP line rewrapped: {line!r}"


def test_rancho_notation_fits_the_help_panel_as_written() -> None:
    notation = game_module("rancho").VIEW.notation
    assert max(len(line) for line in notation.splitlines()) <= 76
    screen, _, _ = _prompt("rancho", ["help"])
    body = [line[2:-2].rstrip() for line in screen.splitlines() if line.startswith("│")]
    for line in notation.splitlines():
        assert line in body


def test_a_refusal_says_what_was_wrong_without_engine_context() -> None:
    """The player sees the reason and the closest actions, not 'rancho, turn 0,
    player 0:' nor the text typed echoed back (it is on the line above)."""
    screen, _, _ = _prompt("rancho", ["xyzzy"])
    assert "invalid action: unknown action 'xyzzy'" in screen
    assert "turn 0" not in screen.split("invalid action")[1]
    assert "player 0" not in screen
    assert "did you mean" in screen


@pytest.mark.parametrize("typed", ["２", "\u0662"])
def test_digits_of_any_script_pick_a_numbered_action(typed: str) -> None:
    _, chosen, legal = _prompt("rancho", [typed])
    assert chosen == legal[1]  # type: ignore[index]


def test_the_hint_line_names_every_command_when_undo_is_possible() -> None:
    """A new player who may undo still sees how to quit, see the board or the log."""
    screen, _, _ = _prompt("rancho", [], undoable=2)
    hint = next(line for line in screen.splitlines() if line.startswith("undo"))
    assert len(hint) <= 80
    words = hint.replace("·", " ").split()
    for command in ("undo", "help", "actions", "board", "log", "rules", "quit"):
        assert command in words, hint
    assert "2 actions" in hint
