"""Game records: everything needed to replay a game exactly, as JSON.

A record holds the game, versions, options, seats, seed and every action in
order (chance outcomes included) as text; a step ``[-2, "undo"]`` is a seat taking
back its last action (:mod:`ranchhand.core.undo`: older records have none, and read
as before). Replaying re-parses every action
against the rules, so a corrupt or incompatible record fails at the first step
that diverges, with the reason.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
import unicodedata
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ranchhand.core.data import files_allowed, load_json, read_capped
from ranchhand.core.errors import ActionError, DataError, OptionError, RecordError, shorten
from ranchhand.core.game import CHANCE, Game, Outcome, State
from ranchhand.core.notation import MAX_ACTION_TEXT
from ranchhand.core.undo import UNDO_PLAYER, UNDO_TEXT, NothingToUndo, Trail, is_undo

RECORD_FORMAT = "ranchhand-record/1"
MAX_PLAYERS = 64
"""No game seats more; a record claiming more is refused before anything is built."""
MAX_STEPS = 1_000_000
SEED_MIN, SEED_MAX = -(2**63), 2**64 - 1
"""The seeds a record holds: any 64-bit seed, signed or not (every seed a game may be
played with is checked against this first, so its record can always be read back)."""
MAX_RECORD_BYTES = 64_000_000


@dataclass
class Step:
    """One action of a record: who took it (-1 for chance) and its text."""

    player: int
    action: str

    def to_json(self) -> list[Any]:
        return [self.player, self.action]


@dataclass
class Record:
    game: str
    players: int
    options: dict[str, Any]
    version: str = ""
    engine: str = ""
    seats: list[str] = field(default_factory=list)
    seed: int | None = None
    steps: list[Step] = field(default_factory=list)
    outcome: Outcome | None = None
    turns: int = 0
    names: list[str] = field(default_factory=list)
    """What the people at the table were called (``play --names``), one per seat; empty
    when nobody was named (the seats' kinds stand in)."""

    @classmethod
    def start(
        cls, game: Game, seats: list[str], seed: int | None, names: list[str] | None = None
    ) -> Record:
        from ranchhand import __version__

        made = cls(
            game.id, game.players, dict(game.options), game.version, __version__, list(seats), seed
        )
        made.names = list(names or [])
        return made

    def add(self, player: int, action: object) -> None:
        self.steps.append(Step(player, str(action)))

    def finish(self, state: State) -> None:
        self.outcome = state.outcome()
        self.turns = state.turn

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "version": self.version,
            "engine": self.engine,
            "players": self.players,
            "options": self.options,
            "seats": self.seats,
            "seed": self.seed,
            "actions": [s.to_json() for s in self.steps],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "turns": self.turns,
            **({"names": self.names} if self.names else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record that nobody vouches for: every field is checked, by name.

        Wrong types are refused, not coerced (``players: 2.5`` is not 2, ``seats:
        "greedy"`` is not six seats); texts hold no control characters (a record must
        not send escape sequences to a terminal); counts are bounded.
        """
        top = _Fields(data, "")
        found = top.raw("format")
        if found != RECORD_FORMAT:
            top.fail("format", f"expected {RECORD_FORMAT!r}, got {_shown(found)}")
        players = top.integer("players", 1, MAX_PLAYERS)
        seats = top.per_player("seats", players)
        names = top.per_player("names", players)
        steps = []
        for i in range(top.length("actions", MAX_STEPS)):
            pair = top.at("actions", i)
            if pair.length("", 2) != 2:
                pair.fail("", "expected [player, action text]")
            player = pair.at("", 0).integer("", UNDO_PLAYER, players - 1)
            action = pair.at("", 1).text("", MAX_ACTION_TEXT)
            if is_undo(player) and action != UNDO_TEXT:
                pair.fail("", f"an undo step ({UNDO_PLAYER}) has the text {UNDO_TEXT!r}")
            steps.append(Step(player, action))
        seed = top.raw("seed", None)
        if seed is not None:
            seed = top.integer("seed", SEED_MIN, SEED_MAX)
        return cls(
            game=top.text("game", 64),
            players=players,
            options=top.options("options"),
            version=top.text("version", 64, ""),
            engine=top.text("engine", 64, ""),
            seats=seats,
            seed=seed,
            steps=steps,
            outcome=top.outcome("outcome", players),
            turns=top.integer("turns", 0, 10**9, 0),
            names=names,
        )

    def save(self, path: str | Path, *, overwrite: bool = False) -> None:
        """Write the record atomically: a whole file or none, even if killed midway.

        The text goes to a temporary file beside ``path`` that is then moved in
        place. An existing file (or a link) at ``path`` is never followed, and is
        replaced only with ``overwrite=True``; RecordError says why not.
        """
        target = Path(path)
        text = json.dumps(self.to_json(), indent=1) + "\n"
        try:
            handle, temporary = tempfile.mkstemp(
                dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
            )
        except OSError as error:
            raise RecordError(f"cannot write a record in {target.parent}: {_why(error)}") from None
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            if overwrite and not target.is_symlink():
                os.replace(temporary, target)
            else:
                os.link(temporary, target)  # fails if anything, a link included, is there
        except FileExistsError:
            raise RecordError(f"{target} already exists; a record never replaces another") from None
        except OSError as error:
            raise RecordError(f"cannot write the record {target}: {_why(error)}") from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            data = load_json(read_capped(Path(path), MAX_RECORD_BYTES).decode("utf-8"), str(path))
        except UnicodeDecodeError as error:
            raise RecordError(f"{path}: not UTF-8 text (byte {error.start})") from None
        except DataError as error:
            raise RecordError(str(error)) from None
        try:
            return cls.from_json(data)
        except RecordError as error:
            raise RecordError(f"{path}: {error}") from None

    def load_game(self, *, allow_files: bool = False) -> Game:
        """The record's game with its options; options naming files outside the game's
        package are refused unless ``allow_files`` (the record may come from anyone)."""
        from ranchhand.core.registry import load

        try:
            with files_allowed(allow_files):
                game = load(self.game, self.players, **self.options)
        except (OptionError, DataError) as error:
            raise RecordError(f"cannot load the record's game: {error}") from None
        if self.version and game.version != self.version:
            raise RecordError(
                f"record is of {self.game} version {self.version}, this is version {game.version}"
            )
        return game


def replay_steps(
    record: Record, *, allow_files: bool = False
) -> Iterator[tuple[State, Step | None]]:
    """Yield the state before each step with that step, then the final state with None.

    An undo step (player :data:`~ranchhand.core.undo.UNDO_PLAYER`) brings back the state
    before the action it takes back (a new object: keep what was yielded if you need
    it). Raises RecordError naming the first step that does not fit the rules.
    """
    game = record.load_game(allow_files=allow_files)
    state = game.new_initial_state()
    trail = Trail()
    for index, step in enumerate(record.steps):
        yield state, step
        if is_undo(step.player):
            state = undone(trail, index)
            continue
        action = parse_step(state, step, index)
        trail.before(state, step.player, index)
        state.apply(action, step.player)
    yield state, None


def undone(trail: Trail, index: int) -> State:
    """The state an undo step at ``index`` brings back (a copy); RecordError if the
    record's steps before it leave nothing to take back."""
    try:
        _seat, _step, kept = trail.take()
    except NothingToUndo as error:
        raise RecordError(str(error), index) from None
    assert kept is not None, "a record's replay keeps every state an undo may need"
    return kept.clone()


def parse_step(state: State, step: Step, index: int) -> Hashable:
    """The action that step ``index`` of a record takes in ``state``, checked: the game
    is not over, the step's player is the one to act, its text is a legal action.
    Raises RecordError naming the step."""
    if state.is_terminal():
        raise RecordError(f"the game was already over before {step.action!r}", index)
    expected = state.acting_players() or ((CHANCE,) if state.is_chance_node() else ())
    if step.player not in expected:
        raise RecordError(
            f"record says player {step.player} acts, the rules say {list(expected)}", index
        )
    try:
        return state.parse_action(step.action, step.player)
    except ActionError as error:
        raise RecordError(str(error), index) from None


def replay(record: Record, *, allow_files: bool = False) -> State:
    """Replay ``record`` and check its outcome; return the final state."""
    state = None
    for state, _step in replay_steps(record, allow_files=allow_files):  # noqa: B007 - the last state is the result
        pass
    assert state is not None
    if record.outcome is not None and state.outcome() != record.outcome:
        raise RecordError(
            f"replay ended with {state.outcome()}, the record says {record.outcome}",
            len(record.steps),
        )
    return state


class _Fields:
    """One value of an untrusted record, read by path; errors name the field."""

    def __init__(self, value: Any, where: str) -> None:
        self.value, self.where = value, where

    def fail(self, key: str, problem: str) -> None:
        raise RecordError(f"{self._path(key) or 'record'}: {problem}")

    def _path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.where}[{key}]"
        return f"{self.where}.{key}" if key and self.where else key or self.where

    def raw(self, key: str, default: Any = ...) -> Any:
        if not key:
            return self.value
        if not isinstance(self.value, Mapping):
            self.fail("", f"expected a JSON object, got {_kind(self.value)}")
        if key not in self.value:
            if default is ...:
                self.fail(key, "missing")
            return default
        return self.value[key]

    def at(self, key: str, index: int) -> _Fields:
        items = self.raw(key)
        where = self._path(key)
        return _Fields(items[index], f"{where}[{index}]")

    def length(self, key: str, most: int) -> int:
        items = self.raw(key)
        if not isinstance(items, list):
            self.fail(key, f"expected a list, got {_kind(items)}")
        if len(items) > most:
            self.fail(key, f"expected at most {most:,} entries, got {len(items):,}")
        return len(items)

    def integer(self, key: str, low: int, high: int, default: Any = ...) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"expected a whole number {low}..{high}, got {_shown(value)}")
        if not low <= value <= high:
            self.fail(key, f"expected a whole number {low}..{high}, got {value}")
        return int(value)

    def per_player(self, key: str, players: int) -> list[str]:
        """An optional list of one short text per player (``seats``, ``names``)."""
        if self.raw(key, None) is None:
            return []
        texts = [self.at(key, i).text("", 64) for i in range(self.length(key, MAX_PLAYERS))]
        if len(texts) != players:
            self.fail(key, f"expected {players} {key} (one per player), got {len(texts)}")
        return texts

    def text(self, key: str, limit: int, default: Any = ...) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            self.fail(key, f"expected a text, got {_shown(value)}")
        if len(value) > limit:
            self.fail(key, f"expected at most {limit} characters, got {len(value):,}")
        if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in value):
            self.fail(key, f"control or unprintable characters in {shorten(ascii(value))}")
        return value

    def options(self, key: str) -> dict[str, Any]:
        value = self.raw(key)
        if not isinstance(value, Mapping):
            self.fail(key, f"expected a JSON object, got {_kind(value)}")
        if len(value) > 64:
            self.fail(key, f"expected at most 64 options, got {len(value)}")
        options: dict[str, Any] = {}
        inner = _Fields(value, self._path(key))
        for name in value:
            inner._text_key(name)
            item = value[name]
            if isinstance(item, str):
                inner.text(name, 1000)
            elif not isinstance(item, bool | int | float) or (
                isinstance(item, float) and not math.isfinite(item)
            ):
                inner.fail(name, f"expected a text, number or true/false, got {_shown(item)}")
            options[name] = item
        return options

    def _text_key(self, name: str) -> None:
        if len(name) > 64 or not name.isascii() or not name.isprintable():
            self.fail("", f"{shorten(ascii(name))} is not an option name")

    def outcome(self, key: str, players: int) -> Outcome | None:
        value = self.raw(key, None)
        if value is None:
            return None
        inner = _Fields(value, self._path(key))
        winners = [
            inner.at("winners", i).integer("", 0, players - 1)
            for i in range(inner.length("winners", players))
        ]
        scores = inner.raw("scores", None)
        if scores is not None:
            if inner.length("scores", players) != players:
                inner.fail("scores", f"expected {players} scores, got {len(scores)}")
            for i, score in enumerate(scores):
                if isinstance(score, bool) or not isinstance(score, int | float):
                    inner.fail("scores", f"[{i}]: expected a number, got {_shown(score)}")
                if not math.isfinite(score):
                    inner.fail("scores", f"[{i}]: expected a finite number, got {score}")
            scores = tuple(scores)
        return Outcome(tuple(winners), scores, inner.text("reason", 200, ""))


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a text", bool: "true/false"}.get(
        type(value), "null" if value is None else type(value).__name__
    )


def _shown(value: Any) -> str:
    if isinstance(value, dict | list):
        return _kind(value)
    return shorten(json.dumps(value) if not isinstance(value, float) else repr(value))


def _why(error: OSError) -> str:
    return error.strerror or type(error).__name__
