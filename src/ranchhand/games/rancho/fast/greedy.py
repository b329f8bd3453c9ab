"""Rancho's greedy bot compiled: the same decisions as ``bots.GreedyBot`` on the same table.

Each function names the reference method it mirrors. The bot's memory (the turn it
last played, how many expand actions it took in it, the ladder steps it took) lives
in the :class:`~ranchhand.games.rancho.fast.kernel.Table` so a game in the kernel
carries its seats' bots with it. A decision is written as an action row; the
winning deal, which the legal list does not offer, is a trade row (``A_TRADE``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ranchhand.games.rancho.fast.geometry import CHEAPEST, DEAREST, PRICE, RISK, VALUE, Geometry
from ranchhand.games.rancho.fast.kernel import (
    A_DEAL,
    A_DOG,
    A_END_TURN,
    A_FIRST,
    A_ROLL_END,
    A_SAFEST,
    A_TRADE,
    BOT_DEALS,
    BOT_TURN,
    COUNT,
    COW,
    DOG,
    EXPAND,
    FOX,
    HORSE,
    KIND,
    LARGE_DOG,
    MASK,
    ORDER,
    PHASE,
    RABBIT,
    RETURN,
    SAFE,
    SETTLE,
    SHEEP,
    SMALL_DOG,
    STRIKE_BY,
    STRIKE_PRICE,
    TURN,
    Memo,
    Table,
    current,
    fits,
    limit_reached,
    popcount,
    region_of,
    struck_value,
)

RABBITS_KEPT = 7
WOLF_WORRY = 18
FOX_WORRY = 12
ROOM = 2
ROOM_PER_RABBITS = 12
DEALS_PER_TURN = 40
"""The reference bot's constants (``bots.py``); a test checks they are the same."""


@njit(cache=True)
def choose(
    g: Geometry, memo: Memo, t: Table, legal: np.ndarray, count: int, out: np.ndarray
) -> None:
    """``GreedyBot.act``: write the bot's choice among ``legal[:count]`` to ``out``."""
    phase = t.scalars[PHASE]
    seat = current(t)
    if phase == EXPAND:
        expand(g, memo, t, seat, legal, count, out)
    elif phase == SETTLE:
        out[:] = 0
        out[0] = A_END_TURN
        for i in range(count):
            if legal[i, 0] == A_SAFEST:
                out[0] = A_SAFEST
    elif phase == DOG:
        predator, price = t.scalars[STRIKE_BY], t.scalars[STRIKE_PRICE]
        size = SMALL_DOG if predator == FOX else LARGE_DOG
        out[:] = 0
        out[0] = A_DOG
        out[1] = struck_value(g, t, seat, predator, price) > g.kinds[VALUE, size]
        out[2] = size
    elif phase == RETURN:
        best, pick = -1, 0
        for i in range(count):
            value = 0
            for k in range(4):
                value += legal[i, 1 + k] * g.kinds[VALUE, k]
            if best < 0 or value < best:
                best, pick = value, i
        out[:] = legal[pick]
    elif phase == ORDER:
        out[:] = 0
        out[0] = A_FIRST
        out[1] = FOX
    else:
        out[:] = legal[0]


@njit(cache=True)
def ladder_row(g: Geometry, give: int, gn: int, take: int, tn: int) -> int:
    """The index of the ladder step (kind given, count, kind taken, count), or -1."""
    for i in range(g.ladder.shape[0]):
        step = g.ladder[i]
        if step[0] == give and step[1] == gn and step[2] == take and step[3] == tn:
            return i
    return -1


@njit(cache=True)
def expand(
    g: Geometry, memo: Memo, t: Table, seat: int, legal: np.ndarray, count: int, out: np.ndarray
) -> None:
    """``GreedyBot.expand``: win, restock or trade up, buy room, buy a dog, arrange, roll."""
    if t.seats[seat, BOT_TURN] != t.scalars[TURN]:
        t.seats[seat, BOT_TURN] = t.scalars[TURN]
        t.seats[seat, BOT_DEALS] = 0
        t.bot_done[seat, :] = 0
    t.seats[seat, BOT_DEALS] += 1
    out[:] = 0
    if t.seats[seat, BOT_DEALS] > DEALS_PER_TURN:
        out[0] = A_ROLL_END
        return
    if winning_deal(g, memo, t, seat, out):
        return
    mine = t.animals[seat]
    # restock (bots.restock), then trade_up, as (kind given, count, kind taken, count)
    wanted = np.full((6, 4), -1, np.int64)
    n = 0
    for missing in range(3):
        if mine[missing]:
            continue
        for step in range(missing, 3):  # (SHEEP, 1, RABBIT, 6), (COW, 1, SHEEP, 2), ...
            above = step + 1
            if mine[above] >= 2:
                wanted[n, 0], wanted[n, 1] = above, 1
                wanted[n, 2], wanted[n, 3] = step, g.kinds[VALUE, above] // g.kinds[VALUE, step]
                n += 1
                break
    if not mine[HORSE] and mine[COW] >= 3:
        wanted[n, 0], wanted[n, 1], wanted[n, 2], wanted[n, 3] = COW, 2, HORSE, 1
        n += 1
    if (not mine[COW] or (not mine[HORSE] and mine[COW] < 3)) and mine[SHEEP] >= 3:
        wanted[n, 0], wanted[n, 1], wanted[n, 2], wanted[n, 3] = SHEEP, 2, COW, 1
        n += 1
    if mine[RABBIT] >= 6 + RABBITS_KEPT and (not mine[SHEEP] or mine[SHEEP] < 3):
        wanted[n, 0], wanted[n, 1], wanted[n, 2], wanted[n, 3] = RABBIT, 6, SHEEP, 1
        n += 1
    for w in range(n):
        step = ladder_row(g, wanted[w, 0], wanted[w, 1], wanted[w, 2], wanted[w, 3])
        back = ladder_row(g, wanted[w, 2], wanted[w, 3], wanted[w, 0], wanted[w, 1])
        if step < 0 or (back >= 0 and t.bot_done[seat, back]):
            continue
        for i in range(count):  # offered? (bots.pick)
            row = legal[i]
            if row[0] == A_DEAL and row[5] < 0 and (row[1:5] == g.ladder[step]).all():
                t.bot_done[seat, step] = 1
                out[:] = row
                return
    if room(g, t, seat, legal, count, out):
        return
    if buy_dog(g, t, seat, legal, count, out):
        return
    if not t.seats[seat, SAFE]:
        out[0] = A_SAFEST
        return
    out[0] = A_ROLL_END


@njit(cache=True)
def room(g: Geometry, t: Table, seat: int, legal: np.ndarray, count: int, out: np.ndarray) -> bool:
    """``GreedyBot.room``: the least struck pasture when free space runs low."""
    mine = t.animals[seat]
    need = -(-mine[RABBIT] // g.per_space) + mine[SHEEP] + 2 * mine[COW] + 3 * mine[HORSE]
    free = popcount(region_of(g, t, seat)) - need
    if free >= ROOM + mine[RABBIT] // ROOM_PER_RABBITS:
        return False
    pick = -1
    best = 0
    for i in range(count):
        row = legal[i]
        if row[0] != A_DEAL or row[5] < 0:
            continue
        last = False
        for k in range(4):
            after = mine[k] - row[2] * (row[1] == k) + row[4] * (row[3] == k)
            last |= after <= 0 < mine[k]
        if last:
            continue
        space = row[5]
        key = (g.spaces[RISK, space] * 64 + row[6]) * 64 + g.spaces[PRICE, space]
        if pick < 0 or key < best:
            pick, best = i, key
    if pick < 0:
        return False
    out[:] = legal[pick]
    return True


@njit(cache=True)
def buy_dog(
    g: Geometry, t: Table, seat: int, legal: np.ndarray, count: int, out: np.ndarray
) -> bool:
    """``GreedyBot.buy_dog``: a large dog when wolves threaten much, a small one for rabbits."""
    mine = t.animals[seat]
    pen = 3 << g.pastures
    big = rabbits = 0
    for i in range(g.pastures + 2):
        kind = t.pieces[seat, i, KIND] - 1
        if kind >= 0 and t.pieces[seat, i, MASK] & ~pen:
            if kind == RABBIT:
                rabbits += t.pieces[seat, i, COUNT]
            else:
                big += g.kinds[VALUE, kind] * t.pieces[seat, i, COUNT]
    for dog, worry, exposed, paid_with in (
        (LARGE_DOG, WOLF_WORRY, big, SHEEP),
        (SMALL_DOG, FOX_WORRY, rabbits, RABBIT),
    ):
        if mine[dog] or exposed < worry:
            continue
        keep = RABBITS_KEPT if paid_with == RABBIT else 1
        for i in range(count):
            row = legal[i]
            if row[0] != A_DEAL or row[5] >= 0 or row[3] != dog or row[4] != 1:
                continue
            if row[1] == paid_with and mine[paid_with] - row[2] >= keep:
                out[:] = row
                return True
    return False


@njit(cache=True)
def winning_deal(g: Geometry, memo: Memo, t: Table, seat: int, out: np.ndarray) -> bool:
    """``bots.winning_deal``: one trade completing the full herd, paid with spare animals."""
    if limit_reached(g, t):  # deals.deal_problem's first refusal
        return False
    mine, herd, values = t.animals[seat], t.herd, g.kinds[VALUE]
    need = kept = worth = 0
    for kind in range(4):
        if mine[kind]:
            kept += values[kind]
        else:
            need += values[kind]
    for kind in range(6):
        worth += mine[kind] * values[kind]
    if not need or worth - kept < need:
        return False
    give = np.zeros(6, np.int64)
    take = np.zeros(6, np.int64)
    left = need
    for kind in g.kinds[DEAREST]:
        spare = mine[kind] - (1 if kind < 4 and mine[kind] else 0)
        n = min(spare, left // values[kind])
        give[kind] += n
        left -= n * values[kind]
    if left > 0:
        for kind in g.kinds[CHEAPEST]:
            spare = mine[kind] - (1 if kind < 4 and mine[kind] else 0)
            if spare > give[kind] and values[kind] >= left:
                give[kind] += 1
                left -= values[kind]
                break
    if left > 0:
        return False
    for kind in range(4):
        if not mine[kind]:
            if herd[kind] < 1:
                return False
            take[kind] = 1
    change = -left
    sheep = max(0, min(change // values[SHEEP], herd[SHEEP] - take[SHEEP]))
    take[SHEEP] += sheep
    take[RABBIT] += change - sheep * values[SHEEP]
    for kind in range(6):
        both = min(give[kind], take[kind])
        give[kind] -= both
        take[kind] -= both
    # deals.deal_problem for a trade without pastures
    anything = paid = got = 0
    for kind in range(6):
        anything += give[kind] + take[kind]
        if give[kind] > mine[kind] or take[kind] > herd[kind]:
            return False
        paid += give[kind] * values[kind]
        got += take[kind] * values[kind]
    if not anything or paid != got:
        return False
    after = mine[:4] - give[:4] + take[:4]
    if not fits(g, memo, seat, region_of(g, t, seat), after[0], after[1], after[2], after[3]):
        return False
    out[0] = A_TRADE
    out[1:7] = give
    out[7:13] = take
    return True
