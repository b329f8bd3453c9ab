"""Write the golden playthroughs: seeded games as text, checked by tests/test_golden.py.

A playthrough records, for every step of one seeded random game, who acts, what that player
observes, the legal actions and the action taken. Any change to rules, notation or
observations shows up as a diff of these files; regenerate them only on purpose:

    python tools/make_golden.py        (or: make golden)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.golden import GOLDEN_DIR, PLAYTHROUGHS, playthrough  # noqa: E402


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for game, players, seed in PLAYTHROUGHS:
        path = GOLDEN_DIR / f"{game}-{players}p-seed{seed}.txt"
        path.write_text(playthrough(game, players, seed))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
