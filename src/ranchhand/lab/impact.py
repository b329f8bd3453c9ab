"""Impact per card and per action: what a player chose, and how it goes with winning.

While a game is traced, every action a player chooses is named by :func:`labels`
(Rocket Ranchers: the species placed, the beam's shape; Rancho: the animals and dogs
dealt for, pastures bought, dogs given; Super Farmer: the exchange; Glory Ranch: the card
played, passed or picked) and counted per seat. The store keeps the counts; :func:`lifts`
turns them into a win-rate lift with a 95% interval per label: the win rate of the seats
that chose it at least once in a game minus the win rate of the seats that did not
(Newcombe's hybrid score interval for a difference of two proportions).

A lift is an association, not a cause: a card played by players already ahead shows a
lift it did not make. Read it beside the sweep's paired comparisons, which are causal.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from ranchhand.lab.estimate import Z95
from ranchhand.sim.stats import wilson_interval

NO_CHOICE = frozenset({"Roll", "EndTurn", "ArrangeSafest", "Arrange", "Reboot"})
"""Actions that are the turn's routine rather than a designer's question."""

RANCHO_SPECIES = ("rabbit", "sheep", "cow", "horse", "small dog", "large dog")
FARMER_SPECIES = ("rabbit", "sheep", "pig", "cow", "horse", "small dog", "big dog")


def _animals(counts: Sequence[int], names: Sequence[str]) -> str:
    return "+".join(name for name, n in zip(names, counts, strict=False) if n) or "nothing"


def labels(game: str, action: Hashable) -> list[str]:
    """The names this action counts under (none for routine actions)."""
    kind = type(action).__name__
    if kind in NO_CHOICE:
        return []
    get = getattr
    if game == "rancho":
        if kind == "Deal":
            taken = enumerate(get(action, "take"))
            found = [f"deal for {RANCHO_SPECIES[k]}" for k, n in taken if n]
            if get(action, "pastures"):
                found.append("buy pasture")
            return found or ["deal"]
        if kind == "Dog":
            return ["give dog" if get(action, "give") else "keep dog"]
        return [kind.lower()]
    if game == "super-farmer" and kind == "Trade":
        give = _animals(get(action, "give"), FARMER_SPECIES)
        return [f"trade {give} > {_animals(get(action, 'take'), FARMER_SPECIES)}"]
    if game == "rocket-ranchers":
        if kind == "Beam":
            return [f"beam {get(action, 'shape')}"]
        if kind in ("Form", "Occupy"):
            return [f"species {str(get(action, 'card')).split('/')[0]}"]
        return [kind.lower()]
    if game == "glory-ranch":
        if kind == "HandCard":
            return [f"{get(action, 'verb')} {get(action, 'card')}"]
        if kind == "Pick":
            return [f"pick {get(action, 'card')}"]
        if kind == "Choose":
            return [f"choose {get(action, 'sign')}"]
        return [kind.lower()]
    return [kind.lower()]


@dataclass(frozen=True)
class Lift:
    """Win rate with and without a label, and the difference with its 95% interval."""

    label: str
    used: int
    """Seat-games in which the label was chosen at least once."""
    used_wins: int
    unused: int
    unused_wins: int
    lift: float
    low: float
    high: float

    @property
    def clear(self) -> bool:
        """Whether the interval leaves out zero."""
        return self.low > 0 or self.high < 0


def newcombe(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float, float]:
    """``p1 - p2`` with Newcombe's hybrid Wilson score 95% interval (method 10).

    >>> [round(v, 4) for v in newcombe(56, 70, 48, 80)]
    [0.2, 0.0524, 0.3339]
    """
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_interval(x1, n1, Z95)
    l2, u2 = wilson_interval(x2, n2, Z95)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, max(-1.0, low), min(1.0, high)


def lifts(
    games: Iterable[tuple[Sequence[dict[str, int]], Sequence[int]]], least: int = 5
) -> list[Lift]:
    """Each label's lift from ``(per-seat label counts, winners)`` of completed games,
    clearest first (the lift over its interval's width); labels chosen in fewer than
    ``least`` seat-games (or in all) left out."""
    used: Counter[str] = Counter()
    used_wins: Counter[str] = Counter()
    seat_games = wins = 0
    rows = []
    for counts, winners in games:
        rows.append((counts, winners))
        for seat, chosen in enumerate(counts):
            won = seat in winners
            seat_games += 1
            wins += won
            for label in chosen:
                used[label] += 1
                used_wins[label] += won
    if wins in (0, seat_games):  # every seat won (a solitaire), or none: nothing to tell apart
        return []
    found = []
    for label, n in used.items():
        rest = seat_games - n
        if n < least or rest < least:
            continue
        x1, x2 = used_wins[label], wins - used_wins[label]
        d, low, high = newcombe(x1, n, x2, rest)
        found.append(Lift(label, n, x1, rest, x2, d, low, high))
    return sorted(found, key=lambda f: -abs(f.lift) / max(f.high - f.low, 1e-9))


@dataclass(frozen=True)
class LengthLift:
    """A solitaire's question: how much longer (in turns) the games that chose a label
    ran than those that did not, with Welch's 95% interval (negative: it goes with
    finishing sooner)."""

    label: str
    used: int
    unused: int
    lift: float
    low: float
    high: float

    @property
    def clear(self) -> bool:
        return self.low > 0 or self.high < 0


def length_lifts(games: Iterable[tuple[dict[str, int], int]], least: int = 5) -> list[LengthLift]:
    """Each label's difference in turns from ``(label counts, turns)`` of completed
    solitaire games, clearest first; labels in fewer than ``least`` games (or in all but
    fewer than ``least``) left out."""
    from ranchhand.lab.estimate import t95

    rows = list(games)
    labels = {label for counts, _ in rows for label in counts}
    found = []
    for label in labels:
        with_ = [float(t) for counts, t in rows if label in counts]
        without = [float(t) for counts, t in rows if label not in counts]
        if len(with_) < least or len(without) < least:
            continue
        d, half = _welch(with_, without, t95)
        found.append(LengthLift(label, len(with_), len(without), d, d - half, d + half))
    return sorted(found, key=lambda f: -abs(f.lift) / max(f.high - f.low, 1e-9))


def _welch(
    a: Sequence[float], b: Sequence[float], t95: Callable[[int], float]
) -> tuple[float, float]:
    """The difference of means and its 95% half-width (Welch-Satterthwaite)."""
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) / len(a)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return ma - mb, 0.0
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return ma - mb, t95(max(1, round(df))) * se
