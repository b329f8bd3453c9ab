"""Hot-seat play through the real prompt loop, for every game, to the end.

Each human seat types the text of a random legal action (after a typo now and then);
the loop must parse it, survive the typos, hide the keyboard between humans, and finish.
"""

from __future__ import annotations

import io
import random
from collections.abc import Hashable
from typing import ClassVar

import pytest
from rich.console import Console

from ranchhand.cli.play import HumanSeat, Table
from ranchhand.core import State, play
from ranchhand.core.registry import game_module, load


class ScriptedHuman(HumanSeat):
    """A human whose keyboard types a random legal action's text, or a typo."""

    rng: ClassVar[random.Random] = random.Random(4)
    prompts: ClassVar[list[str]] = []

    def choose(self, state: State, player: int, undoable: int = 0) -> Hashable:
        rng = self.rng
        legal = state.legal_actions(player)
        answers = iter(
            ["", "flibble", str(rng.choice(legal))]
            if rng.random() < 0.1
            else [str(rng.choice(legal))]
        )

        def ask(prompt: str) -> str:
            self.prompts.append(prompt)
            return next(answers, str(legal[0]))

        self.ask = ask
        return super().choose(state, player, undoable)


@pytest.mark.parametrize("game_id", ["rancho", "rocket-ranchers", "glory-ranch"])
def test_two_humans_and_a_bot_play_to_the_end(game_id: str) -> None:
    game = load(game_id, 3, max_turns=120)
    output = io.StringIO()
    console = Console(file=output, width=120, force_terminal=False)
    names = ["human", "human", "greedy"]
    table = Table(console, game_module(game_id).VIEW, game, {0, 1}, names)
    seats = [
        ScriptedHuman(table, input),
        ScriptedHuman(table, input),
        game_module(game_id).BOTS["greedy"](),
    ]
    result = play(game, seats, seed=4, listener=table.note, seat_names=names)
    assert result.outcome is not None
    text = output.getvalue()
    assert "your turn, P0 human" in text and "your turn, P1 human" in text
    assert any(p.startswith("Pass the keyboard to") for p in ScriptedHuman.prompts)
    assert "invalid action" in text or "illegal action" in text
