"""A farm's breeding and its winning herd, as functions of count lists: the rules
(``state``) apply them to the table, the log in words (``words``) to copies."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ranchhand.games.super_farmer.tables import FARM


def breed(dice: tuple[int, int], mine: list[int], herd: list[int]) -> None:
    """Each species ``dice`` show breeds on the farm ``mine``: one newborn per full pair of
    (owned + shown), as far as the ``herd`` has them (a face on both dice counts twice)."""
    for kind, shown in Counter(face for face in dice if face in FARM).items():
        pairs = (mine[kind] + shown) // 2
        newborns = pairs if pairs <= herd[kind] else herd[kind]
        mine[kind] += newborns
        herd[kind] -= newborns


def full(farm: Sequence[int]) -> bool:
    """At least one rabbit, sheep, pig, cow and horse: the winning herd."""
    return all(farm[k] for k in FARM)
