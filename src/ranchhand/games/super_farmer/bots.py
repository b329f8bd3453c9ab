"""Super Farmer bots: strategies for the one decision the game leaves, the exchange.

A strategy only chooses which exchange (if any) to make before rolling: the dice do
the rest. :class:`GreedyBot` (``greedy``) collects the species it lacks and buys a
dog once it has enough to lose; :class:`DaringBot` (``daring``) collects the same
way and never buys a dog, to measure what the dogs are worth.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from ranchhand.bots.base import Bot
from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.tables import (
    BIG_DOG,
    COW,
    FARM,
    PIG,
    RABBIT,
    SHEEP,
    SMALL_DOG,
)

Herd = tuple[int, ...]
WOLF_PREY = (RABBIT, SHEEP, PIG, COW)


def after(mine: Sequence[int], trade: Trade) -> Herd:
    """The farmer's animals once ``trade`` is made."""
    return tuple(m - g + t for m, g, t in zip(mine, trade.give, trade.take, strict=True))


def progress(herd: Herd, values: Sequence[int]) -> tuple[int, int, int, int]:
    """How near a herd is to a win, compared in order: species held (of the five), the
    value of one of each species held, the breeding pairs kept, the rabbits kept."""
    held = [k for k in FARM if herd[k]]
    pairs = sum(min(herd[k], 2) for k in FARM)
    return len(held), sum(values[k] for k in held), pairs, herd[RABBIT]


class GreedyBot(Bot):
    """Exchange toward the five species; guard the herd with dogs once it is worth it.

    In order: an exchange that wins at once; a big dog when the wolf's prey (rabbits,
    sheep, pigs, cows) is worth ``BIG_DOG_AT`` rabbits or more, a small dog when
    ``SMALL_DOG_AT`` rabbits or more are exposed to the fox; else the exchange that brings
    the most species (then the most valuable ones) without giving up a dog, a species
    held, or the rabbits below ``RABBITS_KEPT`` (rabbits breed fastest: the reserve keeps
    the herd growing); else roll. Paying, it keeps breeding pairs and rabbits where it can.
    The thresholds were tuned on solitaire games (see the docs page: each step of the
    tuning and its median).
    """

    name = "greedy"
    GUARDS: ClassVar[bool] = True
    SMALL_DOG_AT: ClassVar[int] = 20
    BIG_DOG_AT: ClassVar[int] = 60
    RABBITS_KEPT: ClassVar[int] = 12

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        trades = [a for a in legal_actions if isinstance(a, Trade)]
        if not trades:
            return next(a for a in legal_actions if isinstance(a, Roll))
        state = observation.state
        mine = tuple(state.animals[observation.player])
        values = state.game.values
        choice = self.choose(mine, trades, values)
        return choice if choice is not None else Roll()

    def choose(self, mine: Herd, trades: Sequence[Trade], values: Sequence[int]) -> Trade | None:
        """The exchange this strategy makes with ``mine``, or None to roll at once."""
        missing = [k for k in FARM if not mine[k]]
        gaining = [(t, after(mine, t)) for t in trades if any(t.take[k] for k in missing)]
        winning = [(t, herd) for t, herd in gaining if all(herd[k] for k in FARM)]
        if winning:
            return max(winning, key=lambda pair: progress(pair[1], values))[0]
        if self.GUARDS:
            guard = self.guard(mine, trades, values)
            if guard is not None:
                return guard
        keeping = [
            (t, herd)
            for t, herd in gaining
            if not t.give[SMALL_DOG]
            and not t.give[BIG_DOG]
            and all(herd[k] for k in FARM if mine[k])
            and herd[RABBIT] >= min(mine[RABBIT], self.RABBITS_KEPT)
        ]
        if not keeping:
            return None
        return max(keeping, key=lambda pair: progress(pair[1], values))[0]

    def guard(self, mine: Herd, trades: Sequence[Trade], values: Sequence[int]) -> Trade | None:
        """A dog, bought as cheaply in breeding as possible, when the herd needs one."""
        for dog, exposed, threshold in (
            (BIG_DOG, sum(mine[k] * values[k] for k in WOLF_PREY), self.BIG_DOG_AT),
            (SMALL_DOG, mine[RABBIT], self.SMALL_DOG_AT),
        ):
            if mine[dog] or exposed < threshold:
                continue
            buys = [
                t
                for t in trades
                if t.take[dog] == 1
                and sum(t.take) == 1
                and not t.give[SMALL_DOG]
                and not t.give[BIG_DOG]
            ]
            keeping = [t for t in buys if not any(mine[k] and not after(mine, t)[k] for k in FARM)]
            if keeping:
                return max(keeping, key=lambda t: progress(after(mine, t), values))
        return None


class DaringBot(GreedyBot):
    """The greedy strategy without dogs: it never guards its herd."""

    name = "daring"
    GUARDS = False
