"""Log lines of Glory Ranch: an action and what it did, as one viewer may read it.

The terminal prefixes each line with the acting player ("P1 ann: "); the line
starts with the action and goes on, after ``;``, with what followed from it
before the next decision: cards that changed hands, the public events of the
table (plays, discards, returns, contests) and a round's end.

Nobody reads a card they could not see. A card given or passed is named to the
giver and to the player who receives it ("P2 gives you Kraken"), to everyone
else it is "a card" ("P2 gives P0 a card"); a card stolen is named to the thief
and to the robbed player ("P1 steals your Selkie"); hands traded are listed to
the two traders, the others hear how many cards went each way. Plays and
discards are face up and named to all.

The consequences are found by applying the action to a clone of the state that
records what it does (:attr:`GloryState.moves`), so the log can never disagree
with the rules.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from ranchhand.core import CHANCE, ActionError
from ranchhand.core.words import Memo
from ranchhand.games.glory_ranch.actions import Choose, Draw, HandCard, Steal

if TYPE_CHECKING:
    from ranchhand.games.glory_ranch.state import GloryState

Move = tuple[Any, ...]
"""What happened, for the log: ``(kind, public text, details...)``.

Kinds: ``play``/``discard`` ``(seat, card)``, ``give`` ``(giver, receiver, card)``,
``pass`` ``(passer, receiver, card)``, ``steal`` ``(thief, robbed, card)``, ``trade``
``(a, b, a's hand, b's hand)`` (hands as counts, before the trade), ``round`` ``(line,
number, points, totals, winners)`` (the line as :func:`round_line` tells it; winners
empty until the game is won), and the public events: ``shuffle`` ``()``, ``reverse``
``(direction now)``, ``skip`` ``(the seat that loses its turn)``, ``challenge`` ``(a,
b)``, ``contest`` ``(a, b, a's sign, b's sign, winner)``, ``tie`` ``(a, b, sign, ties,
void)`` and ``protect``/``banish``/``return`` ``(actor, seat, card)``. The details are
what the log in words (words.py) tells; this module reads the public text of most.
"""


def describe(state: GloryState, viewer: int | None, action: Hashable, player: int) -> str:
    """``action`` (about to be applied by ``player``) and what follows, as ``viewer`` reads it."""
    if viewer == CHANCE:
        return str(action)
    head, covered = _head(state, viewer, action, player)
    lines = [head]
    moves = _moves(state, action, player)
    passes = [m for m in moves if m[0] == "pass"]
    for move in moves:
        if covered is not None and move[0] == covered[0] and move[2:] == covered[1:]:
            covered = None  # the action itself, already told by the head
            continue
        if move is (passes[0] if passes else None) and all(m[3] != viewer for m in passes):
            lines.append("the passed cards change hands")
        text = tell(state, viewer, move)
        if text:
            lines.append(text)
    return "; ".join(lines)


def _head(
    state: GloryState, viewer: int | None, action: Hashable, player: int
) -> tuple[str, tuple[Any, ...] | None]:
    """The action as ``viewer`` reads it, and the move it stands for (not told twice)."""
    game = state.game
    top = state.stack[-1] if state.stack else None
    if isinstance(action, HandCard) and action.card in game.index:
        card = game.index[action.card]
        verb = action.verb
        if verb in ("play", "discard"):
            return str(action), (verb, player, card)
        if verb in ("give", "pass") and top is not None and top[0] == verb:
            to = top[2]
            given = ("give", player, to, card) if verb == "give" else None
            if viewer == player:
                return f"{action} to P{to}", given
            if verb == "give":
                if viewer == to:
                    return f"gives you {_name(state, card)}", ("give", player, to, card)
                return f"gives {_seat(to, viewer)} a card", ("give", player, to, card)
            return "passes a card", None
    if viewer == player:
        return str(action), None
    if isinstance(action, HandCard) and action.verb in ("give", "pass"):
        return f"{action.verb}s a card", None
    if isinstance(action, Choose):
        return ("chooses a sign" if not state.signs else str(action)), None
    if isinstance(action, Draw | Steal) and top is not None and action.card in game.index:
        card = game.index[action.card]
        name = _name(state, card)
        if top[0] == "draw":
            return f"P{top[1]} draws {name if viewer == top[1] else 'a card'}", None
        if top[0] == "steal":
            thief, robbed = top[1], top[2]
            move = ("steal", thief, robbed, card)
            if viewer == robbed:
                return f"P{thief} steals your {name}", move
            seen = name if viewer == thief else "a card"
            return f"P{thief} steals {seen} from P{robbed}", move
    return str(action), None


def _moves(state: GloryState, action: Hashable, player: int) -> list[Move]:
    """What applying ``action`` does, up to the next decision (nothing if it is not legal)."""
    twin = played(state, action, player)
    return [] if twin is None or twin.moves is None else twin.moves


def played(state: GloryState, action: Hashable, player: int) -> GloryState | None:
    """A copy of ``state`` with ``action`` applied, its :attr:`~GloryState.moves` recording
    what it did; None if the action is not legal (or the game is over). Remembered on
    ``state`` until it changes: a table asks for every viewer's line, in notation and in
    words. The copy is only read."""
    known = state._played
    if known is not None and known.of(player, action) is not None:
        return known.facts
    twin: GloryState | None = None
    if not state.is_terminal():
        twin = state.clone()
        twin.moves = []
        try:
            twin.apply(action, player)
        except ActionError:
            twin = None
    state._played = Memo(player, action, twin)
    return twin


def tell(state: GloryState, viewer: int | None, move: Move) -> str:
    """One move as ``viewer`` may read it ('' if there is nothing to tell them)."""
    kind = move[0]
    if kind == "give":
        giver, receiver, card = move[2:]
        if viewer == giver:
            return f"you give {_name(state, card)} to P{receiver}"
        if viewer == receiver:
            return f"P{giver} gives you {_name(state, card)}"
        return f"P{giver} gives {_seat(receiver, viewer)} a card"
    if kind == "pass":
        passer, receiver, card = move[2:]
        # the passer chose the card; the others hear once that passes changed hands
        return f"P{passer} passes you {_name(state, card)}" if viewer == receiver else ""
    if kind == "steal":
        thief, robbed, card = move[2:]
        if viewer == robbed:
            return f"P{thief} steals your {_name(state, card)}"
        seen = _name(state, card) if viewer == thief else "a card"
        return f"P{thief} steals {seen} from P{robbed}"
    if kind == "trade":
        a, b, hand_a, hand_b = move[2:]
        if viewer == a:
            return f"you trade hands with P{b}: you get {_cards(state, hand_b)}"
        if viewer == b:
            return f"P{a} trades hands with you: you get {_cards(state, hand_a)}"
        return f"P{a} trades hands with P{b} ({_count(hand_a)} for {_count(hand_b)})"
    if kind == "round":
        return str(move[2])
    return str(move[1])


def round_line(state: GloryState, number: int) -> str:
    """Round ``number``, just scored, in one line: points and new totals; the winner at the end.

    The breakdown of each score (ranch Glory, Hour Glass, hand penalties) is in the
    observation's ``last_round`` and on the board.
    """
    record = state.rounds[-1]
    pairs = zip(record["points"], state.totals, strict=True)
    scores = ", ".join(f"P{p} {x:+d}→{t}" for p, (x, t) in enumerate(pairs))
    line = f"round {number} ends: {scores}"
    if state.result is not None:
        winners = state.result.winners
        total = state.totals[winners[0]]
        who = " and ".join(f"P{w}" for w in winners)
        line += f"; {who} {'wins' if len(winners) == 1 else 'share the win'} with {total}"
    return line


def _name(state: GloryState, card: int) -> str:
    return state.game.deck.cards[card].name


def _seat(seat: int, viewer: int | None) -> str:
    return "you" if seat == viewer else f"P{seat}"


def _count(hand: Sequence[int]) -> str:
    n = sum(hand)
    return "1 card" if n == 1 else f"{n} cards"


def _cards(state: GloryState, hand: Sequence[int]) -> str:
    """``Kraken, Selkie x2`` or ``nothing``."""
    names = [_name(state, k) + (f" x{c}" if c > 1 else "") for k, c in enumerate(hand) if c]
    return ", ".join(names) or "nothing"
