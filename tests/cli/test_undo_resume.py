"""Undo within your own turn, and a stopped game taken up again, through the real prompt loop."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Hashable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.cli.play import HumanSeat, Table
from ranchhand.core import CHANCE, Record, State, play, replay
from ranchhand.core.registry import game_module, load

runner = CliRunner()


class Fickle(HumanSeat):
    """Types a random legal action, and 'undo' whenever it may (half the time)."""

    def __init__(self, table: Table, log: list[tuple[str, object]], rng: random.Random) -> None:
        super().__init__(table, self._type)
        self.log, self.rng, self.answers = log, rng, []

    def _type(self, prompt: str) -> str:
        return self.answers.pop(0) if self.answers else "quit"

    def choose(self, state: State, player: int, undoable: int = 0) -> Hashable:
        self.log.append(("asked", (player, undoable, json.dumps(state.to_json()))))
        undo = undoable and self.rng.random() < 0.5
        legal = state.legal_actions(player)
        self.answers = ["undo"] if undo else [str(self.rng.choice(legal))]
        if not undo and self.rng.random() < 0.05:
            self.answers.insert(0, "undo")  # refused when nothing can be undone
        if len(self.table.humans) > 1 and self.table.last_human != player:
            self.answers.insert(0, "")  # Enter at the "pass the keyboard" screen
        return super().choose(state, player, undoable)


@pytest.mark.parametrize("game_id", ["rancho", "rocket-ranchers", "glory-ranch"])
def test_undo_goes_back_only_over_your_own_actions(game_id: str) -> None:
    game = load(game_id, 2, max_turns=40)
    console = Console(file=io.StringIO(), width=100)
    table = Table(console, game_module(game_id).VIEW, game, {0, 1}, ["human", "human"])
    log: list[tuple[str, object]] = []
    rng = random.Random(game_id)
    seats = [Fickle(table, log, rng), Fickle(table, log, rng)]

    def listen(state: State, player: int, action: Hashable) -> None:
        log.append(("applied", (player, json.dumps(state.to_json()))))
        table.note(state, player, action)

    def undone(state: State) -> None:
        log.append(("undone", json.dumps(state.to_json())))
        table.undo(state)

    result = play(
        game, seats, 5, listener=listen, on_undo=undone, record=True, seat_names=["h", "h"]
    )
    undos, run, runner_up = 0, 0, None  # the acting player's own actions since anything else
    kept: list[str] = []  # the state before each action still in the game
    for kind, value in log:
        if kind == "asked":
            player, undoable, _ = value  # type: ignore[misc]
            assert undoable <= (run if player == runner_up else 0), (
                "undo may not reach past chance or another player's action"
            )
        elif kind == "applied":
            player = value[0]  # type: ignore[index]
            run = run + 1 if player == runner_up and player != CHANCE else int(player != CHANCE)
            runner_up = player
            kept.append(value[1])  # type: ignore[index]
        else:
            undos, run = undos + 1, run - 1
            assert value == kept.pop(), "undo restores the state before the last action"
    assert undos > 3, "the game should have offered undo several times"
    assert any(kind == "applied" and value[0] == CHANCE for kind, value in log)  # type: ignore[index]
    assert result.record is not None
    replay(result.record)  # the record holds the game as played, without what was undone
    assert "Nothing to undo" in console.file.getvalue()  # type: ignore[attr-defined]


def _said(output: str) -> str:
    """The output with Rich's line wrapping undone."""
    return " ".join(output.split())


def _play(args: list[str], typed: str) -> str:
    result = runner.invoke(app, args, input=typed)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_resumed_game_is_the_game_that_was_stopped(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    seats = ["--seats", "human,greedy,random", "--seed", "120387465"]
    _play(["play", "glory-ranch", *seats, "--record", str(whole)], "1\n" * 40 + "quit\n")
    _play(["play", "glory-ranch", *seats, "--record", str(part)], "1\n" * 15 + "quit\n")
    first = Record.load(part)
    output = _play(["play", "--resume", str(part)], "1\n" * 25 + "quit\n")
    assert f"resumed after {len(first.steps)} steps" in output
    during, _, _ = output.partition("The game's seed was")
    assert "120387465" not in during.replace(str(part), "")  # secret until the game is over
    resumed, uninterrupted = Record.load(part), Record.load(whole)
    assert len(resumed.steps) > len(first.steps)
    assert resumed.steps == uninterrupted.steps
    assert resumed.seed == uninterrupted.seed and resumed.seats == uninterrupted.seats


def test_resume_refuses_what_does_not_fit(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _play(["play", "glory-ranch", "--seats", "human,greedy", "--record", str(path)], "1\n1\nquit\n")
    clash = runner.invoke(app, ["play", "rancho", "--resume", str(path)])
    assert clash.exit_code == 2 and "drop GAME" in _said(clash.output)
    data = json.loads(path.read_text())
    data["actions"][-1][1] = "play nothing-at-all"
    path.write_text(json.dumps(data))
    text = path.read_text()
    broken = runner.invoke(app, ["play", "--resume", str(path)], input="quit\n")
    assert broken.exit_code == 2 and "cannot resume" in _said(broken.output)
    assert path.read_text() == text, "a record that does not fit is left as it was"
    done = tmp_path / "done.json"
    _play(["play", "rancho", "--seats", "greedy,greedy", "--record", str(done)], "")
    over = runner.invoke(app, ["play", "--resume", str(done)])
    assert over.exit_code == 2 and "that game is over" in _said(over.output)


def test_a_resumed_hot_seat_game_hands_the_keyboard_over_before_any_hand(
    tmp_path: Path,
) -> None:
    """Whoever types 'play --resume' may not be the seat to play: with several humans
    the first screen asks for the hand-off, and no hand is drawn before it."""
    part = tmp_path / "part.json"
    seats = ["--seats", "human,human", "--seed", "5"]
    _play(["play", "glory-ranch", *seats, "--record", str(part)], "1\n\n1\n" + "quit\n")
    output = _play(["play", "--resume", str(part)], "\n1\nquit\n")
    before, handoff, after = output.partition("Pass the keyboard to")
    assert handoff, output
    assert "Hand " not in before and "your turn" not in before, before
    assert "your turn" in after
    # a one-human game resumes straight at the prompt, as before
    solo = tmp_path / "solo.json"
    _play(["play", "glory-ranch", "--seats", "human,greedy", "--record", str(solo)], "1\nquit\n")
    assert "Pass the keyboard" not in _play(["play", "--resume", str(solo)], "quit\n")


@pytest.mark.parametrize("typed", ["q", EOFError, KeyboardInterrupt])
def test_a_paused_replay_stops_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: object
) -> None:
    """At 'Enter for the next step', q, Ctrl-D or Ctrl-C stop the replay with a
    sentence and exit code 0, not click's 'Aborted.' and exit code 1."""
    import typer

    from ranchhand.cli import main

    path = tmp_path / "game.json"
    _play(["play", "glory-ranch", "--seats", "human,greedy", "--record", str(path)], "1\nquit\n")
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        if isinstance(typed, type):
            raise typed()
        return str(typed)

    output = io.StringIO()
    monkeypatch.setattr(main, "console", Console(file=output, width=80))
    monkeypatch.setattr(main.console, "input", answer)
    with pytest.raises(typer.Exit) as stopped:
        main._show_replay(Record.load(path), True, False)
    assert stopped.value.exit_code == 0
    assert len(asked) == 1 and "q to stop" in asked[0]
    assert "Replay stopped at step" in output.getvalue()
