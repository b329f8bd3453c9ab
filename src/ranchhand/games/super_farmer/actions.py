"""Super Farmer's actions: small hashable values whose ``str()`` is the canonical text.

Animal counts are 7-tuples in the order of :data:`~ranchhand.games.super_farmer.tables.SPECIES`
(rabbit, sheep, pig, cow, horse, small dog, big dog).

>>> str(Trade(give=(0, 0, 0, 0, 1, 0, 0), take=(6, 1, 1, 1, 0, 0, 0)))
'trade horse > 6 rabbit + sheep + pig + cow'
>>> str(DiceRoll(0, 5))
'roll rabbit+fox'
"""

from __future__ import annotations

from dataclasses import dataclass

from ranchhand.games.super_farmer.tables import FACES, SPECIES, Counts


def animals_text(counts: tuple[int, ...]) -> str:
    """'3 rabbit + sheep + small dog'; 'nothing' for no animals."""
    parts = [
        name if n == 1 else f"{n} {name}" for name, n in zip(SPECIES, counts, strict=True) if n
    ]
    return " + ".join(parts) or "nothing"


@dataclass(frozen=True)
class Trade:
    """One exchange with the herd: ``give`` goes to the herd, ``take`` comes from it."""

    give: Counts
    take: Counts

    def __str__(self) -> str:
        return f"trade {animals_text(self.give)} > {animals_text(self.take)}"


@dataclass(frozen=True)
class Roll:
    """End the exchange step and roll both dice."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class DiceRoll:
    """Chance: the face of the wolf die, then the face of the fox die (indices of FACES)."""

    wolf: int
    fox: int

    def __str__(self) -> str:
        return f"roll {FACES[self.wolf]}+{FACES[self.fox]}"
