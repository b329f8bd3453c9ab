"""Reading rules data files (boards, decks, patterns, tables) with clear errors.

Data files are TOML or JSON inside a game package. :class:`Fields` reads one
table of a file and names the file and field in every error, e.g.
``deck.toml: card[3].dots: expected an integer 1..3, got 7``.
"""

from __future__ import annotations

import json
import math
import re
import stat
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from ranchhand.core.errors import DataError, shorten

MAX_DATA_BYTES = 1_000_000
"""The largest data file (or record) read: a rules file is a few kilobytes."""

_files_allowed: ContextVar[bool] = ContextVar("ranchhand_files_allowed", default=True)
_PACKAGED = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*")


@contextmanager
def files_allowed(allowed: bool) -> Iterator[None]:
    """Within this block, may an option name a file outside the game's package?

    Options typed by the user may (``-o deck=my-deck.toml``); options read from a
    record someone else wrote may not, unless the user says so (``--allow-files``):
    a record must never make ranchhand read ``/dev/zero`` or a private file.
    """
    token = _files_allowed.set(allowed)
    try:
        yield
    finally:
        _files_allowed.reset(token)


def read_data(package: str, name: str) -> dict[str, Any]:
    """Read data file ``name`` shipped in ``package`` (or a path to a file elsewhere)."""
    if _PACKAGED.fullmatch(name) and ".." not in name.split("/"):
        resource = resources.files(package).joinpath(name)
        if resource.is_file():
            return parse_data(resource.read_bytes(), name)
    path = Path(name)
    if not _files_allowed.get():
        raise DataError(
            shorten(name),
            "",
            "names a file outside the game; a record may only read files with --allow-files",
        )
    if not path.exists():
        raise DataError(shorten(name), "", f"no such data file in {package}, nor a file here")
    return parse_data(read_capped(path), str(path))


def read_capped(path: Path, limit: int = MAX_DATA_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (DataError otherwise)."""
    source = shorten(str(path))
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise DataError(source, "", "not a regular file")
        with path.open("rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as error:
        raise DataError(source, "", f"cannot read: {error.strerror or error}") from None
    if len(raw) > limit:
        raise DataError(source, "", f"larger than {limit:,} bytes")
    return raw


def parse_data(raw: bytes | str, source: str) -> dict[str, Any]:
    """Parse TOML (or JSON, by the name's ending) that nobody vouches for.

    Refused, with the source named: text that is not UTF-8, NaN and Infinity,
    integers of more than 20 digits (a 64-bit seed has 20), nesting deeper than 64
    levels. Errors give the line and column, never echo the content.
    """
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataError(source, "", f"not UTF-8 text (byte {error.start})") from None
    else:
        text = raw
    if "\x00" in text:
        raise DataError(source, "", "binary content (a NUL character)")
    if source.endswith(".json"):
        data = load_json(text, source)
    else:
        if _too_deep(text):
            raise DataError(source, "", f"nested deeper than {MAX_DEPTH} levels")
        try:
            data = tomllib.loads(text, parse_float=_finite_float)
        except tomllib.TOMLDecodeError as error:
            raise DataError(source, "", f"not TOML: {_position(str(error))}") from None
        except ValueError as error:
            raise DataError(source, "", str(error)) from None
        _check_numbers(data, source, "")
    if not isinstance(data, dict):
        raise DataError(source, "", f"expected a table at the top, got {type(data).__name__}")
    return data


MAX_DEPTH = 64
MAX_DIGITS = 20


def load_json(text: str, source: str) -> Any:
    """``json.loads`` for untrusted text: no NaN or Infinity, bounded numbers and depth."""
    if _too_deep(text):
        raise DataError(source, "", f"nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_bounded_int,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise DataError(source, "", f"not JSON: {error.msg} ({where})") from None
    except (ValueError, RecursionError) as error:
        raise DataError(source, "", str(error) or "nested too deeply") from None


def _too_deep(text: str) -> bool:
    """A cheap over-estimate of bracket nesting (brackets in strings count too)."""
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number this accepts")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text):,} digits; at most {MAX_DIGITS} are accepted")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{shorten(text)} is not a finite number")
    return value


def _check_numbers(value: Any, source: str, where: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS:
        raise DataError(source, where, f"a number of more than {MAX_DIGITS} digits")
    if isinstance(value, dict):
        for key, item in value.items():
            _check_numbers(item, source, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_numbers(item, source, f"{where}[{i}]")


def _position(message: str) -> str:
    """tomllib's message without any quoted content (it may quote a secret file)."""
    return message.split("(", 1)[-1].rstrip(")") if "(at line" in message else "malformed"


class Fields:
    """Typed access to one table of a data file; every error names file and field."""

    def __init__(self, source: str, where: str, table: Any) -> None:
        self.source, self.where = source, where
        if not isinstance(table, Mapping):
            self.fail("", f"expected a table, got {shorten(repr(table))}")
        self.table: Mapping[str, Any] = table

    def fail(self, key: str, problem: str) -> NoReturn:
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
            self.fail(key, f"expected an integer, got {shorten(repr(value))}")
        if kind is not int and not isinstance(value, kind):
            self.fail(key, f"expected {_kind(kind)}, got {shorten(repr(value))}")
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
                self.fail(key, f"expected one of {', '.join(allowed)}, got {shorten(repr(value))}")
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
