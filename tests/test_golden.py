"""Seeded games must play out exactly as their golden playthroughs say."""

from __future__ import annotations

import difflib

import pytest

from tests.golden import GOLDEN_DIR, PLAYTHROUGHS, playthrough, records


@pytest.mark.parametrize(("game", "players", "seed"), PLAYTHROUGHS)
def test_playthrough_matches_golden_file(game: str, players: int, seed: int) -> None:
    path = GOLDEN_DIR / f"{game}-{players}p-seed{seed}.txt"
    assert path.exists(), f"no golden file {path.name}: run python tools/make_golden.py"
    expected = path.read_text()
    actual = playthrough(game, players, seed)
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "golden", "now", n=1
                )
            )[:40]
        )
        pytest.fail(
            f"{path.name} differs (rules, notation or observations changed?). If on purpose, "
            f"run python tools/make_golden.py and review the diff.\n{diff}"
        )


@pytest.mark.parametrize(
    ("game", "players", "bot", "seed"),
    records.cases(),
    ids=[records.key(*case) for case in records.cases()],
)
def test_seeded_game_matches_golden_record(game: str, players: int, bot: str, seed: int) -> None:
    """Speed work must leave every seeded game exactly as it was, step by step."""
    expected = records.load_records()[records.key(game, players, bot, seed)]
    actual = records.record(game, players, bot, seed)
    if actual != expected:
        kept, now = expected["checkpoints"], actual["checkpoints"]
        window = next(
            (i for i, (a, b) in enumerate(zip(kept, now, strict=False)) if a != b), len(kept)
        )
        first = window * records.CHECKPOINT
        pytest.fail(
            f"the game parts from its record between steps {first} and "
            f"{first + records.CHECKPOINT} (record: {expected['steps']} steps, "
            f"{expected['outcome']}; now: {actual['steps']} steps, {actual['outcome']}). "
            "Results for a seed change only with the rules: then run "
            "python -m tests.golden.records and say why in the commit."
        )


def test_golden_records_cover_every_case() -> None:
    assert sorted(records.load_records()) == sorted(records.key(*c) for c in records.cases())
