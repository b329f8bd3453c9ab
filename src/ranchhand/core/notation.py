"""Pieces of action notation shared by every game: numbers typed by a person.

A number in an action text is ASCII digits only, bounded: ``int()`` alone would
take ``²`` or ``١`` (Unicode digits) and five thousand digits, and a typo must be
refused with a message, never crash a game.

>>> read_number("12", "corral", 1, 20)
12
>>> read_number("²", "corral", 1, 20)
Traceback (most recent call last):
...
ranchhand.core.errors.InvalidAction: corral: expected a number 1..20, got '²'
"""

from __future__ import annotations

import re

from ranchhand.core.errors import InvalidAction, shorten

MAX_ACTION_TEXT = 200
"""The longest action text a parser looks at; longer text is refused at once."""

_NUMBER = re.compile(r"[0-9]{1,9}")


def is_number(word: str) -> bool:
    """True if ``word`` is 1 to 9 ASCII digits (``str.isdigit`` also takes ``²``)."""
    return _NUMBER.fullmatch(word) is not None


def read_number(word: str, what: str, low: int = 0, high: int | None = None) -> int:
    """``word`` as an integer in ``low..high``; InvalidAction naming ``what`` otherwise."""
    span = f"{low}..{high}" if high is not None else f"{low} or more"
    if not is_number(word):
        raise InvalidAction(f"{what}: expected a number {span}, got {shorten(word)!r}")
    value = int(word)
    if value < low or (high is not None and value > high):
        raise InvalidAction(f"{what}: expected a number {span}, got {value}")
    return value
