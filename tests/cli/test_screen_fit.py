"""Every game's turn screen fits a standard 80x24 terminal, through the real prompt loop.

Random games are played with every seat at the keyboard; each time a seat is
asked, the screen drawn for it (header, board, what happened, the actions, the
hint line) plus the prompt line must fit in 80 columns and 24 lines.
"""

from __future__ import annotations

import importlib.util
import io
import random
from collections.abc import Hashable, Sequence
from pathlib import Path

import pytest
from rich.console import Console

from ranchhand.cli.play import HumanSeat, Table
from ranchhand.core import State, play
from ranchhand.core.registry import game_class, game_module, load

WIDTH, HEIGHT = 80, 24
ROOT = Path(__file__).resolve().parents[2]


class Measured(HumanSeat):
    """A random typist whose every turn screen is measured."""

    screens: list[tuple[int, int, str]]

    def __init__(self, table: Table, rng: random.Random, screens: list[tuple[int, int, str]]):
        super().__init__(table, lambda prompt: self.answers.pop(0) if self.answers else "quit")
        self.rng, self.screens, self.answers = rng, screens, []

    def choose(self, state: State, player: int, undoable: int = 0) -> Hashable:
        self.answers = [str(self.rng.choice(state.legal_actions(player)))]
        if len(self.table.humans) > 1 and self.table.last_human != player:
            self.answers.insert(0, "")
        return super().choose(state, player, undoable)

    def _show(self, state: State, player: int, legal: Sequence[Hashable], undoable: int) -> None:
        out = self.table.console.file
        start = out.tell()
        super()._show(state, player, legal, undoable)
        screen = out.getvalue()[start:]  # type: ignore[attr-defined]
        lines = screen.splitlines()
        self.screens.append((len(lines) + 1, max(len(line) for line in lines), screen))


def _sizes(game_id: str) -> list[int]:
    cls = game_class(game_id)
    return sorted({cls.min_players, cls.max_players})


GAMES = ("rancho", "rocket-ranchers", "glory-ranch", "super-farmer")
CASES = [(g, n) for g in GAMES for n in _sizes(g)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_turn_screen_fits_80_by_24(game_id: str, players: int) -> None:
    game = load(game_id, players, max_turns=80)
    console = Console(
        file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None, force_terminal=False
    )
    names = ["human"] * players
    table = Table(console, game_module(game_id).VIEW, game, set(range(players)), names)
    screens: list[tuple[int, int, str]] = []
    rng = random.Random(game_id)
    seats = [Measured(table, rng, screens) for _ in range(players)]
    play(game, seats, 3, listener=table.note, seat_names=names)
    assert len(screens) > 20
    for height, width, screen in screens:
        assert width <= WIDTH, f"{width} columns:\n{screen}"
        assert height <= HEIGHT, f"{height} lines:\n{screen}"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_at_the_prompt_are_the_docs_pages_rules(game_id: str) -> None:
    """``rules`` prints the package's rules.md, a copy ``make docs`` keeps of the page."""
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "tools" / "make_docs.py")
    assert spec is not None and spec.loader is not None
    make_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_docs)
    rules = game_module(game_id).VIEW.rules()
    assert rules == make_docs.rules_text(ROOT / "docs" / "games" / f"{game_id}.md"), (
        "run python tools/make_docs.py --rules-only: the packaged rules differ from the docs page"
    )
    assert rules.startswith("# ") and len(rules) > 1500
