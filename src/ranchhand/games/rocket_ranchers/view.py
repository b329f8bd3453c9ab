"""The terminal view of Rocket Ranchers (Rich): the table as one player sees it.

The display is a 4x4 grid named like a chess board (columns a-d, rows 1-4 from
the top); each card shows its species, dots and biome in the biome's colour,
Space Cats stand out in magenta. Below it every player's beams, dogship, floof
pile, corrals and score so far.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ranchhand.cli.view import GameView
from ranchhand.games.rocket_ranchers.actions import COLUMNS, Beam
from ranchhand.games.rocket_ranchers.components import SIZE, BeamShape
from ranchhand.games.rocket_ranchers.observation import RocketObservation
from ranchhand.games.rocket_ranchers.scoring import score_corral
from ranchhand.games.rocket_ranchers.tables import CAT, EMPTY, HIDDEN, Tables

NOTATION = """\
Cells are named like a chess board: columns a-d left to right, rows 1-4
from the top (a1 top-left, d4 bottom-right); the display refills in reading
order a1, b1, c1, d1, a2, ...

beam SHAPE rDEG @CELL  use a face-up tractor beam.
    SHAPE: I2 (line of 2), I3 (line of 3), L3 (L of 3), O4 (2x2 square).
    rDEG: clockwise turn r0, r90, r180, r270 (lines: r0 and r90 only).
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
Cards are SPECIES/BIOME/DOTS. Chance: draw kow/tundra/2, draw cat."""


def card_text(tables: Tables, card: int, width: int = 0) -> Text:
    """One card: species and dots in its biome's colour; cats, empty and hidden marked."""
    if card == CAT:
        return Text("SPACE CAT".ljust(width), style="bold magenta")
    if card == EMPTY:
        return Text("·".ljust(width), style="dim")
    if card == HIDDEN:
        return Text("▒ face down".ljust(width), style="dim")
    deck = tables.deck
    biome = tables.biome[card]
    label = f"{deck.species[tables.species[card]]} {'●' * tables.dots[card]}"
    name = deck.biomes[biome][: 2 if width else 3]
    text = Text(label.ljust(max(width - len(name) - 1, 0)), style=f"bold {deck.colours[biome]}")
    text.append(f" {name}", style=deck.colours[biome])
    return text


def corral_text(
    tables: Tables, options: Mapping[str, Any], number: int, corral: tuple[int, tuple[int, ...]]
) -> Text:
    """A corral: its number, founding card (or ▒), species, each card's dots and biome."""
    founder, face_up = corral
    text = Text(f"{number}: ")
    if founder == HIDDEN:
        text.append("▒", style="dim")
    else:
        text.append("▒ ", style="dim").append_text(card_text(tables, founder))
    text.append(" | ")
    deck = tables.deck
    if face_up:
        text.append(deck.species[tables.species[face_up[0]]] + ": ", style="bold")
    for index, kind in enumerate(face_up):
        colour = deck.colours[tables.biome[kind]]
        if index:
            text.append(" ")
        text.append(f"{'●' * tables.dots[kind]}{deck.biomes[tables.biome[kind]][:3]}", colour)
    score = score_corral(tables, options, corral)
    text.append(f" → {score.points} ({score.scored_as})", style="dim")
    return text


def beam_picture(beam: BeamShape) -> str:
    """A beam's pattern at r0 as blocks, e.g. the L of 3 as '█ ' over '██'."""
    cells = set(beam.rotated(0))
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    return "\n".join(
        "".join("█" if (r, c) in cells else " " for c in range(width)) for r in range(height)
    )


class RocketView(GameView):
    """Draws the display grid, players' tokens, corrals and scores, and summaries."""

    notation = NOTATION

    def render(self, observation: RocketObservation) -> RenderableType:
        obs = observation
        tables = obs.tables
        who = "chance" if obs.current < 0 else f"P{obs.current}"
        head = Text(
            f"Rocket Ranchers: turn {obs.turn}, {who} to act ({obs.phase}); you are "
            f"P{obs.player}. Deck: {obs.deck_size} cards ({obs.deck_cats} Space Cats)",
            style="bold",
        )
        if obs.deck_size == 0 and not obs.over:
            head.append("  The deck ran out: play on to the first player.", style="yellow")
        parts: list[RenderableType] = [head, self._display(obs), self._players(obs)]
        if obs.pending:
            waiting = Text("Collected, to place: ")
            for index, kind in enumerate(obs.pending):
                if index:
                    waiting.append(", ")
                waiting.append_text(card_text(tables, kind))
            parts.append(waiting)
        shapes = Table.grid(padding=(0, 3))
        for _ in tables.beams:
            shapes.add_column()
        shapes.add_row(
            *(
                Text(
                    f"{b.name}\n{beam_picture(b)}",
                    style="cyan" if b.name in obs.beam_names(obs.player) else "dim strike",
                )
                for b in tables.beams
            )
        )
        parts.append(Text("Your beams (face up in cyan):"))
        parts.append(shapes)
        return Group(*parts)

    def _display(self, obs: RocketObservation) -> Table:
        grid = Table(show_header=True, show_lines=True, title="Wildlife display", padding=0)
        grid.add_column("")
        for column in COLUMNS:
            grid.add_column(f" {column}", justify="left", min_width=17)  # " " + 15 + " "
        for row in range(SIZE):
            cards = obs.display[row * SIZE : (row + 1) * SIZE]
            grid.add_row(
                f" {row + 1} ",
                *(Text(" ").append_text(card_text(obs.tables, c, 15)).append(" ") for c in cards),
            )
        return grid

    def _players(self, obs: RocketObservation) -> Table:
        tables = obs.tables
        table = Table(title="Ranchers", show_lines=True)
        for column in ("player", "beams up", "dogship", "cats", "corrals", "score now"):
            table.add_column(column)
        scores = obs.scores()
        for player, corrals in enumerate(obs.corrals):
            lines = Text()
            for number, corral in enumerate(corrals, start=1):
                if number > 1:
                    lines.append("\n")
                lines.append_text(corral_text(tables, obs.options, number, corral))
            split = scores[player]
            name = f"P{player}" + (" (you)" if player == obs.player else "")
            table.add_row(
                Text(name, style="bold" if player == obs.current else ""),
                " ".join(obs.beam_names(player)) or "-",
                "up" if obs.dogship[player] else "down",
                str(obs.floof[player]),
                lines if corrals else Text("-"),
                f"{split.total} (A {split.abundance}, V {split.variety}, cats {split.cats})",
            )
        return table

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
