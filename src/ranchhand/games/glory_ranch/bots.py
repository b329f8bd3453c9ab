"""The greedy bot: one look ahead, with rules of thumb for the round-end race.

It values a play as the Glory it adds to the ranch (Hour Glass bonuses included,
at the best place if the card may be placed), plus the penalty it takes out of
the hand, plus a rough worth of the card's actions: drawing hurts the drawer
when the round may end soon, shedding cards helps, and hostile actions aim at
the leader (running total plus the Glory now in their ranch). Rock-paper-scissors
signs are uniform at random, the equilibrium of the contest.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ranchhand.bots.base import Bot
from ranchhand.games.glory_ranch.actions import Choose, HandCard, Pick, Place, Target
from ranchhand.games.glory_ranch.cards import Deck, Effect
from ranchhand.games.glory_ranch.observation import GloryObservation
from ranchhand.games.glory_ranch.scoring import Tables, points_as, ranch_points

REST_READERS = frozenset(("discard", "give", "trade"))
"""The actions whose worth reads which cards stay in my hand (the others its size only)."""

POSITIONAL = frozenset(("discard", "give", "pass", "trade", "play", "banish", "return"))
"""The actions whose worth reads the position (my hand or ranch, the other ranches); the
worth of the others depends on how soon the round may end and the number of players."""


class Knowledge:
    """What a player knows from the printed cards: numbers by card, looked up fast."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.tables = Tables.of(deck)
        self.index = {c.id: c.index for c in deck.cards}
        self.glory, self.penalty = self.tables.glory, self.tables.penalty
        self.returns = tuple(any(e.do == "return" for e in c.actions) for c in deck.cards)
        """Cards that return a ranch card when played: given back, they come back at you."""
        self.reads_rest = tuple(any(e.do in REST_READERS for e in c.actions) for c in deck.cards)
        """Cards with an action whose worth reads which cards stay in the hand."""
        self.placed = tuple(bool(c.actions) and c.actions[0].do == "place" for c in deck.cards)
        """Cards whose first action places them (left end or the best position)."""
        self._worths: dict[tuple[bool, int], tuple[tuple[float | Effect, ...], ...]] = {}

    def worths(self, around: Others) -> tuple[tuple[float | Effect, ...], ...]:
        """Per card, its actions' rough worth in order: the worth itself where it depends
        only on whether the round may end soon and how many others sit at the table (the
        very float :func:`effect_value` gives), the action where it reads the position.

        Worked out once per (soon, others) and added in the actions' order, so a play's
        value is the same sum, rounding included, as one call per action."""
        key = (around.soon, len(around.seats))
        known = self._worths.get(key)
        if known is None:
            known = self._worths[key] = tuple(
                tuple(
                    e if e.do in POSITIONAL else effect_value(self, None, e, [], (), around)
                    for e in card.actions
                )
                for card in self.deck.cards
            )
        return known


_KNOWN: dict[int, Knowledge] = {}


def knowledge(deck: Deck) -> Knowledge:
    known = _KNOWN.get(id(deck))
    if known is None or known.deck is not deck:
        known = _KNOWN[id(deck)] = Knowledge(deck)
    return known


RETURN_BACK = 100.0
"""How much worse it is to hand an opponent back a card that returns ranch cards."""

HOSTILE_DRAW = 1.2
"""What one card drawn by an opponent is worth to me (it may stick as a penalty)."""


class GreedyBot(Bot):
    """Plays the card worth most now; aims hostile actions at the leader."""

    name = "greedy"

    def __init__(self) -> None:
        self._known: Knowledge | None = None
        """The printed cards' numbers of the game being played (from ``bind`` or a look)."""

    def bind(self, game: Any) -> None:
        """Learn the deck before the first move, so a card to shed needs no observation."""
        self._known = knowledge(game.deck)

    def needs_observation(self, legal_actions: Sequence[Hashable]) -> bool:
        """A forced move, a sign (at random) and a card to shed (by its printed numbers)
        are chosen without looking at the table."""
        first = legal_actions[0]
        if len(legal_actions) == 1 or isinstance(first, Choose):
            return False
        return not (isinstance(first, HandCard) and first.verb != "play" and self._known)

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        obs: GloryObservation | None = observation
        first = legal_actions[0]
        if len(legal_actions) == 1:
            return first
        if isinstance(first, Choose):
            return legal_actions[rng.randrange(len(legal_actions))]
        if obs is not None:
            self._known = knowledge(obs.cards)
        k = self._known
        assert k is not None, "needs_observation asks for a look until the deck is known"
        if isinstance(first, HandCard) and first.verb != "play":
            return max(legal_actions, key=lambda a: shed_value(k, a.card))  # type: ignore[attr-defined]
        assert obs is not None, "every other choice looks at the table"
        if isinstance(first, HandCard):
            others = Others(obs)
            before = ranch_points(k.tables, obs.ranches, others.me, len(obs.hand) - 1)
            return best_play(k, obs, legal_actions, before, others)  # type: ignore[arg-type]
        if isinstance(first, Target):
            return choose_target(k, obs, legal_actions)  # type: ignore[arg-type]
        if isinstance(first, Place):
            return max(legal_actions, key=lambda a: place_value(k, obs, a.slot - 1))  # type: ignore[attr-defined]
        return choose_pick(k, obs, legal_actions)  # type: ignore[arg-type]


def seat(obs: GloryObservation) -> int:
    """The bot's own seat (a bot always plays one; only a spectator has none)."""
    if obs.player is None:
        raise ValueError("a bot needs a seat's observation, not the spectator's")
    return obs.player


class Others:
    """My seat, the other seats, their smallest hand and what the hand will hold after the
    card played: worked out once a decision, not per card weighed."""

    __slots__ = ("hand_left", "me", "open_cards", "own_draw", "seats", "smallest", "soon")

    def __init__(self, obs: GloryObservation) -> None:
        me = self.me = seat(obs)
        sizes = obs.hand_sizes
        seats = _AROUND.get(obs.players) or around(obs.players)
        self.seats = seats[me]
        self.smallest = smallest = min(sizes[:me] + sizes[me + 1 :])
        self.hand_left = hand_left = len(obs.hand) - 1
        self.soon = smallest <= hand_left + 1
        """The round may end soon: an opponent's hand is no larger than mine."""
        self.own_draw = -2.0 if self.soon else -0.5
        """What a card I draw costs me (a card stuck in hand scores its penalty)."""
        self.open_cards: list[int] | None = None
        """The others' unshielded ranch cards, listed by the first card that aims at them."""

    def unshielded(self, obs: GloryObservation) -> list[int]:
        """The cards in the other ranches that a banish or a return may take."""
        cards = self.open_cards
        if cards is None:
            cards = self.open_cards = [
                i
                for p in self.seats
                for i, shield in zip(obs.ranches[p], obs.shields[p], strict=False)
                if not shield
            ]
        return cards


_AROUND: dict[int, tuple[tuple[int, ...], ...]] = {}


def around(players: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the other seats in order: listed once per table size, not per decision."""
    seats = _AROUND.get(players)
    if seats is None:
        seats = _AROUND[players] = tuple(
            tuple(p for p in range(players) if p != me) for me in range(players)
        )
    return seats


def best_play(
    k: Knowledge, obs: GloryObservation, legal: Sequence[HandCard], before: int, others: Others
) -> HandCard:
    """The first card of greatest value (what ``max`` by that value picks): Glory gained now
    + penalty taken out of the hand + the actions' rough worth, ``before`` being my ranch's
    points now (with the hand one card smaller).

    One loop over the cards, with what every card reads looked up once: this is most of
    the bot's time."""
    worths = k.worths(others)
    me = others.me
    hand_after = others.hand_left
    tables = k.tables
    memo, empty = tables.parts, hand_after == 0
    ranches = obs.ranches
    mine = ranches[me]
    index_of, placed, penalty, reads_rest = k.index, k.placed, k.penalty, k.reads_rest
    best: HandCard | None = None
    best_value = 0.0
    rest: list[int]
    for action in legal:
        index = index_of[action.card]
        ranch: Sequence[int]
        if placed[index]:
            ranch, points = placed_points(k, ranches, me, index, hand_after)
        else:
            ranch = (*mine, index)
            known = memo.get((ranch, empty))  # a ranch seen before, with no "most" bonus
            if known is not None and not known[2]:
                points = known[0]
            else:
                points = points_as(tables, ranches, me, ranch, hand_after)
        value = float(points - before + penalty[index])
        parts = worths[index]
        if parts:
            rest = []
            if reads_rest[index]:
                rest = list(obs.hand)
                rest.remove(index)
            for part in parts:
                if part.__class__ is float:
                    value += part  # type: ignore[operator]
                else:
                    value += effect_value(k, obs, part, rest, ranch, others)  # type: ignore[arg-type]
        if best is None or value > best_value:
            best, best_value = action, value
    assert best is not None, "a choice of cards is never empty"
    return best


def placed_points(
    k: Knowledge, ranches: list[list[int]], me: int, index: int, hand_after: int
) -> tuple[list[int], int]:
    """My ranch with card ``index`` placed by its first action (at the left end or the best
    position), and that ranch's points."""
    mine = list(ranches)
    ranch = mine[me] = [*mine[me], index]
    left = k.deck.cards[index].actions[0].at == "left"
    slot = 0 if left else best_slot(k, mine, me, hand_after)
    ranch.insert(slot, ranch.pop())
    return ranch, ranch_points(k.tables, mine, me, hand_after)


def choose_target(k: Knowledge, obs: GloryObservation, legal: Sequence[Target]) -> Target:
    """Trade with the smallest hand, steal from the largest, hurt the leader otherwise."""
    effect = obs.effect
    threat = threats(k, obs)
    sizes = obs.hand_sizes
    if effect is not None and effect.do == "trade":
        return min(legal, key=lambda t: (sizes[t.seat], -threat[t.seat]))
    if effect is not None and effect.do == "steal":
        return max(legal, key=lambda t: (sizes[t.seat], threat[t.seat]))
    return max(legal, key=lambda t: threat[t.seat] - 2 * sizes[t.seat])


def choose_pick(k: Knowledge, obs: GloryObservation, legal: Sequence[Pick]) -> Pick:
    """Protect my best card; take the leader's best card; give back my weakest."""
    me = seat(obs)
    step = obs.step
    what = step[2] if step is not None and len(step) > 2 else "banish"
    if what == "protect":
        return max(legal, key=lambda p: k.glory[k.index[p.card]])
    if all(p.seat == me for p in legal):
        return min(legal, key=lambda p: k.glory[k.index[p.card]] + k.penalty[k.index[p.card]])
    threat = threats(k, obs)
    lead = max(threat)

    def worth(pick: Pick) -> float:
        card = k.index[pick.card]
        sign = -1.0 if pick.seat == me else 1.0
        bonus = 3 if threat[pick.seat] == lead else 0
        # a card handed back to its owner is played again: never hand back one that
        # returns a ranch card, or two such players hand the same cards back forever
        comeback = RETURN_BACK if what == "return" and k.returns[card] else 0.0
        return sign * (k.glory[card] + bonus) - comeback

    return max(legal, key=worth)


def shed_value(k: Knowledge, card_id: str) -> float:
    """How glad I am to get rid of a card from my hand (discard, give, pass)."""
    i = k.index[card_id]
    return k.penalty[i] - 0.5 * k.glory[i]


def threats(k: Knowledge, obs: GloryObservation) -> list[float]:
    """How dangerous each player is: running total plus the Glory in their ranch now."""
    tables, ranches, sizes, totals = k.tables, obs.ranches, obs.hand_sizes, obs.totals
    threat: list[float] = []
    for p in range(obs.players):  # a loop, not a comprehension: one call fewer
        threat.append(totals[p] + ranch_points(tables, ranches, p, sizes[p]))
    if obs.player is not None:
        threat[obs.player] -= 1000
    return threat


def best_slot(k: Knowledge, ranches: list[list[int]], me: int, hand_size: int) -> int:
    """The best position for the card just appended to my ranch (for 'place anywhere')."""
    ranch = ranches[me]
    card = ranch.pop()
    best, best_points = len(ranch), -1
    for slot in range(len(ranch) + 1):
        ranch.insert(slot, card)
        points = ranch_points(k.tables, ranches, me, hand_size)
        ranch.pop(slot)
        if points > best_points:
            best, best_points = slot, points
    ranch.append(card)
    return best


def place_value(k: Knowledge, obs: GloryObservation, slot: int) -> float:
    """Ranch points with the card just played (the rightmost) moved to ``slot``."""
    ranches = [list(r) for r in obs.ranches]
    me = seat(obs)
    ranch = ranches[me]
    ranch.insert(slot, ranch.pop())
    return ranch_points(k.tables, ranches, me, len(obs.hand))


def effect_value(
    k: Knowledge,
    obs: GloryObservation | None,
    e: Effect,
    rest: list[int],
    ranch: Sequence[int],
    around: Others,
) -> float:
    """A rough worth to me of one action of the card I play (``rest``: my hand after, listed
    only for the actions in :data:`REST_READERS`, the others read its size from ``around``;
    ``ranch``: my ranch with the card).

    Drawing costs more when the round may end soon (an opponent's hand is no larger
    than mine), because a card stuck in hand scores its penalty.
    """
    do = e.do
    if do == "draw":
        who = e.who
        if who == "you":
            return e.n * around.own_draw
        if who == "each":
            return e.n * (around.own_draw + HOSTILE_DRAW * len(around.seats))
        if who == "others":
            return e.n * HOSTILE_DRAW * len(around.seats)
        return e.n * HOSTILE_DRAW * 1.5
    if do in ("discard", "give"):
        if do == "discard" and e.who != "you":
            return 0.0
        worst = sorted(map(k.penalty.__getitem__, rest), reverse=True)[: e.n]
        return float(sum(worst)) + (0.5 if do == "give" else 0.0)
    if do == "pass":
        return 0.5 if around.hand_left else 0.0
    if do == "trade":
        return 1.5 * (len(rest) - around.smallest) + sum(map(k.penalty.__getitem__, rest)) * 0.3
    if do == "steal":
        return -0.5 * e.n
    if do == "skip":
        return 1.0
    if do == "play":
        return 2.0 if around.hand_left and len(ranch) < 7 else 0.0
    if do in ("banish", "return"):
        if e.target == "yours":
            return -min(map(k.glory.__getitem__, ranch), default=0)
        assert obs is not None, "a banish or return reads the ranches"
        open_cards = around.unshielded(obs)
        if do == "return":
            worth = [k.glory[i] for i in open_cards if not k.returns[i]]
            if not worth and open_cards:
                return -2.0  # only cards that would come back at me: no use
            return 0.7 * max(worth, default=0) + (1.0 if worth else 0.0)
        return 0.7 * max(map(k.glory.__getitem__, open_cards), default=0)
    if do in ("protect", "rps"):
        return 0.5
    return 0.0


BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot}
