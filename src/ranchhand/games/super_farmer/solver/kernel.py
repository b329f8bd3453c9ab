"""The solitaire MDP's arithmetic on arrays, compiled with numba.

A farm is 7 counts (rabbit, sheep, pig, cow, horse, small dog, big dog); its *key* is
the mixed-radix number with digit ``k`` in ``0..box[k]`` (rabbits least significant),
so an exchange moves a key by a constant (``key(take) - key(give)``) and every farm of
the box has a slot in a dense array (61 x 25 x 21 x 13 x 7 x 5 x 3 = 43.7 million).

The rules here are ``state.SuperFarmerState._rolled`` for one farmer, written again on
integers; ``tests/games/super_farmer/test_solver.py`` checks them against the reference
engine roll by roll. numba's on-disk cache is safe here: every compiled function and
everything it calls live in this one file, whose change numba notices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNKNOWN, LIVE, WINNABLE, FULL = 0, 1, 2, 3
"""Status of a farm: not met yet; no exchange wins from it (its value is computed);
one exchange wins from it (value 0); a full farm (the game is won, value 0)."""

# flags of the rules options that change a roll
FOX_LEAVES_ONE, WOLF_TAKES_SMALL_DOG, DOG_IF_NEEDED, WOLF_FIRST = 1, 2, 4, 8


@njit(cache=True)
def decode(key: int, dims: np.ndarray, out: np.ndarray) -> None:
    for k in range(7):
        out[k] = key % dims[k]
        key //= dims[k]


@njit(cache=True)
def encode(farm: np.ndarray, strides: np.ndarray) -> int:
    key = 0
    for k in range(7):
        key += farm[k] * strides[k]
    return key


@njit(cache=True)
def full(farm: np.ndarray) -> bool:
    return farm[0] > 0 and farm[1] > 0 and farm[2] > 0 and farm[3] > 0 and farm[4] > 0


@njit(cache=True)
def legal(farm: np.ndarray, box: np.ndarray, give: np.ndarray, take: np.ndarray, j: int) -> bool:
    for k in range(7):  # noqa: SIM110  (a loop numba compiles to early exits)
        if give[j, k] > farm[k] or take[j, k] > box[k] - farm[k]:
            return False
    return True


@njit(cache=True)
def winnable(farm: np.ndarray, box: np.ndarray, give: np.ndarray, take: np.ndarray) -> bool:
    """Whether one exchange makes ``farm`` (not full) a full farm."""
    after = np.empty(7, np.int64)
    for j in range(give.shape[0]):
        if legal(farm, box, give, take, j):
            for k in range(7):
                after[k] = farm[k] - give[j, k] + take[j, k]
            if full(after):
                return True
    return False


@njit(cache=True)
def _strike(farm: np.ndarray, dog: int, prey: np.ndarray, flags: int) -> None:
    needed = False
    for k in range(7):
        if prey[k]:
            needed = True
    if farm[dog] > 0 and (needed or not (flags & DOG_IF_NEEDED)):
        farm[dog] -= 1
        return
    for k in range(7):
        farm[k] -= prey[k]


@njit(cache=True)
def roll(farm: np.ndarray, box: np.ndarray, wolf: int, fox: int, flags: int) -> None:
    """Apply the dice (wolf die face, fox die face; faces 0-4 species, 5 fox, 6 wolf)."""
    prey = np.zeros(7, np.int64)
    fox_comes = fox == 5
    wolf_comes = wolf == 6
    for turn in range(2):
        strike_wolf = (turn == 0) == bool(flags & WOLF_FIRST)
        if strike_wolf and wolf_comes:
            prey[:] = 0
            for k in range(4):
                prey[k] = farm[k]
            if flags & WOLF_TAKES_SMALL_DOG:
                prey[5] = farm[5]
            _strike(farm, 6, prey, flags)
        elif not strike_wolf and fox_comes:
            prey[:] = 0
            keep = 0
            if flags & FOX_LEAVES_ONE and farm[0] > 0:
                keep = 1
            prey[0] = farm[0] - keep
            _strike(farm, 5, prey, flags)
    if wolf < 5 and wolf == fox:
        pairs = (farm[wolf] + 2) // 2
        farm[wolf] += min(pairs, box[wolf] - farm[wolf])
        return
    for face in (wolf, fox):
        if face < 5:
            pairs = (farm[face] + 1) // 2
            farm[face] += min(pairs, box[face] - farm[face])


POINT = 16
"""Bit set in ``status`` on a farm rolled from (a live farm, or one an exchange makes)."""


@njit(cache=True)
def _grow(array: np.ndarray, used: int) -> np.ndarray:
    bigger = np.empty(array.shape[0] * 2, array.dtype)
    bigger[:used] = array[:used]
    return bigger


@njit(cache=True)
def explore(
    box: np.ndarray,
    dims: np.ndarray,
    strides: np.ndarray,
    give: np.ndarray,
    take: np.ndarray,
    faces: np.ndarray,
    flags: int,
    delta: np.ndarray,
    status: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Every live farm reachable from the empty farm by any exchanges and rolls (the
    empty farm first), and every farm rolled from (``POINT``); ``status`` (one byte per
    key) gets the status of every farm met."""
    queue = np.empty(1 << 20, np.int64)
    points = np.empty(1 << 20, np.int64)
    queue[0] = 0
    status[0] = LIVE
    head, tail, n_points = 0, 1, 0
    farm = np.empty(7, np.int64)
    after = np.empty(7, np.int64)
    while head < tail:
        key = queue[head]
        head += 1
        decode(key, dims, farm)
        for j in range(-1, give.shape[0]):
            if j >= 0 and not legal(farm, box, give, take, j):
                continue
            target = key + (delta[j] if j >= 0 else 0)
            if status[target] & POINT:
                continue
            status[target] |= POINT
            if n_points == points.shape[0]:
                points = _grow(points, n_points)
            points[n_points] = target
            n_points += 1
            for f in range(faces.shape[0]):
                decode(target, dims, after)
                roll(after, box, faces[f, 0], faces[f, 1], flags)
                rolled = encode(after, strides)
                if status[rolled] & 15 != UNKNOWN:
                    continue
                if full(after):
                    status[rolled] |= FULL
                elif winnable(after, box, give, take):
                    status[rolled] |= WINNABLE
                else:
                    status[rolled] |= LIVE
                    if tail == queue.shape[0]:
                        queue = _grow(queue, tail)
                    queue[tail] = rolled
                    tail += 1
    return queue[:tail].copy(), points[:n_points].copy()


@njit(cache=True)
def choices_of(
    live: np.ndarray,
    box: np.ndarray,
    dims: np.ndarray,
    give: np.ndarray,
    take: np.ndarray,
    delta: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per live farm, its choices (CSR): the farm each leads to (key) and the exchange
    (-1: roll without exchanging)."""
    starts = np.zeros(live.shape[0] + 1, np.int64)
    targets = np.empty(1 << 22, np.int32)
    trades = np.empty(1 << 22, np.int16)
    n = 0
    farm = np.empty(7, np.int64)
    for i in range(live.shape[0]):
        decode(live[i], dims, farm)
        starts[i] = n
        for j in range(-1, give.shape[0]):
            if j >= 0 and not legal(farm, box, give, take, j):
                continue
            if n == targets.shape[0]:
                targets = _grow(targets, n)
                trades = _grow(trades, n)
            targets[n] = live[i] + (delta[j] if j >= 0 else 0)
            trades[n] = j
            n += 1
    starts[live.shape[0]] = n
    return starts, targets[:n].copy(), trades[:n].copy()


@njit(cache=True)
def successors_of(
    keys: np.ndarray,
    box: np.ndarray,
    dims: np.ndarray,
    strides: np.ndarray,
    faces: np.ndarray,
    flags: int,
    index: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[i, f]``: the live number of farm ``keys[i]`` rolled with ``faces[f]`` (-1 for
    a farm of value 0)."""
    after = np.empty(7, np.int64)
    for i in range(keys.shape[0]):
        for f in range(faces.shape[0]):
            decode(keys[i], dims, after)
            roll(after, box, faces[f, 0], faces[f, 1], flags)
            out[i, f] = index[encode(after, strides)]


@njit(cache=True)
def point_values(
    points: np.ndarray,
    box: np.ndarray,
    dims: np.ndarray,
    strides: np.ndarray,
    faces: np.ndarray,
    weights: np.ndarray,
    flags: int,
    index: np.ndarray,
    value: np.ndarray,
    w: np.ndarray,
) -> None:
    """``w[key]`` = 1 + the expected value after rolling, for every farm rolled from."""
    after = np.empty(7, np.int64)
    for i in range(points.shape[0]):
        total = 1.0
        for f in range(faces.shape[0]):
            decode(points[i], dims, after)
            roll(after, box, faces[f, 0], faces[f, 1], flags)
            s = index[encode(after, strides)]
            if s >= 0:
                total += weights[f] * value[s]
        w[points[i]] = total


@njit(cache=True)
def improve(
    starts: np.ndarray, targets: np.ndarray, w: np.ndarray, value: np.ndarray, policy: np.ndarray
) -> tuple[int, float]:
    """One Bellman step over every choice (``w`` from :func:`point_values`): each live farm
    takes its best choice, keeping its current one unless another is better by more than
    1e-12. Returns the number of changed choices and the largest change of a value."""
    changed = 0
    residual = 0.0
    for i in range(starts.shape[0] - 1):
        best = starts[i] if policy[i] < 0 else policy[i]
        best_w = w[targets[best]]
        for c in range(starts[i], starts[i + 1]):
            if w[targets[c]] < best_w - 1e-12:
                best_w = w[targets[c]]
                best = c
        if best != policy[i]:
            changed += 1
            policy[i] = best
        residual = max(residual, abs(best_w - value[i]))
        value[i] = best_w
    return changed, residual


@njit(cache=True)
def evaluate(
    successors: np.ndarray, weights: np.ndarray, value: np.ndarray, sweeps: int, tolerance: float
) -> float:
    """Gauss-Seidel sweeps of a fixed policy's values (``successors``: of each live farm's
    chosen farm), at most ``sweeps``, until no value moves by ``tolerance``; the last
    sweep's largest change."""
    change = 0.0
    for sweep in range(sweeps):
        if sweep and change < tolerance:
            break
        change = 0.0
        for i in range(value.shape[0]):
            total = 1.0
            for f in range(successors.shape[1]):
                s = successors[i, f]
                if s >= 0:
                    total += weights[f] * value[s]
            change = max(change, abs(total - value[i]))
            value[i] = total
    return change


@njit(cache=True)
def play(
    seed: int,
    games: int,
    live: np.ndarray,
    move: np.ndarray,
    box: np.ndarray,
    strides: np.ndarray,
    give: np.ndarray,
    take: np.ndarray,
    faces: np.ndarray,
    cumulative: np.ndarray,
    flags: int,
    max_rolls: int,
) -> np.ndarray:
    """Rolls to win of ``games`` solitaires played by the policy (``move[i]``: the
    exchange of live farm ``live[i]``, -1 to roll); a winnable farm wins by an exchange.
    A check of the solver on its own arithmetic (the reference engine plays the bot)."""
    np.random.seed(seed)
    rolls = np.empty(games, np.int64)
    farm = np.empty(7, np.int64)
    after = np.empty(7, np.int64)
    for g in range(games):
        farm[:] = 0
        n = 0
        while n < max_rolls:
            key = encode(farm, strides)
            i = np.searchsorted(live, key)
            if i < live.shape[0] and live[i] == key:
                j = move[i]
                if j >= 0:
                    for k in range(7):
                        farm[k] += take[j, k] - give[j, k]
            else:  # winnable: the first winning exchange
                for j in range(give.shape[0]):
                    if legal(farm, box, give, take, j):
                        for k in range(7):
                            after[k] = farm[k] - give[j, k] + take[j, k]
                        if full(after):
                            break
                farm[:] = after
                break
            u = np.random.random()
            f = 0
            while cumulative[f] <= u:
                f += 1
            roll(farm, box, faces[f, 0], faces[f, 1], flags)
            n += 1
            if full(farm):
                break
        rolls[g] = n
    return rolls


FULL_ROW, WINNABLE_ROW = -1, -2
"""In :func:`race_successors`, a rolled farm that is full (won in that turn), or not live
and not full (winnable: won by an exchange at the next turn)."""


@njit(cache=True)
def race_successors(
    keys: np.ndarray,
    box: np.ndarray,
    dims: np.ndarray,
    strides: np.ndarray,
    faces: np.ndarray,
    flags: int,
    live: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[i, f]``: the row in ``live`` (sorted keys) of farm ``keys[i]`` rolled with
    ``faces[f]``, or ``FULL_ROW``, or ``WINNABLE_ROW`` (every farm met that is neither live
    nor full is winnable: :func:`explore` makes it live otherwise)."""
    after = np.empty(7, np.int64)
    for i in range(keys.shape[0]):
        for f in range(faces.shape[0]):
            decode(keys[i], dims, after)
            roll(after, box, faces[f, 0], faces[f, 1], flags)
            if full(after):
                out[i, f] = FULL_ROW
                continue
            key = encode(after, strides)
            s = np.searchsorted(live, key)
            out[i, f] = s if s < live.shape[0] and live[s] == key else WINNABLE_ROW


@njit(cache=True)
def race_values(
    successors: np.ndarray,
    weights: np.ndarray,
    gammas: np.ndarray,
    sweeps: int,
    tolerance: float,
    turns: np.ndarray,
    powers: np.ndarray,
) -> float:
    """For each live farm under a fixed policy (``successors``: of each live farm's chosen
    farm, from :func:`race_successors`): ``turns``, the expected turns to win ``T`` (the
    winning exchange's turn included), and ``powers[:, g]``, ``E[gammas[g] ** T]``, by
    Gauss-Seidel sweeps from their values on entry (at most ``sweeps``, until nothing moves
    by ``tolerance``), the farms in descending order, since a roll mostly breeds (a
    larger key). Returns the last sweep's largest change."""
    n, k = successors.shape[0], gammas.shape[0]
    change = 0.0
    for _ in range(sweeps):
        change = 0.0
        for i in range(n - 1, -1, -1):
            total = 1.0
            for f in range(successors.shape[1]):
                s = successors[i, f]
                if s == WINNABLE_ROW:
                    total += weights[f]
                elif s >= 0:
                    total += weights[f] * turns[s]
            change = max(change, abs(total - turns[i]))
            turns[i] = total
            for g in range(k):
                gamma = gammas[g]
                total = 0.0
                for f in range(successors.shape[1]):
                    s = successors[i, f]
                    if s == FULL_ROW:
                        total += weights[f]
                    elif s == WINNABLE_ROW:
                        total += weights[f] * gamma
                    else:
                        total += weights[f] * powers[s, g]
                total *= gamma
                change = max(change, abs(total - powers[i, g]))
                powers[i, g] = total
        if change < tolerance:
            break
    return change


@njit(cache=True)
def turns_law(
    starts: np.ndarray,
    games: int,
    horizon: int,
    seed: int,
    live: np.ndarray,
    move: np.ndarray,
    box: np.ndarray,
    strides: np.ndarray,
    give: np.ndarray,
    take: np.ndarray,
    faces: np.ndarray,
    cumulative: np.ndarray,
    flags: int,
) -> np.ndarray:
    """``out[i, t]``: how many of ``games`` solitaires played by the policy from farm
    ``starts[i]`` (at the start of a turn) were won in turn ``t`` (1 = this one; the
    winning exchange's turn counts), ``t = horizon`` for any later. A farm the table
    does not hold rolls without exchanging, unless one exchange completes it."""
    np.random.seed(seed)
    out = np.zeros((starts.shape[0], horizon + 1), np.int64)
    farm = np.empty(7, np.int64)
    for i in range(starts.shape[0]):
        for _ in range(games):
            farm[:] = starts[i]
            t = 1
            while t < horizon:
                key = encode(farm, strides)
                s = np.searchsorted(live, key)
                if s < live.shape[0] and live[s] == key:
                    j = move[s]
                    if j >= 0:
                        for k in range(7):
                            farm[k] += take[j, k] - give[j, k]
                elif winnable(farm, box, give, take):
                    break
                u = np.random.random()
                f = 0
                while cumulative[f] <= u:
                    f += 1
                roll(farm, box, faces[f, 0], faces[f, 1], flags)
                if full(farm):
                    break
                t += 1
            out[i, t] += 1
    return out


@njit(cache=True)
def rolled_and_winnable(
    farms: np.ndarray,
    boxes: np.ndarray,
    faces: np.ndarray,
    flags: int,
    give: np.ndarray,
    take: np.ndarray,
    out: np.ndarray,
    winnables: np.ndarray,
) -> None:
    """``out[i * len(faces) + f]``: farm ``farms[i]`` rolled with ``faces[f]``, where
    ``boxes[i]`` is the farm plus the herd it breeds from (at a table of several the herd
    is short of what the others hold); ``winnables`` the same rows: whether one exchange
    with that herd then completes the farm (False for a full one)."""
    m = faces.shape[0]
    farm = np.empty(7, np.int64)
    for i in range(farms.shape[0]):
        for f in range(m):
            farm[:] = farms[i]
            roll(farm, boxes[i], faces[f, 0], faces[f, 1], flags)
            out[i * m + f] = farm
            winnables[i * m + f] = not full(farm) and winnable(farm, boxes[i], give, take)


@njit(cache=True)
def law_head(successors: np.ndarray, weights: np.ndarray, out: np.ndarray) -> None:
    """``out[t - 1, i]``: the chance that live farm ``i``, played on by a fixed policy
    (``successors`` of each live farm's chosen farm, :func:`race_successors`), is won in
    exactly ``t`` turns (the winning exchange's turn counted), for ``t = 1..len(out)``:
    turn by turn, each row from the one before (a roll mostly breeds, but any order of
    farms is exact here, since turn ``t`` reads only turn ``t - 1``)."""
    n = successors.shape[0]
    for t in range(out.shape[0]):
        for i in range(n):
            total = 0.0
            for f in range(successors.shape[1]):
                s = successors[i, f]
                if s == FULL_ROW:
                    if t == 0:
                        total += weights[f]
                elif s == WINNABLE_ROW:
                    if t == 1:
                        total += weights[f]
                elif t > 0:
                    total += weights[f] * out[t - 1, s]
            out[t, i] = total
