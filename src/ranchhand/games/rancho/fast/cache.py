"""Numba's on-disk cache, made to forget the whole package when any of its files changes.

numba keeps each compiled function under ``__pycache__`` and trusts it while the
function's *own* file is unchanged; but a function's machine code includes the code
of what it calls, so ``play.play_many`` compiled before an edit of ``kernel.py`` would
go on playing by the old rules. Here a function of this package is stale when any
``.py`` file of the package has changed. This uses numba's cache locators, which are
not a public API: where a numba release lacks them, nothing is registered and the
cache falls back to numba's own per-file check, as it does when ``NUMBA_CACHE_DIR`` names
another place for the cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from numba.core import caching, config

HERE = Path(__file__).resolve().parent

_IN_TREE = getattr(caching, "InTreeCacheLocator", getattr(caching, "_InTreeCacheLocator", None))
_IMPL = getattr(caching, "CacheImpl", getattr(caching, "_CacheImpl", None))


def package_stamp() -> tuple[tuple[str, int, int], ...]:
    """Name, modification time and size of every source file of the package."""
    return tuple(
        (path.name, path.stat().st_mtime_ns, path.stat().st_size)
        for path in sorted(HERE.glob("*.py"))
    )


def register() -> bool:
    """Put the package's locator first in numba's list; False where numba has none."""
    if _IN_TREE is None or _IMPL is None or not hasattr(_IMPL, "_locator_classes"):
        return False

    class PackageLocator(_IN_TREE):  # type: ignore[misc,valid-type]
        """numba's in-tree cache, stamped with every file of this package."""

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if getattr(config, "CACHE_DIR", "") or Path(py_file).resolve().parent != HERE:
                return None  # NUMBA_CACHE_DIR set: numba's own locator, as asked
            return super().from_function(py_func, py_file)

        def get_source_stamp(self) -> Any:
            return package_stamp()

    if not any(c.__name__ == "PackageLocator" for c in _IMPL._locator_classes):
        _IMPL._locator_classes.insert(0, PackageLocator)
    return True
