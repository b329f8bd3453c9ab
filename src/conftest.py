"""Doctest collection over ``src/`` leaves out the modules whose optional extra is missing.

``make install`` installs every extra, so CI collects everything; a contributor who
installed only ``.[dev]`` still gets a clean ``pytest`` run, the test files of those
extras skipping with the reason.
"""

from __future__ import annotations

import importlib.util

NEEDS = {
    "ranchhand/envs/gymnasium.py": "gymnasium",
    "ranchhand/envs/pettingzoo.py": "pettingzoo",
    "ranchhand/envs/openspiel.py": "pyspiel",
    "ranchhand/games/rancho/fast/*.py": "numba",
    "ranchhand/lab/plots.py": "matplotlib",
    "ranchhand/lab/report.py": "matplotlib",
    "ranchhand/lab/estimate.py": "scipy",
}

collect_ignore_glob = [
    path for path, module in NEEDS.items() if importlib.util.find_spec(module) is None
]
