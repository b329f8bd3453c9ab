"""Rocket Ranchers' rules on arrays, compiled with numba: the turn, the scoring, the bots.

One module on purpose (as Super Farmer's): numba trusts a compiled function while its
own file is unchanged, and a function's machine code includes what it calls, so keeping
every compiled function of the engine here keeps numba's on-disk cache honest.

A table is seven arrays:

* ``s``: the scalars below (whose turn, the phase, the deck's size, the turn count...);
* ``deck``: copies left of each card kind (the Space Cats are ``s[DECK_CATS]``);
* ``display``: the 16 cells, a kind, :data:`EMPTY` or :data:`CAT`;
* ``pending``: the collected Wildlife cards waiting for a corral, in the order taken;
* ``seats``: per player, its floof pile, face-up beams (a mask), dogship and corral count;
* ``corrals``: per player and corral, its founding card, face-up cards, their dots, the
  mask of their biomes and their species (-1 while none is face up);
* ``log``: every card placed since the table was loaded (player, corral, kind), from which
  ``engine.py`` rebuilds the reference state's corrals card by card.

The rules' constants come in :class:`Rules` (``engine.py`` builds it from a loaded game):
the card kinds, every beam placement as a cell mask, the score rows, the greedy bot's
potential table and settings, and the options as numbers. Actions are integers: a
placement's index, then :func:`reboot_action`, :func:`end_action`, the swaps, the forms
and the occupies (see ``engine.py``'s ``action``).

Every function follows ``state.py``, ``scoring.py`` and ``bots.py`` line for line (legal
actions in the same order, the greedy bot's first best, its sums in the same order), which
the differential test checks step by step.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ranchhand.core.streams import GOLDEN, MIX_1, MIX_2

CELLS = 16
SIDE = 4
FULL = (1 << CELLS) - 1
LEFT_COLUMN = 0x1111
RIGHT_COLUMN = 0x8888
EMPTY = -1
CAT = -2

# Who acts (``core.game``).
CHANCE = -1
TERMINAL = -4

# Phases (``phases.py``).
FILL, START, PLACE, AFTER = range(4)

# The scalars of a table.
PLAYER, PHASE, SETTING_UP, DECK_SIZE, DECK_CATS, TURN, OVER, WINNER, PENDING, LOGGED = range(10)
SCALARS = 10

# Per seat.
FLOOF, BEAMS, DOGSHIP, CORRALS = range(4)
SEAT_FIELDS = 4

# Per corral.
FOUNDER, COUNT, DOTS, BIOMES, SPECIES = range(5)
CORRAL_FIELDS = 5

# Options, as entries of ``Rules.options``.
O_PLAYERS, O_MAX_TURNS, O_BY_DOTS, O_VARIETY_ALL, O_CHAIN, O_WAY, O_ALL_BEAMS = range(7)
OPTIONS = 7
WAY_BEST, WAY_ABUNDANCE, WAY_VARIETY = range(3)

# The greedy bot's settings (``bots.GreedyBot``; the engine copies them in).
G_FOUND, G_SWAP_MARGIN, G_REBOOT_SHARE, G_ROUNDING = range(4)
GREEDY_SETTINGS = 4

# Policies.
RANDOM, GREEDY = 0, 1

# Result columns of ``play_many``: then per seat :data:`PARTS` (seats up to MAX_SEATS).
R_WINNER, R_TURNS, R_STEPS, R_PLAYERS = range(4)
PARTS = ("abundance", "variety", "cats", "score", "space_cats", "corrals")
MAX_SEATS = 5
RESULTS = 4 + len(PARTS) * MAX_SEATS


class Rules(NamedTuple):
    """A loaded game's constants as arrays (see the module docstring)."""

    species: np.ndarray
    biome: np.ndarray
    dots: np.ndarray
    box: np.ndarray
    """Copies of each kind in the deck for this player count."""
    box_cats: int
    place_mask: np.ndarray
    """Per placement (``tables.placements`` order): the cells it covers."""
    place_beam: np.ndarray
    place_cells: np.ndarray
    """Per placement: the cells it covers in order (then padding), ``place_size`` of them."""
    place_size: np.ndarray
    abundance_at: np.ndarray
    abundance_points: np.ndarray
    variety_at: np.ndarray
    variety_points: np.ndarray
    cats_most: int
    cats_each: int
    biomes: int
    max_corrals: int
    potential: np.ndarray
    """The greedy bot's potential of a corral by [amount (cards or dots)][biomes]."""
    greedy: np.ndarray
    options: np.ndarray


# ------------------------------------------------------------------ small helpers
@njit(cache=True, inline="always")
def reboot_action(rules: Rules) -> int:
    return len(rules.place_mask)


@njit(cache=True, inline="always")
def end_action(rules: Rules) -> int:
    return len(rules.place_mask) + 1


@njit(cache=True, inline="always")
def _bits(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def _neighbours(mask: int) -> int:
    """``tables.neighbours``: the cells next to any of ``mask``, ``mask`` included."""
    return (
        mask
        | ((mask << 1) & ~LEFT_COLUMN)
        | ((mask >> 1) & ~RIGHT_COLUMN)
        | (mask << SIDE)
        | (mask >> SIDE)
    ) & FULL


@njit(cache=True, inline="always")
def _swap_base(rules: Rules) -> int:
    return len(rules.place_mask) + 2


@njit(cache=True, inline="always")
def _form_base(rules: Rules) -> int:
    return len(rules.place_mask) + 2 + CELLS * CELLS


@njit(cache=True, inline="always")
def _occupy_base(rules: Rules) -> int:
    return _form_base(rules) + len(rules.species)


@njit(cache=True, inline="always")
def _has_empty(display: np.ndarray) -> bool:
    for cell in range(CELLS):  # noqa: SIM110 (loops compile; generators in any() do not)
        if display[cell] == EMPTY:
            return True
    return False


@njit(cache=True, inline="always")
def _has_swap(rules: Rules, display: np.ndarray) -> bool:
    """Two Wildlife cards of one biome in the display (``tables.swaps_in`` not empty)."""
    seen = 0
    for cell in range(CELLS):
        card = display[cell]
        if card >= 0:
            bit = 1 << rules.biome[card]
            if seen & bit:
                return True
            seen |= bit
    return False


# ------------------------------------------------------------------ the table
@njit(cache=True)
def setup(
    rules: Rules,
    s: np.ndarray,
    deck: np.ndarray,
    display: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
) -> None:
    """A new game: the deck for the player count, an empty display to deal, beams up."""
    s[:] = 0
    s[PHASE] = FILL
    s[SETTING_UP] = 1
    s[WINNER] = -1
    deck[:] = rules.box
    s[DECK_CATS] = rules.box_cats
    s[DECK_SIZE] = deck.sum() + rules.box_cats
    display[:] = EMPTY
    pending[:] = 0
    seats[:, :] = 0
    seats[:, BEAMS] = rules.options[O_ALL_BEAMS]
    seats[:, DOGSHIP] = 1
    corrals[:, :, :] = 0


@njit(cache=True, inline="always")
def current(rules: Rules, s: np.ndarray) -> int:
    """The player to act, CHANCE for a draw, or TERMINAL (over, or cut at max_turns)."""
    max_turns = rules.options[O_MAX_TURNS]
    if s[OVER] or (max_turns > 0 and s[TURN] >= max_turns):
        return TERMINAL
    if s[PHASE] == FILL:
        return CHANCE
    return s[PLAYER]


@njit(cache=True, inline="always")
def _low(bit: int) -> int:
    """The cell of a one-bit mask."""
    cell = 0
    while bit > 1:
        bit >>= 1
        cell += 1
    return cell


@njit(cache=True, inline="always")
def _swaps(rules: Rules, display: np.ndarray, out: np.ndarray, count: int) -> int:
    """Every dogship swap appended to ``out``, biome by biome (``tables.swaps_in``)."""
    base = _swap_base(rules)
    biome = rules.biome
    for b in range(rules.biomes):
        group = 0
        for cell in range(CELLS):
            card = display[cell]
            if card >= 0 and biome[card] == b:
                group |= 1 << cell
        while group:
            first = group & -group
            group ^= first
            at = base + _low(first) * CELLS
            rest = group
            while rest:
                second = rest & -rest
                rest ^= second
                out[count] = at + _low(second)
                count += 1
    return count


@njit(cache=True, inline="always")
def legal(
    rules: Rules,
    s: np.ndarray,
    display: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    out: np.ndarray,
) -> int:
    """The legal actions of the player to act, in ``state._legal_actions`` order; how many."""
    player = s[PLAYER]
    phase = s[PHASE]
    count = 0
    if phase == START:
        up = seats[player, BEAMS]
        beam = rules.place_beam
        for p in range(len(beam)):
            if up >> beam[p] & 1:
                out[count] = p
                count += 1
        if up != rules.options[O_ALL_BEAMS]:
            out[count] = reboot_action(rules)
            count += 1
        if seats[player, DOGSHIP]:
            count = _swaps(rules, display, out, count)
        return count
    if phase == PLACE:
        form, occupy = _form_base(rules), _occupy_base(rules)
        mine = corrals[player]
        for i in range(s[PENDING]):
            kind = pending[i]
            repeated = False
            for j in range(i):
                if pending[j] == kind:
                    repeated = True
            if repeated:
                continue
            out[count] = form + kind
            count += 1
            for c in range(seats[player, CORRALS]):
                if mine[c, COUNT] == 0 or mine[c, SPECIES] == rules.species[kind]:
                    out[count] = occupy + kind * rules.max_corrals + c
                    count += 1
        return count
    out[0] = end_action(rules)
    return _swaps(rules, display, out, 1)


@njit(cache=True, inline="always")
def _next_player(rules: Rules, s: np.ndarray, seats: np.ndarray, corrals: np.ndarray) -> None:
    """The turn ends; the game ends just before seat 0 would play with the deck empty."""
    s[TURN] += 1
    s[PLAYER] = (s[PLAYER] + 1) % rules.options[O_PLAYERS]
    s[PHASE] = START
    if s[DECK_SIZE] == 0 and s[PLAYER] == 0:
        s[OVER] = 1
        s[WINNER] = winner(rules, seats, corrals)


@njit(cache=True, inline="always")
def _refilled(
    rules: Rules, s: np.ndarray, display: np.ndarray, seats: np.ndarray, corrals: np.ndarray
) -> None:
    if s[SETTING_UP]:
        s[SETTING_UP] = 0
        s[PHASE] = START
    elif seats[s[PLAYER], DOGSHIP] and _has_swap(rules, display):
        s[PHASE] = AFTER
    else:
        _next_player(rules, s, seats, corrals)


@njit(cache=True, inline="always")
def _collected(
    rules: Rules, s: np.ndarray, display: np.ndarray, seats: np.ndarray, corrals: np.ndarray
) -> None:
    """After the collected cards are placed: automatic reboot, then the refill."""
    player = s[PLAYER]
    if seats[player, BEAMS] == 0:
        seats[player, BEAMS] = rules.options[O_ALL_BEAMS]
        seats[player, DOGSHIP] = 1
    if s[DECK_SIZE] and _has_empty(display):
        s[PHASE] = FILL
    else:
        _refilled(rules, s, display, seats, corrals)


@njit(cache=True, inline="always")
def caught(rules: Rules, display: np.ndarray, placement: int) -> int:
    """The cells a beam placement collects (``state._catch``): its cards, then the Space
    Cats next to them, once or on and on with ``cat_chain``."""
    cats = 0
    mask = 0
    for cell in range(CELLS):
        if display[cell] == CAT:
            cats |= 1 << cell
        if rules.place_mask[placement] >> cell & 1 and display[cell] != EMPTY:
            mask |= 1 << cell
    chain = rules.options[O_CHAIN]
    new = _neighbours(mask) & cats & ~mask
    while new:
        mask |= new
        new = _neighbours(new) & cats & ~mask if chain else 0
    return mask


@njit(cache=True, inline="always")
def _place(
    rules: Rules,
    s: np.ndarray,
    display: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    log: np.ndarray,
    kind: int,
    corral: int,
) -> None:
    """``state._place``: ``kind`` founds a corral (``corral`` -1) or joins one face up."""
    player = s[PLAYER]
    at = 0
    while pending[at] != kind:
        at += 1
    for i in range(at, s[PENDING] - 1):
        pending[i] = pending[i + 1]
    s[PENDING] -= 1
    mine = corrals[player]
    if corral < 0:
        corral = seats[player, CORRALS]
        seats[player, CORRALS] += 1
        mine[corral, FOUNDER] = kind
        mine[corral, COUNT] = 0
        mine[corral, DOTS] = 0
        mine[corral, BIOMES] = 0
        mine[corral, SPECIES] = -1
    else:
        if mine[corral, COUNT] == 0:
            mine[corral, SPECIES] = rules.species[kind]
        mine[corral, COUNT] += 1
        mine[corral, DOTS] += rules.dots[kind]
        mine[corral, BIOMES] |= 1 << rules.biome[kind]
    logged = s[LOGGED]
    if logged < len(log):
        log[logged, 0] = player
        log[logged, 1] = corral
        log[logged, 2] = kind
    s[LOGGED] = logged + 1
    if s[PENDING] == 0:
        _collected(rules, s, display, seats, corrals)


@njit(cache=True, inline="always")
def apply(
    rules: Rules,
    s: np.ndarray,
    display: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    log: np.ndarray,
    action: int,
) -> None:
    """The player to act plays ``action`` (a legal one: nothing is checked here)."""
    player = s[PLAYER]
    places = len(rules.place_mask)
    if action < places:
        mask = caught(rules, display, action)
        for cell in range(CELLS):
            if mask >> cell & 1:
                card = display[cell]
                if card == CAT:
                    seats[player, FLOOF] += 1
                else:
                    pending[s[PENDING]] = card
                    s[PENDING] += 1
                display[cell] = EMPTY
        seats[player, BEAMS] &= ~(1 << rules.place_beam[action])
        if s[PENDING]:
            s[PHASE] = PLACE
        else:
            _collected(rules, s, display, seats, corrals)
    elif action == places:  # reboot
        seats[player, BEAMS] = rules.options[O_ALL_BEAMS]
        seats[player, DOGSHIP] = 1
        _next_player(rules, s, seats, corrals)
    elif action == places + 1:  # end the turn
        _next_player(rules, s, seats, corrals)
    elif action < _form_base(rules):  # dogship swap
        pair = action - _swap_base(rules)
        first, second = pair // CELLS, pair % CELLS
        display[first], display[second] = display[second], display[first]
        seats[player, DOGSHIP] = 0
        if s[PHASE] == AFTER:
            _next_player(rules, s, seats, corrals)
    elif action < _occupy_base(rules):
        _place(rules, s, display, pending, seats, corrals, log, action - _form_base(rules), -1)
    else:
        kind, corral = _occupied(rules, action)
        _place(rules, s, display, pending, seats, corrals, log, kind, corral)


@njit(cache=True, inline="always")
def chance(
    rules: Rules,
    s: np.ndarray,
    deck: np.ndarray,
    display: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    point: int,
) -> None:
    """The card at ``point`` (0 <= point < deck size) of the deck's counts in kind order,
    then the Space Cats (``state._sample_chance``), drawn into the first empty cell."""
    card = CAT
    for kind in range(len(deck)):
        if point < deck[kind]:
            card = kind
            break
        point -= deck[kind]
    if card == CAT:
        s[DECK_CATS] -= 1
    else:
        deck[card] -= 1
    s[DECK_SIZE] -= 1
    for cell in range(CELLS):
        if display[cell] == EMPTY:
            display[cell] = card
            break
    if s[DECK_SIZE] == 0 or not _has_empty(display):
        _refilled(rules, s, display, seats, corrals)


# ------------------------------------------------------------------ the scoring
@njit(cache=True, inline="always")
def _table_points(at: np.ndarray, points: np.ndarray, amount: int) -> int:
    result = 0
    for row in range(len(at)):
        if amount < at[row]:
            break
        result = points[row]
    return result


@njit(cache=True)
def score(rules: Rules, seats: np.ndarray, corrals: np.ndarray, out: np.ndarray) -> None:
    """``scoring.score_players``: per seat a row of abundance, variety, cats, total."""
    players = rules.options[O_PLAYERS]
    most = 0
    for p in range(players):
        most = max(most, seats[p, FLOOF])
    way = rules.options[O_WAY]
    for p in range(players):
        held = seats[p, FLOOF]
        cats = rules.cats_most if held == most else rules.cats_each * held
        abundance = variety = 0
        for c in range(seats[p, CORRALS]):
            corral = corrals[p, c]
            amount = corral[DOTS] if rules.options[O_BY_DOTS] else corral[COUNT]
            biomes = corral[BIOMES]
            if rules.options[O_VARIETY_ALL] and corral[FOUNDER] >= 0:
                biomes |= 1 << rules.biome[corral[FOUNDER]]
            a = _table_points(rules.abundance_at, rules.abundance_points, amount)
            v = _table_points(rules.variety_at, rules.variety_points, _bits(biomes))
            if way == WAY_ABUNDANCE or (way == WAY_BEST and a >= v):
                abundance += a
            else:
                variety += v
        out[p, 0] = abundance
        out[p, 1] = variety
        out[p, 2] = cats
        out[p, 3] = abundance + variety + cats


@njit(cache=True)
def winner(rules: Rules, seats: np.ndarray, corrals: np.ndarray) -> int:
    """``scoring.winner``: most points, then most Space Cats, then the later seat."""
    players = rules.options[O_PLAYERS]
    parts = np.zeros((players, 4), dtype=np.int64)
    score(rules, seats, corrals, parts)
    best = 0
    for p in range(1, players):
        total, held = parts[p, 3], seats[p, FLOOF]
        top, top_held = parts[best, 3], seats[best, FLOOF]
        if total > top or (total == top and held >= top_held):
            best = p
    return best


# ------------------------------------------------------------------ the greedy bot
@njit(cache=True, inline="always")
def _occupied(rules: Rules, action: int) -> tuple[int, int]:
    """The kind and corral of an occupy action."""
    index = action - _occupy_base(rules)
    return index // rules.max_corrals, index % rules.max_corrals


@njit(cache=True, inline="always")
def _rise(rules: Rules, corral: np.ndarray, kind: int) -> float:
    """How much ``kind`` joining ``corral`` (face-up cards of its species) raises the
    corral's potential: two reads of the table (``GreedyBot._card_values``, ``_place``)."""
    table = rules.potential
    by_dots = rules.options[O_BY_DOTS]
    amount = corral[DOTS] if by_dots else corral[COUNT]
    biomes = corral[BIOMES]
    before = table[min(amount, 60), min(_bits(biomes), 10)]
    grown = _bits(biomes | 1 << rules.biome[kind])
    size = rules.dots[kind] if by_dots else 1
    return table[min(amount + size, 60), min(grown, 10)] - before  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def _kind_values(
    rules: Rules, seats: np.ndarray, corrals: np.ndarray, player: int, display: np.ndarray
) -> np.ndarray:
    """``GreedyBot._card_values`` of every kind in the display (others are left at 0)."""
    values = np.zeros(len(rules.species), dtype=np.float64)
    table = rules.potential
    by_dots = rules.options[O_BY_DOTS]
    mine = corrals[player]
    n = seats[player, CORRALS]
    empty = False
    for c in range(n):
        if mine[c, COUNT] == 0:
            empty = True
    for cell in range(CELLS):
        kind = display[cell]
        if kind < 0:
            continue
        size = rules.dots[kind] if by_dots else 1
        best = rules.greedy[G_FOUND]
        if empty:
            x = table[min(size, 60), 1]
            if x > best:
                best = x
        for c in range(n):
            if mine[c, COUNT] == 0 or mine[c, SPECIES] != rules.species[kind]:
                continue
            x = _rise(rules, mine[c], kind)
            if x > best:
                best = x
        values[kind] = best
    return values


@njit(cache=True, inline="always")
def _beam_values(
    rules: Rules,
    s: np.ndarray,
    display: np.ndarray,
    seats: np.ndarray,
    player: int,
    values: np.ndarray,
) -> np.ndarray:
    """``GreedyBot._beam_values``: every placement's card values summed in the order of
    ``bots._covered_sums`` (column by column down the rows, then the columns in pairs),
    plus what its Space Cats are worth."""
    places = len(rules.place_mask)
    cell_value = np.zeros(CELLS, dtype=np.float64)
    cats = 0
    filled = 0
    count = 0
    for cell in range(CELLS):
        card = display[cell]
        if card >= 0:
            cell_value[cell] = values[card]
        if card == CAT:
            cats |= 1 << cell
            count += 1
        if card != EMPTY:
            filled |= 1 << cell
    every = np.empty(places, dtype=np.float64)
    lane = np.zeros(SIDE, dtype=np.float64)
    covered, sizes = rules.place_cells, rules.place_size
    for p in range(places):
        # Down each column (the cells in order: a column's rows in order), skipping the
        # cells not covered: adding their 0.0 changes no sum of these positive values.
        lane[:] = 0.0
        for i in range(sizes[p]):
            cell = covered[p, i]
            lane[cell & 3] = lane[cell & 3] + cell_value[cell]
        every[p] = (lane[0] + lane[2]) + (lane[1] + lane[3])
    if count == 0:
        return every
    # GreedyBot._cat_values
    mine = seats[player, FLOOF]
    most = 0
    for other in range(rules.options[O_PLAYERS]):
        if other != player and seats[other, FLOOF] > most:
            most = seats[other, FLOOF]
    late = 1.0 / (1.0 + s[DECK_SIZE] / 30.0)
    cat_value = np.zeros(count + 1, dtype=np.float64)
    for taken in range(1, count + 1):
        if mine + taken < most:
            cat_value[taken] = 2.0 * taken
        elif mine >= most and mine > 0:
            cat_value[taken] = -2.5 * taken
        else:
            cat_value[taken] = -(2.0 * mine + 5.0) * late - 1.0 * taken
    chain = rules.options[O_CHAIN]
    for p in range(places):
        mask = rules.place_mask[p] & filled
        met = 0
        if mask:  # GreedyBot._caught
            met = _neighbours(mask) & cats
            if chain:
                grown = 0
                while grown != met:
                    grown = met
                    met = _neighbours(met | mask) & cats
        every[p] = every[p] + cat_value[_bits(met)]
    return every


@njit(cache=True, inline="always")
def _best_swap(
    rules: Rules,
    display: np.ndarray,
    values: np.ndarray,
    options: np.ndarray,
    top: float,
) -> int:
    """``GreedyBot._best_swap``: the swap action lifting the best face-up beam by the
    margin, or -1."""
    margin = rules.greedy[G_SWAP_MARGIN]
    rounding = rules.greedy[G_ROUNDING]
    first = np.zeros(CELLS * CELLS, dtype=np.int64)
    second = np.zeros(CELLS * CELLS, dtype=np.int64)
    gains = np.zeros(CELLS * CELLS, dtype=np.float64)
    pairs = 0
    # The biomes in the order their first card appears, cells in display order.
    order = np.full(rules.biomes, -1, dtype=np.int64)
    seen = 0
    for cell in range(CELLS):
        card = display[cell]
        if card >= 0:
            b = rules.biome[card]
            new = True
            for i in range(seen):
                if order[i] == b:
                    new = False
            if new:
                order[seen] = b
                seen += 1
    for i in range(seen):
        b = order[i]
        high = -np.inf
        low = np.inf
        for cell in range(CELLS):
            card = display[cell]
            if card >= 0 and rules.biome[card] == b:
                high = max(high, values[card])
                low = min(low, values[card])
        if high - low + rounding < margin:
            continue
        for one in range(CELLS):
            card = display[one]
            if card < 0 or rules.biome[card] != b:
                continue
            worth = values[card]
            for two in range(one + 1, CELLS):
                other = display[two]
                if other < 0 or rules.biome[other] != b:
                    continue
                gain = values[other] - worth
                if abs(gain) + rounding >= margin:
                    first[pairs] = one
                    second[pairs] = two
                    gains[pairs] = gain
                    pairs += 1
    if pairs == 0:
        return -1
    needed = top + margin
    largest = abs(gains[0])
    for q in range(1, pairs):
        largest = max(largest, abs(gains[q]))
    best = -np.inf
    chosen = -1
    for p in range(len(rules.place_mask)):
        if not options[p] + largest >= needed:
            continue
        mask = rules.place_mask[p]
        for q in range(pairs):
            delta = float(mask >> first[q] & 1) - float(mask >> second[q] & 1)
            after = options[p] + delta * gains[q]
            if chosen < 0 or after > best:
                best = after
                chosen = q
    if chosen < 0 or best < needed:
        return -1
    return _swap_base(rules) + first[chosen] * CELLS + second[chosen]


@njit(cache=True, inline="always")
def _greedy_start(
    rules: Rules, s: np.ndarray, display: np.ndarray, seats: np.ndarray, corrals: np.ndarray
) -> int:
    """``GreedyBot._start``: the best face-up beam, a reboot, or a swap first."""
    player = s[PLAYER]
    values = _kind_values(rules, seats, corrals, player, display)
    every = _beam_values(rules, s, display, seats, player, values)
    up = seats[player, BEAMS]
    places = len(rules.place_mask)
    options = np.empty(places, dtype=np.float64)
    best = 0
    for p in range(places):
        options[p] = every[p] + (0.0 if up >> rules.place_beam[p] & 1 else -np.inf)
        if options[p] > options[best]:
            best = p
    best_value = options[best]
    if up != rules.options[O_ALL_BEAMS]:
        best_owned = every[0]
        for p in range(1, places):
            best_owned = max(best_owned, every[p])
        if best_value <= 0 or best_value < rules.greedy[G_REBOOT_SHARE] * best_owned - 1.0:
            return reboot_action(rules)
    if seats[player, DOGSHIP]:
        swap = _best_swap(rules, display, values, options, best_value)
        if swap >= 0:
            return swap
    return best


@njit(cache=True, inline="always")
def _greedy_place(
    rules: Rules,
    s: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    actions: np.ndarray,
    count: int,
) -> int:
    """``GreedyBot._place``: the largest gain in a corral of the card's species, else an
    empty corral for the species most collected, else a form of the card least like the
    others (first best in the legal list's order)."""
    player = s[PLAYER]
    mine = corrals[player]
    form, occupy = _form_base(rules), _occupy_base(rules)
    chosen = -1
    best = 0.0
    for i in range(count):
        action = actions[i]
        if action < occupy:
            continue
        kind, c = _occupied(rules, action)
        if mine[c, COUNT] == 0:
            continue
        gain = _rise(rules, mine[c], kind)
        if chosen < 0 or gain > best:
            best = gain
            chosen = action
    if chosen >= 0:
        return chosen
    held = np.zeros(len(rules.species), dtype=np.int64)
    for i in range(s[PENDING]):
        held[rules.species[pending[i]]] += 1
    key_one = key_two = 0
    for i in range(count):  # an empty corral: most of the species, then the first corral
        action = actions[i]
        if action < occupy:
            continue
        kind, c = _occupied(rules, action)
        if mine[c, COUNT] != 0:
            continue
        one, two = held[rules.species[kind]], -(c + 1)
        if chosen < 0 or one > key_one or (one == key_one and two > key_two):
            chosen, key_one, key_two = action, one, two
    if chosen >= 0:
        return chosen
    for i in range(count):  # a new corral: fewest of the species, then fewest dots
        action = actions[i]
        if not form <= action < occupy:
            continue
        kind = action - form
        one, two = held[rules.species[kind]], rules.dots[kind]
        if chosen < 0 or one < key_one or (one == key_one and two < key_two):
            chosen, key_one, key_two = action, one, two
    return chosen


@njit(cache=True, inline="always")
def greedy(
    rules: Rules,
    s: np.ndarray,
    display: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    actions: np.ndarray,
    count: int,
) -> int:
    """``GreedyBot.act`` on the legal list ``actions[:count]``."""
    phase = s[PHASE]
    if phase == PLACE:
        return _greedy_place(rules, s, pending, seats, corrals, actions, count)
    if phase == AFTER:
        return end_action(rules)
    return _greedy_start(rules, s, display, seats, corrals)


@njit(cache=True, inline="always")
def choose(
    rules: Rules,
    s: np.ndarray,
    display: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    policy: int,
    actions: np.ndarray,
) -> int:
    """The action of a ``policy`` seat now."""
    count = legal(rules, s, display, pending, seats, corrals, actions)
    if policy == RANDOM:
        return actions[np.random.randint(count)]
    return greedy(rules, s, display, pending, seats, corrals, actions, count)


# ------------------------------------------------------------------ whole games
@njit(cache=True)
def play_many(rules: Rules, seeds: np.ndarray, policies: np.ndarray, results: np.ndarray) -> None:
    """One game per seed (numba's generator seeded with it), a policy per seat; per game
    a row of: the winner (-1: cut at max_turns), turns, steps, players, then per seat
    :data:`PARTS` (``RocketState.details``)."""
    players = rules.options[O_PLAYERS]
    s = np.zeros(SCALARS, dtype=np.int64)
    deck = np.zeros(len(rules.species), dtype=np.int64)
    display = np.zeros(CELLS, dtype=np.int64)
    pending = np.zeros(CELLS, dtype=np.int64)
    seats = np.zeros((players, SEAT_FIELDS), dtype=np.int64)
    corrals = np.zeros((players, rules.max_corrals, CORRAL_FIELDS), dtype=np.int64)
    log = np.zeros((0, 3), dtype=np.int64)
    actions = np.zeros(action_room(rules), dtype=np.int64)
    parts = np.zeros((players, 4), dtype=np.int64)
    for game in range(len(seeds)):
        np.random.seed(seeds[game])
        setup(rules, s, deck, display, pending, seats, corrals)
        steps = 0
        while True:
            who = current(rules, s)
            if who == TERMINAL:
                break
            if who == CHANCE:
                chance(rules, s, deck, display, seats, corrals, np.random.randint(s[DECK_SIZE]))
            else:
                action = choose(rules, s, display, pending, seats, corrals, policies[who], actions)
                apply(rules, s, display, pending, seats, corrals, log, action)
            steps += 1
        score(rules, seats, corrals, parts)
        row = results[game]
        row[R_WINNER] = s[WINNER] if s[OVER] else -1
        row[R_TURNS] = s[TURN]
        row[R_STEPS] = steps
        row[R_PLAYERS] = players
        for p in range(players):
            at = 4 + p * len(PARTS)
            row[at : at + 4] = parts[p]
            row[at + 4] = seats[p, FLOOF]
            row[at + 5] = seats[p, CORRALS]


@njit(cache=True)
def action_room(rules: Rules) -> int:
    """Room for any legal list: the beams, reboot and swaps, or every placement."""
    start = len(rules.place_mask) + 1 + CELLS * (CELLS - 1) // 2
    return max(start, CELLS * (1 + rules.max_corrals)) + 1


# ------------------------------------------------------------------ the search's playouts
# numba types a plain int above 2**63 as a float in mixed arithmetic: every number of
# the hash is an unsigned 64-bit integer, so its products wrap as SplitMix64's must. The
# constants are core.streams' own; the two small functions are written here again so that
# this module's numba cache depends on no other compiled module (see the module docstring).
_GOLDEN = np.uint64(GOLDEN)
_MIX_1 = np.uint64(MIX_1)
_MIX_2 = np.uint64(MIX_2)
_SHIFT_1, _SHIFT_2, _SHIFT_3 = np.uint64(30), np.uint64(27), np.uint64(31)


@njit(cache=True, inline="always")
def _mix(x: np.uint64) -> np.uint64:
    """``core.streams.mix``: SplitMix64's step, wrapping at 64 bits."""
    x = x + _GOLDEN
    x = (x ^ (x >> _SHIFT_1)) * _MIX_1
    x = (x ^ (x >> _SHIFT_2)) * _MIX_2
    return x ^ (x >> _SHIFT_3)  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def point(stream: int, turn: int, k: int, total: int) -> int:
    """``core.streams.point``: the ``k``-th draw of ``turn`` in ``stream``, in [0, total)."""
    x = _mix(_mix(_mix(np.uint64(stream)) ^ np.uint64(turn)) ^ np.uint64(k))
    return np.int64(x % np.uint64(total))  # type: ignore[return-value]


@njit(cache=True)
def play_on(
    rules: Rules,
    s: np.ndarray,
    deck: np.ndarray,
    display: np.ndarray,
    pending: np.ndarray,
    seats: np.ndarray,
    corrals: np.ndarray,
    log: np.ndarray,
    stream: int,
    turn: int,
    k: int,
    max_steps: int,
    actions: np.ndarray,
    parts: np.ndarray,
) -> tuple[int, bool]:
    """Greedy in every seat plays on until the game ends or ``max_steps`` steps are
    played: (the steps, whether it ended); a rollout cut short leaves each seat's score
    in ``parts`` (:func:`score`). Each draw takes :func:`point` where a ``ChanceStream``
    stands, at draw ``k`` of ``turn``, keyed by the table's turn as ``streams.sample``
    keys it (a new turn counts its draws from 0)."""
    steps = 0
    while True:
        who = current(rules, s)
        if who == TERMINAL:
            return steps, True
        if steps >= max_steps:
            score(rules, seats, corrals, parts)
            return steps, False
        if who == CHANCE:
            if s[TURN] != turn:
                turn = s[TURN]
                k = 0
            drawn = point(stream, max(turn, 0), k, s[DECK_SIZE])
            chance(rules, s, deck, display, seats, corrals, drawn)
            k += 1
        else:
            action = choose(rules, s, display, pending, seats, corrals, GREEDY, actions)
            apply(rules, s, display, pending, seats, corrals, log, action)
        steps += 1
