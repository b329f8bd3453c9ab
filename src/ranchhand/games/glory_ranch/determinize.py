"""Determinization: a full state consistent with what one player observes.

:func:`sample_state` rebuilds a Glory Ranch position from an observation alone and
redraws what is hidden from its viewer. Public from the observation: totals, round,
first player, whose turn, direction, every ranch with its shields, the discard pile
(face up: every card on it was played or discarded in view), the pending steps (they
follow from the face-up cards played), how many cards each player holds and has put
face down to pass, the turn counters, the log and the last round scored. The viewer's
own hand, own cards being passed and own pending sign are kept as they are.

Hidden, and redrawn: the other players' hands and the cards they are passing. They are
dealt without replacement from the cards whose whereabouts the viewer does not know
(the box minus the viewer's hand and passed cards, every ranch and the discard pile),
each copy equally likely; what is left is the deck (counts, as a state holds it). The
viewer's memory of earlier turns (a card they gave away, hands they traded) is not in
the observation and is not used. The spectator (``player`` None) holds no hand, so
every hand is redrawn.

A pending rock-paper-scissors sign of another player: the observation says whether
they have chosen (``acting`` lists who still owes a sign). If they have not, it stays
unchosen; if they have, their sign is drawn uniformly (rock, paper and scissors are
equally good in a contest, and the observation gives no hint).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ranchhand.core import Outcome
from ranchhand.core.errors import StateError
from ranchhand.games.glory_ranch.actions import SIGNS
from ranchhand.games.glory_ranch.observation import GloryObservation

if TYPE_CHECKING:
    from ranchhand.games.glory_ranch.game import GloryRanch
    from ranchhand.games.glory_ranch.state import GloryState

ASKS_FROM_HAND = frozenset({"discard", "give", "pass", "play"})
"""Pending steps that choose a card from the hand of the step's player."""
MAX_TRIES = 10_000
"""Deals tried before giving up on an observation no deal fits (it cannot come from a game)."""


def sample_state(game: GloryRanch, observation: GloryObservation, rng: random.Random) -> GloryState:
    """A full state whose observation for ``observation.player`` is ``observation``."""
    from ranchhand.games.glory_ranch.state import GloryState

    obs = observation
    if not isinstance(obs, GloryObservation) or obs.players != game.players:
        raise StateError("observation", f"expected a {game.players}-player Glory Ranch observation")
    n, kinds = game.players, game.kinds
    viewer = obs.player
    state = GloryState(game)
    state.totals = list(obs.totals)
    state.round = obs.round
    state.first = obs.first
    state.current = obs.current
    state.direction = obs.direction
    state.ranches = [list(r) for r in obs.ranches]
    state.shields = [list(s) for s in obs.shields]
    turn = obs.turn_state
    state.turn = turn["turn"]
    state.round_turns = turn["round_turns"]
    state.skips = turn["lost_turns"]
    state.playing = turn["playing"]
    state.exhausted = turn["exhausted"]
    state.seventh = turn["seventh"]
    state.played_slot = turn["played_slot"]
    state.stack = list(obs.pending)
    state.log = list(obs.log)
    discard = [0] * kinds
    for k in obs.discard_pile:
        discard[k] += 1
    state.discard = discard
    # What the viewer knows the place of; the rest of the box is unseen.
    unseen = list(game.deck.copies)
    for k in obs.discard_pile:
        unseen[k] -= 1
    for ranch in obs.ranches:
        for k in ranch:
            unseen[k] -= 1
    own = [[0] * kinds for _ in range(n)]
    own_passing: list[list[int]] = [[] for _ in range(n)]
    if viewer is not None:
        for k in obs.hand:
            own[viewer][k] += 1
            unseen[k] -= 1
        own_passing[viewer] = list(obs.passing)
        for k in obs.passing:
            unseen[k] -= 1
    if any(c < 0 for c in unseen):
        raise StateError("observation", "more copies of a card in view than the box holds")
    pool = [k for k, c in enumerate(unseen) for _ in range(c)]
    needed = sum(obs.hand_sizes[p] + obs.passing_sizes[p] for p in range(n) if p != viewer)
    if needed + obs.deck != len(pool):
        raise StateError(
            "observation",
            f"{len(pool)} unseen cards, but the other hands, passed cards and deck hold "
            f"{needed + obs.deck}",
        )
    top = state.stack[-1] if state.stack else None
    asks = top is not None and top[0] in ASKS_FROM_HAND and top[1] != viewer
    for _ in range(MAX_TRIES):
        rng.shuffle(pool)
        hands = [list(h) for h in own]
        passing = [list(p) for p in own_passing]
        at = 0
        for p in range(n):
            if p == viewer:
                continue
            size, passed = obs.hand_sizes[p], obs.passing_sizes[p]
            hand = hands[p]
            for k in pool[at : at + size]:
                hand[k] += 1
            passing[p] = pool[at + size : at + size + passed]
            at += size + passed
        state.hands, state.passing = hands, passing
        # The observation asks that player to choose a card, so their hand offers at
        # least two (one would have been played without asking): keep only such deals.
        if not asks or len(state._options(top)) >= 2:  # type: ignore[arg-type]
            break
    else:
        raise StateError("observation", f"no deal of the unseen cards lets {top} be asked")
    deck = [0] * kinds
    for k in pool[at:]:
        deck[k] += 1
    state.deck = deck
    state.signs = {}
    if top is not None and top[0] == "rps" and not obs.winners:
        for seat in (top[1], top[2]):
            if seat == viewer:
                if obs.my_sign is not None:
                    state.signs[seat] = obs.my_sign
            elif seat not in obs.acting:
                state.signs[seat] = rng.choice(SIGNS)
    last = obs.last_round
    state.rounds = []
    state.history_from = (obs.round, tuple(obs.totals))
    if last is not None:
        record = {
            "ranches": [list(r) for r in last["ranches"]],
            "points": list(last["points"]),
            **{k: list(last[k]) for k in ("glory", "bonus", "penalty") if last[k] is not None},
            "winners": list(last["winners"]),
            "turns": last["turns"],
        }
        state.rounds = [record]
        state.history_from = (last["round"], _totals_before(obs.totals, record["points"]))
    if obs.winners:
        state.result = Outcome(
            tuple(obs.winners), tuple(float(t) for t in obs.totals), "target reached"
        )
    state._forget_cached()
    return state


def _totals_before(totals: Sequence[int], points: Sequence[int]) -> tuple[int, ...]:
    """Totals that the last round's ``points`` turn into ``totals`` (the history a
    sampled state starts from: the observation shows only the last round). A total is
    never below 0, so one at 0 could have been any total the round's loss wiped out;
    0 is taken, and is exact whenever the total stayed above 0."""
    return tuple(t - p if t > 0 else 0 for t, p in zip(totals, points, strict=True))
