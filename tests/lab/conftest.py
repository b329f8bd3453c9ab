"""The lab's test files whose optional packages are missing are left out of collection,
as ``src/conftest.py`` does for doctests: ``make install`` installs the ``lab`` extra
(matplotlib, scipy), so CI collects everything, and a contributor who installed only
``.[dev]`` still gets a clean run of the rest."""

from __future__ import annotations

import importlib.util

NEEDS = {
    "test_ludii.py": ("scipy",),
    "test_metrics.py": ("scipy",),
    "test_significance.py": ("scipy",),
    "test_tune.py": ("scipy", "matplotlib"),
    "test_ladder.py": ("scipy", "matplotlib"),
    "test_report.py": ("scipy", "matplotlib"),
    "test_report_browser.py": ("scipy", "matplotlib"),
}

collect_ignore = [
    path
    for path, modules in NEEDS.items()
    if any(importlib.util.find_spec(m) is None for m in modules)
]
