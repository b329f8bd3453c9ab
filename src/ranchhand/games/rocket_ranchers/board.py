"""The Rocket Ranchers table drawn as lines of text, fitted to the terminal's width.

During the game (:func:`board_lines`): a status line (turn, who plays and what,
the deck), the 4x4 display as cards (species, dots, biome letter in the biome's
colour, 4+/5+ marks, Space Cats), a legend (the beams at r0 and the biome
letters), one line per player (beams and dogship face up, Space Cats, score so
far, corrals), and the cards waiting for a corral. At 80 columns it takes at
most :data:`~ranchhand.core.view.BOARD_LINES` lines at any player count: a
player's corrals continue on further lines while there is room (the viewer's
own first) and end in "+N" when there is none.

Once the game is over (:func:`end_lines`): "game over", the winner, and each
player's score corral by corral (Abundance or Variety, and the points), founding
cards turned up, then Space Cats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from rich.text import Text

from ranchhand.games.rocket_ranchers.actions import COLUMNS
from ranchhand.games.rocket_ranchers.components import SIZE, BeamShape
from ranchhand.games.rocket_ranchers.observation import RocketObservation
from ranchhand.games.rocket_ranchers.scoring import Corral, score_corral, winner
from ranchhand.games.rocket_ranchers.tables import CAT, Tables

CAT_STYLE = "bold magenta"
GAP = "  "
"""Between two corrals on a player's line."""
PHASE_TEXT = {
    "start": "beam, reboot or dogship",
    "place": "place the collected cards",
    "fill": "the display refills",
    "after": "dogship or end the turn",
}


@dataclass(frozen=True)
class Glyphs:
    """Short names of one deck's species and biomes, and each card kind's player mark."""

    species: tuple[str, ...]
    """Species abbreviated to their shortest distinct prefix of 3 letters or more."""
    biomes: tuple[str, ...]
    """Biome letters: the shortest distinct prefix (one capital letter for the standard deck)."""
    marks: tuple[str, ...]
    """Per card kind: "4+", "5+" or "" (the least player count that keeps every copy)."""


@cache
def glyphs(tables: Tables) -> Glyphs:
    deck = tables.deck
    least: dict[tuple[str, str, int], int] = {}
    for card in deck.cards:
        key = (card.species, card.biome, card.dots)
        least[key] = min(least.get(key, card.players), card.players)
    marks = []
    for kind in range(tables.kinds):
        species, biome = deck.species[tables.species[kind]], deck.biomes[tables.biome[kind]]
        players = least.get((species, biome, tables.dots[kind]), 2)
        marks.append(f"{players}+" if players > 3 else "")
    return Glyphs(_prefixes(deck.species, 3), _prefixes(deck.biomes, 1), tuple(marks))


def _prefixes(names: Sequence[str], shortest: int) -> tuple[str, ...]:
    """The shortest prefixes (at least ``shortest`` letters) that tell ``names`` apart."""
    longest = max(len(n) for n in names)
    for size in range(shortest, longest + 1):
        cut = [n[:size].capitalize() for n in names]
        if len(set(cut)) == len(cut):
            return tuple(cut)
    return tuple(n.capitalize() for n in names)


def dots_text(dots: int) -> str:
    """``●●`` for 2 dots; a number and one dot past three (``5●``)."""
    return "●" * dots if dots <= 3 else f"{dots}●"


def colour(tables: Tables, kind: int) -> str:
    return tables.deck.colours[tables.biome[kind]]


def biome_letter(tables: Tables, kind: int) -> Text:
    return Text(glyphs(tables).biomes[tables.biome[kind]], style=f"bold {colour(tables, kind)}")


def short_card(tables: Tables, kind: int) -> Text:
    """A card in a few letters, in its biome's colour: ``Kow●●T`` (kow/tundra/2)."""
    text = Text(glyphs(tables).species[tables.species[kind]] + dots_text(tables.dots[kind]))
    text.stylize(colour(tables, kind))
    return text.append_text(biome_letter(tables, kind))


def founder_text(tables: Tables, founder: int) -> Text:
    """A corral's face-down founding card: ``▒`` alone when hidden, else ``▒Kow●●T``."""
    text = Text("▒", style="dim")
    if founder >= 0:
        text.append_text(short_card(tables, founder))
    return text


# ------------------------------------------------------------------ the display
def card_width(tables: Tables) -> int:
    """The columns of one display card: species, dots, biome letter and a 4+ mark."""
    marks = glyphs(tables)
    species = min(max(len(s) for s in tables.deck.species), 8)
    dots = max(3, *(len(dots_text(d)) for d in tables.dots))
    letters = max(len(b) for b in marks.biomes)
    return species + 1 + dots + 1 + letters + (3 if any(marks.marks) else 0)


def display_card(tables: Tables, card: int, width: int) -> Text:
    """One display card in ``width`` columns: ``Capiwata ●●● J 4+``, a Space Cat, or ``·``."""
    if card == CAT:
        label = "SPACE CAT =^.^=" if width >= 15 else "SPACE CAT"
        return Text(label[:width].ljust(width), style=CAT_STYLE)
    if card < 0:
        return Text("·".ljust(width), style="dim")
    marks = glyphs(tables)
    species_width = min(max(len(s) for s in tables.deck.species), 8)
    dots_width = max(3, *(len(dots_text(d)) for d in tables.dots))
    name = tables.deck.species[tables.species[card]][:species_width]
    text = Text(name.ljust(species_width), style=f"bold {colour(tables, card)}")
    text.append(" " + dots_text(tables.dots[card]).ljust(dots_width) + " ", colour(tables, card))
    text.append_text(biome_letter(tables, card))
    mark = marks.marks[card]
    if mark:
        text.append(f" {mark}", style="bold")
    text.pad_right(width - text.cell_len)
    return text


def display_lines(obs: RocketObservation, width: int) -> list[Text]:
    """The column letters, then one line per row of the 4x4 display."""
    tables = obs.tables
    cell = card_width(tables)
    gap = max(1, min(3, (width - 2 - SIZE * cell) // (SIZE - 1)))
    head = Text("  ")
    for index, letter in enumerate(COLUMNS):
        head.append((letter if index == SIZE - 1 else letter.ljust(cell + gap)), style="bold")
    lines = [head]
    for row in range(SIZE):
        line = Text(f"{row + 1} ", style="bold")
        for column in range(SIZE):
            if column:
                line.append(" " * gap)
            line.append_text(display_card(tables, obs.display[row * SIZE + column], cell))
        lines.append(line)
    return lines


def beam_rows(beam: BeamShape) -> list[str]:
    """A beam's pattern at r0 in half blocks, two rows of cells per line: L3 is ``█▄``."""
    cells = set(beam.rotated(0))
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    blocks = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    return [
        "".join(blocks[((top, c) in cells, (top + 1, c) in cells)] for c in range(width))
        for top in range(0, height, 2)
    ]


def legend(obs: RocketObservation) -> Text:
    """The beams as patterns at r0 and the biome letters: ``I2 ▀▀  L3 █▄ … · D Desert …``."""
    tables = obs.tables
    text = Text("beams ", style="dim")
    for index, beam in enumerate(tables.beams):
        if index:
            text.append("  ")
        text.append(f"{beam.name} ", style="cyan").append(" ".join(beam_rows(beam)), "cyan")
    text.append("  ·  ", style="dim")
    letters = glyphs(tables).biomes
    biomes = zip(tables.deck.biomes, tables.deck.colours, strict=True)
    for index, (name, shade) in enumerate(biomes):
        if index:
            text.append(" ")
        text.append(letters[index], style=f"bold {shade}")
        text.append(name[len(letters[index]) :].lower(), style=shade)
    return text


# ------------------------------------------------------------------ the players
def corral_piece(obs: RocketObservation, number: int, corral: Corral, *, founder: bool) -> Text:
    """One corral: its number, founding card when shown, species, biome letters, points.

    ``1▒Kel●●T Kow DGT V8``: corral 1, founded with kelk/tundra/2 face down, three
    Kows face up from the Desert, Grassland and Tundra, scoring Variety 8.
    """
    tables = obs.tables
    first, face_up = corral
    text = Text(str(number), style="bold")
    if founder or not face_up:
        text.append_text(founder_text(tables, first))
    if face_up:
        text.append(" " + glyphs(tables).species[tables.species[face_up[0]]], style="bold")
        if obs.options["abundance_counts"] == "dots":
            text.append(f" {sum(tables.dots[k] for k in face_up)}●")
        text.append(" ")
        for kind in face_up:
            text.append_text(biome_letter(tables, kind))
    score = score_corral(tables, obs.options, corral)
    if score.points:
        text.append(f" {score.scored_as[0].upper()}{score.points}", style="green")
    return text


def player_head(obs: RocketObservation, player: int) -> Text:
    """A player's tokens and score: ``▸ P0 you   -5  I2 I3 ·· O4  dog   2``."""
    tables = obs.tables
    mine = player == obs.player
    text = Text("▸ " if player == obs.current else "  ", style="bold yellow")
    text.append(f"P{player}{' you' if mine else ''}".ljust(7), style="bold" if mine else "")
    text.append(f"{obs.scores()[player].total:>5}  ", style="bold")
    up = obs.beams[player]
    for index, beam in enumerate(tables.beams):
        if index:
            text.append(" ")
        if up >> index & 1:
            text.append(beam.name, style="cyan")
        else:
            text.append("·" * len(beam.name), style="dim")
    dog = obs.dogship[player]
    text.append("  dog" if dog else "  ···", style="" if dog else "dim")
    text.append(f"{obs.floof[player]:>5}", style=CAT_STYLE if obs.floof[player] else "dim")
    text.append(" │ ", style="dim")
    return text


def players_head(obs: RocketObservation) -> Text:
    """Column names over the players' lines, aligned with :func:`player_head`."""
    beams = " ".join(b.name for b in obs.tables.beams)
    return Text(
        f"  {'player':<7}{'score':>5}  {'beams up':<{len(beams)}}  dog{'cats':>5} │ corrals "
        "(▒ founding card face down)",
        style="dim",
    )


def fill(head: Text, pieces: Sequence[Text], width: int, lines: int, indent: int = 4) -> list[Text]:
    """``head`` then ``pieces`` in at most ``lines`` lines of ``width``; the rest as "+N"."""
    out = [head.copy()]
    fresh = True  # no piece on the current line yet
    index = 0
    while index < len(pieces):
        piece, line = pieces[index], out[-1]
        left = len(pieces) - index - 1
        last = len(out) >= lines
        reserve = len(f"{GAP}+{left}") if last and left else 0
        sep = 0 if fresh else len(GAP)
        empty = fresh and line.cell_len <= indent  # a continuation line with nothing on it
        if sep + piece.cell_len + reserve <= width - line.cell_len or (empty and not last):
            if not fresh:
                line.append(GAP)
            line.append_text(piece)
            fresh = False
            index += 1
        elif not last:
            out.append(Text(" " * indent))
            fresh = True
        else:
            line.append(f"{'' if fresh else GAP}+{left + 1}", style="dim")
            break
    return out


def corral_pieces(obs: RocketObservation, player: int) -> list[Text]:
    mine = player == obs.player or obs.over
    if not obs.corrals[player]:
        return [Text("none yet", style="dim")]
    return [
        corral_piece(obs, number, corral, founder=mine)
        for number, corral in enumerate(obs.corrals[player], start=1)
    ]


def pending_line(obs: RocketObservation) -> Text:
    tables = obs.tables
    text = Text("to place: ", style="bold")
    for index, kind in enumerate(obs.pending):
        if index:
            text.append("  ")
        text.append(tables.text[kind], style=f"bold {colour(tables, kind)}")
    return text


def status_line(obs: RocketObservation) -> Text:
    who = "the display refills" if obs.current < 0 else f"P{obs.current}"
    if obs.current == obs.player:
        who += " (you)"
    text = Text(f"Turn {obs.turn} · ", style="bold")
    if obs.current >= 0:
        text.append(f"{who} to play: ", style="bold yellow").append(PHASE_TEXT.get(obs.phase, ""))
    else:
        text.append(who)
    if obs.deck_size:
        text.append(f" · deck {obs.deck_size} ({obs.deck_cats} cats)", style="dim")
    else:
        text.append(" · deck empty: last round", style="yellow")
    if obs.player is None:
        text.append(" · spectator", style="dim")
    return text


def board_lines(obs: RocketObservation, width: int, height: int) -> list[Text]:
    """The table during the game in at most ``height`` lines of ``width`` columns."""
    players = len(obs.corrals)
    fixed = [status_line(obs), *display_lines(obs, width)]
    tail = [pending_line(obs)] if obs.pending else []
    spare = height - len(fixed) - len(tail) - 1 - players
    order = sorted(range(players), key=lambda p: (p != obs.player, p))
    heads = {p: player_head(obs, p) for p in range(players)}
    pieces = {p: corral_pieces(obs, p) for p in range(players)}
    lines = dict.fromkeys(range(players), 1)
    want_legend = True

    def needed(player: int) -> int:
        return len(fill(heads[player], pieces[player], width, 99))

    for player in order:
        if player == obs.player:
            extra = min(needed(player) - 1, max(spare, 0))
            lines[player] += extra
            spare -= extra
    if spare > 0:
        spare -= 1
    else:
        want_legend = False
    while spare > 0:
        growing = [p for p in order if lines[p] < needed(p)]
        if not growing:
            break
        for player in growing:
            if spare > 0:
                lines[player] += 1
                spare -= 1
    body = [players_head(obs)]
    for player in range(players):
        body.extend(fill(heads[player], pieces[player], width, lines[player]))
    if want_legend:
        fixed.append(legend(obs))
    return [_fit(line, width) for line in (*fixed, *body, *tail)][:height]


# ------------------------------------------------------------------ the end
def end_lines(obs: RocketObservation, width: int) -> list[Text]:
    """Game over: the winner, each player's corrals one by one, Space Cats, the total."""
    scores = obs.scores()
    totals = [s.total for s in scores]
    finished = finished_by_rules(obs)
    best = winner(totals, obs.floof) if finished else None
    head = Text(f"Game over after {obs.turn} turns", style="bold")
    if best is None:
        head.append(" · stopped before the deck ran out: no winner", style="yellow")
    else:
        you = " (you)" if best == obs.player else ""
        head.append(f" · P{best}{you} wins with {totals[best]} points", style="bold green")
        head.append(tie_break(totals, obs.floof, best), style="green")
    lines = [
        head,
        Text("A Abundance (cards), V Variety (biomes), or 0; ▒ the founding card", style="dim"),
    ]
    most = max(obs.floof)
    for player, score in enumerate(scores):
        line = Text("★ " if player == best else "  ", style="bold green")
        mine = " (you)" if player == obs.player else ""
        cats = obs.floof[player]
        line.append(f"P{player}{mine}: {score.total}", style="bold")
        line.append(
            f" = Abundance {score.abundance} + Variety {score.variety} + Space Cats "
            f"{score.cats} ({cats} {'cat' if cats == 1 else 'cats'}: "
            f"{'the most' if cats == most else '2 each'})"
        )
        lines.append(line)
        pieces = [
            corral_piece_final(obs, number, corral)
            for number, corral in enumerate(obs.corrals[player], start=1)
        ]
        if pieces:
            lines.extend(fill(Text("    "), pieces, width, 99))
        else:
            lines.append(Text("    no corral", style="dim"))
    return [_fit(line, width) for line in lines]


def tie_break(totals: Sequence[int], floof: Sequence[int], best: int) -> str:
    """How a tie on points was broken (nothing if there was none)."""
    tied = [p for p, total in enumerate(totals) if total == totals[best]]
    if len(tied) == 1:
        return ""
    if sum(floof[p] == floof[best] for p in tied) == 1:
        return " (tie: more Space Cats)"
    return " (tie: the later seat)"


def corral_piece_final(obs: RocketObservation, number: int, corral: Corral) -> Text:
    """A corral at the end: its cards, and the way it scores with the points (0 too)."""
    text = corral_piece(obs, number, corral, founder=True)
    if not score_corral(obs.tables, obs.options, corral).points:
        text.append(" 0", style="dim")
    return text


def finished_by_rules(obs: RocketObservation) -> bool:
    """Over because the deck ran out and seat 0 is next (not stopped by ``max_turns``)."""
    return obs.over and not obs.deck_size and obs.turn % len(obs.floof) == 0


def _fit(line: Text, width: int) -> Text:
    if line.cell_len > width:
        line = line.copy()
        line.truncate(width, overflow="ellipsis")
    return line
