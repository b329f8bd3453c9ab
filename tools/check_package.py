"""Check that ranchhand installs anywhere: build the wheel, install it with the server extra
into a new virtual environment (no system site-packages, the repository nowhere on the
path), then run the installed ``ranchhand``: ``--version``, ``games``, and ``serve``
answering a page, a table, a game's script (the web assets) and its health (the
migrations ran). CI runs it after ``make test`` (.ci/run); ``make package`` runs it too.

Dependencies come from the package index pip is configured with. Prints what it did and
how long each part took; exits 1 naming the first thing that failed.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Failed(Exception):
    """A step of the check did not do what it should."""


def _run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise Failed(f"{' '.join(map(str, command))} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def _get(url: str, body: dict[str, object] | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, answer.read()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def check(work: Path) -> list[str]:
    said: list[str] = []
    started = time.monotonic()

    def step(text: str) -> None:
        said.append(f"{time.monotonic() - started:5.1f} s  {text}")
        print(said[-1], flush=True)

    wheels = work / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "-q", "-w", wheels, cwd=work)
    (wheel,) = wheels.glob("ranchhand-*.whl")
    step(f"built {wheel.name} ({wheel.stat().st_size // 1024} KiB)")
    venv = work / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=work)
    python, ranchhand = venv / "bin" / "python", venv / "bin" / "ranchhand"
    # The outer pip installs into the new environment (pip --python), which saves
    # bootstrapping a pip inside it; no bytecode is compiled ahead.
    _run(
        sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-compile",
        f"{wheel}[server]", cwd=work,
    )  # fmt: skip
    step("installed it with the server extra in a new venv")
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    imported = "import ranchhand; print(ranchhand.__file__)"
    where = _run(python, "-c", imported, cwd=elsewhere, env=env)
    if not where.startswith(str(venv)):
        raise Failed(f"ranchhand was imported from {where.strip()}, not from the new venv")
    version = _run(ranchhand, "--version", cwd=elsewhere, env=env).strip()
    listed = _run(ranchhand, "games", cwd=elsewhere, env=env)
    if not all(name in listed for name in ("Rancho", "Rocket Ranchers", "Glory Ranch", "Super")):
        raise Failed(f"ranchhand games does not list the four games:\n{listed}")
    step(f"{version}; ranchhand games lists the four games")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [ranchhand, "serve", "--port", str(port), "--log-level", "warning"],
        cwd=elsewhere,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(f"{base}/api/health")[0] == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise Failed(f"ranchhand serve did not answer:\n{server.communicate()[0]}")
            time.sleep(0.2)
        status, lobby = _get(f"{base}/")
        created = json.loads(_get(f"{base}/api/tables", {"game": "rancho", "players": 2})[1])
        table = _get(created["spectate"])
        script = _get(f"{base}/static/games/rancho.js")
        if status != 200 or b"<html" not in lobby.lower() or table[0] != 200 or not script[1]:
            raise Failed("the lobby, a table's page or a game's script was not served")
        step("ranchhand serve answered the lobby, a new table's page and rancho.js")
    finally:
        server.send_signal(signal.SIGTERM)
        output = server.communicate(timeout=30)[0]
    if server.returncode != 0:
        raise Failed(f"ranchhand serve exited {server.returncode} after SIGTERM:\n{output}")
    if not (elsewhere / "ranchhand.db").exists():
        raise Failed("ranchhand serve kept no SQLite database where it was started")
    step("it stopped on SIGTERM with exit 0")
    return said


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ranchhand-package-") as work:
        try:
            check(Path(work))
        except Failed as failed:
            print(f"package check failed: {failed}", file=sys.stderr)
            sys.exit(1)
    print("package check passed")


if __name__ == "__main__":
    main()
