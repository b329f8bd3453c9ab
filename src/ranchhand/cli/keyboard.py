"""Reading what a person types: line editing, history and completion at a real terminal.

At a terminal, prompt_toolkit gives each seat its own line editor: arrow keys,
history (kept per seat, so in a hot-seat game the up arrow never shows what the
previous player typed, such as a secret sign) and tab completion of the legal
action texts and commands. Anywhere else (a pipe, a test) a plain line is read.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion, WordCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory


class _Actions(Completer):
    """Completes whole action texts from what has been typed so far."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def get_completions(self, document: Document, complete_event: object) -> Iterable[Completion]:
        typed = document.text_before_cursor.lstrip().lower()
        for text in self.texts:
            if text.lower().startswith(typed):
                yield Completion(text, start_position=-len(document.text_before_cursor.lstrip()))


class Keyboard:
    """One line editor per seat; ``ask(prompt, seat, choices)`` returns the line typed."""

    def __init__(self) -> None:
        self._sessions: dict[int, PromptSession[str]] = {}
        self._completer = _Actions()

    def ask(self, prompt: str, seat: int, choices: Sequence[str] = ()) -> str:
        session = self._sessions.get(seat)
        if session is None:
            session = self._sessions[seat] = PromptSession(
                history=InMemoryHistory(), completer=self._completer, complete_while_typing=False
            )
        self._completer.texts = list(choices)
        return session.prompt(prompt)

    def plain(self, prompt: str) -> str:
        """A line with no history and no completion (the hand-off screen, the pager).

        No room is kept below the prompt for a completion menu: prompt_toolkit's default
        (8 lines) scrolled a pager's page, or the hand-off screen, 7 lines up and away.
        """
        session = PromptSession[str](
            completer=WordCompleter([]), complete_while_typing=False, reserve_space_for_menu=0
        )
        return session.prompt(prompt)


def keyboard_for_terminal() -> Keyboard | None:
    """A Keyboard when both ends are a terminal, else None (read plain lines)."""
    return Keyboard() if sys.stdin.isatty() and sys.stdout.isatty() else None
