"""Game options: each default of the rules README is a named option.

An :class:`Option` declares its name, default, allowed values and why the
default was chosen; :func:`resolve_options` checks what a caller passed,
coercing text from the command line, and fills in the defaults.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ranchhand.core.errors import OptionError, shorten

_WHOLE = re.compile(r"[+-]?[0-9]{1,100}")
"""An integer as text: ASCII digits only. ``int()`` alone also reads ``٣`` (Arabic-Indic
three), ``²`` and ``1_000``, which the action prompt refuses; options refuse them too."""


@dataclass(frozen=True)
class Option:
    """One named option of a game.

    ``choices`` lists the allowed values of a text or boolean option; an integer
    option has ``minimum`` and ``maximum`` instead (both: every value accepted must fit
    in a record, which reads integers of at most 20 digits, and a game's loops).
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    choice_docs: Mapping[str, str] = field(default_factory=dict)

    @property
    def kind(self) -> type:
        return type(self.default)

    def allowed(self) -> str:
        """A short text of what values are allowed, for messages and docs."""
        if self.choices:
            return ", ".join(_show(c) for c in self.choices)
        if self.kind in (int, float):
            noun = "an integer" if self.kind is int else "a finite number"
            if self.minimum is not None and self.maximum is not None:
                return f"{noun} {self.minimum}..{self.maximum}"
            if self.minimum is not None:
                return f"{noun} >= {self.minimum}"
            if self.maximum is not None:
                return f"{noun} <= {self.maximum}"
            return noun
        return "any text"

    def coerce(self, value: Any, game: str = "") -> Any:
        """Return ``value`` as this option's type, or raise :class:`OptionError`."""
        where = f"{game}: option {self.name}" if game else f"option {self.name}"
        kind = self.kind
        given = value
        try:
            if kind is bool:
                value = _to_bool(value)
            elif kind is int:
                value = _to_int(value)
            elif kind is float:
                value = _to_float(value)
            else:
                value = kind(value)
        except (TypeError, ValueError, OverflowError):
            digits = " in ASCII digits" if kind in (int, float) and isinstance(value, str) else ""
            expected = f"{self.allowed()}{digits}"
            raise OptionError(f"{where}: expected {expected}, got {shorten(repr(value))}") from None
        if self.choices and value not in self.choices:
            raise OptionError(f"{where}: {value!r} is not allowed; allowed: {self.allowed()}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{where}: {_brief(given)} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{where}: {_brief(given)} is above the maximum {self.maximum}")
        return value


def _brief(value: Any) -> str:
    """A number as given, shortened: 10**35 would fill the screen with digits."""
    text = repr(value) if isinstance(value, float) else str(value)
    if len(text) > 24:
        unit = "digits" if isinstance(value, int) else "characters"
        return f"{text[:12]}... ({len(text)} {unit})"
    return text


def _to_int(value: Any) -> int:
    """An integer from an int, a whole finite float (JSON's ``3.0``) or ASCII digits."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not value.is_integer():  # nan and inf are not integers either
            raise ValueError(value)
        return int(value)
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value)
    raise ValueError(value)


def _to_float(value: Any) -> float:
    """A finite number: nan and inf are refused (a record could not hold them)."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, str) and not value.strip().isascii():
        raise ValueError(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(value)
    return number


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise ValueError(value)


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


MAX_TURNS_LIMIT = 100_000
"""The largest ``max_turns``: a record holds at most 1,000,000 steps and a turn takes up to
about 8 (Rocket Ranchers' random games; 2 to 5 in the others), so a game cut off at this
many turns still makes a record that can be read back, replayed and resumed."""

MAX_TURNS = Option(
    "max_turns",
    0,
    "End the game as truncated (no winner) after this many player turns; 0 never does. "
    "Simulations use it to stop endless games.",
    minimum=0,
    maximum=MAX_TURNS_LIMIT,
)


def resolve_options(
    game: str, declared: Sequence[Option], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Check ``given`` against ``declared`` and return every option's value."""
    by_name = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        allowed = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"{game}: unknown option {unknown[0]!r}; options are: {allowed}")
    return {
        name: option.coerce(given[name], game) if name in given else option.default
        for name, option in by_name.items()
    }


def parse_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """Parse ``key=value`` texts from the command line into a dict."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} must look like key=value, e.g. dice=twin")
        result[key.strip()] = value.strip()
    return result
