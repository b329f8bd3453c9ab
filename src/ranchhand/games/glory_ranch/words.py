"""The log of Glory Ranch in words: an action and what it did, told to one viewer.

:mod:`.describe` speaks the notation a player types ("target 1", "pick 1:2 roc");
this module tells the same events as sentences a table log shows, players by name
and the viewer as "you": "Ann played Wyvern.", "Ann chose Bob to draw a card.",
"You drew Kraken." / "Bob drew a card.", "Ann discarded Roc from Bob's ranch.",
"Round 2 ended. Glory: Ann +12 (total 30), you -3 (total 5)."

What is told follows :mod:`.describe` exactly: the same consequences (the moves a
clone records while the action is applied, :func:`.describe.played`) and the same
secrets kept. A card given or passed is named to the two players concerned, a card
drawn to the drawer, a card stolen to the thief and the robbed player, traded hands
to the two traders; the others read "a card" or how many. A sign is "a sign" to
everyone else until the contest shows both. Plays, discards, ranch cards and the
round's scores are face up and named to all.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from ranchhand.core import CHANCE
from ranchhand.core.words import Speaker, listed, sentence
from ranchhand.games.glory_ranch.actions import Choose, Draw, HandCard, Place, Steal, Target
from ranchhand.games.glory_ranch.describe import Move, played

if TYPE_CHECKING:
    from ranchhand.games.glory_ranch.cards import Effect
    from ranchhand.games.glory_ranch.state import GloryState

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


class Voice(Speaker):
    """Players as one viewer reads them (a name, or "you"), and who may read which card."""

    __slots__ = ("state",)

    def __init__(self, state: GloryState, viewer: int | None, names: Sequence[str]) -> None:
        super().__init__(viewer, names)
        self.state = state

    def verb(self, seat: int, you: str, third: str) -> str:
        """The present tense agreeing with ``seat``: ``you`` for the viewer, else ``third``."""
        return you if seat == self.viewer else third

    def their(self, seat: int) -> str:
        """The possessive a sentence about ``seat`` uses for ``seat``'s own things."""
        return "your" if seat == self.viewer else "their"

    def sees(self, *seats: int) -> bool:
        """Whether the viewer is one of ``seats`` (or the all-seeing CHANCE viewer)."""
        return self.viewer == CHANCE or self.viewer in seats

    def card(self, card: int) -> str:
        return self.state.game.deck.cards[card].name

    def cards(self, hand: Sequence[int]) -> str:
        """``Kraken, Roc and Roc`` (every copy), ``nothing`` for an empty hand."""
        names = [self.card(k) for k, c in enumerate(hand) for _ in range(c)]
        return listed(names) or "nothing"


def words(
    state: GloryState, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
) -> str:
    """``action`` (about to be applied by ``player``) and what follows, in sentences."""
    voice = Voice(state, viewer, names)
    twin = played(state, action, player)
    moves: list[Move] = twin.moves if twin is not None and twin.moves is not None else []
    head, covered = _head(voice, action, player)
    if head and twin is not None and _went_left(state, twin, action, player):
        head = f"{head[:-1]} at the left end of {voice.their(player)} ranch."
    sentences = [head] if head else []
    passes = [m for m in moves if m[0] == "pass"]
    for move in moves:
        if covered is not None and move[0] == covered[0] and move[2:] == covered[1:]:
            covered = None  # the action itself, already told by the head
            continue
        if passes and move is passes[0] and not voice.sees(*(m[3] for m in passes)):
            sentences.append("The passed cards changed hands.")
        told = tell(voice, move)
        if told:
            sentences.append(told)
    if twin is not None and twin.round != state.round and twin.result is None:
        first = twin.first
        goes = voice.verb(first, "go", "goes")
        sentences.append(sentence(f"Round {twin.round} begins: {voice.who(first)} {goes} first"))
    if not sentences:  # an action the rules would refuse: told as typed
        who = "Chance" if player == CHANCE else voice.who(player)
        return sentence(f"{who} chose {action}")
    return " ".join(sentences)


def _head(voice: Voice, action: Hashable, player: int) -> tuple[str, tuple[Any, ...] | None]:
    """The action itself in a sentence ('' when its first move tells it), and the move it
    stands for (not told twice)."""
    state = voice.state
    game = state.game
    top = state.stack[-1] if state.stack else None
    who = voice.who(player)
    if isinstance(action, HandCard) and action.card in game.index:
        card = game.index[action.card]
        verb = action.verb
        if verb in ("play", "discard"):
            return sentence(f"{who} {verb}ed {voice.card(card)}"), (verb, player, card)
        if verb in ("give", "pass") and top is not None and top[0] == verb:
            to = top[2]
            if verb == "give":
                seen = voice.card(card) if voice.sees(player, to) else "a card"
                return sentence(f"{who} gave {voice.who(to)} {seen}"), ("give", player, to, card)
            if voice.sees(player):
                return sentence(
                    f"{who} put {voice.card(card)} aside to pass to {voice.who(to)}"
                ), None
            return sentence(f"{who} chose a card to pass"), None
    if isinstance(action, Target) and top is not None and top[0] == "target":
        return _target(voice, player, action.seat, game.effects[top[3]]), None
    if isinstance(action, Place) and state.ranches[player]:
        ranch = state.ranches[player]
        name = voice.card(ranch[state.played_slot])
        slot = action.slot - 1
        if slot == 0:
            where = "at the left end of"
        elif slot == len(ranch) - 1:
            where = "at the right end of"
        else:
            where = f"{ORDINALS[slot]} from the left in"
        return sentence(f"{who} placed {name} {where} {voice.their(player)} ranch"), None
    if isinstance(action, Choose):
        if state.signs:  # the second sign: the contest that follows shows both
            return "", None
        sign = action.sign if voice.sees(player) else "a sign"
        return sentence(f"{who} chose {sign} for rock-paper-scissors"), None
    if isinstance(action, Draw | Steal) and top is not None and action.card in game.index:
        return _drawn(voice, top, game.index[action.card])
    return "", None  # a pick: the discard, return or protection that follows tells it


def _went_left(state: GloryState, twin: GloryState, action: Hashable, player: int) -> bool:
    """Whether the card ``action`` plays went to the left end of a ranch holding others
    (a card that says so): the log notes no move of its own for it."""
    if not isinstance(action, HandCard) or action.verb != "play" or not state.ranches[player]:
        return False
    ranch = twin.ranches[player]
    card = state.game.index.get(action.card)
    return (
        twin.round == state.round and len(ranch) > 1 and twin.played_slot == 0 and ranch[0] == card
    )


def _drawn(voice: Voice, top: tuple[Any, ...], card: int) -> tuple[str, tuple[Any, ...] | None]:
    """A card drawn (or dealt) from the deck, or stolen from a hand."""
    if top[0] == "draw":
        drawer = top[1]
        seen = voice.card(card) if voice.sees(drawer) else "a card"
        if not voice.state.playing:  # between turns: the deal
            verb = "were dealt" if drawer == voice.viewer else "was dealt"
            return sentence(f"{voice.who(drawer)} {verb} {seen}"), None
        return sentence(f"{voice.who(drawer)} drew {seen}"), None
    thief, robbed = top[1], top[2]
    move = ("steal", thief, robbed, card)
    return _stolen(voice, thief, robbed, card), move


def _stolen(voice: Voice, thief: int, robbed: int, card: int) -> str:
    """A card stolen: named to the thief and the robbed player, "a card" to the others."""
    if voice.viewer == robbed:
        return sentence(f"{voice.who(thief)} stole your {voice.card(card)}")
    seen = voice.card(card) if voice.sees(thief) else "a card"
    return sentence(f"{voice.who(thief)} stole {seen} from {voice.who(robbed)}")


def _target(voice: Voice, player: int, seat: int, effect: Effect) -> str:
    """The player chosen for a card action, and what for."""
    who, other = voice.who(player), voice.who(seat)
    do, n = effect.do, effect.n
    if do == "rps":
        return ""  # the challenge that follows tells it
    if do in ("draw", "discard"):
        return sentence(f"{who} chose {other} to {do} {_count(n)}")
    if do == "give":
        return sentence(f"{who} chose to give {other} {_count(n)}")
    if do == "steal":
        return sentence(f"{who} chose to steal from {other}")
    if do == "trade":
        return sentence(f"{who} chose to trade hands with {other}")
    return sentence(f"{who} chose {other}")


def tell(voice: Voice, move: Move) -> str:
    """One move as a sentence the viewer may read ('' if there is nothing to tell them)."""
    kind = move[0]
    who = voice.who
    if kind in ("play", "discard"):
        seat, card = move[2:]
        return sentence(f"{who(seat)} {kind}ed {voice.card(card)}")
    if kind == "give":
        giver, receiver, card = move[2:]
        seen = voice.card(card) if voice.sees(giver, receiver) else "a card"
        return sentence(f"{who(giver)} gave {who(receiver)} {seen}")
    if kind == "pass":
        passer, receiver, card = move[2:]
        if voice.viewer == receiver:  # the others hear once that the passes changed hands
            return sentence(f"{who(passer)} passed you {voice.card(card)}")
        return ""
    if kind == "steal":
        return _stolen(voice, *move[2:])
    if kind == "trade":
        return _trade(voice, *move[2:])
    if kind == "round":
        return _round(voice, *move[3:])
    if kind == "shuffle":
        return "The discard pile was shuffled into the deck."
    if kind == "reverse":
        way = "clockwise" if move[2] == 1 else "counter-clockwise"
        return f"Play reversed: it now goes {way}."
    if kind == "skip":
        seat = move[2]
        lose = voice.verb(seat, "lose", "loses")
        return sentence(f"{who(seat)} {lose} {voice.their(seat)} next turn")
    if kind == "challenge":
        return sentence(f"{who(move[2])} challenged {who(move[3])} to rock-paper-scissors")
    if kind == "contest":
        a, b, sign_a, sign_b, winner = move[2:]
        return sentence(f"{who(a)} showed {sign_a} and {who(b)} showed {sign_b}: {who(winner)} won")
    if kind == "tie":
        a, b, sign, ties, void = move[2:]
        if void:
            return sentence(
                f"{who(a)} and {who(b)} both showed {sign}, {ties} ties in a row: "
                "the contest is void"
            )
        again = "you play again" if voice.viewer in (a, b) else "they play again"
        return sentence(f"{who(a)} and {who(b)} both showed {sign}: {again}")
    if kind in ("protect", "banish", "return"):
        return _ranch_card(voice, kind, *move[2:])
    return sentence(str(move[1]))


def _ranch_card(voice: Voice, kind: str, actor: int, seat: int, card: int) -> str:
    """A ranch card protected, discarded or returned to its owner's hand."""
    who, name = voice.who(actor), voice.card(card)
    own = seat == actor
    ranch = f"{voice.their(actor)} own ranch" if own else f"{voice.whose(seat)} ranch"
    if kind == "protect":
        return sentence(f"{who} protected {name} in {voice.their(actor)} ranch")
    if kind == "banish":
        return sentence(f"{who} discarded {name} from {ranch}")
    if own:
        return sentence(f"{who} took {name} from {ranch} back into {voice.their(actor)} hand")
    return sentence(f"{who} returned {name} from {ranch} to {voice.whose(seat)} hand")


def _trade(voice: Voice, a: int, b: int, hand_a: Sequence[int], hand_b: Sequence[int]) -> str:
    who = voice.who
    if voice.viewer == a or voice.viewer == CHANCE:
        got = voice.cards(hand_b)
        return sentence(f"{who(a)} traded hands with {who(b)}: {who(a)} got {got}")
    if voice.viewer == b:
        return sentence(f"{who(a)} traded hands with you: you got {voice.cards(hand_a)}")
    gave, took = sum(hand_a), sum(hand_b)
    counts = f"{gave} {'card' if gave == 1 else 'cards'} for {took}"
    return sentence(f"{who(a)} traded hands with {who(b)} ({counts})")


def _round(
    voice: Voice,
    number: int,
    points: Sequence[int],
    totals: Sequence[int],
    winners: Sequence[int],
) -> str:
    """The round's end: each player's Glory and new total; the winner at the game's end."""
    scores = ", ".join(
        f"{voice.who(p)} {_signed(x)} (total {t})"
        for p, (x, t) in enumerate(zip(points, totals, strict=True))
    )
    line = f"Round {number} ended. Glory: {scores}."
    if winners:
        names = listed([voice.who(w) for w in winners])
        verb = "won the game" if len(winners) == 1 else "share the win"
        line += " " + sentence(f"{names} {verb} with {totals[winners[0]]} Glory")
    return line


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def _count(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"
