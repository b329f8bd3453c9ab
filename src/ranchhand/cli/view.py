"""How a game shows itself in the terminal: one GameView per game, in its package.

The play loop is shared by every game; it asks the game's view to draw what one
player may see (from the observation only, so hot-seat play never leaks a hand),
to list the legal actions, and to explain the action notation for ``help``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import RenderableType
from rich.text import Text


class GameView:
    """Base view; games override :meth:`render` and set :attr:`notation`."""

    notation: str = "Type an action exactly as listed."

    def render(self, observation: Any) -> RenderableType:
        """Draw the table as the observing player sees it."""
        import json

        return Text(json.dumps(observation.to_json(), indent=1))

    def render_actions(self, legal_actions: Sequence[Hashable]) -> RenderableType:
        """Show the legal actions; long lists may be grouped or shortened."""
        return Columns([Text(str(a), style="cyan") for a in legal_actions], padding=(0, 3))

    def render_summary(self, summary: Mapping[str, Any]) -> RenderableType | None:
        """Draw a game's own simulation summary (``Game.summarize``), if it has one."""
        return None
