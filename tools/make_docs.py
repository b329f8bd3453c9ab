"""Regenerate the figures in docs/ by running the project's own commands.

A docs page marks a generated block with

    <!-- generated: ranchhand simulate rancho --players 4 --games 10000 -->
    ...
    <!-- end generated -->

and this script replaces what stands between the two lines with the command and its output,
so every figure in the docs can be reproduced by a reader with the same command.

It also copies each game page's "Rules as implemented" section into the game's package
(``rules.md``), which the ``rules`` command prints at the prompt: the docs page is the
one source, and a test checks the copy.

Usage: python tools/make_docs.py [docs/games/rancho.md ...] [--only TEXT] [--dry-run]
       python tools/make_docs.py --rules-only   (just the rules.md copies, in a second)
(--only TEXT regenerates just the blocks whose command contains TEXT)
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

BLOCK = re.compile(
    r"(?P<head><!-- generated: (?P<command>.+?) -->\n)"
    r"(?P<body>.*?)"
    r"(?P<tail><!-- end generated -->)",
    re.DOTALL,
)
ROOT = Path(__file__).resolve().parent.parent


def run(command: str) -> str:
    """Run a ranchhand command line and return its plain-text output."""
    words = shlex.split(command)
    if words[0] != "ranchhand":
        raise SystemExit(f"only ranchhand commands may generate docs, got {command!r}")
    env = {**os.environ, "COLUMNS": "130", "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run(
        [sys.executable, "-m", "ranchhand", *words[1:]],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{command!r} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout.rstrip()


def regenerate(path: Path, dry_run: bool = False, only: str = "") -> int:
    text = path.read_text()
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        command = match["command"].strip()
        if only not in command:
            return match.group(0)
        count += 1
        print(f"{path.relative_to(ROOT)}: {command}", file=sys.stderr)
        output = run(command)
        body = f"```\n$ {command}\n{output}\n```\n"
        return match["head"] + body + match["tail"]

    new = BLOCK.sub(replace, text)
    if not dry_run and new != text:
        path.write_text(new)
    return count


RULES_HEADING = "## Rules as implemented"
GAME_PAGES = {
    "rancho": "rancho",
    "rocket-ranchers": "rocket_ranchers",
    "glory-ranch": "glory_ranch",
    "super-farmer": "super_farmer",
}


def rules_text(page: Path) -> str:
    """The Rules section of a game's docs page, as the package's ``rules.md``."""
    text = page.read_text()
    title = text.splitlines()[0].lstrip("# ").strip()
    start = text.index(RULES_HEADING) + len(RULES_HEADING)
    end = text.find("\n## ", start)
    body = text[start : end if end >= 0 else len(text)].strip()
    return f"# {title}: the rules as ranchhand plays them\n\n{body}\n"


def sync_rules(dry_run: bool = False) -> None:
    for page, package in GAME_PAGES.items():
        target = ROOT / "src" / "ranchhand" / "games" / package / "rules.md"
        text = rules_text(ROOT / "docs" / "games" / f"{page}.md")
        if not dry_run and (not target.exists() or target.read_text() != text):
            target.write_text(text)
            print(f"wrote {target.relative_to(ROOT)}", file=sys.stderr)


def main(argv: list[str]) -> None:
    dry_run = "--dry-run" in argv
    sync_rules(dry_run)
    if "--rules-only" in argv:
        return
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    paths = [Path(a).resolve() for a in argv if a.endswith(".md")]
    paths = paths or sorted((ROOT / "docs").rglob("*.md"))
    total = sum(regenerate(p, dry_run, only) for p in paths)
    print(f"regenerated {total} blocks", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
