"""The flow of one game read from its standings: who led, when the lead changed, whether
the winner was ever last or far behind, and from when the winner led for good.

A *timeline* is the players' standings (``State.standing``) at the start and after every
turn, in the game's own units (higher is ahead). The *leader* at a point is the one
player strictly ahead of all others; a tie at the top has no leader. Formulas are in
docs/lab.md; these functions are the definitions the report uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Timeline = Sequence[Sequence[float]]


@dataclass(frozen=True)
class Flow:
    """The flow facts of one game (``None`` where the game does not define them).

    ``points`` is how many standings were read (turns + 1). The winner's facts need a
    game won by exactly one player; ``lead_changes`` needs only a timeline.
    """

    points: int
    lead_changes: int
    winner_last: bool | None = None
    winner_deficit: float | None = None
    winner_final: float | None = None
    lead_from: int | None = None

    @property
    def decisiveness(self) -> float | None:
        """The share of the game after the point from which the winner led for good."""
        if self.lead_from is None or self.points < 2:
            return None
        return (self.points - 1 - self.lead_from) / (self.points - 1)


def leader(standing: Sequence[float]) -> int | None:
    """The one player strictly ahead of every other, or None at a tie for the top.

    >>> leader([3, 5, 1]), leader([5, 5, 1])
    (1, None)
    """
    top = max(standing)
    ahead = [p for p, value in enumerate(standing) if value == top]
    return ahead[0] if len(ahead) == 1 else None


def lead_changes(timeline: Timeline) -> int:
    """How often the leader differs from the previous leader (ties at the top skipped).

    >>> lead_changes([[0, 0], [1, 0], [1, 1], [1, 2], [3, 2]])
    2
    """
    changes, last = 0, None
    for standing in timeline:
        now = leader(standing)
        if now is None:
            continue
        if last is not None and now != last:
            changes += 1
        last = now
    return changes


def ever_last(timeline: Timeline, player: int) -> bool:
    """Whether ``player`` was ever strictly behind every other player."""
    return any(
        all(s[player] < v for p, v in enumerate(s) if p != player) and len(s) > 1 for s in timeline
    )


def deficit(timeline: Timeline, player: int) -> float:
    """The most ``player`` was ever behind the player ahead of everyone (0 if never behind)."""
    return max((max(s) - s[player] for s in timeline), default=0.0)


def lead_from(timeline: Timeline, player: int) -> int:
    """The first point from which ``player`` is the leader at every later point.

    ``len(timeline) - 1`` (the last point) if ``player`` does not lead at the end, so a
    winner by tie-break or at the buzzer scores no decisiveness.

    >>> lead_from([[0, 0], [2, 0], [1, 3], [4, 3], [6, 3]], 0)
    3
    """
    end = len(timeline) - 1
    start = end
    for point in range(end, -1, -1):
        if leader(timeline[point]) != player:
            break
        start = point
    return start


def flow(timeline: Timeline, winners: Sequence[int]) -> Flow:
    """Every flow fact of a game with this timeline and these winners."""
    if not timeline:
        return Flow(0, 0)
    changes = lead_changes(timeline)
    if len(winners) != 1:
        return Flow(len(timeline), changes)
    w = winners[0]
    return Flow(
        len(timeline),
        changes,
        ever_last(timeline, w),
        float(deficit(timeline, w)),
        float(timeline[-1][w]),
        lead_from(timeline, w),
    )
