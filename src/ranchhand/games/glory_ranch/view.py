"""The terminal view of Glory Ranch (Rich): the table as one player sees it.

Everything drawn comes from the observation: your hand with each card's
generated rules text, every ranch (positions numbered for ``pick``), scores,
direction of play, round, deck and discard sizes, and what is being asked.
Other players' hands are drawn as sizes only; a pending rock-paper-scissors
sign only for the player who chose it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ranchhand.cli.view import GameView
from ranchhand.games.glory_ranch.cards import Card
from ranchhand.games.glory_ranch.observation import GloryObservation

FAMILY_STYLE = {
    "dragon": "red",
    "fae": "magenta",
    "beast": "yellow",
    "spirit": "cyan",
    "sea": "blue",
    "sky": "green",
}

NOTATION = """\
Actions (seats are numbered from 0; ranch positions from 1 at the left end):
  play wyvern          play a card from your hand (id or name: play Hearth Drake)
  discard pixie        choose a card of your hand to discard, give or pass:
  give roc, pass puck    the card's text says which
  target 2             choose another player (seat 2) for the card's action
  pick 1:3             choose player 1's third ranch card (pick 1:3 roc checks the name)
  place 1              put the card you just played at position 1 (the left end)
  choose rock          your secret rock-paper-scissors sign (rock, paper or scissors)
Chance outcomes in records read 'draw wyvern' and 'steal puck'."""


def _card_name(card: Card, shielded: bool = False) -> Text:
    style = FAMILY_STYLE.get(card.family, "white")
    text = Text(card.name, style=f"bold {style}")
    text.append(f" {card.glory}", style="bold")
    if card.bonus is not None:
        text.append("⧗", style="dim")
    if shielded:
        text.append(" [shield]", style="bold white")
    return text


class GloryView(GameView):
    """Draws hands, ranches, scores and the simulation card table."""

    notation = NOTATION

    def render(self, observation: Any) -> RenderableType:
        obs: GloryObservation = observation
        cards = obs.cards.cards
        me = obs.player
        direction = "clockwise →" if obs.direction == 1 else "← counter-clockwise"
        head = Text()
        head.append(f"Glory Ranch, round {obs.round}", style="bold")
        head.append(f"   target {obs.target}   play {direction}   ")
        head.append(f"deck {obs.deck}   discard {obs.discard}", style="dim")

        board = Table(show_header=True, header_style="bold", expand=False)
        board.add_column("seat")
        board.add_column("total", justify="right")
        board.add_column("hand", justify="right")
        board.add_column("ranch (position: creature glory, ⧗ Hour Glass)")
        for seat in range(obs.players):
            ranch = Text()
            for slot, k in enumerate(obs.ranches[seat]):
                if slot:
                    ranch.append("  ")
                ranch.append(f"{slot + 1}:", style="dim")
                ranch.append_text(_card_name(cards[k], bool(obs.shields[seat][slot])))
            who = f"P{seat}" + (" (you)" if seat == me else "")
            if seat == obs.current:
                who += " ▶"
            board.add_row(who, str(obs.totals[seat]), str(obs.hand_sizes[seat]), ranch)

        hand = Table(title=f"Your hand (P{me})", show_header=True, header_style="bold")
        hand.add_column("card")
        hand.add_column("id", style="dim")
        hand.add_column("glory", justify="right")
        hand.add_column("penalty", justify="right", style="red")
        hand.add_column("what it does")
        for k, count in sorted(Counter(obs.hand).items()):
            card = cards[k]
            name = _card_name(card)
            if count > 1:
                name.append(f" x{count}")
            hand.add_row(name, card.id, str(card.glory), f"-{card.penalty}", card.text)

        parts: list[RenderableType] = [head, board, hand]
        if obs.passing:
            passing = ", ".join(cards[k].name for k in obs.passing)
            parts.append(Text(f"You are passing: {passing}", style="yellow"))
        if obs.my_sign:
            parts.append(Text(f"Your secret sign: {obs.my_sign}", style="yellow"))
        if obs.last_round is not None:
            points = ", ".join(f"P{p} {x:+d}" for p, x in enumerate(obs.last_round))
            parts.append(Text(f"Last round: {points}", style="dim"))
        if obs.log:
            parts.append(Text("Recently: " + "; ".join(obs.log[-5:]), style="dim"))
        asking = Text("Now: ", style="bold")
        asking.append(obs.asking)
        if me in obs.acting:
            asking.append("  (your move)", style="bold green")
        parts.append(asking)
        return Panel(Group(*parts), title="Glory Ranch", border_style="green")

    def render_actions(self, legal_actions: Sequence[Hashable]) -> RenderableType:
        return Columns([Text(str(a), style="cyan") for a in legal_actions], padding=(0, 3))

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
