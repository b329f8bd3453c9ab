"""What the games' compiled engines (``games/<name>/fast``) share on the Python side.

Each engine numbers the bots its kernel plays; a bot it cannot play is refused by
name, the same way in every game, before any game starts.
"""

from __future__ import annotations

from collections.abc import Mapping

from ranchhand.core.errors import OptionError


def kernel_policy(policies: Mapping[str, int], bot: str) -> int:
    """The kernel's number for ``bot``; OptionError naming the bots it plays."""
    if bot not in policies:
        raise OptionError(
            f"the fast engine plays {', '.join(policies)} seats, not {bot!r}; "
            "use the reference engine for other bots"
        )
    return policies[bot]
