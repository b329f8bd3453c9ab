"""Rancho in the terminal: the hex board, the herd, each ranch, the dice.

The board is drawn as offset rows of hex cells, two lines each: the space id and
what stands there (``r6`` a stack of six rabbits, ``S`` a sheep, ``C`` part of a
cow, ``H`` part of a horse), after the owner's seat number (``0:r6``). A cell's
background is its owner's colour; free pastures are shaded by price (light green
1, green 2, dark green 4) and the forest is drawn as ``^^``. Pens are marked ``#``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ranchhand.cli.view import GameView
from ranchhand.games.rancho.actions import Arrange, ArrangeSafest, Deal, Roll
from ranchhand.games.rancho.state import DOG, PHASES, RanchoState
from ranchhand.games.rancho.tables import FACES, FOX, PREDATOR_NAMES

OWNER_STYLES = (
    "bold white on red3",
    "bold white on blue3",
    "bold white on magenta3",
    "bold black on gold1",
    "bold black on cyan3",
    "bold white on grey42",
)
PRICE_STYLES = {1: "black on pale_green1", 2: "black on green3", 4: "white on dark_green"}
FOREST_STYLE = "bold green on grey11"
GLYPHS = ("r", "S", "C", "H")
CELL = 5  # characters per hex cell

NOTATION = """\
Expand step (any number, any order), then roll:
  trade 6 rabbit > sheep              exchange with the herd at equal value
  trade 2 sheep + small dog + large dog + 3 rabbit > horse
  buy 4.2 with 4 rabbit               buy a pasture (ids are ring.index, see the board)
  buy 3.4 + 4 rabbit with sheep       pay with a sheep, take 4 rabbits change
  buy 3.17 via 3.18 with 2 rabbit     blocked: cross others' pastures, tolls in rabbits
  arrange 6 rabbit @2.1; sheep @5.1; cow @4.3-4.4; horse @4.1-4.2-4.24
  arrange safest                      let the engine place animals where predators strike least
  roll                                roll the two twelve-sided dice
  roll and end turn                   roll; after breeding arrange safest and end the turn
After the roll: fox first | wolf first, give small dog | keep small dog,
  return 3 rabbit + sheep (newborns that do not fit), arrange ..., end turn.
Values in rabbits: sheep 6, cow 12, horse 24, small dog 3, large dog 6; pastures 1, 2, 4."""


class RanchoView(GameView):
    """Draws a Rancho observation: board, herd, ranches, dice and strikes."""

    notation = NOTATION

    def render(self, observation: Any) -> RenderableType:
        state: RanchoState = observation.state
        return Group(
            self.board(state),
            Text(""),
            self.ranches(state, observation.player),
            self.situation(state),
        )

    # -------------------------------------------------------------- board
    def board(self, state: RanchoState) -> Text:
        board = state.game.board
        cells: dict[tuple[int, int], tuple[str, str, str]] = {}
        for space_id, q, r in board.forest:
            cells[q, r] = (space_id, "^^", FOREST_STYLE)
        contents = self._contents(state)
        for space in board.spaces:
            owner = state.owner[space.index]
            if owner >= 0:
                style = OWNER_STYLES[owner % len(OWNER_STYLES)]
            else:
                style = PRICE_STYLES.get(space.price, "black on green3")
            mark = contents.get(space.index, "#" if space.is_pen else "")
            if owner >= 0:
                mark = f"{owner}:{mark}"  # the owner reads without colours too
            cells[space.q, space.r] = (space.id, mark, "" if space.is_pen and owner < 0 else style)
        rows = sorted({r for _q, r in cells})
        xs = [2 * q + r for q, r in cells]
        left = min(xs)
        out = Text()
        for r in rows:
            line_ids, line_marks = Text(), Text()
            at = left
            for q, rr in sorted((c for c in cells if c[1] == r), key=lambda c: 2 * c[0] + c[1]):
                x = 2 * q + rr
                pad = " " * ((x - at) * (CELL + 1) // 2)
                line_ids.append(pad)
                line_marks.append(pad)
                space_id, mark, style = cells[q, rr]
                line_ids.append(f"{space_id:^{CELL}}", style=style)
                line_marks.append(f"{mark:^{CELL}}", style=style)
                line_ids.append(" ")
                line_marks.append(" ")
                at = x + 2
            out.append(line_ids)
            out.append("\n")
            out.append(line_marks)
            out.append("\n")
        return out

    @staticmethod
    def _contents(state: RanchoState) -> dict[int, str]:
        marks: dict[int, str] = {}
        for pieces in state.pieces:
            for kind, count, mask in pieces:
                glyph = f"r{count}" if kind == 0 else GLYPHS[kind]
                for space in range(mask.bit_length()):
                    if mask >> space & 1:
                        marks[space] = glyph
        return marks

    # ------------------------------------------------------------- ranches
    def ranches(self, state: RanchoState, viewer: int) -> Table:
        table = Table(title="Ranches", title_justify="left", pad_edge=False)
        table.add_column("player")
        for name in ("rabbit", "sheep", "cow", "horse", "sm dog", "lg dog", "pastures"):
            table.add_column(name, justify="right")
        herd = state.herd
        table.add_row("herd", *(str(n) for n in herd), "")
        for p in range(state.game.players):
            mine = state.animals[p]
            label = Text(f"P{p}" + (" (you)" if p == viewer else ""))
            label.stylize(OWNER_STYLES[p % len(OWNER_STYLES)])
            if p == state.player:
                label.append(" <", style="bold")
            cells = [str(n) if n else "." for n in mine]
            table.add_row(label, *cells, str(state.land[p].bit_count()))
        return table

    def situation(self, state: RanchoState) -> Text:
        text = Text()
        text.append(f"Turn {state.turn}, player {state.player}, {PHASES[state.phase]} step. ")
        if state.dice is not None:
            text.append(f"Dice: {FACES[state.dice[0]]} + {FACES[state.dice[1]]}. ", style="bold")
        for predator, price in state.strikes:
            text.append(
                f"The {PREDATOR_NAMES[predator]} struck the pastures costing {price}. ",
                style="red",
            )
        if state.winner >= 0:
            text.append(f"Player {state.winner} has a full herd and wins!", style="bold green")
        elif state.phase == DOG and state.dog_queue:
            dog = "small dog" if state.strike and state.strike[0] == FOX else "large dog"
            text.append(f"Player {state.dog_queue[0]} may give up a {dog}.", style="yellow")
        return text

    # -------------------------------------------------------------- actions
    def render_actions(self, legal_actions: Sequence[Hashable]) -> RenderableType:
        groups: dict[str, list[str]] = {"turn": [], "trade": [], "buy": [], "other": []}
        for action in legal_actions:
            if isinstance(action, Roll | ArrangeSafest | Arrange):
                groups["turn"].append(str(action))
            elif isinstance(action, Deal):
                groups["buy" if action.pastures else "trade"].append(str(action))
            else:
                groups["other"].append(str(action))
        out = Text()
        titles = {"turn": "Turn", "trade": "Trades", "buy": "Buy pastures", "other": "Choices"}
        for key, texts in groups.items():
            if not texts:
                continue
            out.append(f"{titles[key]}: ", style="bold")
            out.append(" | ".join(texts), style="cyan")
            out.append("\n")
        return out

    def render_summary(self, summary: Mapping[str, Any]) -> RenderableType | None:
        if not summary:
            return None
        table = Table(title="Rancho summary", title_justify="left")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key, value in summary.items():
            if key == "average":  # the headline numbers for `ranchhand compare`, shown above
                continue
            shown = f"{value:.2f}" if isinstance(value, float) else str(value)
            table.add_row(key.replace("_", " "), shown)
        return table


VIEW = RanchoView()
