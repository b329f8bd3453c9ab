"""A compiled fast path for Glory Ranch: numba, the ``fast`` extra.

``kernel`` holds the rules, the greedy bot and whole games on arrays (one module, so
numba's cache of it is never stale), ``engine`` the Python face (the deck turned into
arrays, the step-by-step table the differential test drives, the search's compiled
playout), ``simulate`` the commands' entry points. Without numba the package refuses
to load with the install line, which the commands show as an error.
"""

from ranchhand.core.errors import OptionError

try:
    import numba  # noqa: F401
except ImportError as error:  # pragma: no cover - the fast extra is installed in CI
    raise OptionError(
        "the fast engine needs numba: pip install 'ranchhand[fast]' (or -e '.[fast]')"
    ) from error
