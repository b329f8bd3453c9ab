"""Screenshots of each game in the browser, from real games: ``make screenshots``.

Starts ``ranchhand serve`` on a free local port with a throwaway database, plays each
game (one person, moving at random through the API, against greedy bots) to the
middle and to the end, and saves what the person's page shows at desktop and phone
size into ``docs/screenshots/`` (``<game>-desktop.png``, ``<game>-phone.png``,
``<game>-end.png``), plus the lobby. Needs Chromium at /usr/bin/chromium and the
``playwright`` package (``pip install -e '.[web]'``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARGS.append("--disable-component-update")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}
GAMES = {
    "rancho": (["human", "greedy", "greedy"], 9),
    "rocket-ranchers": (["human", "greedy", "greedy"], 5),
    "glory-ranch": (["human", "greedy", "greedy"], 4),
    "super-farmer": (["human", "greedy", "greedy"], 8),
}


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ranchhand", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{folder / 'shots.db'}", "--log-level", "warning"]
    proc = subprocess.Popen(command, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return proc, base
        time.sleep(0.1)
    raise SystemExit("ranchhand serve did not start")


def play(base: str, table: str, token: str, moves: int | None, rng: random.Random) -> None:
    """Make ``moves`` moves (None: to the end) for the seat, picking legal actions at random."""
    headers = {"Authorization": f"Bearer {token}"}
    made = 0
    while moves is None or made < moves:
        view: dict[str, Any] = httpx.get(f"{base}/api/tables/{table}", headers=headers).json()
        if view["status"] == "finished":
            return
        if not view["legal_actions"]:
            time.sleep(0.05)
            continue
        body = {"action": rng.choice(view["legal_actions"]), "step": view["step"]}
        httpx.post(f"{base}/api/tables/{table}/actions", json=body, headers=headers)
        made += 1


def shoot(browser: Any, url: str, path: Path, viewport: dict[str, int]) -> None:
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(400)
    page.screenshot(path=str(path))
    page.close()
    shown = path.relative_to(OUT.parent.parent) if path.is_relative_to(OUT.parent.parent) else path
    print(f"{shown}: {path.stat().st_size // 1024} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"no Chromium at {CHROMIUM} (as root: apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        proc, base = serve(Path(folder))
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                shoot(browser, base + "/", args.out / "lobby.png", DESKTOP)
                for game, (seats, moves) in GAMES.items():
                    names = ["Ann", "Bo", "Cy"]
                    body = {"game": game, "seats": seats, "names": names}
                    made = httpx.post(f"{base}/api/tables", json=body).json()
                    seat = made["seats"][0]
                    play(base, made["id"], seat["token"], moves, rng)
                    shoot(browser, seat["url"], args.out / f"{game}-desktop.png", DESKTOP)
                    shoot(browser, seat["url"], args.out / f"{game}-phone.png", PHONE)
                    play(base, made["id"], seat["token"], None, rng)
                    shoot(browser, seat["url"], args.out / f"{game}-end.png", DESKTOP)
                browser.close()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)


if __name__ == "__main__":
    main()
