"""Playing in the terminal: human seats at a prompt, bots in the other seats.

The loop is the engine's own runner; a human seat is "interactive": it gets the
state so it can parse what the player types (``state.parse_action``), but it
draws only the player's observation, so hot-seat play never shows a hand.
"""

from __future__ import annotations

import os
import random
import re
import tempfile
import textwrap
import time
import unicodedata
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from ranchhand.cli.keyboard import Keyboard
from ranchhand.cli.safe import plain, printable
from ranchhand.core.errors import ActionError, RecordError, plural
from ranchhand.core.game import CHANCE, SIMULTANEOUS, Game, State
from ranchhand.core.log import collapse
from ranchhand.core.notation import is_number
from ranchhand.core.records import Record
from ranchhand.core.runner import UNDO
from ranchhand.core.view import SCREEN_HEIGHT, SUMMARY_LINES, GameView

HELP = """\
Commands: type an action as listed (or its number, when the list is
numbered), or
  help      this text, the action notation and every legal action
  actions   list the legal actions again
  board     draw the table again
  log       everything that happened that you may know of, since the game
            began
  rules     the rules of this game, as ranchhand plays them
  undo      take back your last action this turn (never past a roll, a draw
            or another player's move)
  quit      stop, saving a record of the game (continue it with:
            ranchhand play --resume FILE)
At a terminal, Tab completes an action and the arrow keys recall what you
typed."""


class QuitGame(Exception):
    """The human asked to stop."""


@dataclass
class Table:
    """What the terminal shows: the view, the event log, who is human."""

    console: Console
    view: GameView
    game: Game
    humans: set[int]
    names: list[str]
    events: list[dict[int, str]] = field(default_factory=list)
    pending: list[dict[int, str]] = field(default_factory=list)
    seen: dict[int, int] = field(default_factory=dict)
    last_human: int | None = None

    def name(self, player: int) -> str:
        return "chance" if player == CHANCE else f"P{player} {self.names[player]}"

    def note(self, state: State, player: int, action: Hashable) -> None:
        """Log an action before it is applied, as each human at the table may see it.

        The text comes from ``state.describe_for`` (a card given away stays secret
        from the others); choices at a simultaneous node wait until all are made.
        """
        self._release(state)
        entry = {
            viewer: f"{self.name(player)}: {state.describe_for(viewer, action, player)}"
            for viewer in self.humans
        }
        (self.pending if state.current_player() == SIMULTANEOUS else self.events).append(entry)

    def history(self, player: int) -> list[str]:
        """Everything ``player`` was told since the game began (the ``log`` command)."""
        return collapse([entry[player] for entry in self.events if player in entry])

    def undo(self, state: State) -> None:
        """Forget the log entry of an action taken back (nobody else saw it)."""
        if self.events:
            self.events.pop()
        for viewer, seen in self.seen.items():
            self.seen[viewer] = min(seen, len(self.events))

    def since_last_turn(self, player: int, state: State) -> list[str]:
        self._release(state)
        start = self.seen.get(player, 0)
        self.seen[player] = len(self.events)
        return collapse([entry[player] for entry in self.events[start:]])

    def _release(self, state: State) -> None:
        if state.current_player() != SIMULTANEOUS:
            self.events.extend(self.pending)
            self.pending.clear()


NUMBERED = 9
"""Up to this many legal actions are numbered, and a number picks one."""


@dataclass
class HumanSeat:
    """A person at the keyboard; ``interactive`` tells the runner to hand over the state.

    Lines come from ``keyboard`` (line editing, per-seat history, completion) at a
    real terminal, else from ``ask`` (a pipe, a test).
    """

    table: Table
    ask: Callable[[str], str]
    keyboard: Keyboard | None = None
    interactive: bool = True

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        raise TypeError("a human seat needs the state to parse text; the runner calls choose()")

    def choose(self, state: State, player: int, undoable: int = 0) -> Hashable:
        table, console = self.table, self.table.console
        # With several people at the keyboard every seat's first screen comes after a
        # hand-off too: whoever started (or resumed) the game may not be that seat.
        if len(table.humans) > 1 and table.last_human != player:
            wipe(console)
            self._read(f"Pass the keyboard to {table.name(player)} and press Enter ", None)
            wipe(console)
        table.last_human = player
        legal = state.legal_actions(player)
        settled = table.view.settled_for_you(state.observe(player), legal)
        if settled is not None:
            console.print(Text(printable(settled), style="yellow"))
            return legal[0]
        self._show(state, player, legal, undoable)
        typed: str | None = None  # a command typed at the pager's prompt
        while True:
            try:
                text = (
                    typed
                    if typed is not None
                    else self._read(f"{table.name(player)}> ", player, legal)
                )
            except EOFError:
                raise QuitGame from None
            typed = None
            command = text.strip().lower()
            if command in ("quit", "exit", "q"):
                raise QuitGame
            if command in ("help", "?", "h"):
                text = _wrap_help(HELP + "\n\n" + table.view.notation, console.width - 4)
                typed = self._page(Group(Panel(Text(text), title="help"), self._actions(legal)))
                continue
            if command in ("actions", "list", "a"):
                typed = self._page(self._actions(legal))
                continue
            if command in ("board", "b", "show"):
                typed = self._page(table.view.render_full(state.observe(player)))
                continue
            if command == "log":
                lines = table.history(player)
                typed = self._page(
                    Text("\n".join(printable(line) for line in lines) or "(nothing yet)")
                )
                continue
            if command == "rules":
                typed = self._page(Markdown(table.view.rules()))
                continue
            if command in ("undo", "u"):
                if undoable:
                    return UNDO
                console.print(Text(NO_UNDO, style="yellow"))
                continue
            if not command:
                continue
            if command.isdecimal():  # any script's digits pick: ２, ٢ as 2
                command = "".join(str(unicodedata.decimal(c)) for c in command)
            if len(legal) <= NUMBERED and is_number(command):
                number = int(command)
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                console.print(Text(f"choose a number 1..{len(legal)}", style="bold red"))
                continue
            try:
                return state.parse_action(text, player)
            except ActionError as error:
                console.print(Text(_refusal(error), style="bold red"))
                console.print("Type 'help' for the notation, 'actions' for the legal actions.")

    def _page(self, renderable: RenderableType) -> str | None:
        """Print ``renderable`` a screenful at a time when it is taller than the screen (80x24
        at the least, as the turn's screen): after each page the prompt waits for Enter
        (the next page) or a command, which ends the paging and is returned to be run, so
        nothing typed is lost and 'q' goes back to the game."""
        console = self.table.console
        height = console.size.height if console.is_terminal else SCREEN_HEIGHT
        with console.capture() as captured:
            console.print(renderable)
        lines = captured.get().splitlines()
        page = max(height - 1, 1)  # the prompt takes the last line
        if len(lines) <= page:
            console.file.write(captured.get())
            console.file.flush()
            return None
        for start in range(0, len(lines), page):
            console.file.write("\n".join(lines[start : start + page]) + "\n")
            console.file.flush()
            shown = min(start + page, len(lines))
            if shown == len(lines):
                return None
            try:
                answer = self._read(MORE.format(shown=shown, total=len(lines)), None)
            except EOFError:
                return "quit"
            if answer.strip().lower() == "q":  # as in less; "quit" still quits the game
                return None
            if answer.strip():
                return answer
        return None

    def _read(self, prompt: str, player: int | None, legal: Sequence[Hashable] = ()) -> str:
        keyboard = self.keyboard
        if keyboard is None:
            return self.ask(prompt)
        if player is None:
            return keyboard.plain(prompt)
        return keyboard.ask(prompt, player, [*(str(a) for a in legal), *COMMANDS])

    def _actions(self, legal: Sequence[Hashable]) -> RenderableType:
        """Every legal action: a short list numbered (type the number), a long one as the
        game draws it."""
        if len(legal) > NUMBERED:
            return self.table.view.render_actions(legal)
        return Text(
            "\n".join(f"{n:>2}. {printable(str(a))}" for n, a in enumerate(legal, 1)), style="cyan"
        )

    def _summary(self, legal: Sequence[Hashable], width: int) -> RenderableType:
        """The actions in a few lines: numbered side by side if they fit, else by verb."""
        if len(legal) <= NUMBERED:
            numbered = Columns(
                [Text(f"{n}. {printable(str(a))}", style="cyan") for n, a in enumerate(legal, 1)],
                padding=(0, 3),
            )
            if _height(self.table.console, numbered, width) <= SUMMARY_LINES:
                return numbered
        return self.table.view.render_actions_compact(legal, width)

    def _show(self, state: State, player: int, legal: Sequence[Hashable], undoable: int) -> None:
        """The turn's screen, fitted to the terminal (80x24 at the least): header, board,
        what happened since your last turn in the lines left, the actions, the prompt."""
        table, console = self.table, self.table.console
        width = console.width
        height = console.size.height if console.is_terminal else SCREEN_HEIGHT
        header = Rule(f"{table.game.name}: your turn, {table.name(player)} (turn {state.turn})")
        board = table.view.render(state.observe(player))
        summary = self._summary(legal, width)
        hint = (
            Text(
                f"undo (up to {plural(undoable, 'action')} back) · help · actions · board · "
                "log · rules · quit",
                style="dim",
            )
            if undoable
            else Text("help · actions · board · log · rules · quit", style="dim")
        )
        used = 1 + sum(_height(console, r, width) for r in (board, summary, hint)) + 1
        lines = table.since_last_turn(player, state)
        room = max(height - used, 0)
        if len(lines) > room > 0:
            hidden = len(lines) - room + 1
            lines = [f"… {hidden} earlier (type 'log')", *lines[len(lines) - room + 1 :]]
        console.print(header)
        console.print(board)
        if lines and room:
            console.print(Text("\n".join(_fit(printable(line), width) for line in lines[-room:])))
        console.print(summary)
        console.print(hint)


def _refusal(error: ActionError) -> str:
    """Why typed text was refused, for the person who typed it: the reason and the
    closest legal texts, without the engine's context (game, turn, player number) or
    an echo of the text, which is on the line above."""
    message = f"{error.kind}: {error.reason}"
    if error.suggestions:
        message += "; did you mean: " + ", ".join(repr(s) for s in error.suggestions)
    return printable(message)


def _wrap_help(text: str, width: int) -> str:
    """``text`` fitted to ``width`` columns, for the help panel.

    A line that fits stays as it is. A two-column line (an example, two or more
    spaces, what it does) too long goes on below its description column; another
    indented line below its indent; a paragraph of plain lines (up to a short line
    ending a sentence) is wrapped anew as a whole, so a game's notation written for a
    wider screen never reads ragged.
    """
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip(" "))
        column = _column(line, width)
        if column is None and indent == 0 and line:
            paragraph = [line]
            while (
                i + 1 < len(lines)
                and not _ends_paragraph(lines[i], width)
                and lines[i + 1][:1] not in ("", " ")
                and _column(lines[i + 1], width) is None
            ):
                i += 1
                paragraph.append(lines[i])
            if any(len(piece) > width for piece in paragraph):
                out.extend(textwrap.wrap(" ".join(paragraph), width, break_on_hyphens=False))
            else:
                out.extend(paragraph)
        elif len(line) <= width:
            out.append(line)
        else:
            hang = column if column is not None else indent
            out.extend(
                textwrap.wrap(
                    line,
                    max(width, hang + 10),
                    subsequent_indent=" " * hang,
                    break_on_hyphens=False,
                )
            )
        i += 1
    return "\n".join(out)


def _ends_paragraph(line: str, width: int) -> bool:
    """A short line ending a sentence ends its paragraph (a line written to fit)."""
    return line.rstrip().endswith((".", ":")) and len(line) < width - 10


def _column(line: str, width: int) -> int | None:
    """Where the description of a two-column help line starts, if it is one: after
    the first run of two or more spaces past the indent, in the left half, with no
    quote before it (a quoted board line keeps its spaces)."""
    indent = len(line) - len(line.lstrip(" "))
    gap = re.search(r"\S {2,}(?=\S)", line[indent:])
    if (
        gap is None
        or indent + gap.end() > width // 2
        or any(q in line[: indent + gap.start()] for q in "'\"")
    ):
        return None
    return indent + gap.end()


def _height(console: Console, renderable: RenderableType, width: int) -> int:
    return len(console.render_lines(renderable, console.options.update(width=width), pad=False))


def _fit(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


COMMANDS = ("help", "actions", "board", "log", "rules", "undo", "quit")
MORE = "-- lines 1-{shown} of {total}: Enter for more, q to stop, or type a command -- "
NO_UNDO = (
    "Nothing to undo: undo takes back only your own actions since the last dice roll or "
    "card draw, and since anyone else last acted."
)


WIPE = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, erase the screen, erase the scrollback (xterm's E3, honoured by the
common terminals): a hand-off must leave nothing of the previous player to scroll
back to. Hot-seat games also run in the alternate screen, which keeps no scrollback."""


def wipe(console: Console) -> None:
    """Clear the screen and the terminal's scrollback (nothing on a non-terminal)."""
    if console.is_terminal:
        console.file.write(WIPE)
        console.file.flush()


@contextmanager
def private_screen(console: Console, humans: int) -> Iterator[None]:
    """With several people at one keyboard, play in the alternate screen.

    The alternate screen has no scrollback, so when the game ends (or stops) the
    terminal returns to what it showed before the game, with no hand in its history.
    """
    if humans < 2 or not console.is_terminal:
        yield
        return
    console.set_alt_screen(True)
    try:
        yield
    finally:
        wipe(console)
        console.set_alt_screen(False)


def record_path(wanted: Path | None, game_id: str) -> Path:
    """Where a game's record will go, checked before the first move.

    A given path must not exist yet (a record never replaces another) and its
    folder must be writable; the default is ``records/GAME-DATE-TIME.json``, a name
    that says nothing of the seed (the seed is a spoiler until the game is over).
    """
    if wanted is None:
        folder = Path("records")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RecordError(f"cannot create {folder}/ for the record: {error.strerror}") from None
        path = folder / f"{game_id}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    else:
        path = wanted
        if path.is_symlink() or path.exists():
            kind = "a folder" if path.is_dir() else "a file"
            raise RecordError(
                f"--record {path}: {kind} is there already; name a new file "
                "(a record never replaces anything)"
            )
    folder = path.parent
    if not folder.is_dir():
        raise RecordError(f"--record {path}: the folder {folder} does not exist")
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".ranchhand-probe-")
    except OSError as error:
        raise RecordError(f"--record {path}: cannot write in {folder}: {error.strerror}") from None
    os.close(handle)
    os.unlink(probe)
    return path


def save_record(
    record: Record,
    path: Path,
    console: Console,
    *,
    chosen: bool,
    overwrite: bool = False,
    announce: bool = True,
) -> Path:
    """Save ``record``; a default name taken meanwhile gets a numbered suffix.

    ``overwrite`` is for a resumed game, whose record is brought up to date in place.
    ``announce=False`` saves without saying so, for a game over: it is saved before
    anything else, and :func:`announce_record` says so under the final board.
    """
    target = path
    for attempt in range(2, 1000):
        try:
            record.save(target, overwrite=overwrite)
            break
        except RecordError:
            if chosen or not target.exists():
                raise
            target = path.with_name(f"{path.stem}-{attempt}{path.suffix}")
    if announce:
        announce_record(console, target)
    return target


def announce_record(console: Console, path: Path) -> None:
    shown = plain(path)
    console.print(f"Record saved to {shown} (replay it with: ranchhand replay {shown} --show)")
