"""The Glory Ranch board, laid out for the width it is drawn at (80 columns at least).

At most :data:`~ranchhand.core.view.BOARD_LINES` lines, from the observation only:

- a status line: round, target, direction of play, deck and discard sizes (at the
  end: who won);
- the key: family codes, ⧗ for an Hour Glass bonus, * for a protected card;
- one line per player: ▶ for the player to act, total, hand size, then the ranch
  as numbered cards (``2 Selkie Se2⧗``: position for ``pick``, name, family code,
  Glory); an empty ranch shows that player's score of the last round instead
  (``round 1: 14 +⧗4 -3 = +15``);
- your hand, one line per card: name, family and Glory, penalty, and its text
  (the full text if it fits the line, else a shorthand; with many cards, two
  cards a line);
- the cards you are passing, your secret sign; what the game asks now.

Once the game is over, every player's last round is broken down instead of the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from ranchhand.core.view import BOARD_LINES
from ranchhand.games.glory_ranch.cards import Card
from ranchhand.games.glory_ranch.observation import GloryObservation
from ranchhand.games.glory_ranch.shorttext import (
    HOURGLASS,
    PROTECTED,
    family_codes,
    short_effect,
    short_text,
)

FAMILY_STYLE = {
    "dragon": "red",
    "fae": "magenta",
    "beast": "yellow",
    "spirit": "cyan",
    "sea": "blue",
    "sky": "green",
}
SHORTEST_NAME = 4
"""Names in a crowded ranch are cut down to no fewer letters than this."""


class Board:
    """A Rich renderable: the lines of :meth:`lines` at the width it is printed at."""

    def __init__(self, observation: GloryObservation, height: int = BOARD_LINES) -> None:
        self.obs = observation
        self.height = height
        self.codes = family_codes(observation.cards.families)
        self.family_width = max(len(c) for c in self.codes.values()) + 2

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n").join(self.lines(options.max_width))

    # ------------------------------------------------------------ layout
    def lines(self, width: int) -> list[Text]:
        obs = self.obs
        over = bool(obs.winners)
        top = [self._status(width), self._key(width)]
        bottom = self._extras(width)
        if not over:
            bottom.append(self._asking(width))
        players = [self._player(seat, width) for seat in range(obs.players)]
        more = {seat: self._continued(seat, width) for seat in range(obs.players)}
        # a ranch whose cards do not fit one line even with names cut goes on below;
        # when a ranch card is to be picked, before the hand: every position must show
        crowded = [seat for seat in more if more[seat] and not self._fits(seat, width)]
        room = self.height - len(top) - len(bottom) - len(players)
        if over:  # the scores first; the key only if there is room for it
            middle = [self._score(seat, width) for seat in range(obs.players)]
            if len(middle) + sum(len(more[seat]) for seat in crowded) > room:
                top.pop()
                room += 1
        elif obs.step is not None and obs.step[0] == "pick":  # the ranches first
            middle = self._hand(width, room - sum(len(more[seat]) for seat in crowded))
        else:  # a choice from the hand, or one that needs no ranch position: the hand first
            middle = self._hand(width, room)
        room -= len(middle)
        # then lines left over let other ranches go on below, the least crowded first
        order = sorted(more, key=lambda seat: (seat not in crowded, len(more[seat])))
        for seat in order:
            if more[seat] and len(more[seat]) <= room:
                lines = [self._player(seat, width, wrap=True), *more[seat]]
                players[seat] = Text("\n").join(lines)
                room -= len(more[seat])
        return [*top, *players, *middle, *bottom]

    def _status(self, width: int) -> Text:
        obs = self.obs
        line = Text()
        if obs.winners:
            who = " and ".join(f"P{w}" for w in obs.winners)
            best = obs.totals[obs.winners[0]]
            verb = "wins" if len(obs.winners) == 1 else "share the win"
            line.append(f"Game over after round {obs.round} · {who} {verb} with {best}", "bold")
            line.append(f" (target {obs.target})")
            return _fit(line, width)
        line.append(f"Round {obs.round}", "bold")
        line.append(f" · target {obs.target} · play ")
        line.append("→ clockwise" if obs.direction == 1 else "← counter-clockwise")
        line.append(f" · deck {obs.deck} · discard {obs.discard}", "dim")
        return _fit(line, width)

    def _key(self, width: int) -> Text:
        line = Text()
        for family, code in self.codes.items():
            line.append(code, f"bold {FAMILY_STYLE.get(family, 'white')}")
            line.append(f" {family}  ", "dim")
        line.append(f"{HOURGLASS} Hour Glass  {PROTECTED} protected", "dim")
        return _fit(line, width)

    def _head(self, seat: int) -> Text:
        obs = self.obs
        line = Text()
        line.append("▶" if seat == obs.current and not obs.winners else " ", "bold green")
        line.append(f"P{seat}", "bold")
        line.append(" you" if seat == obs.player else "    ", "bold")
        line.append(f" {obs.totals[seat]:>3}pt hand {obs.hand_sizes[seat]:<2}│ ")
        return line

    def _player(self, seat: int, width: int, wrap: bool = False) -> Text:
        """One player's line; ``wrap``: only as many ranch cards as fit whole."""
        obs = self.obs
        line = self._head(seat)
        room = width - line.cell_len
        ranch = obs.ranches[seat]
        if not ranch:
            line.append_text(_fit(self._last(seat), room))
            return line
        tokens = self._tokens(seat)
        if wrap:
            line.append_text(Text("  ").join(tokens[: _fitting(tokens, room)]))
            return line
        for size in (None, *range(self._longest(seat) - 1, SHORTEST_NAME - 1, -1)):
            tokens = self._tokens(seat, size)
            gap = 2 if size is None else 1
            if _width(tokens, gap) <= room:
                break
        line.append_text(_fit(Text(" " * gap).join(tokens), room))
        return line

    def _fits(self, seat: int, width: int) -> bool:
        """Whether the ranch fits on the player's line (names cut down as far as allowed)."""
        room = width - self._head(seat).cell_len
        return _width(self._tokens(seat, SHORTEST_NAME), 1) <= room

    def _longest(self, seat: int) -> int:
        cards = self.obs.cards.cards
        return max(len(cards[k].name) for k in self.obs.ranches[seat])

    def _continued(self, seat: int, width: int) -> list[Text]:
        """The ranch cards that do not fit on the player's line, on lines of their own."""
        indent = self._head(seat).cell_len
        room = width - indent
        tokens = self._tokens(seat)
        shown = _fitting(tokens, room)
        if shown >= len(tokens) or shown == 0:
            return []
        lines = []
        rest = tokens[shown:]
        while rest:
            take = max(_fitting(rest, room), 1)
            lines.append(Text(" " * indent) + _fit(Text("  ").join(rest[:take]), room))
            rest = rest[take:]
        return lines

    def _tokens(self, seat: int, size: int | None = None) -> list[Text]:
        """The ranch's cards, each ``2 Selkie Se2⧗*``; names cut to ``size`` letters."""
        obs = self.obs
        cards = obs.cards.cards
        shields = obs.shields[seat]
        tokens = []
        for slot, k in enumerate(obs.ranches[seat]):
            card = cards[k]
            token = Text()
            token.append(f"{slot + 1} ", "dim")
            token.append(card.name if size is None else card.name[:size], _style(card))
            token.append(f" {self.codes[card.family]}{card.glory}")
            if card.bonus is not None:
                token.append(HOURGLASS)
            if slot < len(shields) and shields[slot]:
                token.append(PROTECTED, "bold")
            tokens.append(token)
        return tokens

    def _last(self, seat: int) -> Text:
        """An empty ranch's place: the player's last round score, in parts."""
        last = self.obs.last_round
        if last is None:
            return Text("(empty ranch)", "dim")
        return Text(f"round {last['round']}: {_parts(last, seat)}", "dim")

    def _score(self, seat: int, width: int) -> Text:
        """At the end: a player's last round in parts and their total."""
        obs = self.obs
        last = obs.last_round
        star = "★" if seat in obs.winners else " "
        line = Text()
        line.append(f"{star}P{seat}{' you' if seat == obs.player else ''}: ", "bold")
        if last is not None:
            line.append(f"round {last['round']} {_parts(last, seat)}, ")
        line.append(f"total {obs.totals[seat]}", "bold")
        return _fit(line, width)

    def _hand(self, width: int, room: int) -> list[Text]:
        """Your hand in at most ``room`` lines (nothing for the spectator)."""
        obs = self.obs
        if obs.player is None or room <= 0:
            return []
        cards = obs.cards.cards
        counts = sorted(Counter(obs.hand).items())
        if not counts:
            return [Text("Your hand is empty", "dim")]
        title = Text()
        title.append("Hand ", "bold")
        indent = title.cell_len
        rows = [(cards[k], n) for k, n in counts]
        if len(rows) <= room:
            name_width = max(len(_label(card, n)) for card, n in rows)
            return [
                (title if i == 0 else Text(" " * indent))
                + self._hand_card(card, n, width - indent, name_width)
                for i, (card, n) in enumerate(rows)
            ]
        column = (width - indent - 2) // 2
        if (len(rows) + 1) // 2 <= room:
            name_width = max(len(_label(card, n)) for card, n in rows)
            name_width = min(name_width, column // 2)
            half = (len(rows) + 1) // 2
            lines = []
            for i in range(half):
                line = title if i == 0 else Text(" " * indent)
                left = self._hand_card(*rows[i], column, name_width)
                line.append_text(left)
                if i + half < len(rows):
                    line.append(" " * (column - left.cell_len + 2))
                    line.append_text(self._hand_card(*rows[i + half], column, name_width))
                lines.append(line)
            return lines
        # very many cards: names, family and Glory, penalty; packed on the lines there are
        tokens = [self._hand_token(card, n) for card, n in rows]
        lines = []
        while tokens and len(lines) < room:
            take = max(_fitting(tokens, width - indent), 1)
            head = title if not lines else Text(" " * indent)
            lines.append(head + _fit(Text("  ").join(tokens[:take]), width - indent))
            tokens = tokens[take:]
        return lines

    def _hand_card(self, card: Card, copies: int, room: int, name_width: int) -> Text:
        """``Wyvern      D5 -3  Choose another player: they draw a card.`` in ``room`` cells."""
        line = Text()
        label = _label(card, copies)
        if len(label) > name_width:
            label = label[: max(name_width - 1, 1)] + "…"
        line.append(label.ljust(name_width), _style(card))
        family = f"{self.codes[card.family]}{card.glory}"
        line.append(f" {family:>{self.family_width}}", "bold")
        line.append(f" -{card.penalty}", "red")
        line.append("  ")
        left = room - line.cell_len
        full, short = card.text, short_text(card)
        line.append(full if len(full) <= left else short)
        return _fit(line, room)

    def _hand_token(self, card: Card, copies: int) -> Text:
        token = Text()
        token.append(_label(card, copies), _style(card))
        token.append(f" {self.codes[card.family]}{card.glory}/-{card.penalty}")
        return token

    def _extras(self, width: int) -> list[Text]:
        obs = self.obs
        lines = []
        if obs.passing:
            names = ", ".join(obs.cards.cards[k].name for k in obs.passing)
            lines.append(_fit(Text(f"You are passing: {names}", "yellow"), width))
        if obs.my_sign:
            lines.append(Text(f"Your secret sign: {obs.my_sign}", "yellow"))
        return lines

    def _asking(self, width: int) -> Text:
        obs = self.obs
        line = Text()
        line.append("Now: ", "bold")
        asking = obs.asking
        room = width - 5 - (13 if obs.player in obs.acting else 0)
        if len(asking) > room and obs.effect is not None and obs.step is not None:
            what = "chooses another player" if obs.step[0] == "target" else "plays"
            asking = f"player {obs.step[1]} {what}: {short_effect(obs.effect)}"
        line.append(asking)
        if obs.player is not None and obs.player in obs.acting:
            line.append("  (your move)", "bold green")
        return _fit(line, width)


def _width(tokens: Sequence[Text], gap: int = 2) -> int:
    return sum(t.cell_len for t in tokens) + gap * max(len(tokens) - 1, 0)


def _fitting(tokens: Sequence[Text], room: int) -> int:
    """How many of ``tokens``, two cells apart, fit in ``room`` cells."""
    used, count = -2, 0
    for token in tokens:
        used += 2 + token.cell_len
        if used > room:
            break
        count += 1
    return count


def _parts(last: dict[str, object], seat: int) -> str:
    """``ranch 14 ⧗+4 hand -3 = +15``: printed Glory, Hour Glass, hand penalty, points."""
    points = last["points"][seat]  # type: ignore[index]
    if last.get("glory") is None:
        return f"{points:+d}"
    glory, bonus = last["glory"][seat], last["bonus"][seat]  # type: ignore[index]
    penalty = last["penalty"][seat]  # type: ignore[index]
    return f"ranch {glory} {HOURGLASS}+{bonus} hand -{penalty} = {points:+d}"


def _label(card: Card, copies: int) -> str:
    return card.name + (f" x{copies}" if copies > 1 else "")


def _style(card: Card) -> str:
    return f"bold {FAMILY_STYLE.get(card.family, 'white')}"


def _fit(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells, with … where it was cut."""
    if text.cell_len <= width:
        return text
    text = text.copy()
    text.truncate(max(width, 1), overflow="ellipsis")
    return text
