"""Small helpers for games' logs in words (``State.describe_words``): who a seat is to
the viewer ("you", else the seat's name), whose, lists and sentences.

A log in words is read by people, one sentence after another, so each game says an
action once, in the past tense ("Ann traded 6 rabbits for a sheep"), which needs no
agreement between "you" and a name; what comes next is said in the present ("It is
your turn").
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Sequence
from typing import Any, Generic, TypeVar

F = TypeVar("F")


class Speaker:
    """Names the seats for one viewer: their own seat is "you"."""

    __slots__ = ("names", "viewer")

    def __init__(self, viewer: int | None, names: Sequence[str]) -> None:
        self.viewer = viewer
        self.names = names

    def who(self, seat: int) -> str:
        """ "you" for the viewer's seat, else the seat's name."""
        return "you" if seat == self.viewer else self.names[seat]

    def whose(self, seat: int) -> str:
        """ "your" for the viewer's seat, else the name's possessive."""
        return "your" if seat == self.viewer else f"{self.names[seat]}'s"


def listed(parts: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop unless it ends in one."""
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def sentences(*texts: str) -> str:
    """Each non-empty text as a sentence, one after the other."""
    return " ".join(sentence(t) for t in texts if t)


SAID_KEPT = 4096
"""Sentences remembered across moves (:meth:`Memo.words`' ``same``), at most."""
_said: dict[Hashable, str] = {}


class Memo(Generic[F]):
    """One action's working out (``facts``, the same for every viewer of a game that hides
    nothing) and the words said from it, remembered on the state until it changes.

    A viewer the words do not name reads what a spectator reads, so a table's log in
    words costs one sentence for the spectator and one for each seat named, however
    many seats look on.
    """

    __slots__ = ("action", "after", "facts", "names", "player", "said")

    def __init__(self, player: int, action: Hashable, facts: F, after: Any = None) -> None:
        self.player = player
        self.action = action
        self.facts = facts
        self.after = after
        """The state after the action, where working it out played it on a copy: handed
        over once (:meth:`hand_over`, for ``State.worked_out``)."""
        self.names: Sequence[str] | None = None
        self.said: dict[int | None, str] = {}

    def hand_over(self, player: int, action: Hashable) -> Any:
        """The state after ``action`` by ``player`` if this memo holds it (then no more)."""
        if self.player != player or self.action != action:
            return None
        after, self.after = self.after, None
        return after

    def of(self, player: int, action: Hashable) -> F | None:
        """The facts if this memo is of ``action`` by ``player``, else None."""
        return self.facts if self.player == player and self.action == action else None

    def words(
        self,
        viewer: int | None,
        names: Sequence[str],
        named: Container[int],
        say: Callable[[], str],
        same: Hashable = None,
    ) -> str:
        """The words for ``viewer``: ``say()`` once per viewer named (``named``), and once
        for everyone else (a spectator's words), with these ``names``.

        ``same``, where given, is everything the sentence depends on besides the viewer
        and the names (the action, its facts, who acts): the same sentence said at another
        move (the same trade, "Ann rolled the dice.") is then taken from the last
        :data:`SAID_KEPT` said in this process instead of being said again."""
        if names is not self.names and names != self.names:
            self.names, self.said = names, {}
        key = viewer if viewer in named else None
        text = self.said.get(key)
        if text is None:
            if same is None:
                text = say()
            else:
                shared = (same, key, tuple(names))
                text = _said.get(shared)
                if text is None:
                    if len(_said) >= SAID_KEPT:
                        _said.clear()
                    text = _said[shared] = say()
            self.said[key] = text
        return text
