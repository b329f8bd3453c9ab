"""Errors ranchhand raises, each saying what was wrong and what is allowed.

Action errors follow python-chess: all are ``ValueError`` so a caller that only
cares about "bad input" catches one thing, while a front end can tell badly
formed text (:class:`InvalidAction`) from a move the rules forbid
(:class:`IllegalAction`) or a text that fits several moves (:class:`AmbiguousAction`).
"""

from __future__ import annotations

from collections.abc import Sequence


class RanchhandError(Exception):
    """Base of every error ranchhand raises on purpose."""


class OptionError(RanchhandError, ValueError):
    """An unknown game, option, player count or option value."""


class GameDefinitionError(RanchhandError, TypeError):
    """A game's code breaks the engine's protocol (a bug in the game, not bad input).

    For example a state that reports a chance node without listing its outcomes.
    """


class DataError(RanchhandError, ValueError):
    """A rules data file (board, deck, patterns, tables) is malformed.

    The message names the file and the field, e.g.
    ``cards.toml: card[12] 'Gryphon'.glory: expected an integer, got 'x'``.
    """

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source, self.where, self.problem = source, where, problem
        super().__init__(f"{source}: {where}: {problem}" if where else f"{source}: {problem}")


class ActionError(RanchhandError, ValueError):
    """Base of the three action errors; carries the context a front end shows."""

    kind = "action error"

    def __init__(
        self,
        reason: str,
        *,
        game: str = "",
        turn: int | None = None,
        player: int | None = None,
        text: str | None = None,
        suggestions: Sequence[str] = (),
    ) -> None:
        self.reason = reason
        self.game = game
        self.turn = turn
        self.player = player
        self.text = text
        self.suggestions = tuple(suggestions)
        super().__init__(self._message())

    def _message(self) -> str:
        where = ", ".join(
            part
            for part in (
                self.game,
                f"turn {self.turn}" if self.turn is not None else "",
                _player_name(self.player) if self.player is not None else "",
            )
            if part
        )
        said = f"{shorten(self.text)!r}: " if self.text is not None else ""
        message = f"{where}: {said}{self.reason}" if where else f"{said}{self.reason}"
        if self.suggestions:
            message += "; did you mean: " + ", ".join(repr(s) for s in self.suggestions)
        return message


def shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters, so an error never echoes a huge input back."""
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text):,} characters)"


def plural(count: int, noun: str) -> str:
    """``1 player``, ``2 players``: counts in messages read as people write them."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _player_name(player: int) -> str:
    if player == -1:
        return "chance"
    return f"player {player}"


class InvalidAction(ActionError):
    """The text does not parse as any action of this game."""

    kind = "invalid action"


class IllegalAction(ActionError):
    """The action is well formed but the rules forbid it here; the reason says why."""

    kind = "illegal action"


class AmbiguousAction(ActionError):
    """The text fits several legal actions; the suggestions list them."""

    kind = "ambiguous action"


class RecordError(RanchhandError, ValueError):
    """A game record is malformed, or replaying it diverges from the rules.

    ``step`` is the index of the first action that failed (None for a bad header).
    """

    def __init__(self, message: str, step: int | None = None) -> None:
        self.step = step
        super().__init__(message if step is None else f"step {step}: {message}")


class StateError(RecordError):
    """A state's JSON (or a position set up by hand) is malformed or impossible.

    ``where`` names the field, e.g. ``data.herd.rabbit``; the message says what
    was expected and what was found, e.g. ``state JSON: data.hands[1]: five copies
    of 'kraken', the box has 1``.
    """

    def __init__(self, where: str, problem: str, source: str = "state JSON") -> None:
        self.where, self.problem, self.source = where, problem, source
        if where.startswith(source):  # "setup.players[0]: ..." says where it is already
            super().__init__(f"{where}: {problem}")
        else:
            super().__init__(f"{source}: {where}: {problem}" if where else f"{source}: {problem}")
