"""Golden records: seeded bot games kept as digests, so speed work cannot change a result.

Each record plays one game through :func:`ranchhand.core.runner.play` (the path that
``simulate`` and ``bench`` take, bots and seeds as they use them) and folds every step
into a running SHA-256: the full state as JSON, the acting player's observation, the
player and the action. A checkpoint of that digest every :data:`CHECKPOINT` steps names
the window where a changed engine first parts from the record; the final outcome and
turn count are kept in the clear.

Every game is recorded at its smallest, four-player and largest table, with the random and
the greedy bot, for a few seeds. ``python -m tests.golden.records`` rewrites ``records.json``:
only when a rule change means results for a seed should change (say so in the commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from ranchhand.core import CHANCE
from ranchhand.core.game import State
from ranchhand.core.registry import bot_factory, game_class, load
from ranchhand.core.runner import play

RECORDS_FILE = Path(__file__).parent / "records.json"
CHECKPOINT = 100
"""Steps between the digests kept, to say where a replay first differs."""
MAX_TURNS = 300
"""Turns before a game is cut: most games finish well before, and the test stays fast."""
GAMES = ("rancho", "rocket-ranchers", "glory-ranch")
"""The games recorded (a game added later gets its records when it is ready)."""
BOTS = ("random", "greedy")
SEEDS = (1, 2, 3)


def cases() -> list[tuple[str, int, str, int]]:
    """(game, players, bot, seed) for every record: each game at its smallest table, at four
    players (where the speed targets are measured) and at its largest."""
    found = []
    for name in GAMES:
        cls = game_class(name)
        for players in sorted({cls.min_players, 4, cls.max_players}):
            for bot in BOTS:
                found.extend((name, players, bot, seed) for seed in SEEDS)
    return found


def key(game: str, players: int, bot: str, seed: int) -> str:
    return f"{game} {players}p {bot} seed{seed}"


def record(game_id: str, players: int, bot: str, seed: int) -> dict[str, Any]:
    """Play one seeded game and return its digests, outcome, turns and steps."""
    game = load(game_id, players, max_turns=MAX_TURNS)
    make = bot_factory(game_id, bot)
    digest = hashlib.sha256()
    checkpoints: list[str] = []
    steps = 0

    def listen(state: State, player: int, action: Hashable) -> None:
        nonlocal steps
        digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
        if player != CHANCE:
            digest.update(json.dumps(state.observe(player).to_json(), sort_keys=True).encode())
        digest.update(f"|{player}|{action}\n".encode())
        steps += 1
        if steps % CHECKPOINT == 0:
            checkpoints.append(digest.hexdigest()[:16])

    result = play(game, [make() for _ in range(players)], seed, listener=listen)
    return {
        "steps": steps,
        "turns": result.turns,
        "outcome": result.outcome.to_json(),
        "checkpoints": checkpoints,
        "digest": digest.hexdigest(),
    }


def load_records() -> dict[str, dict[str, Any]]:
    records: dict[str, dict[str, Any]] = json.loads(RECORDS_FILE.read_text())
    return records


def main() -> None:
    """Rewrite ``records.json`` from the engine as it is now."""
    records = {key(*case): record(*case) for case in cases()}
    lines = (f"{json.dumps(name)}: {json.dumps(records[name], sort_keys=True)}" for name in records)
    RECORDS_FILE.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # a record a line: short diffs
    print(f"wrote {len(records)} records to {RECORDS_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
