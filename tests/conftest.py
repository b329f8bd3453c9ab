"""Settings for the whole test run.

The servers the tests start (dozens of ``ranchhand serve`` processes, most of them for a
few seconds) do not prepare the bots' tables in the background
(``ranchhand.server.prepare``): each would start the same 20 CPU seconds of work beside
the tests and be stopped before it ends. ``tests/server/test_prepare.py`` turns it on.
"""

import os

os.environ.setdefault("RANCHHAND_PREPARE_BOTS", "0")
