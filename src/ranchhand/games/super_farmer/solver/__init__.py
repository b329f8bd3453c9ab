"""Solitaire Super Farmer solved: the exchange policy that minimises the expected rolls.

``kernel`` holds the MDP's arithmetic (numba), ``solve`` builds and solves it and reads
and writes the policy files (``ranchhand solve super-farmer``). Without numba the
package refuses to load with the install line, which the commands show as an error.
"""

from ranchhand.core.errors import OptionError

try:
    import numba  # noqa: F401
except ImportError as error:  # pragma: no cover - the fast extra is installed in CI
    raise OptionError(
        "the Super Farmer solver needs numba: pip install 'ranchhand[fast]' (or -e '.[fast]')"
    ) from error
