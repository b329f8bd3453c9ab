"""Settings for the whole test run.

The servers the tests start (dozens of ``ranchhand serve`` processes, most of them for a
few seconds) do not prepare the bots' tables in the background
(``ranchhand.server.prepare``): each would start the same 20 CPU seconds of work beside
the tests and be stopped before it ends. ``tests/server/test_prepare.py`` turns it on.

Hypothesis checks properties, not speed: its 200 ms deadline per example is off (a
collection or another test process on the same cores could pass it, and speed is
measured by the benchmarks). Other settings stay Hypothesis' own.
"""

import os

from hypothesis import settings

os.environ.setdefault("RANCHHAND_PREPARE_BOTS", "0")
settings.register_profile("ranchhand", deadline=None)
settings.load_profile("ranchhand")
