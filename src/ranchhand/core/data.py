"""Reading rules data files (boards, decks, patterns, tables) with clear errors.

Data files are TOML or JSON inside a game package. :class:`Fields` reads one
table of a file and names the file and field in every error, e.g.
``deck.toml: card[3].dots: expected an integer 1..3, got 7``.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ranchhand.core.errors import DataError


def read_data(package: str, name: str) -> dict[str, Any]:
    """Read data file ``name`` shipped in ``package`` (or a path to a file elsewhere)."""
    path = Path(name)
    if path.is_file():
        text, source = path.read_text(), str(path)
    else:
        try:
            text = resources.files(package).joinpath(name).read_text()
        except FileNotFoundError:
            raise DataError(name, "", f"no such data file in {package}") from None
        source = name
    return parse_data(text, source)


def parse_data(text: str, source: str) -> dict[str, Any]:
    try:
        data = json.loads(text) if source.endswith(".json") else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise DataError(source, "", f"cannot parse: {error}") from None
    if not isinstance(data, dict):
        raise DataError(source, "", f"expected a table at the top, got {type(data).__name__}")
    return data


class Fields:
    """Typed access to one table of a data file; every error names file and field."""

    def __init__(self, source: str, where: str, table: Any) -> None:
        self.source, self.where = source, where
        if not isinstance(table, Mapping):
            self.fail("", f"expected a table, got {table!r}")
        self.table: Mapping[str, Any] = table

    def fail(self, key: str, problem: str) -> None:
        where = f"{self.where}.{key}" if key and self.where else key or self.where
        raise DataError(self.source, where, problem)

    def has(self, key: str) -> bool:
        return key in self.table

    def get(self, key: str, kind: type, default: Any = ...) -> Any:
        if key not in self.table:
            if default is ...:
                self.fail(key, f"missing; expected {_kind(kind)}")
            return default
        value = self.table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(key, f"expected an integer, got {value!r}")
        if kind is not int and not isinstance(value, kind):
            self.fail(key, f"expected {_kind(kind)}, got {value!r}")
        return value

    def integer(
        self, key: str, low: int | None = None, high: int | None = None, default: Any = ...
    ) -> int:
        value = self.get(key, int, default)
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{'' if low is None else low}..{'' if high is None else high}"
            self.fail(key, f"expected an integer {span}, got {value}")
        return value

    def text(self, key: str, choices: Iterable[str] | None = None, default: Any = ...) -> str:
        value = self.get(key, str, default)
        if choices is not None:
            allowed = list(choices)
            if value not in allowed:
                self.fail(key, f"expected one of {', '.join(allowed)}, got {value!r}")
        return value

    def items(self, key: str, default: Any = ...) -> Sequence[Any]:
        return self.get(key, list, default)

    def table_of(self, key: str) -> Fields:
        return Fields(
            self.source, f"{self.where}.{key}" if self.where else key, self.get(key, dict)
        )

    def tables(self, key: str, label: str | None = None) -> list[Fields]:
        """Each entry of a list of tables (``[[card]]`` in TOML) as Fields."""
        label = label or key
        where = f"{self.where}." if self.where else ""
        return [
            Fields(self.source, f"{where}{label}[{i}]", t) for i, t in enumerate(self.items(key))
        ]

    def only(self, allowed: Iterable[str]) -> None:
        """Refuse keys this table should not have (catches typos in data files)."""
        extra = sorted(set(self.table) - set(allowed))
        if extra:
            self.fail(extra[0], f"unknown field; allowed: {', '.join(sorted(allowed))}")


def _kind(kind: type) -> str:
    return {
        int: "an integer",
        str: "a text",
        list: "a list",
        dict: "a table",
        bool: "true or false",
    }.get(kind, kind.__name__)
