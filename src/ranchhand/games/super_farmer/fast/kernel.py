"""Super Farmer's rules on arrays, compiled with numba: the turn, the exchanges, the bots.

One module on purpose: numba trusts a compiled function while its own file is
unchanged, and a function's machine code includes what it calls, so keeping every
compiled function of the engine here keeps numba's on-disk cache honest without a
locator of our own (Rancho's engine, spread over several files, needs one).

A table is three arrays: ``s`` (the scalars below), ``herd`` (7 counts) and ``animals``
(players x 7). The rules' constants come in :class:`Rules` (``engine.py`` builds it
from a loaded game): the exchange values, the box, every exchange the game knows as a
row of ``give`` and ``take`` (per species: the mixes bought with, then sold for, one of
it, in the reference engine's bundle order; then the one-for-one swaps, sorted), the
dice's outcomes in the reference engine's order with their weights, and the options.

Every function follows ``state.py``, ``exchanges.py`` and ``bots.py`` line for line
(legal exchanges in the same order, the greedy bot's first best), which the
differential test checks step by step.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ranchhand.core.streams import GOLDEN, MIX_1, MIX_2

# Species and faces (``tables.py``).
RABBIT, SHEEP, PIG, COW, HORSE, SMALL_DOG, BIG_DOG = range(7)
KINDS = 7
FARM_KINDS = 5
FOX, WOLF = 5, 6

# Who acts (``core.game``).
CHANCE = -1
TERMINAL = -4

# Phases (``state.py``).
TRADE, ROLL = 0, 1

# The scalars of a table.
PLAYER, PHASE, TRADED, WINNER, TURN, DIE_WOLF, DIE_FOX = range(7)
ROLLS, FOX_STRIKES, WOLF_STRIKES, RABBITS_LOST, VALUE_LOST, DOGS_GIVEN, TRADES = range(7, 14)
SCALARS = 14
STATS: tuple[str, ...] = (
    *("rolls", "fox_strikes", "wolf_strikes", "rabbits_lost", "value_lost"),
    *("dogs_given", "trades"),
)
"""The reference state's ``stats`` keys, in the order of scalars ``ROLLS`` onwards."""

# Options, as entries of ``Rules.options``.
O_PLAYERS, O_MANY, O_LEAVE_ONE, O_TAKES_SMALL_DOG, O_IF_NEEDED, O_WOLF_FIRST, O_MAX_TURNS = range(7)
OPTIONS = 7

# Policies.
RANDOM, GREEDY, DARING = 0, 1, 2

# The greedy bot's thresholds (``bots.GreedyBot``; the engine copies them in).
SMALL_DOG_AT, BIG_DOG_AT, RABBITS_KEPT = 0, 1, 2

# Result columns of ``play_many``.
R_WINNER, R_TURNS, R_STEPS = 0, 1, 2
RESULTS = 3 + len(STATS)


class Rules(NamedTuple):
    """A loaded game's constants as arrays (see the module docstring)."""

    values: np.ndarray
    box: np.ndarray
    give: np.ndarray
    take: np.ndarray
    buy_from: np.ndarray
    sell_from: np.ndarray
    kind_ends: np.ndarray
    """Per species k: buys are rows buy_from[k]..sell_from[k], sells
    sell_from[k]..kind_ends[k]; swaps are rows kind_ends[6]..len(give)."""
    swap_give: np.ndarray
    swap_take: np.ndarray
    roll_wolf: np.ndarray
    roll_fox: np.ndarray
    roll_ends: np.ndarray
    """The cumulative weights of the dice's outcomes (the last is their total, 144)."""
    options: np.ndarray
    thresholds: np.ndarray


# ------------------------------------------------------------------ the table
@njit(cache=True)
def setup(rules: Rules, s: np.ndarray, herd: np.ndarray, animals: np.ndarray) -> None:
    """A new game: the whole box in the herd, empty farms, the first farmer to trade."""
    s[:] = 0
    s[WINNER] = -1
    s[DIE_WOLF] = s[DIE_FOX] = -1  # no roll yet
    herd[:] = rules.box
    animals[:, :] = 0


@njit(cache=True)
def current(rules: Rules, s: np.ndarray) -> int:
    """The farmer to act, CHANCE for the dice, or TERMINAL (won, or cut at max_turns)."""
    max_turns = rules.options[O_MAX_TURNS]
    if s[WINNER] >= 0 or (max_turns > 0 and s[TURN] >= max_turns):
        return TERMINAL
    if s[PHASE] == ROLL:
        return CHANCE
    return s[PLAYER]


@njit(cache=True)
def may_trade(rules: Rules, s: np.ndarray) -> bool:
    return s[PHASE] == TRADE and (s[TRADED] == 0 or rules.options[O_MANY] == 1)


@njit(cache=True)
def _holds(have: np.ndarray, row: np.ndarray) -> bool:
    for k in range(KINDS):  # noqa: SIM110 (loops compile; generators in all() do not)
        if row[k] > have[k]:
            return False
    return True


@njit(cache=True)
def offered(rules: Rules, herd: np.ndarray, mine: np.ndarray, out: np.ndarray) -> int:
    """The exchanges on offer, as rows of ``rules.give``/``take`` in ``out``; how many.

    As ``exchanges._offered``: species by species, the mixes the farmer holds that buy
    one of it (if the herd has one and the farm is worth it), then the mixes the herd
    holds that one of it sells for (if the farmer has one); then the swaps.
    """
    worth = 0
    for k in range(KINDS):
        worth += mine[k] * rules.values[k]
    count = 0
    for k in range(KINDS):
        if herd[k] > 0 and worth >= rules.values[k]:
            for row in range(rules.buy_from[k], rules.sell_from[k]):
                if _holds(mine, rules.give[row]):
                    out[count] = row
                    count += 1
        if mine[k] > 0:
            for row in range(rules.sell_from[k], rules.kind_ends[k]):
                if _holds(herd, rules.take[row]):
                    out[count] = row
                    count += 1
    for row in range(rules.kind_ends[KINDS - 1], len(rules.give)):
        if mine[rules.swap_give[row]] > 0 and herd[rules.swap_take[row]] > 0:
            out[count] = row
            count += 1
    return count


@njit(cache=True)
def legal(
    rules: Rules, s: np.ndarray, herd: np.ndarray, animals: np.ndarray, out: np.ndarray
) -> int:
    """The legal actions of the farmer to act: -1 (roll) first, then the exchanges."""
    out[0] = -1
    if not may_trade(rules, s):
        return 1
    return 1 + offered(rules, herd, animals[s[PLAYER]], out[1:])


@njit(cache=True)
def _full(mine: np.ndarray) -> bool:
    for k in range(FARM_KINDS):  # noqa: SIM110
        if mine[k] == 0:
            return False
    return True


@njit(cache=True)
def _end_turn(s: np.ndarray, win: bool, players: int) -> None:
    if win:
        s[WINNER] = s[PLAYER]
    else:
        s[PLAYER] = (s[PLAYER] + 1) % players
        s[TRADED] = 0
    s[PHASE] = TRADE
    s[TURN] += 1


@njit(cache=True)
def apply(rules: Rules, s: np.ndarray, herd: np.ndarray, animals: np.ndarray, action: int) -> None:
    """The farmer to act says roll (``action`` -1) or makes exchange row ``action``."""
    if action < 0:
        s[PHASE] = ROLL
        return
    mine = animals[s[PLAYER]]
    for k in range(KINDS):
        change = rules.take[action, k] - rules.give[action, k]
        mine[k] += change
        herd[k] -= change
    s[TRADED] += 1
    s[TRADES] += 1
    if _full(mine):
        _end_turn(s, True, rules.options[O_PLAYERS])
    elif rules.options[O_MANY] == 0:
        s[PHASE] = ROLL


@njit(cache=True)
def _strike(rules: Rules, s: np.ndarray, herd: np.ndarray, mine: np.ndarray, dog: int) -> None:
    """A predator comes: the dog goes back instead, or the prey does (``state._strike``)."""
    fox = dog == SMALL_DOG
    prey = np.zeros(KINDS, dtype=np.int64)
    if fox:
        keep = min(1, mine[RABBIT]) if rules.options[O_LEAVE_ONE] == 1 else 0
        prey[RABBIT] = mine[RABBIT] - keep
    else:
        for k in range(COW + 1):
            prey[k] = mine[k]
        if rules.options[O_TAKES_SMALL_DOG] == 1:
            prey[SMALL_DOG] = mine[SMALL_DOG]
    needed = False
    for k in range(KINDS):
        if prey[k] != 0:
            needed = True
    if mine[dog] > 0 and (needed or rules.options[O_IF_NEEDED] == 0):
        mine[dog] -= 1
        herd[dog] += 1
        s[DOGS_GIVEN] += 1
        return
    for k in range(KINDS):
        mine[k] -= prey[k]
        herd[k] += prey[k]
        s[VALUE_LOST] += prey[k] * rules.values[k]
    s[RABBITS_LOST] += prey[RABBIT]


@njit(cache=True)
def roll(rules: Rules, s: np.ndarray, herd: np.ndarray, animals: np.ndarray, outcome: int) -> None:
    """The dice show outcome ``outcome`` (an index of the reference's chance outcomes)."""
    wolf, fox = rules.roll_wolf[outcome], rules.roll_fox[outcome]
    s[DIE_WOLF], s[DIE_FOX] = wolf, fox
    s[ROLLS] += 1
    mine = animals[s[PLAYER]]
    first, second = -1, -1  # the predators shown, in the order they strike
    for face in (wolf, fox):
        if face == FOX or face == WOLF:  # noqa: SIM109 (no tuple membership in numba)
            if first < 0:
                first = face
            else:
                second = face
    if second >= 0 and (second < first) != (rules.options[O_WOLF_FIRST] == 1):
        first, second = second, first  # fox (5) before wolf (6), or the reverse
    for predator in (first, second):
        if predator == FOX:
            s[FOX_STRIKES] += 1
            _strike(rules, s, herd, mine, SMALL_DOG)
        elif predator == WOLF:
            s[WOLF_STRIKES] += 1
            _strike(rules, s, herd, mine, BIG_DOG)
    for k in range(FARM_KINDS):  # each species shown breeds once (twice shown: +2)
        shown = (wolf == k) + (fox == k)
        if shown:
            pairs = (mine[k] + shown) // 2
            newborns = pairs if pairs <= herd[k] else herd[k]
            mine[k] += newborns
            herd[k] -= newborns
    _end_turn(s, _full(mine), rules.options[O_PLAYERS])


@njit(cache=True)
def chance(rules: Rules, s: np.ndarray, herd: np.ndarray, animals: np.ndarray, point: int) -> None:
    """The outcome at ``point`` (0 <= point < 144) of the dice's cumulative weights."""
    outcome = 0
    while rules.roll_ends[outcome] <= point:
        outcome += 1
    roll(rules, s, herd, animals, outcome)


# ------------------------------------------------------------------ the greedy bot
@njit(cache=True)
def _progress_after(rules: Rules, mine: np.ndarray, row: int, out: np.ndarray) -> None:
    """``bots.progress`` of the farm after exchange ``row``, as 4 numbers in ``out``."""
    held = worth = pairs = 0
    for k in range(FARM_KINDS):
        n = mine[k] - rules.give[row, k] + rules.take[row, k]
        if n > 0:
            held += 1
            worth += rules.values[k]
        pairs += min(n, 2)
    out[0], out[1], out[2] = held, worth, pairs
    out[3] = mine[RABBIT] - rules.give[row, RABBIT] + rules.take[row, RABBIT]


@njit(cache=True)
def _better(a: np.ndarray, b: np.ndarray) -> bool:
    """Is progress ``a`` greater than ``b`` (tuples compared in order)?"""
    for i in range(4):
        if a[i] != b[i]:
            return a[i] > b[i]
    return False


@njit(cache=True)
def _after(rules: Rules, mine: np.ndarray, row: int, k: int) -> int:
    return mine[k] - rules.give[row, k] + rules.take[row, k]


@njit(cache=True)
def _guard(rules: Rules, mine: np.ndarray, rows: np.ndarray, count: int) -> int:
    """``GreedyBot.guard``: a dog when the herd needs one, or -2 (none)."""
    values = rules.values
    best, score, trial = -2, np.zeros(4, np.int64), np.zeros(4, np.int64)
    for dog in (BIG_DOG, SMALL_DOG):
        if dog == BIG_DOG:
            exposed = 0
            for k in range(COW + 1):
                exposed += mine[k] * values[k]
            threshold = rules.thresholds[BIG_DOG_AT]
        else:
            exposed = mine[RABBIT]
            threshold = rules.thresholds[SMALL_DOG_AT]
        if mine[dog] > 0 or exposed < threshold:
            continue
        for i in range(count):
            row = rows[i]
            if row < 0 or rules.take[row, dog] != 1 or rules.give[row, SMALL_DOG] != 0:
                continue
            if rules.give[row, BIG_DOG] != 0:
                continue
            taken = 0
            for k in range(KINDS):
                taken += rules.take[row, k]
            if taken != 1:
                continue
            keeps = True
            for k in range(FARM_KINDS):
                if mine[k] > 0 and _after(rules, mine, row, k) == 0:
                    keeps = False
            if not keeps:
                continue
            _progress_after(rules, mine, row, trial)
            if best == -2 or _better(trial, score):
                best = row
                score[:] = trial
        if best != -2:
            return best
    return -2


@njit(cache=True)
def greedy(rules: Rules, mine: np.ndarray, rows: np.ndarray, count: int, guards: bool) -> int:
    """``GreedyBot.act`` (``DaringBot``'s without ``guards``): an exchange row, or -1 (roll).

    ``rows[:count]`` is the legal list (roll first). Ties go to the first best, as
    Python's ``max``.
    """
    if count == 1:
        return -1
    winning, keeping = -2, -2
    win_score, keep_score = np.zeros(4, np.int64), np.zeros(4, np.int64)
    trial = np.zeros(4, np.int64)
    kept = min(mine[RABBIT], rules.thresholds[RABBITS_KEPT])
    for i in range(1, count):
        row = rows[i]
        gains = False
        for k in range(FARM_KINDS):
            if mine[k] == 0 and rules.take[row, k] > 0:
                gains = True
        if not gains:
            continue
        _progress_after(rules, mine, row, trial)
        full = True
        for k in range(FARM_KINDS):
            if _after(rules, mine, row, k) == 0:
                full = False
        if full and (winning == -2 or _better(trial, win_score)):
            winning = row
            win_score[:] = trial
        if rules.give[row, SMALL_DOG] != 0 or rules.give[row, BIG_DOG] != 0:
            continue
        keeps = _after(rules, mine, row, RABBIT) >= kept
        for k in range(FARM_KINDS):
            if mine[k] > 0 and _after(rules, mine, row, k) == 0:
                keeps = False
        if keeps and (keeping == -2 or _better(trial, keep_score)):
            keeping = row
            keep_score[:] = trial
    if winning != -2:
        return winning
    if guards:
        guard = _guard(rules, mine, rows[1:count], count - 1)
        if guard != -2:
            return guard
    return keeping if keeping != -2 else -1


@njit(cache=True)
def choose(
    rules: Rules,
    s: np.ndarray,
    herd: np.ndarray,
    animals: np.ndarray,
    policy: int,
    rows: np.ndarray,
) -> int:
    """The action of a ``policy`` seat now: -1 (roll) or an exchange row."""
    count = legal(rules, s, herd, animals, rows)
    if policy == RANDOM:
        return rows[np.random.randint(count)]
    return greedy(rules, animals[s[PLAYER]], rows, count, policy == GREEDY)


# ------------------------------------------------------------------ whole games
@njit(cache=True)
def play_many(rules: Rules, seeds: np.ndarray, policies: np.ndarray, results: np.ndarray) -> None:
    """One game per seed (numba's generator seeded with it), a policy per seat; per game
    a row of: the winner (-1: cut at max_turns), turns, steps, then :data:`STATS`."""
    players = rules.options[O_PLAYERS]
    s = np.zeros(SCALARS, dtype=np.int64)
    herd = np.zeros(KINDS, dtype=np.int64)
    animals = np.zeros((players, KINDS), dtype=np.int64)
    rows = np.zeros(1 + len(rules.give), dtype=np.int64)
    total = rules.roll_ends[-1]
    for game in range(len(seeds)):
        np.random.seed(seeds[game])
        setup(rules, s, herd, animals)
        steps = 0
        while True:
            who = current(rules, s)
            if who == TERMINAL:
                break
            if who == CHANCE:
                chance(rules, s, herd, animals, np.random.randint(total))
            else:
                apply(rules, s, herd, animals, choose(rules, s, herd, animals, policies[who], rows))
            steps += 1
        results[game, R_WINNER] = s[WINNER]
        results[game, R_TURNS] = s[TURN]
        results[game, R_STEPS] = steps
        for i in range(len(STATS)):
            results[game, 3 + i] = s[ROLLS + i]


# ------------------------------------------------------------------ the search's playouts
# numba types a plain int above 2**63 as a float in mixed arithmetic: every number of
# the hash is an unsigned 64-bit integer, so its products wrap as SplitMix64's must. The
# constants are core.streams' own; the two small functions below are written here again,
# not imported from Rancho's kernel, so that this module's numba cache depends on no other
# compiled module (see the module docstring).
_GOLDEN = np.uint64(GOLDEN)
_MIX_1 = np.uint64(MIX_1)
_MIX_2 = np.uint64(MIX_2)
_SHIFT_1, _SHIFT_2, _SHIFT_3 = np.uint64(30), np.uint64(27), np.uint64(31)


@njit(cache=True)
def _mix(x: np.uint64) -> np.uint64:
    """``core.streams.mix``: SplitMix64's step, wrapping at 64 bits."""
    x = x + _GOLDEN
    x = (x ^ (x >> _SHIFT_1)) * _MIX_1
    x = (x ^ (x >> _SHIFT_2)) * _MIX_2
    return x ^ (x >> _SHIFT_3)  # type: ignore[no-any-return]


@njit(cache=True)
def point(stream: int, turn: int, k: int, total: int) -> int:
    """``core.streams.point``: the ``k``-th draw of ``turn`` in ``stream``, in [0, total)."""
    x = _mix(_mix(_mix(np.uint64(stream)) ^ np.uint64(turn)) ^ np.uint64(k))
    return np.int64(x % np.uint64(total))  # type: ignore[return-value]


@njit(cache=True)
def play_on(
    rules: Rules,
    s: np.ndarray,
    herd: np.ndarray,
    animals: np.ndarray,
    policy: int,
    stream: int,
    turn: int,
    k: int,
    max_steps: int,
    rows: np.ndarray,
) -> tuple[int, bool]:
    """``policy`` (greedy or daring) in every seat plays on until the game ends or
    ``max_steps`` steps are played: (the steps, whether it ended). Each roll draws
    :func:`point` where a ``ChanceStream`` stands, at draw ``k`` of ``turn``, keyed by the
    table's turn as ``streams.sample`` keys it (a new turn counts its draws from 0)."""
    total = rules.roll_ends[-1]
    steps = 0
    while steps < max_steps:
        who = current(rules, s)
        if who == TERMINAL:
            return steps, True
        if who == CHANCE:
            if s[TURN] != turn:
                turn = s[TURN]
                k = 0
            chance(rules, s, herd, animals, point(stream, turn, k, total))
            k += 1
        else:
            apply(rules, s, herd, animals, choose(rules, s, herd, animals, policy, rows))
        steps += 1
    return steps, current(rules, s) == TERMINAL


# ------------------------------------------------------------------ batched stepping
# ``ranchhand.envs.vector``: many games in lockstep, one learner seat each, the other
# seats played here; observations and masks exactly as ``encoding.py`` makes them.
TURNS_SHOWN = 1000
"""``encoding.TURNS_SHOWN``: the turn counter reads turns / this, and 1 from then on."""


@njit(cache=True)
def seed(value: int) -> None:
    """Seed numba's generator (what every compiled draw here takes)."""
    np.random.seed(value)


@njit(cache=True)
def tensor(
    rules: Rules,
    s: np.ndarray,
    herd: np.ndarray,
    animals: np.ndarray,
    viewer: int,
    out: np.ndarray,
) -> None:
    """``SuperFarmerEncoding.observation_tensor`` of ``viewer``, written into ``out``."""
    n = rules.options[O_PLAYERS]
    out[:] = 0.0
    at = 0
    for k in range(KINDS):
        out[at + k] = herd[k] / max(1, rules.box[k])
    at += KINDS
    for step in range(n):
        seat = (viewer + step) % n
        for k in range(KINDS):
            out[at + k] = animals[seat, k] / max(1, rules.box[k])
        at += KINDS
    over = s[WINNER] >= 0
    for step in range(n):
        if (viewer + step) % n == s[PLAYER] and not over:
            out[at + step] = 1.0
    at += n
    out[at + (1 if s[PHASE] == ROLL else 0)] = 1.0
    at += 2
    if s[TRADED] > 0:
        out[at] = 1.0
    at += 1
    if s[DIE_WOLF] >= 0:
        out[at + s[DIE_WOLF]] = 1.0
        out[at + 7 + s[DIE_FOX]] = 1.0
    at += 14
    for step in range(n):
        if (viewer + step) % n == s[WINNER]:
            out[at + step] = 1.0
    at += n
    turn, cap = s[TURN], rules.options[O_MAX_TURNS]
    out[at] = min(turn, TURNS_SHOWN) / TURNS_SHOWN
    out[at + 1] = min(1.0, turn / cap) if cap > 0 else 0.0


@njit(cache=True)
def mask(
    rules: Rules,
    s: np.ndarray,
    herd: np.ndarray,
    animals: np.ndarray,
    row_index: np.ndarray,
    rows: np.ndarray,
    out: np.ndarray,
) -> None:
    """The legal action indices (``encoding.py``'s numbering) as 1s in ``out``."""
    out[:] = 0
    if current(rules, s) < 0:
        return
    count = legal(rules, s, herd, animals, rows)
    for i in range(count):
        out[0 if rows[i] < 0 else row_index[rows[i]]] = 1


@njit(cache=True)
def _advance(
    rules: Rules,
    s: np.ndarray,
    herd: np.ndarray,
    animals: np.ndarray,
    seat: int,
    policies: np.ndarray,
    decisions: np.ndarray,
    i: int,
    limit: int,
    rows: np.ndarray,
) -> None:
    """Chance and the other seats play until ``seat`` must decide, the game ends or the
    decisions reach ``limit``. Chance is drawn after every decision, the one reaching the
    limit too, as ``envs.table.Table`` draws it (a cut game shows, and may be won by, the
    roll its last decision asked for)."""
    total = rules.roll_ends[-1]
    while True:
        who = current(rules, s)
        if who == TERMINAL:
            return
        if who == CHANCE:
            chance(rules, s, herd, animals, np.random.randint(total))
            continue
        if who == seat or decisions[i] >= limit:
            return
        apply(rules, s, herd, animals, choose(rules, s, herd, animals, policies[who], rows))
        decisions[i] += 1


@njit(cache=True)
def batch_step(
    rules: Rules,
    S: np.ndarray,
    HERD: np.ndarray,
    ANIMALS: np.ndarray,
    done: np.ndarray,
    decisions: np.ndarray,
    actions: np.ndarray,
    index_row: np.ndarray,
    row_index: np.ndarray,
    seat: int,
    policies: np.ndarray,
    limit: int,
    obs: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    illegal: np.ndarray,
    rows: np.ndarray,
) -> None:
    """One step of every game: the learner's action ``actions[i]`` (an index of
    ``encoding.py``), then chance and the other seats until the learner decides again.

    A game that ended at the last step starts afresh instead, its action unread
    (Gymnasium's next-step autoreset), with reward 0. An index the learner may not play
    now forfeits the game (reward -1, terminated, ``illegal``), as the single environment
    does. Reward at the end: +1 for the learner's win, -1 for another's, 0 when the game
    is cut (``max_turns``: truncated; or ``limit`` decisions of all players).
    """
    for i in range(len(S)):
        s, herd, animals = S[i], HERD[i], ANIMALS[i]
        rewards[i] = 0.0
        terminated[i] = truncated[i] = illegal[i] = False
        if done[i]:
            setup(rules, s, herd, animals)
            done[i] = False
            decisions[i] = 0
        else:
            action = actions[i]
            row = -2
            if 0 <= action < len(index_row):
                row = index_row[action]
            count = legal(rules, s, herd, animals, rows)
            allowed = False
            for j in range(count):
                if rows[j] == row:
                    allowed = True
            if not allowed:
                illegal[i] = terminated[i] = done[i] = True
                rewards[i] = -1.0
            else:
                apply(rules, s, herd, animals, row)
                decisions[i] += 1
        if not done[i]:
            _advance(rules, s, herd, animals, seat, policies, decisions, i, limit, rows)
            who = current(rules, s)
            if who == TERMINAL:
                done[i] = True
                winner = s[WINNER]
                if winner < 0:
                    truncated[i] = True
                else:
                    terminated[i] = True
                    rewards[i] = 1.0 if winner == seat else -1.0
            elif decisions[i] >= limit:
                done[i] = truncated[i] = True
        tensor(rules, s, herd, animals, seat, obs[i])
        if done[i]:
            masks[i, :] = 0
        else:
            mask(rules, s, herd, animals, row_index, rows, masks[i])
