"""Ludii's per-game metric inputs, by Ludii's definitions, from one game's moves.

Ludii (the general game system, ``Evaluation/src/metrics``) measures a game by replaying
its trials and evaluating every player at the state before each *move*. Here a move is
one action chosen by a player (chance outcomes are not moves; the state before a move
already holds them), and the evaluation is the game's own ``State.evaluate()``: each
player's estimated chance of winning, in [0, 1] (Ludii's is a heuristic squashed into
[-1, 1]; the scale is the one difference, see docs/lab.md).

:func:`move_facts` reduces a game's moves to a few sums kept in the store; the cell's
figures are means over games of the per-game values (:class:`MoveFacts` properties),
exactly as Ludii averages per-trial values over trials. The *top-ranked* players are
Ludii's "highest ranked": the winners, or every player when no one won (a draw or a
game cut off by ``max_turns``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Evaluation = Sequence[float]


@dataclass(frozen=True)
class MoveFacts:
    """The sums over one game's moves that Ludii's per-game values are made of.

    ``None`` where the game offers no evaluation (or, for decisiveness, where no player
    lost: Ludii's threshold would then be the bottom of the scale and the game "decided"
    before its first move).
    """

    moves: int
    """Moves (actions chosen by players)."""
    decision_moves: int
    """Moves at which the mover had more than one legal action."""
    lead_changes: int | None = None
    """States before a move whose set of top-evaluated players differs from the previous
    state's (the first state counts: Ludii starts from an empty set)."""
    drama_total: float | None = None
    """Sum over moves of how far the top-ranked players' evaluation (their mean) is below
    the highest evaluation of any player."""
    drama_max: float | None = None
    stability: float | None = None
    """Sum over players of the variance (over the game's moves) of their evaluation."""
    decisive_at: int | None = None
    """The first move at which a top-ranked player's evaluation exceeds the highest any
    other player ever reached in the game; ``moves`` if it never does."""
    uncertainty_total: float | None = None
    """Sum over moves of the entropy of the evaluations (as shares), over log(players)."""
    evaluated: int | None = None
    """The moves evaluated: every move (``moves``) with the game's evaluation, every
    k-th with a search (:mod:`ranchhand.lab.evaluation`); the per-move sums are over them."""

    def _per_move(self, total: float | None) -> float | None:
        count = self.moves if self.evaluated is None else self.evaluated
        return None if total is None or not count else total / count

    @property
    def decision_share(self) -> float | None:
        """Ludii's Decision Moves for this game."""
        return self.decision_moves / self.moves if self.moves else None

    @property
    def lead_change(self) -> float | None:
        """Ludii's Lead Change for this game: the share of moves where the leader changes."""
        return self._per_move(None if self.lead_changes is None else float(self.lead_changes))

    @property
    def drama(self) -> float | None:
        """Ludii's Drama (average) for this game."""
        return self._per_move(self.drama_total)

    @property
    def decisiveness(self) -> float | None:
        """Ludii's Decisiveness (moves) for this game: the share of the game played before
        the eventual winner's evaluation first rose above every loser's best (low:
        decided early)."""
        return self._per_move(None if self.decisive_at is None else float(self.decisive_at))

    @property
    def uncertainty(self) -> float | None:
        return self._per_move(self.uncertainty_total)


def top_ranked(winners: Sequence[int], players: int) -> tuple[int, ...]:
    """Ludii's highest-ranked players: the winners, or everyone when no one won."""
    return tuple(winners) if winners else tuple(range(players))


def leaders(evaluation: Evaluation) -> frozenset[int]:
    """Every player whose evaluation equals the highest (ties share the lead)."""
    top = max(evaluation)
    return frozenset(p for p, value in enumerate(evaluation) if value == top)


def entropy(evaluation: Evaluation) -> float:
    """The entropy of the evaluations taken as shares of one, over ``log(players)``: 1 when
    every player is as likely to win, 0 when one is sure to."""
    total = math.fsum(evaluation)
    if len(evaluation) < 2 or total <= 0:
        return 0.0
    shares = [v / total for v in evaluation if v > 0]
    return -math.fsum(q * math.log(q) for q in shares) / math.log(len(evaluation))


def move_facts(
    legal: Sequence[int],
    evaluations: Sequence[Evaluation] | None,
    winners: Sequence[int],
    players: int,
) -> MoveFacts:
    """Ludii's per-game sums from the legal-action count at the state before each move,
    the evaluations read (before each move, or each sampled one; ``None``: the game has
    none), and the game's winners.

    >>> f = move_facts([2, 1, 3], [[0.5, 0.5], [0.7, 0.3], [0.2, 0.8]], (1,), 2)
    >>> f.lead_changes, round(f.drama_total, 6), f.decisive_at
    (3, 0.4, 2)
    """
    moves = len(legal)
    decision_moves = sum(1 for n in legal if n > 1)
    if not evaluations or not moves:
        return MoveFacts(moves, decision_moves)
    count = len(evaluations)
    top = top_ranked(winners, players)
    changes, previous = 0, frozenset[int]()
    gaps: list[float] = []
    for evaluation in evaluations:
        now = leaders(evaluation)
        changes += now != previous
        previous = now
        best = max(evaluation)
        gaps.append(math.fsum(best - evaluation[w] for w in top) / len(top))
    stability = 0.0
    for p in range(players):
        series = [e[p] for e in evaluations]
        centre = math.fsum(series) / len(series)
        stability += math.fsum((v - centre) ** 2 for v in series) / len(series)
    others = [p for p in range(players) if p not in top]
    decisive_at = None
    if others:
        threshold = max(e[p] for e in evaluations for p in others)
        decisive_at = next(
            (i for i, e in enumerate(evaluations) if any(e[w] > threshold for w in top)), count
        )
    return MoveFacts(
        moves,
        decision_moves,
        changes,
        math.fsum(gaps),
        max(gaps),
        stability,
        decisive_at,
        math.fsum(entropy(e) for e in evaluations) if players > 1 else None,
        count,
    )
