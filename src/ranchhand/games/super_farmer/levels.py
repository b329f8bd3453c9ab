"""Super Farmer's levels: the racer where other games seat the shared search.

The shared search (``ismcts``) plays a dice race by rolling imagined games with greedy's
exchanges; the racer knows the solved solitaire's law of turns from every farm and weighs
its choices by the chance to finish first, in milliseconds. So ``normal`` is the racer
reading the others' deadline through a sum of exponentials and ``hard`` the racer reading
its first turns exactly (docs/games/super-farmer.md has both measured); ``ismcts`` stays
the shared search by its own name.
"""

from __future__ import annotations

from ranchhand.games.super_farmer.racer import RacerBot


class ExactRacerBot(RacerBot):
    """Races the other farmers as normal does, weighing their next turns exactly.

    The others' chance to have finished by each of its next 24 turns is read from the
    law table (``solver.race.law_table``), not through a smooth sum of exponentials."""

    name = "racer-exact"
    label = "Racer (reads the next turns exactly)"

    def __init__(self) -> None:
        super().__init__(exact=True)


LEVELS: dict[str, type[RacerBot]] = {"normal": RacerBot, "hard": ExactRacerBot}
