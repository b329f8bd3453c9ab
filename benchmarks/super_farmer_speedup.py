"""Before/after speed of Super Farmer's reference engine, two source trees in one run.

    git archive <old commit> src | tar -x -C /tmp/before
    python benchmarks/super_farmer_speedup.py --before /tmp/before/src --after src

``reference_speedup``'s method (a fresh process per timing, CPU seconds, before and after
interleaved, best rates and the median of paired ratios) over Super Farmer's tables:
random and greedy play, alone and at four and six farmers. Games per second compare as
steps per second do, since both trees play the same seeds into the same games.
"""

from __future__ import annotations

import reference_speedup

CONFIGS = (
    ("super-farmer", 1, "random"),
    ("super-farmer", 4, "random"),
    ("super-farmer", 6, "random"),
    ("super-farmer", 1, "greedy"),
    ("super-farmer", 4, "greedy"),
    ("super-farmer", 6, "greedy"),
)

if __name__ == "__main__":
    reference_speedup.CONFIGS = CONFIGS
    reference_speedup.main()
