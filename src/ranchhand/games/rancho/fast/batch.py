"""Many Rancho games stepped in lockstep in the kernel, shown as the encoding shows them.

``ranchhand.envs.vector`` steps a batch of games here with one compiled call: each game
has one learner seat, whose action comes as an index of ``encoding.py``'s action space;
the other seats are the kernel's ``random`` or ``greedy`` bots and chance is numba's
generator. After the step each game's observation tensor and legal-action mask are
written as ``RanchoEncoding`` writes them (``tensor.py``'s layout, ``encoding.py``'s
indices), entry for entry, which ``tests/envs/test_vector.py`` checks at every step
against the reference engine.

The index space holds more than the engine's legal list: the one-animal trades the list
leaves out and "complete the herd" (the greedy bot's winning deal). Both are worked out
here as ``RanchoEncoding._expand_deals`` works them out (the checks of
``deals.deal_problem`` for a trade, ``greedy.winning_deal``) and played as trade rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np
from numba import njit

from ranchhand.games.rancho import encoding, tensor
from ranchhand.games.rancho.fast import greedy
from ranchhand.games.rancho.fast.geometry import Geometry
from ranchhand.games.rancho.fast.kernel import (
    A_DEAL,
    A_DOG,
    A_END_TURN,
    A_FIRST,
    A_RETURN,
    A_ROLL,
    A_ROLL_END,
    A_SAFEST,
    A_TRADE,
    COUNT,
    DEALS,
    DIE_A,
    DIE_B,
    DOGS_ASKED,
    DOGS_HEAD,
    EXPAND,
    FIRST_BY,
    FIRST_PRICE,
    FOX,
    KIND,
    MASK,
    MAX_ACTIONS,
    PHASE,
    PLAYER,
    PREDATOR_A,
    PREDATOR_B,
    PREDATORS,
    RABBIT,
    ROLL,
    ROW,
    SETTLED,
    STRIKE,
    STRIKES_MADE,
    TURN,
    WINNER,
    Memo,
    Table,
    apply,
    chance,
    chance_total,
    current,
    fits,
    legal,
    limit_reached,
    low_bit,
    new_table,
    over,
    popcount,
    region_of,
    setup,
)
from ranchhand.games.rancho.fast.play import GREEDY, borrow, borrowed

if TYPE_CHECKING:
    from ranchhand.games.rancho.encoding import RanchoEncoding
    from ranchhand.games.rancho.fast.engine import FastRancho

# ``encoding.py``'s fixed indices, written out so that this module's compiled code
# depends on no file outside the package (``cache.py``); checked against it below.
I_ROLL, I_ROLL_END, I_SAFEST, I_END_TURN, I_FOX_FIRST, I_WOLF_FIRST = range(6)
I_GIVE_DOG, I_KEEP_DOG, I_RETURN = 6, 7, 8
I_RETURN_MIXED, I_COMPLETE, I_TRADES = 12, 13, 14
ROUTES = 3
TURNS_SHOWN = 1000
PHASES = 7
FACES = 6
FARM = 4

# What an index stands for in :func:`moves`' answer (besides a place in the legal list).
NONE, TRADE, WIN = -1, -2, -3

_MIRRORED = (
    *zip(
        (I_ROLL, I_ROLL_END, I_SAFEST, I_END_TURN, I_FOX_FIRST, I_WOLF_FIRST, I_GIVE_DOG),
        (encoding.ROLL, encoding.ROLL_END, encoding.SAFEST, encoding.END_TURN,
         encoding.FOX_FIRST, encoding.WOLF_FIRST, encoding.GIVE_DOG),
        strict=True,
    ),
    *zip(
        (I_KEEP_DOG, I_RETURN, I_RETURN_MIXED, I_COMPLETE, I_TRADES, ROUTES, TURNS_SHOWN),
        (encoding.KEEP_DOG, encoding.RETURN, encoding.RETURN_MIXED, encoding.COMPLETE,
         len(encoding.FIXED), encoding.ROUTES, tensor.TURNS_SHOWN),
        strict=True,
    ),
    (PHASES, len(tensor.PHASES)),
    (FACES, len(tensor.FACES)),
    (2, tensor.STRIKES_SHOWN),
)  # fmt: skip
if any(mine != theirs for mine, theirs in _MIRRORED):
    raise AssertionError("the compiled batch's indices no longer match encoding.py")


class Layout(NamedTuple):
    """What the encoding of one loaded game adds to its :class:`Geometry`."""

    box: np.ndarray
    """(kind,): all the game's animals of each kind (at least 1), the tensor's scale."""
    frame_space: np.ndarray
    """(seat, frame bit): the board space of each bit of the seat's frame."""
    pen_owner: np.ndarray
    """(board space,): the seat whose pen a space is (-1: a pasture or an unused pen)."""
    price_slot: np.ndarray
    """(price,): the price's place among the board's prices (-1: none)."""
    trades: np.ndarray
    """(trade, 4): the one-animal trades (kind given, count, kind taken, count)."""
    spaces: int
    prices: int
    """How many prices the board's pastures have (a strike's one-hot)."""
    pastures_most: int
    max_turns: int
    purchase_base: int
    num_actions: int


class Buffers(NamedTuple):
    """Working arrays of one step, reused game after game."""

    rows: np.ndarray
    """The legal list (``kernel.legal``'s rows)."""
    which: np.ndarray
    """(index,): what each index of the action space stands for (:func:`moves`)."""
    routes: np.ndarray
    """(pasture,): the purchases of each pasture counted so far in the legal list."""
    row: np.ndarray
    """One action row: a trade or the winning deal to play, or a greedy seat's choice."""


def layout_of(engine: FastRancho) -> Layout:
    """The :class:`Layout` of the engine's game, read from its encoding."""
    game = engine.game
    code = cast("RanchoEncoding", game.encoding())
    g = engine.geometry
    frame_space = np.zeros((g.players, g.pastures + 2), dtype=np.int64)
    for seat, pen in enumerate(engine.pen_spaces):
        frame_space[seat, : g.pastures] = np.arange(g.pastures)
        frame_space[seat, g.pastures :] = pen
    start = game.new_initial_state()
    spaces = len(game.board.spaces)
    pen_owner = np.array(
        [start.owner[s] if s >= g.pastures else -1 for s in range(spaces)], dtype=np.int64
    )
    prices = code.tensor.prices
    price_slot = np.full(max(prices) + 1, -1, dtype=np.int64)
    price_slot[list(prices)] = np.arange(len(prices))
    trades = np.array([row[1:] for row in code.trades], dtype=np.int64).reshape(-1, 4)
    if list(code.pasture_slot.values()) != list(range(g.pastures)):
        raise AssertionError("the encoding numbers pastures as the board lists them")
    return Layout(
        box=np.array(code.tensor.box, dtype=np.int64),
        frame_space=frame_space,
        pen_owner=pen_owner,
        price_slot=price_slot,
        trades=trades,
        spaces=spaces,
        prices=len(prices),
        pastures_most=code.tensor.pastures_most,
        max_turns=game.max_turns,
        purchase_base=code.purchase_base,
        num_actions=code.num_actions,
    )


@njit(cache=True)
def seed(value: int) -> None:
    """Seed numba's generator (what every compiled draw here takes)."""
    np.random.seed(value)


# ------------------------------------------------------------------ the tensor
@njit(cache=True)
def observe(g: Geometry, t: Table, e: Layout, viewer: int, out: np.ndarray) -> None:
    """``RanchoTensor.build`` of ``viewer``, written into ``out`` (block by block as there)."""
    n = g.players
    s = t.scalars
    out[:] = 0.0
    phase = s[PHASE]
    out[phase] = 1.0
    at = PHASES
    out[at + (s[PLAYER] - viewer) % n] = 1.0
    at += n
    turn = s[TURN]
    ended = s[WINNER] >= 0 or (e.max_turns > 0 and turn >= e.max_turns)
    if not ended and phase != ROLL and phase != STRIKE:
        out[at + (current(t) - viewer) % n] = 1.0
    at += n
    for i in range(s[DOGS_HEAD], s[DOGS_ASKED]):
        out[at + (t.dogs[i] - viewer) % n] = 1.0
    at += n
    for k in range(6):
        out[at + k] = t.herd[k] / e.box[k]
    at += 6
    for p in range(n):
        base = at + 6 * ((p - viewer) % n)
        for k in range(6):
            out[base + k] = t.animals[p, k] / e.box[k]
    at += 6 * n
    for p in range(n):
        out[at + (p - viewer) % n] = popcount(t.land[p]) / e.pastures_most
    at += n
    for space in range(e.spaces):
        owner = t.owner[space] if space < g.pastures else e.pen_owner[space]
        if owner >= 0:
            out[at + space * n + (owner - viewer) % n] = 1.0
    at += e.spaces * n
    for p in range(n):
        for i in range(g.pastures + 2):
            kind = t.pieces[p, i, KIND] - 1
            if kind < 0:
                continue
            amount = t.pieces[p, i, COUNT] / g.per_space if kind == RABBIT else 1.0
            rest = t.pieces[p, i, MASK]
            while rest:
                low = rest & -rest
                rest ^= low
                out[at + e.frame_space[p, low_bit(low)] * FARM + kind] = amount
    at += e.spaces * FARM
    if s[DIE_A] >= 0:
        out[at + s[DIE_A]] += 0.5
        out[at + s[DIE_B]] += 0.5
    at += FACES
    for i in range(min(s[PREDATORS], 2)):
        predator = s[PREDATOR_A] if i == 0 else s[PREDATOR_B]
        out[at + 2 * i + (0 if predator == FOX else 1)] = 1.0
    at += 4
    width = 2 + e.prices
    for i in range(s[STRIKES_MADE]):
        predator, price = s[FIRST_BY + 2 * i], s[FIRST_PRICE + 2 * i]
        out[at + width * i + (0 if predator == FOX else 1)] = 1.0
        if 0 <= price < len(e.price_slot) and e.price_slot[price] >= 0:
            out[at + width * i + 2 + e.price_slot[price]] = 1.0
    at += 2 * width
    out[at] = float(s[SETTLED])
    at += 1
    if s[WINNER] >= 0:
        out[at + (s[WINNER] - viewer) % n] = 1.0
    at += n
    if e.max_turns > 0:
        out[at] = min(1.0, turn / e.max_turns)
    out[at + 1] = min(turn, TURNS_SHOWN) / TURNS_SHOWN
    if g.deal_limit > 0:
        out[at + 2] = s[DEALS] / g.deal_limit


# ------------------------------------------------------------------ the indices
@njit(cache=True)
def trade_of(e: Layout, give: int, given: int, take: int, taken: int) -> int:
    """The place of a one-animal trade among ``e.trades``, or -1."""
    for i in range(e.trades.shape[0]):
        row = e.trades[i]
        if row[0] == give and row[1] == given and row[2] == take and row[3] == taken:
            return i
    return -1


@njit(cache=True)
def listed_index(e: Layout, row: np.ndarray, routes: np.ndarray) -> int:
    """``RanchoEncoding._listed_index`` of a legal row (-1: none); ``routes`` counts each
    pasture's purchases so far, as the encoding counts them in the list's order."""
    kind = row[0]
    if kind == A_DEAL:
        target = row[5]
        if target < 0:
            found = trade_of(e, row[1], row[2], row[3], row[4])
            return -1 if found < 0 else I_TRADES + found
        route = routes[target]
        routes[target] = route + 1
        return e.purchase_base + target * ROUTES + route if route < ROUTES else -1
    if kind == A_ROLL:
        return I_ROLL
    if kind == A_ROLL_END:
        return I_ROLL_END
    if kind == A_SAFEST:
        return I_SAFEST
    if kind == A_END_TURN:
        return I_END_TURN
    if kind == A_FIRST:
        return I_FOX_FIRST if row[1] == FOX else I_WOLF_FIRST
    if kind == A_DOG:
        return I_GIVE_DOG if row[1] else I_KEEP_DOG
    if kind == A_RETURN:
        kinds, first = 0, -1
        for k in range(FARM):
            if row[1 + k]:
                kinds += 1
                if first < 0:
                    first = k
        return I_RETURN + first if kinds == 1 else I_RETURN_MIXED
    return -1


@njit(cache=True)
def moves(g: Geometry, memo: Memo, t: Table, e: Layout, b: Buffers) -> None:
    """``RanchoEncoding._moves`` of the seat to act: ``b.which[index]`` is the index's
    place in the legal list written to ``b.rows``, :data:`TRADE` (a one-animal trade the
    list leaves out), :data:`WIN` (complete the herd: the deal in ``b.row``) or :data:`NONE`."""
    rows, which, routes, win = b.rows, b.which, b.routes, b.row
    which[:] = NONE
    routes[:] = 0
    count = legal(g, memo, t, rows)
    for j in range(count):
        index = listed_index(e, rows[j], routes)
        if index >= 0:
            which[index] = j
    if t.scalars[PHASE] != EXPAND or limit_reached(g, t):
        return
    seat = current(t)
    mine, herd = t.animals[seat], t.herd
    region = region_of(g, t, seat)
    for i in range(e.trades.shape[0]):
        give, given, take, taken = e.trades[i, 0], e.trades[i, 1], e.trades[i, 2], e.trades[i, 3]
        if which[I_TRADES + i] != NONE or mine[give] < given or herd[take] < taken:
            continue
        r, s, c, h = mine[0], mine[1], mine[2], mine[3]
        r += taken * (take == 0) - given * (give == 0)
        s += taken * (take == 1) - given * (give == 1)
        c += taken * (take == 2) - given * (give == 2)
        h += taken * (take == 3) - given * (give == 3)
        if fits(g, memo, seat, region, r, s, c, h):
            which[I_TRADES + i] = TRADE
    if greedy.winning_deal(g, memo, t, seat, win):
        # named by a trade's index already when it is one animal for another
        gives = takes = 0
        give = take = -1
        for k in range(6):
            if win[1 + k]:
                gives += 1
                give = k
            if win[7 + k]:
                takes += 1
                take = k
        single = -1
        if gives == 1 and takes == 1:
            single = trade_of(e, give, win[1 + give], take, win[7 + take])
        if single < 0:
            which[I_COMPLETE] = WIN


@njit(cache=True)
def play_index(g: Geometry, memo: Memo, t: Table, e: Layout, index: int, b: Buffers) -> bool:
    """Play the seat to act's action ``index``; False (nothing played) if it names no
    legal action here. ``b.which`` holds :func:`moves` of this very position (worked out
    for the mask the learner was shown), so only what the index needs is built again."""
    if not 0 <= index < e.num_actions:
        return False
    what, row = b.which[index], b.row
    if what == NONE:
        return False
    if what >= 0:
        legal(g, memo, t, b.rows)
        apply(g, memo, t, b.rows[what])
        return True
    if what == TRADE:
        trade = e.trades[index - I_TRADES]
        row[:] = 0
        row[0] = A_TRADE
        row[1 + trade[0]] = trade[1]
        row[7 + trade[2]] = trade[3]
    else:
        greedy.winning_deal(g, memo, t, current(t), row)
    apply(g, memo, t, row)
    return True


@njit(cache=True)
def mask(g: Geometry, memo: Memo, t: Table, e: Layout, b: Buffers, out: np.ndarray) -> None:
    """The legal indices of the seat to act (``legal_action_mask``) as 1s in ``out``."""
    moves(g, memo, t, e, b)
    for index in range(e.num_actions):
        out[index] = b.which[index] != NONE


# ------------------------------------------------------------------ the batch
@njit(cache=True)
def advance(
    g: Geometry,
    memo: Memo,
    t: Table,
    e: Layout,
    seat: int,
    policies: np.ndarray,
    decisions: np.ndarray,
    i: int,
    limit: int,
    rows: np.ndarray,
    choice: np.ndarray,
) -> None:
    """Chance, then the other seats, until ``seat`` must decide, the game ends or the
    decisions reach ``limit``: as ``envs.table.Table`` draws chance after every decision
    (a cut game shows the dice its last decision led to) and the bots play."""
    while not over(t, e.max_turns):
        who = current(t)
        if who < 0:
            chance(g, memo, t, np.random.randint(0, chance_total(g, t)))
            continue
        if who == seat or decisions[i] >= limit:
            return
        count = legal(g, memo, t, rows)
        if policies[who] == GREEDY:
            greedy.choose(g, memo, t, rows, count, choice)
            apply(g, memo, t, choice)
        else:
            apply(g, memo, t, rows[np.random.randint(0, count)])
        decisions[i] += 1


@njit(cache=True)
def batch_step(
    g: Geometry,
    memo: Memo,
    tables: Table,
    e: Layout,
    done: np.ndarray,
    decisions: np.ndarray,
    actions: np.ndarray,
    seat: int,
    policies: np.ndarray,
    limit: int,
    obs: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    illegal: np.ndarray,
    which: np.ndarray,
) -> None:
    """One step of every game: the learner's action ``actions[i]`` (an index of
    ``encoding.py``), then chance and the other seats until the learner decides again.

    ``tables`` holds every game's :class:`Table`, each array with the game first, and
    ``which`` each game's :func:`moves` as the last step left it (for its mask). A game
    that ended at the last step starts afresh instead, its action unread (Gymnasium's
    next-step autoreset), with reward 0. An index the learner may not play now forfeits
    the game (reward -1, terminated, ``illegal``), as the single environment does. Reward
    at the end: +1 for the learner's win, -1 for another's, 0 when the game is cut
    (``max_turns``, or ``limit`` decisions of all players: truncated).
    """
    owned_rows = np.empty((MAX_ACTIONS, ROW), np.int64)  # written before it is read
    owned_routes = np.zeros(g.pastures, np.int64)
    owned_row = np.zeros(ROW, np.int64)
    rows, routes, row = borrowed(owned_rows), borrowed(owned_routes), borrowed(owned_row)
    # Every array borrowed (``play.borrowed``): the caller keeps them alive, and the
    # compiled calls below count no references to them.
    g, memo, _first = borrow(g, memo, game_table(tables, 0))
    e = Layout(
        borrowed(e.box),
        borrowed(e.frame_space),
        borrowed(e.pen_owner),
        borrowed(e.price_slot),
        borrowed(e.trades),
        e.spaces,
        e.prices,
        e.pastures_most,
        e.max_turns,
        e.purchase_base,
        e.num_actions,
    )
    policies, decisions = borrowed(policies), borrowed(decisions)
    for i in range(done.shape[0]):
        b = Buffers(rows, borrowed(which[i]), routes, row)
        t = game_table(tables, i)
        rewards[i] = 0.0
        terminated[i] = truncated[i] = illegal[i] = False
        if done[i]:
            setup(g, memo, t)
            done[i] = False
            decisions[i] = 0
        elif play_index(g, memo, t, e, actions[i], b):
            decisions[i] += 1
        else:
            illegal[i] = terminated[i] = done[i] = True
            rewards[i] = -1.0
        if not done[i]:
            advance(g, memo, t, e, seat, policies, decisions, i, limit, b.rows, b.row)
            if over(t, e.max_turns):
                done[i] = True
                winner = t.scalars[WINNER]
                if winner < 0:
                    truncated[i] = True
                else:
                    terminated[i] = True
                    rewards[i] = 1.0 if winner == seat else -1.0
            elif decisions[i] >= limit:
                done[i] = truncated[i] = True
        observe(g, t, e, seat, obs[i])
        if done[i]:
            masks[i, :] = 0
        else:
            mask(g, memo, t, e, b, masks[i])
    # used here so they live until now: their borrowed views hold no reference
    owned_rows[0, 0] = rows[0, 0]
    owned_routes[0] = routes[0]
    owned_row[0] = row[0]


@njit(cache=True)
def game_table(tables: Table, i: int) -> Table:
    """Game ``i``'s :class:`Table` in the batch's arrays, each array borrowed."""
    return Table(
        borrowed(tables.scalars[i]),
        borrowed(tables.herd[i]),
        borrowed(tables.animals[i]),
        borrowed(tables.land[i]),
        borrowed(tables.owner[i]),
        borrowed(tables.pieces[i]),
        borrowed(tables.seats[i]),
        borrowed(tables.dogs[i]),
        borrowed(tables.bot_done[i]),
    )


def new_tables(g: Geometry, games: int) -> Table:
    """Blank tables for ``games`` games, each array with the game first (set up by the
    first :func:`batch_step`, which finds every game done)."""
    one = new_table(g)
    return Table(*(np.zeros((games, *array.shape), array.dtype) for array in one))
