"""Game records: everything needed to replay a game exactly, as JSON.

A record holds the game, versions, options, seats, seed and every action in
order (chance outcomes included) as text. Replaying re-parses every action
against the rules, so a corrupt or incompatible record fails at the first step
that diverges, with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ranchhand.core.errors import ActionError, OptionError, RecordError
from ranchhand.core.game import CHANCE, Game, Outcome, State

RECORD_FORMAT = "ranchhand-record/1"


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

    @classmethod
    def start(cls, game: Game, seats: list[str], seed: int | None) -> Record:
        from ranchhand import __version__

        return cls(
            game.id, game.players, dict(game.options), game.version, __version__, list(seats), seed
        )

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
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        if not isinstance(data, Mapping):
            raise RecordError(f"a record must be a JSON object, got {type(data).__name__}")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"format: expected {RECORD_FORMAT!r}, got {data.get('format')!r}")
        try:
            steps = [Step(int(p), str(a)) for p, a in data["actions"]]
            outcome = data.get("outcome")
            return cls(
                game=str(data["game"]),
                players=int(data["players"]),
                options=dict(data["options"]),
                version=str(data.get("version", "")),
                engine=str(data.get("engine", "")),
                seats=[str(s) for s in data.get("seats", [])],
                seed=data.get("seed"),
                steps=steps,
                outcome=None if outcome is None else Outcome.from_json(outcome),
                turns=int(data.get("turns", 0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"malformed record: {error!r}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as error:
            raise RecordError(f"{path}: not JSON: {error}") from None
        return cls.from_json(data)

    def load_game(self) -> Game:
        from ranchhand.core.registry import load

        try:
            game = load(self.game, self.players, **self.options)
        except OptionError as error:
            raise RecordError(f"cannot load the record's game: {error}") from None
        if self.version and game.version != self.version:
            raise RecordError(
                f"record is of {self.game} version {self.version}, this is version {game.version}"
            )
        return game


def replay_steps(record: Record) -> Iterator[tuple[State, Step | None]]:
    """Yield the state before each step with that step, then the final state with None.

    Raises RecordError naming the first step that does not fit the rules.
    """
    game = record.load_game()
    state = game.new_initial_state()
    for index, step in enumerate(record.steps):
        yield state, step
        if state.is_terminal():
            raise RecordError(f"the game was already over before {step.action!r}", index)
        expected = state.acting_players() or ((CHANCE,) if state.is_chance_node() else ())
        if step.player not in expected:
            raise RecordError(
                f"record says player {step.player} acts, the rules say {list(expected)}", index
            )
        try:
            state.apply_text(step.action, step.player)
        except ActionError as error:
            raise RecordError(str(error), index) from None
    yield state, None


def replay(record: Record) -> State:
    """Replay ``record`` and check its outcome; return the final state."""
    state = None
    for state, _step in replay_steps(record):  # noqa: B007 - the last state is the result
        pass
    assert state is not None
    if record.outcome is not None and state.outcome() != record.outcome:
        raise RecordError(
            f"replay ended with {state.outcome()}, the record says {record.outcome}",
            len(record.steps),
        )
    return state
