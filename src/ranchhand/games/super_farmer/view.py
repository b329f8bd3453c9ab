"""The terminal view of Super Farmer: the herd, every farmer's animals, the last roll.

Drawn from the observation only (the whole table is public). One line for the herd,
one per farmer (the farmer to act marked), one for the last roll and the step: at
most 9 lines with 6 farmers, well inside the screen's board area.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ranchhand.core.view import GameView
from ranchhand.games.super_farmer.tables import FACES, FARM, SPECIES

if TYPE_CHECKING:
    from ranchhand.games.super_farmer.state import SuperFarmerState

NOTATION = """\
Before rolling you may make one exchange with the herd, then roll:
  trade 6 rabbit > sheep           several cheaper animals for one
  trade horse > cow + 2 pig + 2 sheep + 12 rabbit   one animal for several
  trade sheep > small dog          the table's swaps (cow > big dog too)
  roll                             roll the wolf die and the fox die
Values in rabbits: sheep 6, pig 12, cow 36, horse 72, small dog 6, big dog 36.
Chance outcomes read 'roll <wolf die>+<fox die>', e.g. roll rabbit+fox.
Win with a rabbit, a sheep, a pig, a cow and a horse (dogs do not count)."""
SHORT = ("rab", "shp", "pig", "cow", "hrs", "sdg", "bdg")


class SuperFarmerView(GameView):
    """Draws a Super Farmer observation as a few lines of counts."""

    notation = NOTATION

    def render(self, observation: Any) -> RenderableType:
        """A grid of counts (the herd, then each farmer with what they still need) and a
        line for the last roll and the step."""
        state: SuperFarmerState = observation.state
        grid = Table.grid(padding=(0, 0))
        grid.add_column(width=6)
        for _ in SHORT:
            grid.add_column(width=5, justify="right")
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_row("", *SHORT, "", style="bold")
        grid.add_row("herd", *map(str, state.herd), "", style="dim")
        over = state.is_terminal()
        for player, mine in enumerate(state.animals):
            acting = player == state.player and not over
            label = (
                (">" if acting else " ")
                + f"P{player}"
                + ("*" if player == observation.player else "")
            )
            missing = [SPECIES[k] for k in FARM if not mine[k]]
            needs = f"  needs {', '.join(missing)}" if missing else "  full herd"
            grid.add_row(
                label, *map(str, mine), Text(needs, style="cyan"), style="bold" if acting else ""
            )
        status = Text(self._status(state), style="yellow", no_wrap=True, overflow="ellipsis")
        return Group(grid, status)

    @staticmethod
    def _status(state: SuperFarmerState) -> str:
        roll = (
            ""
            if state.dice is None
            else f"last roll: wolf die {FACES[state.dice[0]]}, fox die {FACES[state.dice[1]]}. "
        )
        outcome = state.outcome()
        if outcome is not None:
            return roll + (
                f"P{outcome.winners[0]} wins with a full herd"
                if outcome.winners
                else "game cut short"
            )
        step = "exchange, then roll" if state.may_trade() else "roll the dice"
        return f"{roll}P{state.player}: {step}"

    def render_summary(self, summary: Mapping[str, Any]) -> RenderableType | None:
        """Turns to win (the published studies' measure) first, then the running counts."""
        if not summary:
            return None
        table = Table(title="Super Farmer summary", title_justify="left")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for measure in ("turns_to_win", "rolls_to_win"):
            for name, value in summary[measure].items():
                table.add_row(f"{measure.replace('_', ' ')}: {name}", f"{value:.1f}")
        table.add_row("wins by seat", " ".join(map(str, summary["wins_by_seat"])))
        for key, value in summary.items():
            if key.startswith("mean_"):
                table.add_row(key[5:].replace("_", " ") + " (mean)", f"{value:.2f}")
        return table


VIEW = SuperFarmerView()
