"""Machine instructions per game of two source trees, counted by valgrind: a ratio no load sways.

    git worktree add /tmp/before 09a0b90
    python benchmarks/instruction_ratio.py rocket-ranchers 4 greedy --games 20 \\
        --before /tmp/before/src --after src

On a shared machine a rate in seconds moves with the neighbours' work; the number of
instructions a game executes does not. Each tree plays one warm-up game and then ``--games``
games of ``bench``'s seeds under ``valgrind --tool=callgrind``, once with the games and once
without; the difference is the games' instructions. Needs valgrind; each run takes a minute or
more (the program runs some fifty times slower under it). Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_PLAY = """
import sys
from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import derive_seed, play
game, players, bot, games = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
loaded, make = load(game, players, max_turns=2000), bot_factory(game, bot)
play(loaded, [make() for _ in range(players)], derive_seed(0, "warm-up"))
for index in range(games):
    play(loaded, [make() for _ in range(players)], derive_seed(0, index))
"""


def instructions(src: Path, game: str, players: int, bot: str, games: int) -> int:
    """Instructions of one whole run (imports, loading, warm-up and ``games`` games)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        done = subprocess.run(
            [*command, sys.executable, "-c", _PLAY, game, str(players), bot, str(games)],
            env={**os.environ, "PYTHONPATH": str(src.resolve())},
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("bot")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--before", type=Path, required=True, help="src folder of the old tree")
    parser.add_argument("--after", type=Path, default=Path("src"), help="src folder of the new")
    args = parser.parse_args()
    per_game = {}
    for label, src in (("before", args.before), ("after", args.after)):
        spent = instructions(src, args.game, args.players, args.bot, args.games)
        idle = instructions(src, args.game, args.players, args.bot, 0)
        per_game[label] = (spent - idle) / args.games
        print(f"{label}: {per_game[label] / 1e6:.1f} million instructions a game", flush=True)
    print(f"ratio: {per_game['before'] / per_game['after']:.2f}x fewer instructions a game")


if __name__ == "__main__":
    main()
