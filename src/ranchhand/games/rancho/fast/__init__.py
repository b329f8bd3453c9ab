"""A compiled fast path for bulk simulation of Rancho: numba, the ``fast`` extra.

``kernel`` holds the rules on arrays, ``greedy`` the greedy bot, ``play`` whole games,
``playout`` the search's greedy rollouts from any position (``RanchoGame.compiled_playout``),
``engine`` the Python face (and the step-by-step table the differential test drives),
``simulate`` what ``ranchhand.sim.fast`` runs and times for the commands; ``cache``
keeps numba's cache of compiled code in step with every file of the package. Without
numba the package refuses to load with the install line, which the commands show as an
error.
"""

from ranchhand.core.errors import OptionError

try:
    import numba  # noqa: F401
except ImportError as error:  # pragma: no cover - the fast extra is installed in CI
    raise OptionError(
        "the fast engine needs numba: pip install 'ranchhand[fast]' (or -e '.[fast]')"
    ) from error

from ranchhand.games.rancho.fast.cache import register

register()
