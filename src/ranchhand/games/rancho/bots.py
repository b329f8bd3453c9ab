"""Rancho's greedy bot: a cheap heuristic that knows the game.

In its expand step, in this order, it

1. makes the one deal that completes the full herd (rabbit, sheep, cow, horse) if
   its spare animals are worth enough, keeping one of each species it has;
2. restores a species it lost, one ladder step down from the nearest species
   above with a spare animal (rabbits breed fastest), else trades up the ladder
   toward the first missing species (6 rabbits > sheep, 2 sheep > cow, 2 cows >
   horse) while keeping breeding stock; a step is never undone in the same turn;
3. buys room before it runs out (the least struck free pasture, so ring 4 first,
   which the six-sided die hits once in six, before ring 2, hit one time in two);
4. buys a large dog when wolves threaten much (sheep, cows and horses outside the
   pen) and a small dog when many rabbits graze outside;
5. puts its animals in the engine's safest arrangement (pen first, then outer ring),
   then says "roll and end turn".

Struck, it gives up a dog when the animals saved are worth more than the dog.
With newborns that do not fit it sends back the cheapest choice. It looks one
deal ahead only, so a decision costs a few dictionary look-ups.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ranchhand.bots.base import Bot
from ranchhand.core.streams import ChanceStream, playout
from ranchhand.games.rancho import deals
from ranchhand.games.rancho.actions import (
    ArrangeSafest,
    Deal,
    Dog,
    EndTurn,
    First,
    Return,
    Roll,
)
from ranchhand.games.rancho.state import DOG, EXPAND, ORDER, RETURN, SETTLE, RanchoState
from ranchhand.games.rancho.tables import (
    COW,
    FARM,
    FOX,
    HORSE,
    LARGE_DOG,
    RABBIT,
    SHEEP,
    SMALL_DOG,
)

RABBITS_KEPT = 7
"""Rabbits kept for breeding when trading up: 7 + a rabbit die make 4 pairs."""
WOLF_WORRY = 18
"""Value (in rabbits) of sheep, cows and horses outside the pen worth a large dog."""
FOX_WORRY = 12
"""Rabbits outside the pen worth a small dog."""
ROOM = 2
ROOM_PER_RABBITS = 12
"""Free spaces kept for newborns: ROOM, plus one per ROOM_PER_RABBITS rabbits."""
DEALS_PER_TURN = 40
"""At most this many expand actions in one turn before rolling."""


class GreedyBot(Bot):
    """Trades up toward the full herd, buys safe room, keeps dogs, arranges safely."""

    name = "greedy"

    def __init__(self) -> None:
        self._turn = -1
        self._deals = 0
        self._done: set[Step] = set()  # ladder steps taken this turn

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        state: RanchoState = observation.state
        me: int = observation.player
        phase = state.phase
        if phase == EXPAND:
            return self.expand(state, me, legal_actions)
        if phase == SETTLE:
            return ArrangeSafest() if ArrangeSafest() in legal_actions else EndTurn()
        if phase == DOG:
            return self.dog(state, me, legal_actions)
        if phase == RETURN:
            values = state.game.values
            return min(
                legal_actions,
                key=lambda a: deals.value(a.animals, values) if isinstance(a, Return) else 0,
            )
        if phase == ORDER:
            return First(FOX)
        return legal_actions[0]

    # -------------------------------------------------------------- expand
    def expand(self, state: RanchoState, me: int, legal: Sequence[Hashable]) -> Hashable:
        if self._turn != state.turn:
            self._turn, self._deals = state.turn, 0
            self._done.clear()
        self._deals += 1
        if self._deals > DEALS_PER_TURN:
            return Roll(True)  # a safety net against any cycle the rules below might make
        win = winning_deal(state, me)
        if win is not None:
            return win
        mine = state.animals[me]
        # Restoring a lost species comes first; a step is never undone in the same turn.
        wanted = [s for s in restock(mine) + trade_up(mine) if s[2:] + s[:2] not in self._done]
        picked = pick(state, legal, wanted)
        if picked is not None:
            self._done.add(picked[0])
            return picked[1]
        room = self.room(state, me, legal)
        if room is not None:
            return room
        dog = self.buy_dog(state, me, legal)
        if dog is not None:
            return dog
        if state.safest(me) != state.pieces[me]:  # when "arrange safest" is offered
            return ArrangeSafest()
        return Roll(True)

    @staticmethod
    def room(state: RanchoState, me: int, legal: Sequence[Hashable]) -> Deal | None:
        """Buy the least struck pasture when free space runs low (newborns need room)."""
        grazing = state.game.grazing
        mine = state.animals[me]
        free = state.region(me).bit_count() - grazing.spaces_needed(mine)
        if free >= ROOM + mine[RABBIT] // ROOM_PER_RABBITS:
            return None
        board = state.game.board
        best: tuple[int, int, int] | None = None
        choice = None
        for deal in legal:
            if not isinstance(deal, Deal) or not deal.pastures:
                continue
            if any(mine[k] - deal.give[k] + deal.take[k] <= 0 < mine[k] for k in FARM):
                continue  # never pay with the last animal of a species
            space = board.by_id[deal.pastures[0]]
            key = (grazing.space_risk[space], len(deal.via), board.spaces[space].price)
            if best is None or key < best:
                best, choice = key, deal
        return choice

    @staticmethod
    def buy_dog(state: RanchoState, me: int, legal: Sequence[Hashable]) -> Deal | None:
        """A large dog when wolves threaten much, a small one for many exposed rabbits."""
        mine = state.animals[me]
        pen = state.game.pens[me]
        values = state.game.values
        exposed_big = sum(values[k] * n for k, n, m in state.pieces[me] if k != RABBIT and m & ~pen)
        exposed_rabbits = sum(n for k, n, m in state.pieces[me] if k == RABBIT and m & ~pen)
        for dog, worry, exposed, paid_with in (
            (LARGE_DOG, WOLF_WORRY, exposed_big, SHEEP),
            (SMALL_DOG, FOX_WORRY, exposed_rabbits, RABBIT),
        ):
            if mine[dog] or exposed < worry:
                continue
            keep = RABBITS_KEPT if paid_with == RABBIT else 1
            for deal in legal:
                if not isinstance(deal, Deal):
                    continue
                paid = deal.give[paid_with]
                if (
                    deal.take[dog] == 1
                    and not deal.pastures
                    and paid
                    and mine[paid_with] - paid >= keep
                ):
                    return deal
        return None

    # ----------------------------------------------------------------- dog
    @staticmethod
    def dog(state: RanchoState, me: int, legal: Sequence[Hashable]) -> Hashable:
        predator, price = state.strike  # type: ignore[misc]
        values = state.game.values
        taken = state.game.grazing.struck(state.pieces[me], predator, price)
        lost = sum(values[k] * n for k, n, _m in taken)
        size = SMALL_DOG if predator == FOX else LARGE_DOG
        return Dog(lost > values[size], size)


def winning_deal(state: RanchoState, me: int) -> Deal | None:
    """One deal with the herd that leaves the player a rabbit, a sheep, a cow and a horse.

    Spare animals (all but one of each farm species owned, and the dogs) pay for the
    missing species, largest first; any overshoot comes back as change in sheep and
    rabbits. None if the spares are worth too little or the deal is not legal.
    """
    mine, herd, values = state.animals[me], state.herd, state.game.values
    need = kept = 0
    for kind in FARM:
        if mine[kind]:
            kept += values[kind]
        else:
            need += values[kind]
    worth = (
        mine[0] * values[0]
        + mine[1] * values[1]
        + mine[2] * values[2]
        + mine[3] * values[3]
        + mine[4] * values[4]
        + mine[5] * values[5]
    )
    if not need or worth - kept < need:
        return None  # the common case, decided without building lists
    missing = [k for k in FARM if not mine[k]]
    spare = [mine[k] - (1 if k in FARM and mine[k] else 0) for k in range(6)]
    give = [0] * 6
    left = need
    for kind in sorted(range(6), key=lambda k: -values[k]):
        n = min(spare[kind], left // values[kind])
        give[kind] += n
        left -= n * values[kind]
    if left > 0:
        for kind in sorted(range(6), key=lambda k: values[k]):
            if spare[kind] > give[kind] and values[kind] >= left:
                give[kind] += 1
                left -= values[kind]
                break
    if left > 0:
        return None
    take = [0] * 6
    for kind in missing:
        take[kind] = 1
    change = -left
    if any(herd[k] < take[k] for k in missing):
        return None
    sheep = max(0, min(change // values[SHEEP], herd[SHEEP] - take[SHEEP]))
    take[SHEEP] += sheep
    take[RABBIT] += change - sheep * values[SHEEP]
    for kind in range(6):
        both = min(give[kind], take[kind])
        give[kind] -= both
        take[kind] -= both
    deal = Deal(tuple(give), tuple(take))  # type: ignore[arg-type]
    if deals.deal_problem(state, me, deal) is None:
        return deal
    return None


Step = tuple[int, int, int, int]
"""A ladder step: (kind given, count given, kind taken, count taken)."""


def trade_up(mine: list[int]) -> list[Step]:
    """Ladder steps toward the first missing species, keeping breeding stock."""
    wanted: list[Step] = []
    if not mine[HORSE] and mine[COW] >= 3:
        wanted.append((COW, 2, HORSE, 1))
    if (not mine[COW] or (not mine[HORSE] and mine[COW] < 3)) and mine[SHEEP] >= 3:
        wanted.append((SHEEP, 2, COW, 1))
    if mine[RABBIT] >= 6 + RABBITS_KEPT and (not mine[SHEEP] or mine[SHEEP] < 3):
        wanted.append((RABBIT, 6, SHEEP, 1))
    return wanted


def restock(mine: list[int]) -> list[Step]:
    """One step down to restore a species that is gone (rabbits breed fastest)."""
    wanted: list[Step] = []
    down = ((SHEEP, 1, RABBIT, 6), (COW, 1, SHEEP, 2), (HORSE, 1, COW, 2))
    for missing in (RABBIT, SHEEP, COW):
        if mine[missing]:
            continue
        # The nearest species above with a spare animal pays, one step at a time.
        for step in down[missing:]:
            if mine[step[0]] >= 2:
                wanted.append(step)
                break
    return wanted


def pick(
    state: RanchoState, legal: Sequence[Hashable], wanted: list[Step]
) -> tuple[Step, Deal] | None:
    """The first wanted ladder step that is among the legal actions, with its deal."""
    if not wanted:
        return None
    offered = {id(a) for a in legal}  # offered ladder deals are the game's own objects
    steps = state.game.ladder_steps
    for step in wanted:
        deal = steps.get(step)
        if deal is not None and id(deal) in offered:
            return step, deal
    return None


def greedy_playout(
    state: RanchoState, stream: ChanceStream, max_steps: int
) -> tuple[list[float], int, bool]:
    """The search's rollout in the reference engine (``streams.playout`` with a new
    :class:`GreedyBot` in every seat) on copies of ``state`` and ``stream``, neither
    changed: what ``fast.playout.FastPlayout`` must give. The test of the compiled
    playout and its benchmark play this one.
    """
    values, steps, ended = playout(state.clone(), GreedyBot, stream.fork(), max_steps, _NO_DRAWS)
    assert values is not None, "Rancho always evaluates"
    return values, steps, ended


_NO_DRAWS = random.Random(0)
"""The greedy bot's generator: it draws nothing from it."""
