"""``help``, ``rules``, ``log`` and ``board`` page a text taller than the screen: at 80x24
each page is at most 23 lines with the pager's prompt on the 24th; Enter shows the next,
``q`` goes back to the game, and a command typed there is run (nothing typed is lost)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from ranchhand.cli.play import MORE, HumanSeat, Table
from ranchhand.core.registry import game_module, load

PAGER = MORE.split("{")[0]


def _at_prompt(
    game_id: str, typed: list[str], height: int = 24, terminal: bool = False
) -> tuple[list[str], list[str], object]:
    """Type ``typed`` at the first prompt of a two-player game on a WIDTHx``height``
    console; the lines printed between prompts (one list per prompt), the prompts, the
    action chosen."""
    game = load(game_id, 2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes().actions[0])
    player = state.acting_players()[0]
    out = io.StringIO()
    console = Console(file=out, width=80, height=height, color_system=None, force_terminal=terminal)
    table = Table(console, game_module(game_id).VIEW, game, {player}, ["Ann", "Bob"])
    answers = [*typed, str(state.legal_actions(player)[0])]
    prompts: list[str] = []
    screens: list[str] = []
    printed = [0]

    def ask(prompt: str) -> str:
        text = out.getvalue()
        screens.append(text[printed[0] :])
        printed[0] = len(text)
        prompts.append(prompt)
        return answers.pop(0)

    chosen = HumanSeat(table, ask).choose(state, player)
    return screens, prompts, chosen


def test_rules_come_a_screen_at_a_time_at_80x24() -> None:
    rules = game_module("rancho").VIEW.rules()
    pages = 12
    screens, prompts, chosen = _at_prompt("rancho", ["rules", *[""] * pages])
    paged = [s for s, p in zip(screens[1:], prompts[1:], strict=True) if p.startswith(PAGER)]
    assert len(paged) >= 5, "Rancho's rules are several screens long"
    for screen in paged:
        lines = screen.splitlines()
        assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)
    assert prompts[1].startswith("-- lines 1-23 of ")
    everything = "".join(screens[1:])
    for word in ("Rancho", rules.split()[-1]):
        assert word in everything  # the first page and the last one were shown
    assert prompts[-1] == "P0 Ann> " and chosen is not None


def test_q_goes_back_to_the_game_and_a_command_typed_at_the_pager_runs() -> None:
    screens, prompts, _ = _at_prompt("rancho", ["rules", "q", "help", "actions"])
    assert prompts[1].startswith(PAGER) and prompts[2] == "P0 Ann> "
    assert len(screens[1].splitlines()) == 23 and screens[2] == ""  # one page, no more
    assert prompts[3].startswith(PAGER)  # help is taller than 24 lines too
    actions = screens[4]
    assert " 1. " in actions and prompts[4] == "P0 Ann> ", actions  # 'actions' ran


def test_a_short_text_is_not_paged_and_a_taller_screen_pages_less() -> None:
    _, prompts, _ = _at_prompt("rancho", ["actions"])
    assert not any(p.startswith(PAGER) for p in prompts)
    _, tall, _ = _at_prompt("rancho", ["rules", *[""] * 12], height=60, terminal=True)
    _, short, _ = _at_prompt("rancho", ["rules", *[""] * 12])
    assert 0 < sum(p.startswith(PAGER) for p in tall) < sum(p.startswith(PAGER) for p in short)


@pytest.mark.parametrize("game_id", ["rancho", "rocket-ranchers", "glory-ranch", "super-farmer"])
def test_help_pages_fit_80x24(game_id: str) -> None:
    screens, prompts, _ = _at_prompt(game_id, ["help", *[""] * 6])
    for screen, prompt in zip(screens[1:], prompts[1:], strict=True):
        if prompt.startswith(PAGER):
            assert len(screen.splitlines()) <= 23
            assert max(len(line) for line in screen.splitlines()) <= 80
