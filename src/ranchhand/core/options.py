"""Game options: each default of the rules README is a named option.

An :class:`Option` declares its name, default, allowed values and why the
default was chosen; :func:`resolve_options` checks what a caller passed,
coercing text from the command line, and fills in the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ranchhand.core.errors import OptionError


@dataclass(frozen=True)
class Option:
    """One named option of a game.

    ``choices`` lists the allowed values of a text or boolean option; an integer
    option has ``minimum`` and ``maximum`` instead.
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
        if self.kind is int:
            if self.minimum is not None and self.maximum is not None:
                return f"an integer {self.minimum}..{self.maximum}"
            if self.minimum is not None:
                return f"an integer >= {self.minimum}"
            if self.maximum is not None:
                return f"an integer <= {self.maximum}"
            return "an integer"
        return "any text"

    def coerce(self, value: Any, game: str = "") -> Any:
        """Return ``value`` as this option's type, or raise :class:`OptionError`."""
        where = f"{game}: option {self.name}" if game else f"option {self.name}"
        kind = self.kind
        try:
            if kind is bool:
                value = _to_bool(value)
            elif kind is int:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                value = int(value)
            else:
                value = kind(value)
        except (TypeError, ValueError):
            raise OptionError(f"{where}: expected {self.allowed()}, got {value!r}") from None
        if self.choices and value not in self.choices:
            raise OptionError(f"{where}: {value!r} is not allowed; allowed: {self.allowed()}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{where}: {value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{where}: {value} is above the maximum {self.maximum}")
        return value


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


MAX_TURNS = Option(
    "max_turns",
    0,
    "End the game as truncated (no winner) after this many player turns; 0 never does. "
    "Simulations use it to stop endless games.",
    minimum=0,
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
