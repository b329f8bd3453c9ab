"""Rancho in the terminal: a compact hex board, the ranches, the dice, the actions.

The board (:meth:`RanchoView.render`) fits :data:`~ranchhand.core.view.BOARD_LINES`
lines at 80 columns at any player count on the shipped boards: one text line per
row of hexes, each hex a cell of four characters, rows offset by half a cell.

- a free pasture shows its id (``4.12``: ring 4, twelfth hex clockwise from the
  north-east corner), shaded by price (light green 1, green 2, dark green 4);
- an owned space shows the owner's seat and what stands there, on the owner's
  colour: ``0r6`` six rabbits of P0, ``1S`` a sheep, ``2C`` part of a cow, ``3H``
  part of a horse, ``0·`` nothing; a pen adds ``#`` (``0S#``), an unused pen is ``##``;
- the forest is ``^^``.

Beside the board, one line for the herd and one per player (``>`` marks who is
playing, ``*`` the viewer); under it the legend, then the step and the dice,
which always say whose roll they were.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ranchhand.core.view import SCREEN_WIDTH, SUMMARY_LINES, GameView
from ranchhand.games.rancho.actions import (
    Arrange,
    ArrangeSafest,
    Deal,
    Roll,
    animals_text,
)
from ranchhand.games.rancho.describe import at_risk, counted
from ranchhand.games.rancho.state import (
    DOG,
    EXPAND,
    ORDER,
    RETURN,
    ROLL,
    SETTLE,
    RanchoState,
)
from ranchhand.games.rancho.tables import FACES, FOX, LARGE_DOG, PREDATOR_NAMES, SMALL_DOG, SPECIES

OWNER_STYLES = (
    "bold white on red3",
    "bold white on blue3",
    "bold white on magenta3",
    "bold black on gold1",
    "bold black on cyan3",
    "bold white on grey42",
)
PRICE_STYLES = {1: "black on pale_green1", 2: "black on green3", 4: "white on dark_green"}
OTHER_PRICE_STYLE = "black on green3"
FOREST_STYLE = "bold green on grey11"
FREE_PEN_STYLE = "dim"
GLYPHS = ("r", "S", "C", "H")
CELL = 4
"""Characters of a hex cell; cells are CELL + 1 apart, rows offset by half that."""
GAP = 2
"""Columns between the board and the ranches beside it."""

LEGEND = (
    "r6 6 rabbits",
    "S sheep",
    "C/H part of a cow/horse",
    "0S P0's",
    "# pen",
    "^^ forest",
    "free pasture: its id (ring.index)",
)
"""The legend's pieces; the pastures' prices by ring follow, in their colours."""
SEPARATOR = " · "

NOTATION = """\
The board: one line per row of hexes. A free pasture shows its id
(ring.index, the index counted clockwise from the north-east corner of the
ring), shaded by price; an owned space shows the owner's seat and its animal
on the owner's colour: 0r6 six rabbits of P0, 1S a sheep of P1, 2C part of a
cow, 3H part of a horse, 0· empty; a pen adds # (0S#), an unused pen shows
##, the forest ^^. Beside it: the herd and each ranch (r S C H animals, d D
small and large dogs, p pastures; > playing, * you).

Expand step (any number, any order), then roll:
  trade 6 rabbit > sheep            exchange with the herd at equal value
  trade 2 sheep + small dog + large dog + 3 rabbit > horse
  buy 4.2 with 4 rabbit             buy a pasture (its id is on the board)
  buy 3.4 + 4 rabbit with sheep     pay with a sheep, take 4 rabbits change
  buy 3.17 via 3.18 with 2 rabbit   blocked: cross others' pastures, paying
                                    tolls in rabbits
  arrange 6 rabbit @2.1; sheep @5.1; cow @4.3-4.4; horse @4.1-4.2-4.24
  arrange safest                    let the engine place animals where
                                    predators strike least
  roll                              roll the two twelve-sided dice
  roll and end turn                 roll; after breeding arrange safest and
                                    end the turn
After the roll: fox first | wolf first, give small dog | keep small dog,
  return 3 rabbit + sheep (newborns that do not fit), arrange ..., end turn.
Values in rabbits: sheep 6, cow 12, horse 24, small dog 3, large dog 6;
pastures 1, 2, 4."""


class RanchoView(GameView):
    """Draws a Rancho observation: board, herd, ranches, legend, step and dice."""

    notation = NOTATION

    def render(self, observation: Any) -> RenderableType:
        state: RanchoState = observation.state
        drawing = Text("\n").join(self.lines(state, observation.player))
        drawing.no_wrap, drawing.overflow = True, "ellipsis"  # a line never wraps
        return drawing

    def render_full(self, observation: Any) -> RenderableType:
        """The ``board`` command: the map drawn large, every space with its id over its
        contents (the turn screen names only free pastures), then ranches and legend."""
        state: RanchoState = observation.state
        rest = Text("\n").join([*self.ranch_lines(state, observation.player), *self.legend(state)])
        return Group(self.full_map(state), rest, *self.status(state, observation.player))

    def full_map(self, state: RanchoState) -> Text:
        """Two lines per row of hexes: the space id, then what stands there
        (``0:r6`` is seat 0's stack of six rabbits), on the owner's colour."""
        board = state.game.board
        width = 5
        cells: dict[tuple[int, int], tuple[str, str, str]] = {}
        for space_id, q, r in board.forest:
            cells[q, r] = (space_id, "^^", FOREST_STYLE)
        contents = self._contents(state)
        for space in board.spaces:
            owner = state.owner[space.index]
            mark = contents.get(space.index, "#" if space.is_pen else "")
            if owner >= 0:
                style = OWNER_STYLES[owner % len(OWNER_STYLES)]
                mark = f"{owner}:{mark}"  # the owner reads without colours too
            else:
                style = (
                    FREE_PEN_STYLE
                    if space.is_pen
                    else PRICE_STYLES.get(space.price, OTHER_PRICE_STYLE)
                )
            cells[space.q, space.r] = (space.id, mark, style)
        left = min(2 * q + r for q, r in cells)
        out = Text()
        for row in sorted({r for _q, r in cells}):
            ids, marks, at = Text(), Text(), left
            for q, r in sorted((c for c in cells if c[1] == row), key=lambda c: 2 * c[0] + c[1]):
                x = 2 * q + r
                pad = " " * ((x - at) * (width + 1) // 2)
                space_id, mark, style = cells[q, r]
                ids.append(pad).append(f"{space_id:^{width}}", style=style).append(" ")
                marks.append(pad).append(f"{mark:^{width}}", style=style).append(" ")
                at = x + 2
            out.append_text(ids).append("\n").append_text(marks).append("\n")
        return out

    def lines(self, state: RanchoState, viewer: int | None) -> list[Text]:
        """The whole drawing as lines: the board with the ranches and as much of the
        legend as fits beside it, the rest of the legend, the step and the dice."""
        board = self.board_lines(state)
        left = max((len(line) for line in board), default=0) + GAP
        side = self.ranch_lines(state, viewer)
        room = max(SCREEN_WIDTH - left, 0)
        pieces = self.legend(state)
        while pieces and len(side) < len(board):
            line, pieces = _packed(pieces, room)
            if not line:
                break
            side.append(line)
        out = []
        for i in range(max(len(board), len(side))):
            line = board[i].copy() if i < len(board) else Text()
            if i < len(side):
                line.pad_right(left - len(line))
                line.append_text(side[i])
            out.append(line)
        while pieces:
            line, pieces = _packed(pieces, SCREEN_WIDTH)
            out.append(line or pieces.pop(0))
        out.extend(self.status(state, viewer))
        return out

    # -------------------------------------------------------------- board
    def board_lines(self, state: RanchoState) -> list[Text]:
        """One line per row of hexes, cells CELL wide, rows offset by half a cell."""
        board = state.game.board
        cells: dict[tuple[int, int], tuple[str, str]] = {}
        for _space_id, q, r in board.forest:
            cells[q, r] = ("^^", FOREST_STYLE)
        contents = self._contents(state)
        for space in board.spaces:
            owner = state.owner[space.index]
            pen = "#" if space.is_pen else ""
            if owner >= 0:
                mark = f"{owner}{contents.get(space.index, '·')}{pen}"
                style = OWNER_STYLES[owner % len(OWNER_STYLES)]
            elif space.is_pen:
                mark, style = "##", FREE_PEN_STYLE
            else:
                mark, style = space.id, PRICE_STYLES.get(space.price, OTHER_PRICE_STYLE)
            cells[space.q, space.r] = (mark, style)
        if not cells:
            return []
        left = min(2 * q + r for q, r in cells)
        rows: dict[int, list[tuple[int, str, str]]] = {}
        for (q, r), (mark, style) in cells.items():
            column = (2 * q + r - left) * (CELL + 1) // 2
            rows.setdefault(r, []).append((column, mark, style))
        out = []
        for r in sorted(rows):
            line = Text()
            for column, mark, style in sorted(rows[r]):
                line.pad_right(column - len(line))
                line.append(f"{mark[:CELL]:^{CELL}}", style=style)
            out.append(line)
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
    def ranch_lines(self, state: RanchoState, viewer: int | None) -> list[Text]:
        """The herd and each player: r S C H d D (dogs) and p (pastures), a line each."""
        head = Text(f"{'':4}{'r':>3}{'S':>3}{'C':>3}{'H':>2}{'d':>2}{'D':>2}{'p':>3}", style="bold")
        herd = state.herd
        lines = [head, Text(f"herd{self._counts(herd)}")]
        for p in range(state.game.players):
            playing = state.winner < 0 and p == state.player
            label = Text(">" if playing else " ", style="bold")
            label.append(f"P{p}", style=OWNER_STYLES[p % len(OWNER_STYLES)])
            label.append("*" if p == viewer else " ", style="bold")
            label.append(self._counts(state.animals[p]))
            label.append(f"{state.land[p].bit_count():>3}")
            lines.append(label)
        return lines

    @staticmethod
    def _counts(counts: Sequence[int]) -> str:
        shown = [str(n) if n else "." for n in counts]
        widths = (3, 3, 3, 2, 2, 2)
        return "".join(f"{s:>{w}}" for s, w in zip(shown, widths, strict=True))

    def legend(self, state: RanchoState) -> list[Text]:
        """What the board's marks mean and which ring costs what (coloured as drawn), as
        short pieces packed beside the board or under it."""
        board = state.game.board
        rings: dict[int, set[str]] = {}
        for space in board.spaces:
            if space.price:
                rings.setdefault(space.price, set()).add(space.id.partition(".")[0])
        pieces = [Text(piece, style="dim") for piece in LEGEND]
        prices = Text("price:", style="dim")
        for price in sorted(rings):
            names = "/".join(f"{ring}.x" for ring in sorted(rings[price], key=int))
            prices.append(" ")
            prices.append(f" {names} {price} ", style=PRICE_STYLES.get(price, OTHER_PRICE_STYLE))
        return [*pieces, prices]

    def status(self, state: RanchoState, viewer: int | None) -> list[Text]:
        """The step, and the dice with whose roll they were (never passed off as yours)."""
        players = state.game.players
        who = state.player
        text = Text()
        if state.winner >= 0:
            text.append(f"P{state.winner} has a full herd and wins!", style="bold green")
        else:
            text.append(f"Turn {state.turn}: ", style="bold")
            text.append(self._step(state), style="yellow" if state.phase == DOG else "")
        dice = Text()
        if state.dice is not None and not (state.turn == 0 and state.phase in (EXPAND, ROLL)):
            roller = who
            earlier = state.phase in (EXPAND, ROLL)  # the dice are the previous player's
            if earlier:
                roller = (who - 1) % players
            name = "you" if roller == viewer else f"P{roller}"
            first, second = (FACES[f] for f in state.dice)
            lead = f"Last roll, by {name}: " if earlier else f"Rolled by {name}: "
            dice.append(lead, style="dim" if earlier else "bold")
            dice.append(f"{first} + {second}", style="dim" if earlier else "bold")
            for i, (predator, price) in enumerate(state.strikes):
                said = f"the {PREDATOR_NAMES[predator]}"
                struck = (
                    f"; {said} struck pastures costing {price}" if i == 0 else f", {said} {price}"
                )
                dice.append(struck, style="dim red" if earlier else "red")
            dice.append(".", style="dim" if earlier else "")
        if not dice:
            return [text]
        if len(text) + 1 + len(dice) <= SCREEN_WIDTH:
            return [text.append(" ").append_text(dice)]
        return [text, dice]

    @staticmethod
    def _step(state: RanchoState) -> str:
        who = f"P{state.player}"
        phase = state.phase
        if phase == EXPAND:
            return f"{who} trades, buys, arranges, rolls."
        if phase == ROLL:
            return f"{who} rolls the dice."
        if phase == ORDER:
            return f"{who} rolled a fox and a wolf and picks which strikes first."
        if phase == DOG and state.dog_queue and state.strike:
            predator, price = state.strike
            dog = SMALL_DOG if predator == FOX else LARGE_DOG
            seat = state.dog_queue[0]
            at_stake = counted(at_risk(state, seat, predator, price))
            return f"P{seat} may give up a {SPECIES[dog]} to save {at_stake}."
        if phase == RETURN and state.settled:  # said 'roll and end turn', asked anyway: why
            return f"{who}'s newborns do not all fit; which go back is {who}'s to choose."
        if phase == RETURN:
            return f"{who}'s newborns do not all fit: some go back to the herd."
        if phase == SETTLE:
            return f"{who} may rearrange, then ends the turn."
        name = PREDATOR_NAMES[state.predators[0]] if state.predators else "predator"
        return f"The {name} strikes."

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

    def render_actions_compact(
        self, legal_actions: Sequence[Hashable], width: int = SCREEN_WIDTH
    ) -> RenderableType:
        """At most three lines: the turn's moves and choices, the trades, the purchases
        (pastures that cost the same payment share one entry: ``buy 4.1/4.2 with 4 rabbit``)."""
        moves: list[str] = []
        trades: list[str] = []
        buys: dict[str, list[str]] = {}
        for action in legal_actions:
            if isinstance(action, Deal) and action.pastures:
                via = f" via {','.join(action.via)}" if action.via else ""
                change = f" + {animals_text(action.take)}" if any(action.take) else ""
                key = f"{change}{via} with {animals_text(action.give)}"
                buys.setdefault(key, []).append("+".join(action.pastures))
            elif isinstance(action, Deal):
                trades.append(str(action).removeprefix("trade "))
            else:  # roll, arrange, end turn, the choices after a roll
                moves.append(str(action))
        lines: list[Text] = []
        if moves:
            lines.append(_listed("", moves, " · ", width))
        if trades:
            lines.append(_listed("trade ", trades, " | ", width))
        if buys:
            entries = [f"{'/'.join(ids)}{key}" for key, ids in buys.items()]
            lines.append(_listed("buy ", entries, " | ", width))
        return Text("\n").join(lines[:SUMMARY_LINES])

    def settled_for_you(self, observation: Any, legal_actions: Sequence[Hashable]) -> str | None:
        """After "roll and end turn", newborns that do not fit with only one way to make
        them fit go back without a question (with several ways, the player is asked, and
        the status line says why)."""
        state = observation.state
        if state.phase == RETURN and state.settled and len(legal_actions) == 1:
            return f"Your newborns do not all fit: {legal_actions[0]} (the only way)."
        return None

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


def _packed(pieces: list[Text], width: int) -> tuple[Text, list[Text]]:
    """As many pieces as fit in ``width`` joined by " · ", and the pieces left over."""
    line = Text()
    for i, piece in enumerate(pieces):
        extra = len(piece) + (len(SEPARATOR) if i else 0)
        if len(line) + extra > width:
            return line, pieces[i:]
        if i:
            line.append(SEPARATOR, style="dim")
        line.append_text(piece)
    return line, []


def _listed(head: str, items: list[str], sep: str, width: int) -> Text:
    """``head`` and the items joined by ``sep`` while they fit in ``width``, then how many
    more there are (``actions`` lists them all)."""
    text = head
    for i, item in enumerate(items):
        piece = item if i == 0 else sep + item
        left = len(items) - i - 1
        more = f" (+{left} more)" if left else ""
        if i and len(text) + len(piece) + len(more) > width:
            text += f" (+{left + 1} more)"
            break
        text += piece
    line = Text(_cut(text, width), style="cyan")
    line.stylize("bold", 0, len(head))
    return line


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


VIEW = RanchoView()
