"""Glory Ranch's rules on arrays, compiled with numba: turns, card actions, rounds, the bots.

One module on purpose: numba trusts a compiled function while its own file is
unchanged, and a function's machine code includes what it calls, so keeping every
compiled function of the engine here keeps numba's on-disk cache honest.

The deck is data (``cards.toml``), and so is the kernel's view of it: :class:`Rules`
holds every card's numbers and Hour Glass bonus, and every card action of the deck
(``GloryRanch.effects``, numbered as the game numbers them) as rows of small codes, so
any deck the card language can write plays here. A table is :class:`Table`: the
scalars below, the deck and discard pile as counts, hands as counts, ranches and their
shields as rows, the cards put face down to pass, the running totals, each player's
pending sign and the stack of pending steps (``state.py``'s tuples as rows of five
integers). Every function follows ``state.py``, ``scoring.py`` and ``bots.py`` line
for line (the same legal lists in the same order, the greedy bot's first best, its
values summed in the same order of float operations), which the differential test
checks step by step.

Actions are integers: a card index (play, discard, give, pass; a draw or a steal), a
seat (target), a position from 1 (place), ``seat * SLOTS + slot`` (pick, slot from 0)
and a sign 0..2 (rock, paper, scissors).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

import numpy as np
from numba import njit
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

from ranchhand.core.streams import GOLDEN, MIX_1, MIX_2

# Who acts (``core.game``).
CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

HAND_SIZE = 5
RANCH_LIMIT = 7
SLOTS = 8
"""Row width of a ranch (a ranch holds at most seven cards)."""
STACK = 256
PASSING = 16

# The scalars of a table.
(
    ROUND,
    FIRST,
    CURRENT,
    DIRECTION,
    SKIPS,
    PLAYING,
    EXHAUSTED,
    SEVENTH,
    PLAYED_SLOT,
    ROUND_TURNS,
    TURN,
    DEPTH,
    OVER,
    WINNERS,
) = range(14)
SCALARS = 14

# Steps (``state.py``'s tuples: kind, then up to four numbers).
(
    S_DO,
    S_DRAW,
    S_STEAL,
    S_RPS,
    S_DELIVER,
    S_TRADE,
    S_TARGET,
    S_PLAY,
    S_DISCARD,
    S_GIVE,
    S_PASS,
    S_PLACE,
    S_PICK,
) = range(13)

# Action words (``cards.VOCABULARY``).
(
    DRAW,
    DISCARD,
    GIVE,
    PASS,
    TRADE,
    STEAL,
    REVERSE,
    SKIP,
    PLAY,
    PLACE,
    BANISH,
    RETURN,
    PROTECT,
    RPS,
) = range(14)
WORDS = (
    "draw",
    "discard",
    "give",
    "pass",
    "trade",
    "steal",
    "reverse",
    "skip",
    "play",
    "place",
    "banish",
    "return",
    "protect",
    "rps",
)
# Who draws or discards; which player a "chosen" field names.
YOU, EACH, OTHERS, CHOSEN, RIVAL = range(5)
WHO = ("you", "each", "others", "chosen", "rival")
# Whose ranch a pick looks at.
YOURS, OPPONENT, ANY = range(3)
SCOPES = ("yours", "opponent", "any")
# Place: at the left end, or anywhere.
AT_LEFT, AT_ANY = 0, 1

# Hour Glass bonuses (``scoring.py``'s kinds).
FAMILY, NEIGHBOUR, LEFT_END, RIGHT_END, MOST, EMPTY_HAND, VARIETY = range(7)
NO_BONUS = -1
EVERY = -1
"""A bonus family that counts every card ("any", "cards")."""

# Options, as entries of ``Rules.options``.
O_PLAYERS, O_TARGET, O_SHARE, O_RPS_TIES, O_MAX_TURNS = range(5)
OPTIONS = 5

# Columns of ``Rules.cards`` and ``Rules.effects``.
(
    C_COPIES,
    C_GLORY,
    C_PENALTY,
    C_FAMILY,
    C_BONUS_KIND,
    C_BONUS_GLORY,
    C_BONUS_FAMILY,
    C_ACTION_COUNT,
    C_PLACED,
    C_RETURNS,
    C_READS_REST,
) = range(11)
CARD_COLUMNS = (
    "copies",
    "glory",
    "penalty",
    "family",
    "bonus_kind",
    "bonus_glory",
    "bonus_family",
    "action_count",
    "placed",
    "returns",
    "reads_rest",
)
(
    E_DO,
    E_N,
    E_WHO,
    E_CHOSEN,
    E_SIDE,
    E_AT,
    E_SCOPE,
    E_WIN_COUNT,
    E_LOSE_COUNT,
) = range(9)
EFFECT_COLUMNS = (
    "e_do",
    "e_n",
    "e_who",
    "e_chosen",
    "e_side",
    "e_at",
    "e_scope",
    "e_win_count",
    "e_lose_count",
)

# Policies.
RANDOM, GREEDY = 0, 1

# The greedy bot's constants (``bots.py``).
HOSTILE_DRAW = 1.2
RETURN_BACK = 100.0

# Result columns of ``play_many``: then each player's total, then per card the
# rounds it was in a ranch and the rounds it was in a round winner's ranch.
R_WINNER, R_TURNS, R_STEPS, R_WINNERS, R_ROUNDS, R_ROUND_TURNS, R_PLAYER_ROUNDS, R_ROUND_WINS = (
    range(8)
)
R_PLAYERS, R_TOTALS = 8, 9


class Rules(NamedTuple):
    """A loaded game's constants as arrays (``engine.rules_of`` builds them): six arrays,
    not one per number, since every compiled call that is not inlined passes each array
    field by field."""

    cards: np.ndarray
    """Per card, the columns ``C_``: copies, Glory, penalty, family, its Hour Glass rule
    (:data:`NO_BONUS` without), that rule's Glory and the family it counts (:data:`EVERY`
    for every card), how many actions it has, whether its first action places it (0, or
    1 + that action's ``at``), whether it returns a ranch card, whether one of its actions'
    worth reads the rest of the hand (greedy's ``reads_rest``)."""
    actions: np.ndarray
    """Per card: its actions' effect numbers."""
    effects: np.ndarray
    """Per effect, the columns ``E_``: its action word, ``n``, ``who``, whether its player
    field is "chosen" (:data:`CHOSEN`), "rival" (:data:`RIVAL`) or neither (-1), the side
    a pass goes to (1 left, -1 right), where a place puts the card, a pick's scope, and
    how many consequences it has for a contest's winner and loser."""
    e_win: np.ndarray
    e_lose: np.ndarray
    """Per effect: a contest's consequences for the winner and the loser (effect numbers)."""
    options: np.ndarray


class Table(NamedTuple):
    """One game's position (see the module docstring), with the kernel's scratch rows."""

    s: np.ndarray
    deck: np.ndarray
    discard: np.ndarray
    hands: np.ndarray
    ranch: np.ndarray
    shield: np.ndarray
    size: np.ndarray
    """Cards in each ranch."""
    passing: np.ndarray
    passed: np.ndarray
    """Cards each player has put face down to pass, and how many."""
    totals: np.ndarray
    signs: np.ndarray
    stack: np.ndarray
    legal: np.ndarray
    """Scratch: the legal actions listed last."""
    tally: np.ndarray
    """Per round scored: rounds, turns, player rounds, round wins, then per card seen and won."""
    steps: np.ndarray
    """Scratch: the steps one card action makes, before they go on the stack."""
    work: np.ndarray
    """Scratch rows for the greedy bot (a ranch tried, a hand, threats): no allocation a
    decision."""


def table(rules: Rules) -> Table:
    """An empty table for ``rules``' player count and deck (fill it with :func:`setup`)."""
    players = int(rules.options[O_PLAYERS])
    kinds = len(rules.cards)

    def zeros(*shape: int) -> np.ndarray:
        return np.zeros(shape, dtype=np.int64)

    return Table(
        zeros(SCALARS),
        zeros(kinds),
        zeros(kinds),
        zeros(players, kinds),
        zeros(players, SLOTS),
        zeros(players, SLOTS),
        zeros(players),
        zeros(players, PASSING),
        zeros(players),
        zeros(players),
        np.full(players, -1, dtype=np.int64),
        zeros(STACK, 5),
        zeros(max(kinds, players * SLOTS, 3) + 1),
        zeros(4 + 2 * kinds),
        zeros(STACK, 5),
        zeros(4, max(kinds, SLOTS, players)),
    )


# ------------------------------------------------------------------ borrowed arrays
def _borrowed(typingctx: Any, array: Any) -> Any:
    """The same array, its memory not reference-counted: for the arrays a run of games
    reads and writes all along, which its caller keeps alive. Every compiled call
    otherwise counts a reference to each array it is passed, atomically, and a table and
    its rules are forty-odd arrays passed to every function (Rancho's ``fast/play.py``
    measured that counting at a third of a random game; here borrowing took random games
    from about 400,000 to the steps/s in docs/performance.md)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        view = make_array(array)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


borrowed = cast(Callable[[np.ndarray], np.ndarray], intrinsic(_borrowed))


@njit(cache=True)
def borrow(rules: Rules, t: Table) -> tuple[Rules, Table]:
    """``rules`` and ``t`` with every array :func:`borrowed` (their caller keeps them)."""
    return (
        Rules(
            borrowed(rules.cards),
            borrowed(rules.actions),
            borrowed(rules.effects),
            borrowed(rules.e_win),
            borrowed(rules.e_lose),
            borrowed(rules.options),
        ),
        Table(
            borrowed(t.s),
            borrowed(t.deck),
            borrowed(t.discard),
            borrowed(t.hands),
            borrowed(t.ranch),
            borrowed(t.shield),
            borrowed(t.size),
            borrowed(t.passing),
            borrowed(t.passed),
            borrowed(t.totals),
            borrowed(t.signs),
            borrowed(t.stack),
            borrowed(t.legal),
            borrowed(t.tally),
            borrowed(t.steps),
            borrowed(t.work),
        ),
    )


# ------------------------------------------------------------------ the stack
@njit(cache=True)
def _push(t: Table, kind: int, a: int, b: int, c: int, d: int) -> None:
    depth = t.s[DEPTH]
    row = t.stack[depth]
    row[0], row[1], row[2], row[3], row[4] = kind, a, b, c, d
    t.s[DEPTH] = depth + 1


@njit(cache=True)
def _push_reversed(t: Table, steps: np.ndarray, count: int) -> None:
    """``stack.extend(reversed(steps))``: the first step of ``steps`` ends on top."""
    for i in range(count - 1, -1, -1):
        _push(t, steps[i, 0], steps[i, 1], steps[i, 2], steps[i, 3], steps[i, 4])


@njit(cache=True)
def _seat(x: int, n: int) -> int:
    return ((x % n) + n) % n


@njit(cache=True)
def _total(counts: np.ndarray) -> int:
    """``counts.sum()`` as a plain loop: numba's ``sum`` walks an array generically, about
    100 ns for a deck's 32 counts, and a game sums the deck or a hand at every step."""
    total = 0
    for i in range(len(counts)):
        total += counts[i]
    return total


@njit(cache=True)
def _any(counts: np.ndarray) -> bool:
    """Whether any count is above 0 (the first one found ends the look)."""
    for i in range(len(counts)):  # noqa: SIM110 (loops compile; generators in any() do not)
        if counts[i] > 0:
            return True
    return False


# ------------------------------------------------------------------ the table
@njit(cache=True)
def setup(rules: Rules, t: Table) -> None:
    """A new game: round 1 from seat 0, everything in the deck, the deal queued."""
    n = rules.options[O_PLAYERS]
    t.s[:] = 0
    t.s[ROUND] = 1
    t.s[DIRECTION] = 1
    t.totals[:] = 0
    t.signs[:] = -1
    t.passed[:] = 0
    t.tally[:] = 0
    _clear_round(rules, t)
    _deal(t, n)


@njit(cache=True)
def _clear_round(rules: Rules, t: Table) -> None:
    for k in range(len(rules.cards)):
        t.deck[k] = rules.cards[k, C_COPIES]
    t.discard[:] = 0
    t.hands[:, :] = 0
    t.size[:] = 0
    t.ranch[:, :] = 0
    t.shield[:, :] = 0


@njit(cache=True)
def _deal(t: Table, n: int) -> None:
    """Queue five cards to each player in turn from the round's first player."""
    t.s[DEPTH] = 0
    first = t.s[FIRST]
    for i in range(HAND_SIZE * n - 1, -1, -1):
        _push(t, S_DRAW, (first + i % n) % n, 0, 0, 0)


@njit(cache=True)
def current(rules: Rules, t: Table) -> int:
    """The player to act, CHANCE, SIMULTANEOUS, or TERMINAL (won, or cut at max_turns)."""
    if t.s[OVER]:
        return TERMINAL
    max_turns = rules.options[O_MAX_TURNS]
    if max_turns > 0 and t.s[TURN] >= max_turns:
        return TERMINAL
    depth = t.s[DEPTH]
    if depth == 0:
        return t.s[CURRENT]
    kind = t.stack[depth - 1, 0]
    if kind in (S_DRAW, S_STEAL):
        return CHANCE
    if kind == S_RPS:
        return SIMULTANEOUS
    return t.stack[depth - 1, 1]


@njit(cache=True)
def _hand_choices(t: Table, player: int, out: np.ndarray) -> int:
    count = 0
    hand = t.hands[player]
    for k in range(len(hand)):
        if hand[k] > 0:
            out[count] = k
            count += 1
    return count


@njit(cache=True)
def _options(rules: Rules, t: Table, step: np.ndarray, out: np.ndarray) -> int:
    """The choices a decision step offers, in ``state._options``' order (0: skipped)."""
    n = rules.options[O_PLAYERS]
    kind, actor = step[0], step[1]
    if kind == S_PLAY:
        if t.size[actor] >= RANCH_LIMIT:
            return 0
        return _hand_choices(t, actor, out)
    if kind in (S_DISCARD, S_GIVE, S_PASS):
        return _hand_choices(t, actor, out)
    if kind == S_TARGET:
        for i in range(1, n):
            out[i - 1] = (actor + i) % n
        return n - 1
    if kind == S_PLACE:
        for slot in range(t.size[actor]):
            out[slot] = slot + 1
        return t.size[actor]
    # pick: a card in a ranch, for banish / return / protect
    scope = step[3]
    start, stop = 0, n
    if scope == YOURS:
        stop = 1
    elif scope == OPPONENT:
        start = 1
    count = 0
    for i in range(start, stop):
        seat = (actor + i) % n
        for slot in range(t.size[seat]):
            if t.shield[seat, slot] == 0:
                out[count] = seat * SLOTS + slot
                count += 1
    return count


@njit(cache=True)
def legal(rules: Rules, t: Table, player: int) -> int:
    """The actions ``player`` may take now, in ``t.legal``; how many."""
    out = t.legal
    depth = t.s[DEPTH]
    if depth == 0:
        return _hand_choices(t, player, out)
    top = t.stack[depth - 1]
    if top[0] == S_RPS:
        for sign in range(3):
            out[sign] = sign
        return 3
    return _options(rules, t, top, out)


@njit(cache=True)
def acting(t: Table, out: np.ndarray) -> int:
    """At a contest: the players who still owe a sign (its challenger first); how many."""
    top = t.stack[t.s[DEPTH] - 1]
    count = 0
    for p in (top[1], top[2]):
        if t.signs[p] < 0:
            out[count] = p
            count += 1
    return count


@njit(cache=True)
def chance_counts(t: Table) -> np.ndarray:
    """The counts the chance node draws from: the deck, or the robbed player's hand."""
    top = t.stack[t.s[DEPTH] - 1]
    if top[0] == S_DRAW:
        return t.deck
    return t.hands[top[2]]


@njit(cache=True)
def chance(rules: Rules, t: Table, point: int) -> None:
    """Apply the card at ``point`` of the counts' total (``draw_weighted``'s walk)."""
    counts = chance_counts(t)
    card = 0
    seen = counts[0]
    while seen <= point:
        card += 1
        seen += counts[card]
    apply(rules, t, CHANCE, card)


@njit(cache=True)
def chance_total(t: Table) -> int:
    return _total(chance_counts(t))


@njit(cache=True)
def apply(rules: Rules, t: Table, player: int, action: int) -> None:
    """Carry out ``action`` of ``player`` (CHANCE: the card drawn or stolen), then settle."""
    depth = t.s[DEPTH]
    if player == CHANCE:
        top = t.stack[depth - 1]
        t.s[DEPTH] = depth - 1
        if top[0] == S_DRAW:
            t.deck[action] -= 1
            t.hands[top[1], action] += 1
        else:
            t.hands[top[2], action] -= 1
            t.hands[top[1], action] += 1
    elif depth > 0 and t.stack[depth - 1, 0] == S_RPS:
        t.signs[player] = action
        top = t.stack[depth - 1]
        if t.signs[top[1]] >= 0 and t.signs[top[2]] >= 0:
            _contest(rules, t)
    elif depth == 0:
        _play(rules, t, player, action)
    else:
        t.s[DEPTH] = depth - 1
        top = t.stack[depth - 1]
        _decide(rules, t, top[0], top[1], top[2], top[3], action)
    _settle(rules, t)


@njit(cache=True)
def _play(rules: Rules, t: Table, player: int, card: int) -> None:
    """Put ``card`` at the right end of ``player``'s ranch and queue its actions."""
    t.hands[player, card] -= 1
    size = t.size[player]
    t.ranch[player, size] = card
    t.shield[player, size] = 0
    t.size[player] = size + 1
    t.s[PLAYED_SLOT] = size
    if size + 1 == RANCH_LIMIT:
        t.s[SEVENTH] = 1
    t.s[PLAYING] = 1
    for i in range(rules.cards[card, C_ACTION_COUNT] - 1, -1, -1):
        _push(t, S_DO, player, -1, rules.actions[card, i], 0)


@njit(cache=True)
def _settle(rules: Rules, t: Table) -> None:
    """Carry out steps that need no choice until a decision, chance or contest is due."""
    n = rules.options[O_PLAYERS]
    while t.s[OVER] == 0:
        depth = t.s[DEPTH]
        if depth == 0:
            if t.s[PLAYING] == 0:
                return
            _finish_turn(rules, t)
            continue
        top = t.stack[depth - 1]
        kind = top[0]
        if kind == S_DO:
            t.s[DEPTH] = depth - 1
            _expand(rules, t, top[3], top[1], top[2], -1)
        elif kind == S_DRAW:
            if _any(t.deck):
                return
            if _any(t.discard):
                t.deck[:] = t.discard
                t.discard[:] = 0
                return
            t.s[EXHAUSTED] = 1
            t.s[DEPTH] = depth - 1
        elif kind == S_STEAL:
            if _any(t.hands[top[2]]):
                return
            t.s[DEPTH] = depth - 1
        elif kind == S_RPS:
            return
        elif kind == S_DELIVER:
            t.s[DEPTH] = depth - 1
            shift = top[1]
            for p in range(n):
                seat = _seat(p + shift, n)
                for i in range(t.passed[p]):
                    t.hands[seat, t.passing[p, i]] += 1
                t.passed[p] = 0
        elif kind == S_TRADE:
            t.s[DEPTH] = depth - 1
            a, b = top[1], top[2]
            for k in range(t.hands.shape[1]):
                t.hands[a, k], t.hands[b, k] = t.hands[b, k], t.hands[a, k]
        else:
            count = _options(rules, t, top, t.legal)
            if count > 1:
                return
            t.s[DEPTH] = depth - 1
            if count == 1:
                _decide(rules, t, top[0], top[1], top[2], top[3], t.legal[0])


@njit(cache=True)
def _finish_turn(rules: Rules, t: Table) -> None:
    n = rules.options[O_PLAYERS]
    t.s[PLAYING] = 0
    t.s[ROUND_TURNS] += 1
    t.s[TURN] += 1
    ended = t.s[EXHAUSTED] == 1 or t.s[SEVENTH] == 1
    for p in range(n):
        if not _any(t.hands[p]):
            ended = True
    t.s[SEVENTH] = 0
    if ended:
        _end_round(rules, t)
        return
    step = t.s[DIRECTION] * (1 + t.s[SKIPS])
    t.s[SKIPS] = 0
    t.s[CURRENT] = _seat(t.s[CURRENT] + step, n)


@njit(cache=True)
def _end_round(rules: Rules, t: Table) -> None:
    n = rules.options[O_PLAYERS]
    kinds = len(rules.cards)
    points = np.zeros(n, dtype=np.int64)
    for p in range(n):
        hand_size = _total(t.hands[p])
        penalty = 0
        for k in range(kinds):
            penalty += rules.cards[k, C_PENALTY] * t.hands[p, k]
        points[p] = ranch_points(rules, t, p, t.ranch[p], t.size[p], hand_size) - penalty
    best = points.max()
    tally = t.tally
    tally[0] += 1
    tally[1] += t.s[ROUND_TURNS]
    seen = np.zeros(kinds, dtype=np.int64)
    for p in range(n):
        won = 1 if points[p] == best else 0
        tally[2] += 1
        tally[3] += won
        seen[:] = 0
        for i in range(t.size[p]):
            seen[t.ranch[p, i]] = 1
        for k in range(kinds):
            if seen[k]:
                tally[4 + k] += 1
                tally[4 + kinds + k] += won
    for p in range(n):
        t.totals[p] = max(0, t.totals[p] + points[p])
    top = t.totals.max()
    if top >= rules.options[O_TARGET]:
        leaders = 0
        mask = 0
        for p in range(n):
            if t.totals[p] == top:
                leaders += 1
                mask |= 1 << p
        if leaders == 1 or rules.options[O_SHARE] == 1:
            t.s[OVER] = 1
            t.s[WINNERS] = mask
            return
    t.s[ROUND] += 1
    t.s[FIRST] = (t.s[FIRST] + 1) % n
    t.s[CURRENT] = t.s[FIRST]
    _clear_round(rules, t)
    t.s[DIRECTION] = 1
    t.s[SKIPS] = 0
    t.s[ROUND_TURNS] = 0
    t.s[EXHAUSTED] = 0
    _deal(t, n)


# ------------------------------------------------------------------ card actions
@njit(cache=True)
def _expand(rules: Rules, t: Table, e: int, actor: int, rival: int, target: int) -> None:
    """Turn one card action into the steps that carry it out (pushed on the stack)."""
    n = rules.options[O_PLAYERS]
    do = rules.effects[e, E_DO]
    chosen = rules.effects[e, E_CHOSEN]
    if chosen == CHOSEN and target < 0:
        _push(t, S_TARGET, actor, rival, e, 0)
        return
    if chosen == RIVAL:
        target = rival
    count = rules.effects[e, E_N]
    steps = t.steps
    for i in range(3 * n + 1):  # the rows this action may fill, as fresh as state.py's tuples
        for j in range(5):
            steps[i, j] = 0
    made = 0
    if do in (DRAW, DISCARD):
        kind = S_DRAW if do == DRAW else S_DISCARD
        who = rules.effects[e, E_WHO]
        start, stop = 0, 1
        if who == EACH:
            stop = n
        elif who == OTHERS:
            start, stop = 1, n
        for i in range(start, stop):
            p = (actor + i) % n
            if who in (CHOSEN, RIVAL):
                p = target
            for _ in range(count):
                steps[made, 0], steps[made, 1] = kind, p
                made += 1
    elif do in (GIVE, STEAL):
        for _ in range(count):
            steps[made, 0] = S_GIVE if do == GIVE else S_STEAL
            steps[made, 1], steps[made, 2] = actor, target
            made += 1
    elif do == TRADE:
        steps[0, 0], steps[0, 1], steps[0, 2] = S_TRADE, actor, target
        made = 1
    elif do == PASS:
        shift = rules.effects[e, E_SIDE]
        for i in range(n):
            p = (actor + i) % n
            for _ in range(count):
                steps[made, 0], steps[made, 1], steps[made, 2] = S_PASS, p, _seat(p + shift, n)
                made += 1
        steps[made, 0], steps[made, 1] = S_DELIVER, shift
        made += 1
    elif do == REVERSE:
        t.s[DIRECTION] = -t.s[DIRECTION]
    elif do == SKIP:
        t.s[SKIPS] += 1
    elif do == PLAY:
        steps[0, 0], steps[0, 1] = S_PLAY, actor
        made = 1
    elif do == PLACE:
        if rules.effects[e, E_AT] == AT_LEFT:
            _move_played(t, actor, 0)
        else:
            steps[0, 0], steps[0, 1] = S_PLACE, actor
            made = 1
    elif do in (BANISH, RETURN):
        scope = rules.effects[e, E_SCOPE]
        steps[0, 0], steps[0, 1], steps[0, 2], steps[0, 3] = S_PICK, actor, do, scope
        made = 1
    elif do == PROTECT:
        steps[0, 0], steps[0, 1], steps[0, 2], steps[0, 3] = S_PICK, actor, PROTECT, YOURS
        made = 1
    elif do == RPS:
        steps[0, 0], steps[0, 1], steps[0, 2], steps[0, 3] = S_RPS, actor, target, e
        made = 1
    _push_reversed(t, steps, made)


@njit(cache=True)
def _move_played(t: Table, player: int, slot: int) -> None:
    """Move the card just played to ``slot`` of its ranch (the others keep their order)."""
    ranch, shield = t.ranch[player], t.shield[player]
    played = t.s[PLAYED_SLOT]
    card, guard = ranch[played], shield[played]
    for i in range(played, t.size[player] - 1):
        ranch[i], shield[i] = ranch[i + 1], shield[i + 1]
    for i in range(t.size[player] - 1, slot, -1):
        ranch[i], shield[i] = ranch[i - 1], shield[i - 1]
    ranch[slot], shield[slot] = card, guard
    t.s[PLAYED_SLOT] = slot


@njit(cache=True)
def _decide(rules: Rules, t: Table, kind: int, actor: int, b: int, c: int, action: int) -> None:
    """Carry out a decision ``action`` answering the step (``kind``, ``actor``, ``b``,
    ``c``), already popped."""
    if kind == S_TARGET:
        _expand(rules, t, c, actor, b, action)
    elif kind == S_PLAY:
        _play(rules, t, actor, action)
    elif kind == S_DISCARD:
        t.hands[actor, action] -= 1
        t.discard[action] += 1
    elif kind == S_GIVE:
        t.hands[actor, action] -= 1
        t.hands[b, action] += 1
    elif kind == S_PASS:
        t.hands[actor, action] -= 1
        t.passing[actor, t.passed[actor]] = action
        t.passed[actor] += 1
    elif kind == S_PLACE:
        _move_played(t, actor, action - 1)
    else:
        seat, slot = action // SLOTS, action % SLOTS
        card = t.ranch[seat, slot]
        if b == PROTECT:
            t.shield[seat, slot] = 1
            return
        for i in range(slot, t.size[seat] - 1):
            t.ranch[seat, i] = t.ranch[seat, i + 1]
            t.shield[seat, i] = t.shield[seat, i + 1]
        t.size[seat] -= 1
        if seat == actor and slot < t.s[PLAYED_SLOT]:
            t.s[PLAYED_SLOT] -= 1
        if b == BANISH:
            t.discard[card] += 1
        else:
            t.hands[seat, card] += 1


@njit(cache=True)
def _contest(rules: Rules, t: Table) -> None:
    """Both signs are in: a tie replays (void at ``rps_ties``); else queue the consequences."""
    depth = t.s[DEPTH]
    step = t.stack[depth - 1]
    a, b, e = step[1], step[2], step[3]
    sa, sb = t.signs[a], t.signs[b]
    t.signs[:] = -1
    if sa == sb:
        ties = step[4] + 1
        if ties >= rules.options[O_RPS_TIES]:
            t.s[DEPTH] = depth - 1
            return
        step[4] = ties
        return
    t.s[DEPTH] = depth - 1
    winner, loser = (a, b) if (sa - sb + 3) % 3 == 1 else (b, a)
    wins, loses = rules.effects[e, E_WIN_COUNT], rules.effects[e, E_LOSE_COUNT]
    for i in range(loses - 1, -1, -1):
        _push(t, S_DO, loser, winner, rules.e_lose[e, i], 0)
    for i in range(wins - 1, -1, -1):
        _push(t, S_DO, winner, loser, rules.e_win[e, i], 0)


# ------------------------------------------------------------------ scoring
@njit(cache=True)
def _count(rules: Rules, ranch: np.ndarray, size: int, family: int) -> int:
    if family == EVERY:
        return size
    count = 0
    for i in range(size):
        if rules.cards[ranch[i], C_FAMILY] == family:
            count += 1
    return count


@njit(cache=True)
def ranch_points(
    rules: Rules, t: Table, player: int, ranch: np.ndarray, size: int, hand_size: int
) -> int:
    """``scoring.ranch_points`` of ``player`` were their ranch ``ranch[:size]`` (the other
    ranches as on the table): the Glory of its cards plus its Hour Glass bonuses."""
    n = rules.options[O_PLAYERS]
    total = 0
    for slot in range(size):
        k = ranch[slot]
        total += rules.cards[k, C_GLORY]
        kind = rules.cards[k, C_BONUS_KIND]
        if kind == NO_BONUS:
            continue
        glory, of = rules.cards[k, C_BONUS_GLORY], rules.cards[k, C_BONUS_FAMILY]
        if kind == FAMILY:
            total += glory * _count(rules, ranch, size, of)
        elif kind == NEIGHBOUR:
            near = 0
            for other in (slot - 1, slot + 1):
                if 0 <= other < size and (of == EVERY or rules.cards[ranch[other], C_FAMILY] == of):
                    near += 1
            total += glory * near
        elif kind == LEFT_END:
            total += glory if slot == 0 else 0
        elif kind == RIGHT_END:
            total += glory if slot == size - 1 else 0
        elif kind == MOST:
            mine = _count(rules, ranch, size, of)
            if mine < 1:
                continue
            most = True
            for q in range(n):
                if q != player and _count(rules, t.ranch[q], t.size[q], of) > mine:
                    most = False
                    break
            if most:
                total += glory
        elif kind == EMPTY_HAND:
            total += glory if hand_size == 0 else 0
        else:
            families = 0
            for i in range(size):
                first = True
                for j in range(i):
                    if rules.cards[ranch[j], C_FAMILY] == rules.cards[ranch[i], C_FAMILY]:
                        first = False
                        break
                if first:
                    families += 1
            total += glory * families
    return total


# ------------------------------------------------------------------ the greedy bot
@njit(cache=True)
def _threats(rules: Rules, t: Table, me: int) -> np.ndarray:
    """``bots.threats``: running total plus the Glory in each ranch now (mine - 1000)."""
    n = rules.options[O_PLAYERS]
    threat = t.work[2, :n]
    for p in range(n):
        points = ranch_points(rules, t, p, t.ranch[p], t.size[p], _total(t.hands[p]))
        threat[p] = t.totals[p] + points
    threat[me] -= 1000
    return threat


@njit(cache=True)
def _top_penalties(rules: Rules, rest: np.ndarray, n: int) -> int:
    """The sum of the ``n`` largest penalties among the cards counted in ``rest`` (taken
    out one at a time, then put back; ``n`` is at most ``cards.MAX_COUNT``, 3)."""
    total = 0
    first, second, third = -1, -1, -1
    for i in range(n):
        best = -1
        for k in range(len(rest)):
            heavier = best < 0 or rules.cards[k, C_PENALTY] > rules.cards[best, C_PENALTY]
            if rest[k] > 0 and heavier:
                best = k
        if best < 0:
            break
        total += rules.cards[best, C_PENALTY]
        rest[best] -= 1
        if i == 0:
            first = best
        elif i == 1:
            second = best
        else:
            third = best
    for k in (first, second, third):
        if k >= 0:
            rest[k] += 1
    return total


@njit(cache=True)
def _effect_value(
    rules: Rules,
    t: Table,
    e: int,
    me: int,
    rest: np.ndarray,
    ranch: np.ndarray,
    size: int,
    hand_left: int,
    smallest: int,
    soon: bool,
) -> float:
    """``bots.effect_value``: a rough worth to me of one action of the card I play."""
    n = rules.options[O_PLAYERS]
    seats = n - 1
    do = rules.effects[e, E_DO]
    count = rules.effects[e, E_N]
    own_draw = -2.0 if soon else -0.5
    if do == DRAW:
        who = rules.effects[e, E_WHO]
        if who == YOU:
            return count * own_draw
        if who == EACH:
            return count * (own_draw + HOSTILE_DRAW * seats)
        if who == OTHERS:
            return count * HOSTILE_DRAW * seats
        return count * HOSTILE_DRAW * 1.5
    if do in (DISCARD, GIVE):
        if do == DISCARD and rules.effects[e, E_WHO] != YOU:
            return 0.0
        return float(_top_penalties(rules, rest, count)) + (0.5 if do == GIVE else 0.0)
    if do == PASS:
        return 0.5 if hand_left else 0.0
    if do == TRADE:
        penalties = 0
        for k in range(len(rest)):
            penalties += rules.cards[k, C_PENALTY] * rest[k]
        return 1.5 * (_total(rest) - smallest) + penalties * 0.3
    if do == STEAL:
        return -0.5 * count
    if do == SKIP:
        return 1.0
    if do == PLAY:
        return 2.0 if hand_left and size < RANCH_LIMIT else 0.0
    if do in (BANISH, RETURN):
        if rules.effects[e, E_SCOPE] == YOURS:
            low = 0
            for i in range(size):
                g = rules.cards[ranch[i], C_GLORY]
                if i == 0 or g < low:
                    low = g
            return float(-low)
        best = 0
        worth = False
        open_cards = False
        for q in range(n):
            if q == me:
                continue
            for i in range(t.size[q]):
                if t.shield[q, i]:
                    continue
                card = t.ranch[q, i]
                open_cards = True
                if do == RETURN and rules.cards[card, C_RETURNS]:
                    continue
                g = rules.cards[card, C_GLORY]
                if not worth or g > best:
                    best = g
                worth = True
        if do == RETURN:
            if not worth and open_cards:
                return -2.0
            return 0.7 * best + (1.0 if worth else 0.0)
        return 0.7 * best
    if do in (PROTECT, RPS):
        return 0.5
    return 0.0


@njit(cache=True)
def _best_play(rules: Rules, t: Table, me: int, count: int) -> int:
    """``bots.best_play``: the first card of greatest value among the ``count`` legal ones."""
    n = rules.options[O_PLAYERS]
    hand = t.hands[me]
    hand_left = _total(hand) - 1
    smallest = -1
    for p in range(n):
        if p != me and (smallest < 0 or _total(t.hands[p]) < smallest):
            smallest = _total(t.hands[p])
    soon = smallest <= hand_left + 1
    before = ranch_points(rules, t, me, t.ranch[me], t.size[me], hand_left)
    ranch = t.work[0, :SLOTS]
    rest = t.work[1, : len(hand)]
    size = t.size[me] + 1
    best = -1
    best_value = 0.0
    for j in range(count):
        index = t.legal[j]
        ranch[: size - 1] = t.ranch[me, : size - 1]
        ranch[size - 1] = index
        if rules.cards[index, C_PLACED]:
            slot = (
                0
                if rules.cards[index, C_PLACED] == 1 + AT_LEFT
                else _best_slot(rules, t, me, ranch, size, hand_left)
            )
            for i in range(size - 1, slot, -1):
                ranch[i] = ranch[i - 1]
            ranch[slot] = index
        points = ranch_points(rules, t, me, ranch, size, hand_left)
        value = float(points - before + rules.cards[index, C_PENALTY])
        rest[:] = 0
        if rules.cards[index, C_READS_REST]:
            rest[:] = hand
            rest[index] -= 1
        for a in range(rules.cards[index, C_ACTION_COUNT]):
            value += _effect_value(
                rules, t, rules.actions[index, a], me, rest, ranch, size, hand_left, smallest, soon
            )
        if best < 0 or value > best_value:
            best, best_value = index, value
    return best


@njit(cache=True)
def _best_slot(
    rules: Rules, t: Table, me: int, ranch: np.ndarray, size: int, hand_size: int
) -> int:
    """``bots.best_slot``: the best position for the card at the end of ``ranch[:size]``."""
    card = ranch[size - 1]
    trial = t.work[3, :SLOTS]
    best, best_points = size - 1, -1
    for slot in range(size):
        at = 0
        for i in range(size):
            if i == slot:
                trial[i] = card
            else:
                trial[i] = ranch[at]
                at += 1
        points = ranch_points(rules, t, me, trial, size, hand_size)
        if points > best_points:
            best, best_points = slot, points
    return best


@njit(cache=True)
def _choose_target(rules: Rules, t: Table, me: int, effect: int, count: int) -> int:
    """``bots.choose_target``: trade with the smallest hand, steal from the largest, hurt
    the leader otherwise."""
    threat = _threats(rules, t, me)
    do = rules.effects[effect, E_DO]
    best = -1
    best_size, best_threat = 0, 0
    for j in range(count):
        seat = t.legal[j]
        size, danger = _total(t.hands[seat]), threat[seat]
        if do == TRADE:
            better = best < 0 or size < best_size or (size == best_size and -danger < -best_threat)
        elif do == STEAL:
            better = best < 0 or size > best_size or (size == best_size and danger > best_threat)
        else:
            better = best < 0 or danger - 2 * size > best_threat - 2 * best_size
        if better:
            best, best_size, best_threat = seat, size, danger
    return best


@njit(cache=True)
def _choose_place(rules: Rules, t: Table, me: int, count: int) -> int:
    """``bots.place_value``'s first best: the rightmost card moved to each position."""
    size = t.size[me]
    hand_size = _total(t.hands[me])
    ranch = t.ranch[me]
    trial = t.work[3, :SLOTS]
    best, best_points = -1, 0
    for j in range(count):
        slot = t.legal[j] - 1
        at = 0
        for i in range(size):
            if i == slot:
                trial[i] = ranch[size - 1]
            else:
                trial[i] = ranch[at]
                at += 1
        points = ranch_points(rules, t, me, trial, size, hand_size)
        if best < 0 or points > best_points:
            best, best_points = t.legal[j], points
    return best


@njit(cache=True)
def _choose_pick(rules: Rules, t: Table, me: int, what: int, count: int) -> int:
    """``bots.choose_pick``: protect my best card; take the leader's best; give back my
    weakest."""
    best = -1
    if what == PROTECT:
        best_glory = 0
        for j in range(count):
            pick = t.legal[j]
            g = rules.cards[t.ranch[pick // SLOTS, pick % SLOTS], C_GLORY]
            if best < 0 or g > best_glory:
                best, best_glory = pick, g
        return best
    mine = True
    for j in range(count):
        if t.legal[j] // SLOTS != me:
            mine = False
    if mine:
        low = 0
        for j in range(count):
            pick = t.legal[j]
            card = t.ranch[pick // SLOTS, pick % SLOTS]
            v = rules.cards[card, C_GLORY] + rules.cards[card, C_PENALTY]
            if best < 0 or v < low:
                best, low = pick, v
        return best
    threat = _threats(rules, t, me)
    lead = threat.max()
    best_worth = 0.0
    for j in range(count):
        pick = t.legal[j]
        seat = pick // SLOTS
        card = t.ranch[seat, pick % SLOTS]
        sign = -1.0 if seat == me else 1.0
        bonus = 3 if threat[seat] == lead else 0
        comeback = RETURN_BACK if what == RETURN and rules.cards[card, C_RETURNS] else 0.0
        worth = sign * (rules.cards[card, C_GLORY] + bonus) - comeback
        if best < 0 or worth > best_worth:
            best, best_worth = pick, worth
    return best


@njit(cache=True)
def greedy(rules: Rules, t: Table, player: int, count: int) -> int:
    """The greedy bot's choice among the ``count`` actions :func:`legal` listed (not at a
    contest: its sign is drawn at random by the caller)."""
    if count == 1:
        return t.legal[0]
    depth = t.s[DEPTH]
    kind = S_PLAY if depth == 0 else t.stack[depth - 1, 0]
    if kind in (S_DISCARD, S_GIVE, S_PASS):
        best, best_value = -1, 0.0
        for j in range(count):
            k = t.legal[j]
            value = rules.cards[k, C_PENALTY] - 0.5 * rules.cards[k, C_GLORY]
            if best < 0 or value > best_value:
                best, best_value = k, value
        return best
    if kind == S_PLAY:
        return _best_play(rules, t, player, count)
    if kind == S_TARGET:
        return _choose_target(rules, t, player, t.stack[depth - 1, 3], count)
    if kind == S_PLACE:
        return _choose_place(rules, t, player, count)
    return _choose_pick(rules, t, player, t.stack[depth - 1, 2], count)


# ------------------------------------------------------------------ whole games
@njit(cache=True)
def play_many(
    rules: Rules, t: Table, seeds: np.ndarray, policies: np.ndarray, results: np.ndarray
) -> None:
    """One game per seed (numba's generator seeded with it), a policy per seat; per game a
    row of the ``R_`` columns, each player's total, and the per-card tally."""
    n = rules.options[O_PLAYERS]
    kinds = len(rules.cards)
    players = np.zeros(2, dtype=np.int64)
    signs = np.zeros(2, dtype=np.int64)
    rules, t = borrow(rules, t)
    for game in range(len(seeds)):
        np.random.seed(seeds[game])
        setup(rules, t)
        steps = 0
        while True:
            who = current(rules, t)
            if who == TERMINAL:
                break
            if who == CHANCE:
                chance(rules, t, np.random.randint(chance_total(t)))
                steps += 1
            elif who == SIMULTANEOUS:
                acting_count = acting(t, players)
                for i in range(acting_count):
                    signs[i] = np.random.randint(3)
                for i in range(acting_count):
                    apply(rules, t, players[i], signs[i])
                steps += acting_count
            else:
                count = legal(rules, t, who)
                if policies[who] == RANDOM:
                    action = t.legal[np.random.randint(count)]
                else:
                    action = greedy(rules, t, who, count)
                apply(rules, t, who, action)
                steps += 1
        row = results[game]
        winners = t.s[WINNERS] if t.s[OVER] else 0
        row[R_WINNER] = -1
        for p in range(n - 1, -1, -1):
            if winners >> p & 1:
                row[R_WINNER] = p
        row[R_TURNS] = t.s[TURN]
        row[R_STEPS] = steps
        row[R_WINNERS] = winners
        row[R_ROUNDS] = t.tally[0]
        row[R_ROUND_TURNS] = t.tally[1]
        row[R_PLAYER_ROUNDS] = t.tally[2]
        row[R_ROUND_WINS] = t.tally[3]
        row[R_PLAYERS] = n
        for p in range(n):
            row[R_TOTALS + p] = t.totals[p]
        for i in range(2 * kinds):
            row[R_TOTALS + n + i] = t.tally[4 + i]


# ------------------------------------------------------------------ the search's playouts
# numba types a plain int above 2**63 as a float in mixed arithmetic: every number of
# the hash is an unsigned 64-bit integer, so its products wrap as SplitMix64's must. The
# constants are core.streams' own; the two small functions are written here again so
# that this module's numba cache depends on no other compiled module.
_GOLDEN = np.uint64(GOLDEN)
_MIX_1 = np.uint64(MIX_1)
_MIX_2 = np.uint64(MIX_2)
_SHIFT_1, _SHIFT_2, _SHIFT_3 = np.uint64(30), np.uint64(27), np.uint64(31)
CHOICES_FROM = 1 << 40
"""Where a playout's bot choices are keyed in a turn's draws (chance draws count from 0)."""


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
    t: Table,
    policy: int,
    stream: int,
    turn: int,
    k: int,
    max_steps: int,
) -> tuple[int, bool]:
    """``policy`` in every seat plays on until the game ends or ``max_steps`` steps are
    played (a contest's signs are one step, as ``streams.playout`` counts): (the steps,
    whether it ended). Each card drawn or stolen is :func:`point` where a ``ChanceStream``
    stands, at draw ``k`` of ``turn``, keyed by the table's turn as ``streams.sample``
    keys it (a new turn counts its draws from 0). A bot's random choice (a random seat's
    every choice, a greedy seat's sign) is ``point(stream, turn, CHOICES_FROM + j, n)``
    for the ``j``-th such choice of the turn (from 0 where the playout starts)."""
    players = np.zeros(2, dtype=np.int64)
    rules, t = borrow(rules, t)
    chosen_turn, j = t.s[TURN], 0
    steps = 0
    while True:
        who = current(rules, t)
        if who == TERMINAL:
            return steps, True
        if steps >= max_steps:
            return steps, False
        now = t.s[TURN]
        if who == CHANCE:
            if now != turn:
                turn, k = now, 0
            chance(rules, t, point(stream, max(turn, 0), k, chance_total(t)))
            k += 1
        elif who == SIMULTANEOUS:
            for i in range(acting(t, players)):
                if now != chosen_turn:
                    chosen_turn, j = now, 0
                sign = point(stream, now, CHOICES_FROM + j, 3)
                j += 1
                apply(rules, t, players[i], sign)
        else:
            count = legal(rules, t, who)
            if policy == RANDOM:
                if now != chosen_turn:
                    chosen_turn, j = now, 0
                action = t.legal[point(stream, now, CHOICES_FROM + j, count)]
                j += 1
            else:
                action = greedy(rules, t, who, count)
            apply(rules, t, who, action)
        steps += 1
