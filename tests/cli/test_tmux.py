"""A real 80x24 terminal (tmux): the rules come a page at a time from their first line, with
the pager's prompt on the last row; ``q`` goes back to the prompt, which shows the seat's
name; ``quit`` saves the record. Skipped where tmux is not installed."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from rich.markdown import Markdown

from ranchhand.core.registry import game_module

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[tuple[list[str], Path]]:
    socket = tmp_path / "tmux.sock"
    tmux = [str(TMUX), "-S", str(socket), "-f", "/dev/null"]
    play = ["play", "rancho", "--seats", "human,greedy", "--names", "Ann", "--seed", "1"]
    record = ["--record", str(tmp_path / "game.json")]
    command = shlex.join([sys.executable, "-m", "ranchhand", *play, *record])
    # remain-on-exit: the pane keeps what the program printed last after it exits on
    # ``quit``, else tmux closes the pane (and its server) before the screen is read
    subprocess.run(
        [
            *tmux,
            *("new-session", "-d", "-x", "80", "-y", "24", "-c", str(tmp_path), command),
            *(";", "set-option", "-g", "remain-on-exit", "on"),
        ],
        check=True,
        env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    try:
        yield tmux, tmp_path
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)


def _screen(tmux: list[str]) -> list[str]:
    shown = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True)
    return shown.stdout.splitlines()


def _wait(tmux: list[str], text: str) -> list[str]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        rows = _screen(tmux)
        if any(text in row for row in rows):
            return rows
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not on screen:\n" + "\n".join(_screen(tmux)))


def _type(tmux: list[str], line: str) -> None:
    subprocess.run([*tmux, "send-keys", "-l", line], check=True)
    subprocess.run([*tmux, "send-keys", "Enter"], check=True)


def test_rules_page_by_page_in_a_real_80x24_terminal(
    terminal: tuple[list[str], Path],
) -> None:
    tmux, folder = terminal
    _wait(tmux, "P0 Ann>")
    _type(tmux, "rules")
    rows = _wait(tmux, "-- lines 1-23 of ")
    console = Console(width=80, color_system=None)
    with console.capture() as captured:
        console.print(Markdown(game_module("rancho").VIEW.rules()))
    first = next(line for line in captured.get().splitlines() if line.strip())
    assert len(rows) <= 24
    assert rows[-1].startswith("-- lines 1-23 of "), rows
    assert first.strip() in "\n".join(rows[:3]), rows  # the start has not scrolled away
    _type(tmux, "q")
    deadline = time.monotonic() + 30
    while [r for r in _screen(tmux) if r.strip()][-1] != "P0 Ann>":  # back at the prompt
        assert time.monotonic() < deadline, "\n".join(_screen(tmux))
        time.sleep(0.1)
    _type(tmux, "quit")
    _wait(tmux, "Record saved to")
    assert (folder / "game.json").exists()
