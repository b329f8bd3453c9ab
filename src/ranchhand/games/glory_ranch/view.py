"""The terminal view of Glory Ranch (Rich): the table as one player sees it.

Everything drawn comes from the observation (see board.py for the board's
layout): scores, every ranch with positions for ``pick`` and family codes, your
hand with each card's text, what is being asked. Other players' hands are drawn
as sizes only; a pending rock-paper-scissors sign only for the player who chose
it. The compact action summary takes at most three lines.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ranchhand.core.view import SCREEN_WIDTH, SUMMARY_LINES, GameView
from ranchhand.games.glory_ranch.actions import Choose, HandCard, Pick, Place, Target
from ranchhand.games.glory_ranch.board import FAMILY_STYLE, Board

CARD_CODES = (
    "Card codes: 'D5 -3' in your hand is a Dragon (D) worth 5 Glory in a ranch, and\n"
    "-3 Glory if it is still in your hand when the round ends; 'Se2⧗*' is a Sea card\n"
    "worth 2 Glory with an Hour Glass bonus (⧗, scored at the round's end), protected (*)."
)
"""How to read the short codes of the board and the hand, for ``help`` and ``board``."""

NOTATION = (
    """\
Actions (seats as shown, P0 P1 ...; ranch positions from 1 at the left end):
  play wyvern          play a card from your hand (id or name: play Hearth Drake)
  discard pixie        choose a card of your hand to discard, give or pass:
  give roc, pass puck    the card's text says which
  target P2            choose another player (target 2 works too)
  pick P1:3            choose P1's third ranch card (pick 1:3 roc checks the name)
  place 1              put the card you just played at position 1 (the left end)
  choose rock          your secret rock-paper-scissors sign (or just: rock)
Chance outcomes in records read 'draw wyvern' and 'steal puck'.
The board: 'P1  12pt hand 4 | 1 Selkie Se2⧗*' is P1 with 12 Glory and 4 cards in hand;
in their ranch, at position 1, a Selkie: family Sea, 2 Glory, an Hour Glass bonus,
protected. Family codes are in the key line.
"""
    + CARD_CODES
    + """
'board' shows every card of your hand with its whole text, 'rules' every card's."""
)

__all__ = ["CARD_CODES", "FAMILY_STYLE", "NOTATION", "VIEW", "GloryView"]


class GloryView(GameView):
    """Draws the board, the actions in three lines, and the simulation card table."""

    notation = NOTATION

    def render(self, observation: Any) -> RenderableType:
        return Board(observation)

    def render_full(self, observation: Any) -> RenderableType:
        """The ``board`` command: the whole table, then every card in your hand with its
        full rules text (the turn screen shortens texts that do not fit a line)."""
        hand = Table(title="Your hand", title_justify="left", expand=False)
        for column in ("card", "family", "glory", "penalty", "what it does"):
            hand.add_column(column, overflow="fold")
        cards = observation.cards.cards
        for kind in sorted(set(observation.hand), key=observation.hand.index):
            card = cards[kind]
            copies = observation.hand.count(kind)
            name = card.name if copies == 1 else f"{card.name} x{copies}"
            hand.add_row(name, card.family, str(card.glory), f"-{card.penalty}", card.text)
        board = Board(observation, height=10_000)
        codes = Text(CARD_CODES.replace("\n", " "), style="dim")
        return Group(board, hand, codes) if observation.hand else Group(board, codes)

    def render_actions(self, legal_actions: Sequence[Hashable]) -> RenderableType:
        return Columns([Text(str(a), style="cyan") for a in legal_actions], padding=(0, 3))

    def render_actions_compact(
        self, legal_actions: Sequence[Hashable], width: int = SCREEN_WIDTH
    ) -> RenderableType:
        """One line per kind of action, at most three: ``play wyvern, roc, pixie``,
        ``target P1, P2``, ``pick 1:1-3, 2:2`` (seat:positions), ``place 1-4``."""
        lines: list[str] = []
        cards: dict[str, list[str]] = {}
        targets: list[str] = []
        picks: dict[int, list[int]] = {}
        places: list[int] = []
        signs: list[str] = []
        others: list[str] = []
        for action in legal_actions:
            if isinstance(action, HandCard):
                cards.setdefault(action.verb, []).append(action.card)
            elif isinstance(action, Target):
                targets.append(f"P{action.seat}")
            elif isinstance(action, Pick):
                picks.setdefault(action.seat, []).append(action.slot)
            elif isinstance(action, Place):
                places.append(action.slot)
            elif isinstance(action, Choose):
                signs.append(action.sign)
            else:
                others.append(str(action))
        for verb, ids in cards.items():
            lines.append(_listed(f"{verb} ", ids, width))
        if targets:
            lines.append(_listed("target ", targets, width))
        if picks:
            ranges = [f"{seat}:{_ranges(slots)}" for seat, slots in picks.items()]
            lines.append(_listed("pick SEAT:POSITION, one of ", ranges, width))
        if places:
            lines.append(_listed("place ", [_ranges(places)], width))
        if signs:
            lines.append(_listed("choose ", signs, width))
        if others:
            lines.append(_listed("", others, width))
        if len(lines) > SUMMARY_LINES:
            rest = "also: " + "; ".join(lines[SUMMARY_LINES - 1 :])
            lines[SUMMARY_LINES - 1 :] = [_clip(rest, width)]
        return Text("\n".join(lines), style="cyan")

    def render_summary(self, summary: Mapping[str, Any]) -> RenderableType | None:
        """The per-card table: how often a card ended a round in a winner's ranch."""
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


def _ranges(numbers: list[int]) -> str:
    """``1-3,5``: runs of consecutive numbers as ranges."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _listed(head: str, items: list[str], width: int) -> str:
    """``head`` and as many ``items`` as fit in ``width``, then how many more."""
    text = head
    for i, item in enumerate(items):
        piece = item if i == 0 else f", {item}"
        more = f" (+{len(items) - i} more)"
        if len(text) + len(piece) + (len(more) if i < len(items) - 1 else 0) > width:
            return _clip(text.rstrip(", ") + more, width)
        text += piece
    return _clip(text, width)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
