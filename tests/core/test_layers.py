"""The ground knows no tenant: ``ranchhand.core`` imports nothing above it, and the games
nothing of what is built on them.

Games, bots, the simulator and the front ends build on ``core``; ``core`` names them only
as module paths it imports on first use (the registry's games and shared bots), so a
change above never forces a change below, and ``core`` loads alone. A game builds on
``core`` and the bots' base; the simulator, the lab, the research adapters and the front
ends read games, never the other way round.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ranchhand.core

CORE = Path(ranchhand.core.__file__).parent
GAMES = CORE.parent / "games"
ABOVE_GAMES = ("sim", "lab", "envs", "cli", "server", "web")
"""The packages built on the games."""


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_core_imports_nothing_above_it() -> None:
    above = {
        f"{path.relative_to(CORE)}: {name}"
        for path in sorted(CORE.rglob("*.py"))
        for name in imported(path)
        if name.startswith("ranchhand.") and not name.startswith("ranchhand.core")
    }
    assert not above, f"core imports from above it: {sorted(above)}"


def test_core_loads_alone() -> None:
    # a fresh interpreter: importing every core module pulls in no other ranchhand package
    modules = sorted(
        "ranchhand.core." + ".".join(path.relative_to(CORE).with_suffix("").parts)
        for path in CORE.rglob("*.py")
        if path.name != "__init__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('ranchhand.')}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "['core']", result.stdout


def test_games_import_nothing_built_on_them() -> None:
    above = {
        f"{path.relative_to(GAMES)}: {name}"
        for path in sorted(GAMES.rglob("*.py"))
        for name in imported(path)
        if name.split(".")[:2] in (["ranchhand", part] for part in ABOVE_GAMES)
    }
    assert not above, f"games import from what is built on them: {sorted(above)}"
