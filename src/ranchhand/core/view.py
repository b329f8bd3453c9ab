"""How a game shows itself in the terminal: one GameView per game, in its package.

It lives at the ground (``core``) so that each game's view, which draws its own table,
builds on it without reaching up into the front end that runs the play loop (``cli``).

The play loop is shared by every game; it asks the game's view to draw what one
player may see (from the observation only, so hot-seat play never leaks a hand),
to sum up the legal actions in a few lines, to list them all, to explain the
action notation for ``help`` and to give the rules for ``rules``.

A turn's screen fits a standard 80x24 terminal: a header line, the board
(:meth:`GameView.render`, at most :data:`BOARD_LINES` lines at 80 columns), what
happened since your last turn in the lines left over, the compact action summary
(at most :data:`SUMMARY_LINES` lines) and the prompt.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from importlib import resources
from typing import Any

from rich.columns import Columns
from rich.console import RenderableType
from rich.text import Text

SCREEN_WIDTH, SCREEN_HEIGHT = 80, 24
BOARD_LINES = 16
"""The most lines a board may take at 80 columns, so a turn's screen fits 80x24."""
SUMMARY_LINES = 3
"""The most lines the compact action summary may take at 80 columns."""


class GameView:
    """Base view; games override :meth:`render` and set :attr:`notation`."""

    notation: str = "Type an action exactly as listed."

    def render(self, observation: Any) -> RenderableType:
        """Draw the table as the observing player sees it."""
        import json

        return Text(json.dumps(observation.to_json(), indent=1))

    def render_full(self, observation: Any) -> RenderableType:
        """The table in full, for the ``board`` command (no height limit); by default
        the same as :meth:`render`."""
        return self.render(observation)

    def render_actions(self, legal_actions: Sequence[Hashable]) -> RenderableType:
        """Show every legal action; long lists may be grouped."""
        return Columns([Text(str(a), style="cyan") for a in legal_actions], padding=(0, 3))

    def render_actions_compact(
        self, legal_actions: Sequence[Hashable], width: int = SCREEN_WIDTH
    ) -> RenderableType:
        """The legal actions in at most :data:`SUMMARY_LINES` lines: one line per verb,
        its objects listed until the line is full (``actions`` shows them all)."""
        groups: dict[str, list[str]] = {}
        for action in legal_actions:
            verb, _, rest = str(action).partition(" ")
            groups.setdefault(verb, []).append(rest)
        lines = [_fit(_line(verb, rests, width), width) for verb, rests in groups.items()]
        if len(lines) > SUMMARY_LINES:
            others = ", ".join(list(groups)[SUMMARY_LINES - 1 :])
            lines[SUMMARY_LINES - 1 :] = [_fit(f"also: {others}", width)]
        return Text("\n".join(lines), style="cyan")

    def settled_for_you(self, observation: Any, legal_actions: Sequence[Hashable]) -> str | None:
        """When the player already said what this question should be (Rancho's "roll and
        end turn") and only one answer is left: the line that says what was done, and the
        terminal takes that answer without asking. None (the default): ask."""
        return None

    def render_summary(self, summary: Mapping[str, Any]) -> RenderableType | None:
        """Draw a game's own simulation summary (``Game.summarize``), if it has one."""
        return None

    def rules(self) -> str:
        """Our own summary of the rules as implemented (``rules.md`` in the game's package,
        kept equal to the Rules section of the game's docs page by ``make docs``)."""
        package = type(self).__module__.rpartition(".")[0]
        return resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")


def _line(verb: str, rests: list[str], width: int) -> str:
    shown = [r for r in rests if r] or []
    if not shown:
        return verb
    head = f"{verb}: "
    text = head
    for i, rest in enumerate(shown):
        more = f" (+{len(shown) - i} more)"
        piece = rest if i == 0 else f", {rest}"
        if len(text) + len(piece) + len(more) > width:
            return text + more
        text += piece
    return text


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
