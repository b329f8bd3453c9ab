"""Measure what share of Rancho's moves the fixed action encoding can express.

Plays seeded games between bots on both boards and prints, per table, the share of
the engine's listed legal actions that have an index and the share of each bot's
chosen moves that do, with the kinds of move that have none. The figures go into
docs/games/rancho.md ("Fixed action encoding"):

    python tools/rancho_coverage.py            (about a minute on one core)
    python tools/rancho_coverage.py --games 20 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ranchhand.games.rancho.coverage import Coverage, measure  # noqa: E402

TABLES = (
    ("hex-rings", ("random", "random")),
    ("hex-rings", ("greedy", "greedy")),
    ("hex-rings", ("greedy", "random", "greedy", "random")),
    ("hex-rings", ("greedy",) * 6),
    ("hex-compact", ("greedy",) * 4),
    ("hex-compact", ("random",) * 6),
    ("hex-compact", ("greedy",) * 6),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    total = Coverage()
    rows = []
    for board, seats in TABLES:
        one = measure(seats, args.games, args.seed, board=board)
        total.absorb(one)
        rows.append({"board": board, "seats": ",".join(seats), **one.to_json()})
    if args.json:
        print(json.dumps({"tables": rows, "total": total.to_json()}, indent=2))
        return
    for row in rows:
        chosen = ", ".join(
            f"{bot} {row['chosen_encoded'].get(bot, 0)}/{n} "
            f"({100 * row['chosen_encoded'].get(bot, 0) / n:.2f}%)"
            for bot, n in sorted(row["chosen"].items())
        )
        print(
            f"{row['board']:11} {row['seats']:41} games {row['games']:4} decisions "
            f"{row['decisions']:7}  legal {row['legal_encoded']}/{row['legal']} "
            f"({100 * row['legal_share']:.3f}%)  chosen {chosen}  simple deals "
            f"{row['simple_encoded']}/{row['simple']} ({100 * row['simple_share']:.1f}%), "
            f"in steps {100 * row['simple_steps_share']:.1f}%"
        )
        for kind, n in sorted(row["missed"].items()):
            print(f"{'':13}no index: {kind}: {n}")
    chosen = ", ".join(
        f"{bot} {100 * total.chosen_share(bot):.3f}%" for bot in sorted(total.chosen)
    )
    print(
        f"all tables: legal {100 * total.legal_share():.3f}%, chosen {chosen}, simple deals "
        f"{100 * total.simple_share():.1f}%, in steps {100 * total.simple_steps_share():.1f}%"
    )


if __name__ == "__main__":
    main()
