"""The terminal view of Glory Ranch (Rich): the table as one player sees it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table

from ranchhand.cli.view import GameView


class GloryView(GameView):
    """Draws hands, ranches, scores and the simulation card table."""

    def render_summary(self, summary: Mapping[str, Any]) -> RenderableType | None:
        if not summary.get("cards"):
            return None
        table = Table(
            title=(
                f"Glory Ranch: {summary['rounds_per_game']} rounds per game, "
                f"{summary['turns_per_round']} turns per round, "
                f"average round win rate {summary['round_win_rate']:.1%}"
            )
        )
        table.add_column("card")
        table.add_column("rounds in a ranch", justify="right")
        table.add_column("round win rate", justify="right")
        table.add_column("lift", justify="right")
        for row in summary["cards"]:
            lift = row["lift"]
            style = "red" if abs(lift) > 0.15 else ("yellow" if abs(lift) > 0.1 else "")
            table.add_row(
                row["name"],
                str(row["rounds"]),
                f"{row['win_rate']:.1%}",
                f"{lift:+.1%}",
                style=style,
            )
        return table


VIEW = GloryView()
