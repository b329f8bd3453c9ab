"""The report opened in Chromium: a solitaire run, a seat that wins every game, and a
six-player run, each made by the real commands and loaded from disk with no console
error, no page error and no request leaving the file.

Skipped, saying why, without ``/usr/bin/chromium`` or the ``playwright`` package (the
browser tests' own check, tests/web/conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app
from tests.lab.helpers import made, stored
from tests.web.conftest import browser_unavailable, chromium

runner = CliRunner()
pytestmark = pytest.mark.skipif(browser_unavailable() is not None,
                                reason=browser_unavailable() or "")  # fmt: skip


@pytest.fixture(scope="module", name="chromium")
def launched_chromium() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _report(store: str, out: Path) -> Path:
    result = runner.invoke(app, ["report", "--store", store, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _open(chromium: Any, page_path: Path) -> tuple[list[str], int, str]:
    """Load the page; its console and page errors, its SVG count and its text."""
    page = chromium.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: errors.append(f"fetched {r.url}")
            if not r.url.startswith("file:") else None)  # fmt: skip
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    svgs = page.locator("svg").count()
    text = page.inner_text("body")
    page.close()
    return errors, svgs, text


def test_solitaire_report(chromium: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite")
    args = ["sweep", "super-farmer", "--players", "1", "--games", "6", "--jobs", "1",
            "--store", store]  # fmt: skip
    assert runner.invoke(app, args).exit_code == 0
    errors, svgs, text = _open(chromium, _report(store, tmp_path / "solo.html"))
    assert errors == [] and svgs == 2 and "Solitaire: completed" in text


def test_a_seat_that_always_wins(chromium: Any, tmp_path: Path) -> None:
    games = [made(i, (1,), 2, game="rancho") for i in range(14)]  # 14 failed before
    store, _ = stored(tmp_path / "w.sqlite", "rancho", 2, games)
    store.close()
    errors, svgs, text = _open(chromium, _report(str(tmp_path / "w.sqlite"), tmp_path / "w.html"))
    assert errors == [] and svgs == 5 and "Seat 1 wins more often than a fair share" in text


def test_six_players(chromium: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "six.sqlite")
    args = ["sweep", "glory-ranch", "--players", "6", "--games", "3", "--jobs", "1",
            "--vary", "tie=play-on,share", "--store", store]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    errors, svgs, text = _open(chromium, _report(store, tmp_path / "six.html"))
    assert errors == [] and svgs == 5 and "seat 5" in text.lower()
