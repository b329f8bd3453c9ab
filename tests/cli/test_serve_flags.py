"""``ranchhand serve`` refuses what it cannot use with one line and exit 2, never a traceback;
``-o`` options are ASCII numbers in range.

The flag checks run before anything is imported for serving, so most cases go through
typer's runner; a bad database or log level is tried on a real ``ranchhand serve``
process (it configures logging, which must not leak into this test process).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.core import OptionError
from ranchhand.server import check_public_url
from tests.server.procs import free_port

runner = CliRunner()


def _refused(args: list[str], expected: str) -> None:
    result = runner.invoke(app, ["serve", "--port", str(free_port()), *args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: "), result.output
    assert result.output.count("\n") == 1, f"not one line: {result.output!r}"
    assert expected in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--port", "99999"], "--port must be 1 to 65535, got 99999"),
        (["--port", "0"], "--port must be 1 to 65535, got 0"),
        (["--port", "-1"], "--port must be 1 to 65535"),
        (["--workers", "0"], "--workers must be 1 to 64, got 0"),
        (["--workers", "1000"], "--workers must be 1 to 64, got 1000"),
        (["--bot-delay", "nan"], "--bot-delay must be 0 to 60 seconds, got nan"),
        (["--bot-delay", "inf"], "--bot-delay must be 0 to 60 seconds, got inf"),
        (["--bot-delay", "1e400"], "--bot-delay must be 0 to 60 seconds, got inf"),
        (["--bot-delay", "-0.5"], "--bot-delay must be 0 to 60 seconds"),
        (["--bot-delay", "61"], "--bot-delay must be 0 to 60 seconds"),
        (["--log-level", "nosuch"], "--log-level must be one of critical, error, warning"),
        (["--host", "garbage!!"], "--host 'garbage!!' is not an address here"),
        (["--host", "999.1.1.1"], "is not an address here"),
        (["--host", ""], "--host must be an address such as 127.0.0.1"),
        (["--host", "a b"], "--host must be an address"),
        (["--host", "exämple"], "--host must be an address"),
        (["--public-url", "javascript:alert(1)"], "only http:// and https:// addresses"),
        (["--public-url", "ftp://x.org"], "only http:// and https:// addresses"),
        (["--public-url", "https://"], "it names no host"),
        (["--public-url", "https://u:p@x.org"], "a user or password"),
        (["--public-url", "https://x.org/?next=1"], "may not have a ?query or #fragment"),
        (["--public-url", "https://x.org/#t"], "may not have a ?query or #fragment"),
        (["--public-url", "https://x.org:99999"], "its port is not 1 to 65535"),
        (["--public-url", "https://x.org/\u202egro"], "only printable ASCII"),
        (["--public-url", "https://x .org"], "only printable ASCII without spaces"),
        (["--limit", "tables=lots"], "a rate is COUNT/UNIT[:BURST]"),
        (["--limit", "nosuch=3"], "nosuch"),
        (["--limit", "ws_per_address=0"], "--limit ws_per_address: expected a number from 1"),
        (["--limit", "expire_after=nan"], "--limit expire_after: expected a number from 60"),
        (["--limit", "max_open_tables_per_client=٣"], "max_open_tables_per_client"),
        (["--allowed-origin", "evil"], "an allowed origin is scheme://host[:port]"),
    ],
)
def test_a_bad_flag_is_one_line_and_exit_2(args: list[str], expected: str) -> None:
    _refused(args, expected)


def test_a_taken_port_is_refused_before_serving() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2, result.output
    assert f"cannot listen on 127.0.0.1 port {port}" in result.output


@pytest.mark.parametrize(
    "url", ["https://games.example.org", "http://127.0.0.1:8000/ranch/", "HTTPS://X.ORG/a/b"]
)
def test_good_public_urls_pass(url: str) -> None:
    assert check_public_url(url) == url


def test_a_bad_public_url_names_the_flag() -> None:
    with pytest.raises(OptionError, match=r"^--public-url 'javascript:"):
        check_public_url("javascript:alert(document.cookie)//https://x.org")


def _serve(args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "ranchhand", "serve", "--port", str(free_port()), *args]
    return subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )


@pytest.mark.parametrize(
    ("db", "expected"),
    [
        ("sqlite:////proc/nope/x.db", "--db sqlite:////proc/nope/x.db: the folder /proc/nope"),
        ("sqlite:////proc/x.db", "cannot open the database: unable to open database file"),
        ("postgresql+psycopg://nobody:secret@127.0.0.1:1/x", "cannot open the database"),
    ],
)
def test_a_database_that_cannot_be_opened_is_one_line(
    db: str, expected: str, tmp_path: Path
) -> None:
    done = _serve(["--db", db], tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 2, output
    assert "Traceback" not in output
    error_lines = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(error_lines) == 1 and expected in error_lines[0], output
    assert "secret" not in output, "the database password is never shown"


def test_a_bad_log_level_is_one_line(tmp_path: Path) -> None:
    done = _serve(["--log-level", "nosuch"], tmp_path)
    assert done.returncode == 2
    assert done.stdout.strip().splitlines() == [
        "error: --log-level must be one of critical, error, warning, info, debug, trace, "
        "got 'nosuch'"
    ]
    assert not (tmp_path / "ranchhand.db").exists(), "nothing is created for a bad flag"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("max_turns=٣", "expected an integer 0..100000 in ASCII digits, got '٣'"),
        ("max_turns=1e308", "expected an integer 0..100000 in ASCII digits, got '1e308'"),
        ("max_turns=" + "1" + "0" * 35, "is above the maximum 100000"),
        ("max_turns=nan", "in ASCII digits, got 'nan'"),
    ],
)
def test_option_numbers_on_the_command_line(text: str, expected: str) -> None:
    result = runner.invoke(app, ["simulate", "rancho", "--games", "1", "-o", text])
    assert result.exit_code == 2, result.output
    assert expected in result.output and result.output.count("\n") == 1, result.output


def test_a_seed_a_record_cannot_hold_is_refused(tmp_path: Path) -> None:
    too_big = str(2**64)
    result = runner.invoke(app, ["play", "rancho", "--seats", "greedy,greedy", "--seed", too_big])
    assert result.exit_code == 2 and "--seed must be" in result.output, result.output
    path = tmp_path / "largest.json"
    largest = ["--seed", str(2**64 - 1), "--record", str(path)]
    result = runner.invoke(app, ["play", "rancho", "--seats", "greedy,greedy", *largest])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0


def test_limits_reach_the_settings_and_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    from ranchhand.server.app import SETTINGS_ENV, Settings
    from ranchhand.server.limits import Rate

    settings = Settings(allowed_origins=("https://friends.example",)).with_limits(
        ["tables=5/min", "actions=off", "max_open_tables_per_client=3", "ws_send_timeout=2.5"]
    )
    assert settings.limits.tables == Rate(5, 60, 5) and settings.limits.actions is None
    assert settings.max_open_tables_per_client == 3 and settings.ws_send_timeout == 2.5
    monkeypatch.setenv(SETTINGS_ENV, settings.to_env())  # what --workers hands each worker
    assert Settings.from_env() == settings
