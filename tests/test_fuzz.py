"""Fuzzing every way in: state JSON, record files and the command line.

Whatever arrives, the answer is a value or a clear refusal (a RanchhandError, or
exit code 2 with a message), never a traceback, and never a changed game:

- state JSON with one field changed to anything: refused naming a field, or a
  position that plays on without a single Python error;
- record files mangled in type, depth, size and encoding: `replay` exits 0 or 2;
- command lines built from the commands' own words and bad values.
"""

from __future__ import annotations

import contextlib
import json
import random
import tempfile
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ranchhand.bots import RandomBot
from ranchhand.cli.main import app
from ranchhand.core import CHANCE, RanchhandError, State, play
from ranchhand.core.registry import GAME_MODULES, load
from tests.mutation import places, replaced

GAMES = sorted(g for g in GAME_MODULES if g != "toy")
runner = CliRunner()
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

ODD_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    2.5,
    10**30,
    "",
    "x",
    "²",
    [],
    {},
    [1, 2],
    {"a": 1},
    [[[]]],
    "kraken",
    "rabbit",
]


def _states(game_id: str, players: int, count: int) -> list[State]:
    """Positions met in one random game, spread over its course."""
    game = load(game_id, players, max_turns=200)
    rng = random.Random(game_id)
    state, seen = game.new_initial_state(), []
    while not state.is_terminal():
        seen.append(state.clone())
        acting = [CHANCE] if state.is_chance_node() else list(state.acting_players())
        if acting[0] == CHANCE:
            state.apply(state.chance_outcomes().sample(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(acting[0])), acting[0])
    return seen[:: max(1, len(seen) // count)]


def _play_on(state: State, steps: int = 40) -> None:
    """A loaded position must play: every call answers without a Python error."""
    rng = random.Random(1)
    for player in range(state.game.players):
        json.dumps(state.observe(player).to_json())
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply(state.chance_outcomes().sample(rng), CHANCE)
            continue
        player = state.acting_players()[0]
        legal = state.legal_actions(player)
        assert legal, "a loaded position must offer its player an action"
        state.apply(rng.choice(legal), player)


@pytest.mark.parametrize("game_id", GAMES)
def test_state_json_with_any_field_changed_is_refused_or_plays(game_id: str) -> None:
    game = load(game_id, 3, max_turns=200)
    snapshots = [s.to_json() for s in _states(game_id, 3, 6)]
    spots = [(i, at) for i, snap in enumerate(snapshots) for at in [(), *places(snap["data"], 8)]]

    @FUZZ
    @given(st.sampled_from(spots), st.sampled_from(ODD_VALUES) | st.integers(-5, 200))
    def mutate(place: tuple[int, tuple[Hashable, ...]], new: Any) -> None:
        index, path = place
        snapshot = snapshots[index]
        data = dict(snapshot, data=replaced(snapshot["data"], path, new))
        try:
            state = game.state_from_json(data)
        except RanchhandError as error:
            assert str(error)
            return
        assert game.state_from_json(state.to_json()).to_json() == state.to_json()
        _play_on(state)

    mutate()


def _record_file(tmp: Path) -> dict[str, Any]:
    game = load("glory-ranch", 2, max_turns=30)
    result = play(game, [RandomBot(), RandomBot()], seed=3, record=True)
    assert result.record is not None
    return result.record.to_json()


def test_mangled_record_files_are_refused_with_a_message(tmp_path: Path) -> None:
    good = _record_file(tmp_path)
    spots = [(), *places(good, 8)]
    path = tmp_path / "record.json"

    @FUZZ
    @given(
        st.sampled_from(spots),
        st.sampled_from([*ODD_VALUES, "[/x]", "\x1b]0;owned\x07", "/dev/zero", 2**70]),
    )
    def mangled(place: tuple[Hashable, ...], new: Any) -> None:
        path.write_text(json.dumps(replaced(good, place, new)))
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code in (0, 2), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "\x1b]0;" not in result.output

    mangled()


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe\x00binary",
        b"[" * 100_000,
        b'{"format": "ranchhand-record/1", "players": Infinity}',
        b'{"players": ' + b"9" * 5000 + b"}",
        b"",
        b'"a string"',
        b'{"format": "ranchhand-record/1", "game": "rancho", "players": 2.5, "options": {},'
        b' "actions": []}',
        b'{"format": "ranchhand-record/1", "game": "rancho", "players": 2, "options": {},'
        b' "seats": "greedy", "actions": []}',
        b'{"format": "ranchhand-record/1", "game": "rancho", "players": 2, "options": {},'
        b' "actions": [], "turns": -4}',
        b'{"format": "ranchhand-record/1", "game": "rancho", "players": 2, "options": {},'
        b' "actions": [[0, [1, 2]]]}',
        b'{"format": "ranchhand-record/1", "game": "rocket-ranchers", "players": 2,'
        b' "options": {"deck": "/dev/zero"}, "actions": []}',
        b'{"format": "ranchhand-record/1", "game": "rancho", "players": 1000000000,'
        b' "options": {}, "actions": []}',
    ],
)
def test_record_files_found_by_the_fuzzer(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert "error" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_record_may_read_a_file_only_when_allowed(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    from importlib import resources

    deck.write_bytes(
        resources.files("ranchhand.games.rocket_ranchers")
        .joinpath("deck-standard.toml")
        .read_bytes()
    )
    record = {
        "format": "ranchhand-record/1",
        "game": "rocket-ranchers",
        "players": 2,
        "options": {"deck": str(deck)},
        "actions": [],
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    refused = runner.invoke(app, ["replay", str(path)])
    assert refused.exit_code == 2 and "--allow-files" in refused.output
    allowed = runner.invoke(app, ["replay", str(path), "--allow-files"])
    assert allowed.exit_code == 0, allowed.output


WORDS = {
    "play": ["--seats", "--seed", "-o", "--record"],
    "simulate": ["--players", "--seats", "--seed", "--jobs", "-o", "--json"],
    "replay": ["--show", "--no-pause", "--allow-files"],
    "games": ["--json"],
}
VALUES = [
    "rancho",
    "glory",
    "rocket-ranchers",
    "human",
    "greedy,random",
    "random",
    "0",
    "-3",
    "1",
    "2",
    "²",
    "9" * 40,
    "dice=twin",
    "max_turns=5",
    "x=[/x]",
    "[/x]",
    "=",
    "",
    "/dev/null",
    "nowhere/x.json",
]


@FUZZ
@given(
    st.sampled_from(sorted(WORDS)),
    st.lists(
        st.sampled_from(VALUES) | st.sampled_from([w for ws in WORDS.values() for w in ws]),
        max_size=6,
    ),
)
def test_any_command_line_is_run_or_refused_with_a_message(command: str, words: list[str]) -> None:
    args = [command, *words]
    if command == "simulate":
        args += ["--games", "2", "-o", "max_turns=20"]
    if command == "play" and "--record" not in words:
        args += ["--record", str(Path(tempfile.mkdtemp()) / "game.json")]
    with contextlib.chdir(tempfile.mkdtemp()):  # where a relative path (--record ²) goes
        result = runner.invoke(app, args, input="quit\n" * 3)
    assert result.exit_code in (0, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
