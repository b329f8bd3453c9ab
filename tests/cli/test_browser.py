"""``ranchhand play GAME --browser`` and ``ranchhand serve --open``: a real server process,
a real table made through the HTTP API, and Python's webbrowser module handing the link
to a "browser" named by $BROWSER (a script that writes down what it was asked to open)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ranchhand.cli.browser import can_open_browser, local_base, seat_link
from ranchhand.cli.main import app
from tests.server.procs import free_port

pytest.importorskip("uvicorn", reason="the server extra is not installed")

runner = CliRunner()


def _browser(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.sh"
    script.write_text(f'#!/bin/sh\necho "$1" >> {opened}\n')
    script.chmod(0o755)
    env = {**os.environ, "BROWSER": str(script), "PYTHONUNBUFFERED": "1"}
    return opened, env


def _run(args: list[str], tmp_path: Path) -> tuple[str, str, int]:
    """Start ``ranchhand ARGS``, wait for the browser to be asked to open a page, stop the
    server with SIGTERM; the page opened, the output, the exit status."""
    opened, env = _browser(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "ranchhand", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (opened.exists() and opened.read_text().strip()):
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "the browser was not opened within 60 s"
            time.sleep(0.1)
        link = opened.read_text().strip()
        _check(link)
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    return link, output, process.returncode


checks: dict[str, Any] = {}


def _check(link: str) -> None:
    """While the server runs: the page answers, and the table's view is the seat's."""
    page = link.partition("#")[0]
    with urllib.request.urlopen(page, timeout=10) as answer:
        assert answer.status == 200
    if "#token=" in link:
        table = page.rsplit("/", 1)[1]
        token = link.partition("#token=")[2]
        parts = urllib.parse.urlsplit(page)
        request = urllib.request.Request(
            f"{parts.scheme}://{parts.netloc}/api/tables/{table}",
            headers={"Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            checks["view"] = json.loads(answer.read())


def test_play_browser_makes_the_table_and_opens_the_seat(tmp_path: Path) -> None:
    port = free_port()
    args = ["play", "rancho", "--browser", "--port", str(port), "--names", "Ann"]
    link, output, code = _run(args, tmp_path)
    assert link.startswith(f"http://127.0.0.1:{port}/tables/") and "#token=" in link
    assert f"Your table: {link}" in output
    assert "Opened in your browser" in output
    assert code == 0, output
    view = checks.pop("view")
    assert view["game"] == "rancho" and view["you"] == 0
    assert [s["name"] for s in view["seats"]][:1] == ["Ann"], view["seats"]
    assert (tmp_path / "ranchhand.db").exists()  # SQLite in the folder it was run from
    assert "Traceback" not in output


def test_serve_open_opens_the_lobby(tmp_path: Path) -> None:
    port = free_port()
    link, output, code = _run(["serve", "--open", "--port", str(port)], tmp_path)
    assert link == f"http://127.0.0.1:{port}/"
    assert f"Your table: {link}" in output and code == 0, output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--seats", "human,nosuchbot"], "nosuchbot"),
        (["--seed", "3"], "--browser plays on the server"),
        (["--names", "Ann,Bob"], "--names gives 2 names: give one per human seat (1)"),
    ],
)
def test_play_browser_refuses_before_serving(args: list[str], expected: str) -> None:
    result = runner.invoke(app, ["play", "rancho", "--browser", "--port", "1", *args])
    assert result.exit_code == 2 and expected in result.output, result.output
    assert "Serving" not in result.output


def test_seat_link_for_one_several_or_no_people() -> None:
    def seat(token: str | None) -> dict[str, Any]:
        return {"token": token, "url": f"http://h/tables/t#token={token}" if token else None}

    spectate = "http://h/tables/t"
    one = {"seats": [seat("A"), seat(None)], "spectate": spectate}
    two = {"seats": [seat("A"), seat(None), seat("B")], "spectate": spectate}
    none = {"seats": [seat(None), seat(None)], "spectate": spectate}
    assert seat_link(one) == "http://h/tables/t#token=A"
    assert seat_link(two) == "http://h/tables/t#tokens=A,B"  # the hot-seat page
    assert seat_link(none) == spectate
    assert local_base("0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert local_base("::", 80, "/ranch/") == "http://[::1]:80/ranch"


def test_no_text_browser_takes_over_a_terminal_without_a_desktop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert not can_open_browser()
    monkeypatch.setenv("DISPLAY", ":0")
    assert can_open_browser()
