"""Super Farmer's levels: the racer where other games seat the shared search.

The shared search (``ismcts``) plays a dice race by rolling imagined games with greedy's
exchanges; the racer knows the solved solitaire's law of turns from every farm and weighs
its choices by the chance to finish first, in milliseconds. So ``normal`` is the racer
looking one roll ahead and ``hard`` the racer looking two (docs/games/super-farmer.md has
both measured); ``ismcts`` stays the shared search by its own name.
"""

from __future__ import annotations

from ranchhand.games.super_farmer.racer import RacerBot


class TwoRollRacerBot(RacerBot):
    """The racer looking two rolls ahead: its best choice after each roll, then the next."""

    name = "racer-2"
    label = "Racer (two rolls ahead)"
    thinks = True

    def __init__(self) -> None:
        super().__init__(rolls=2)


LEVELS: dict[str, type[RacerBot]] = {"normal": RacerBot, "hard": TwoRollRacerBot}
