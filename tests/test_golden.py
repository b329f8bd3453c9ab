"""Seeded games must play out exactly as their golden playthroughs say."""

from __future__ import annotations

import difflib

import pytest

from tests.golden import GOLDEN_DIR, PLAYTHROUGHS, playthrough


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
