"""The terminal view of Rocket Ranchers (Rich): the table as one player sees it.

The display is a 4x4 grid named like a chess board (columns a-d, rows 1-4 from
the top); each card shows its species, dots and biome letter in the biome's
colour, Space Cats stand out in magenta. Below it one line per player: score so
far, beams and dogship face up, Space Cats, corrals. The whole board fits 16
lines at 80 columns (see :mod:`.board`); the legal actions are summed up in
three lines (:func:`compact_actions`); once the game is over the board is the
end screen, each player's score corral by corral.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ranchhand.core.view import BOARD_LINES, SCREEN_WIDTH, SUMMARY_LINES, GameView
from ranchhand.games.rocket_ranchers.actions import Beam, Dogship, EndTurn, Form, Occupy
from ranchhand.games.rocket_ranchers.board import board_lines, end_lines
from ranchhand.games.rocket_ranchers.observation import RocketObservation

NOTATION = """\
Cells are named like a chess board: columns a-d left to right, rows 1-4
from the top (a1 top-left, d4 bottom-right); the display refills in reading
order a1, b1, c1, d1, a2, ...

beam SHAPE rDEG @CELL  use a face-up tractor beam.
    SHAPE: I2 (line of 2), I3 (line of 3), L3 (L of 3), O4 (2x2 square).
    rDEG: clockwise turn r0, r90, r180, r270 (lines: r0 and r90 only);
    leave it out where only one turn fits (else you are shown each turn's
    cells to choose from).
    CELL: the anchor, the top-left corner of the box the turned pattern
    fills (it may be the empty corner of an L).
    e.g. beam L3 r90 @b2 takes b2, c2, b3; beam I3 r90 @d1 takes d1-d3.
reboot                 manual reboot (needs a face-down beam), ends turn.
dogship CELL CELL      swap two Wildlife cards of one biome: dogship a1 c3.
form CARD              a collected card face down as a new corral,
                       e.g. form kow/tundra/2.
occupy CARD in N       a collected card face up in corral N (empty, or of
                       its species), e.g. occupy kow/tundra/2 in 1.
end                    end the turn after the refill, keeping the dogship.
Cards are SPECIES/BIOME/DOTS; a species alone (form kow) or species/biome
will do when it names one collected card. Chance: draw kow/tundra/2, draw cat.

On the board a card reads "Kow ●● T": species, dots, biome letter (in the
biome's colour), and 4+ or 5+ for cards used only with more players. A
corral reads "1▒Kel●●T Kow DGT V8": corral 1, founded with kelk/tundra/2 face
down (▒ alone when you may not see it), three Kows face up from the Desert,
Grassland and Tundra, scoring Variety 8 so far (A: Abundance)."""


def compact_actions(legal_actions: Sequence[Hashable], width: int = SCREEN_WIDTH) -> list[str]:
    """The legal actions summed up in at most three lines of ``width`` columns.

    Beams by name with one example (``actions`` lists every placement), dogship
    swaps as cell pairs, each collected card with the corrals it may occupy.
    """
    shapes: dict[str, None] = {}
    beams: list[Beam] = []
    swaps: list[str] = []
    forms: list[str] = []
    occupy: dict[str, list[str]] = {}
    others: list[str] = []
    end = False
    for action in legal_actions:
        if isinstance(action, Beam):
            shapes[action.shape] = None
            beams.append(action)
        elif isinstance(action, Dogship):
            swaps.append(f"{action.first} {action.second}")
        elif isinstance(action, Form):
            forms.append(action.card)
        elif isinstance(action, Occupy):
            occupy.setdefault(action.card, []).append(str(action.corral))
        elif isinstance(action, EndTurn):
            end = True
        else:
            others.append(str(action))
    lines: list[str] = []
    if beams:
        turned = [b for b in beams if b.rotation] or beams
        example = turned[len(turned) // 2]
        lines.append(f"beam {' '.join(shapes)}: e.g. {example} (type 'actions' for placements)")
    if end:
        lines.append("end, or a dogship swap (the swap ends the turn)" if swaps else "end")
    if forms:
        species = [card.partition("/")[0] for card in forms]
        alone = " (a species alone will do)" if len(set(species)) == len(species) else ""
        lines.append(_listed("form", forms, width, alone))
    if occupy:
        spots = [f"{card} in {' or '.join(corrals)}" for card, corrals in occupy.items()]
        lines.append(_listed("occupy", spots, width))
    if swaps:
        lines.append(_listed("dogship", swaps, width))
    if others:
        lines.append(" · ".join(others))
    if len(lines) > SUMMARY_LINES:
        lines[SUMMARY_LINES - 1 :] = [" · ".join(lines[SUMMARY_LINES - 1 :])]
    return [_cut(line, width) for line in lines]


def _listed(verb: str, items: Sequence[str], width: int, after: str = "") -> str:
    """``verb: a, b, c (+4 more)`` within ``width`` (``after`` when everything fits)."""
    text = f"{verb}: "
    for index, item in enumerate(items):
        piece = item if index == 0 else f", {item}"
        left = len(items) - index - 1
        more = f" (+{left} more)" if left else after
        if index and len(text) + len(piece) + len(more) > width:
            return f"{text} (+{left + 1} more)"
        text += piece
    return text + after if len(text) + len(after) <= width else text


def _cut(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


class Board:
    """The table as one observer sees it, laid out for the width it is drawn at.

    During the game it takes at most :data:`BOARD_LINES` lines at any width of 80
    columns or more; once the game is over it is the end screen (see :mod:`.board`).
    """

    def __init__(self, observation: RocketObservation, height: int = BOARD_LINES) -> None:
        self.observation = observation
        self.height = height

    def lines(self, width: int) -> list[Text]:
        obs = self.observation
        if obs.over:
            return end_lines(obs, width)
        return board_lines(obs, width, self.height)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n").join(self.lines(options.max_width))


class RocketView(GameView):
    """Draws the display grid, players' tokens, corrals and scores, and summaries."""

    notation = NOTATION

    def render(self, observation: RocketObservation) -> RenderableType:
        return Board(observation)

    def render_actions_compact(
        self, legal_actions: Sequence[Hashable], width: int = SCREEN_WIDTH
    ) -> RenderableType:
        """Beams by name, swaps, cards to place with their corrals: at most 3 lines."""
        return Text("\n".join(compact_actions(legal_actions, width)), style="cyan")

    def render_actions(self, legal_actions: Sequence[Hashable]) -> RenderableType:
        """Beams grouped by shape and rotation (anchors listed), other actions as they are."""
        beams: dict[tuple[str, int], list[str]] = defaultdict(list)
        others: list[str] = []
        for action in legal_actions:
            if isinstance(action, Beam):
                beams[(action.shape, action.rotation)].append("@" + action.cell)
            else:
                others.append(str(action))
        lines = [
            Text(f"beam {shape} r{rotation}: ", style="cyan").append(" ".join(anchors))
            for (shape, rotation), anchors in beams.items()
        ]
        if others:
            lines.append(Text("   ".join(others), style="cyan"))
        return Group(*lines)

    def render_summary(self, summary: Mapping[str, Any]) -> RenderableType | None:
        """Average score split per seat (Abundance, Variety, Space Cats) and win rates."""
        if not summary.get("per_seat"):
            return None
        per_seat, average = summary["per_seat"], summary["average"]
        table = Table(
            title=f"Rocket Ranchers score split, average over {summary['games']} games",
            title_justify="left",
        )
        columns = ("seat", "abundance", "variety", "cat pts", "total", "cats held", "corrals")
        for column in (*columns, "win rate"):
            table.add_column(column, justify="right")
        keys = ("abundance", "variety", "cats", "score", "space_cats", "corrals")
        for seat, rate in enumerate(summary["win_rate"]):
            table.add_row(str(seat), *(f"{per_seat[k][seat]:.1f}" for k in keys), f"{rate:.1%}")
        table.add_row("all", *(f"{average[k]:.1f}" for k in keys), "", style="bold")
        return table


VIEW = RocketView()
