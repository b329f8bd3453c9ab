"""The rules of Glory Ranch: turns, card actions, rounds and scoring.

A state holds the deck and discard pile as counts per card (no order: every draw
is a chance outcome weighted by copies), hands as counts, ranches as ordered
lists, and a stack of pending steps: what the card being resolved still has to
do. Steps are plain tuples, so a state is JSON and clones cheaply. After each
action :meth:`GloryState._settle` carries out every step that needs nobody's
choice (and every choice with one possibility), and stops at the next decision,
chance node or rock-paper-scissors contest.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from itertools import compress
from typing import Any

from ranchhand.core import CHANCE, SIMULTANEOUS, ChanceOutcomes, Outcome, State
from ranchhand.core.chance import draw_weighted
from ranchhand.core.words import Memo
from ranchhand.games.glory_ranch.actions import (
    BEATS,
    SIGNS,
    Choose,
    Draw,
    HandCard,
    Pick,
    Place,
    Steal,
    Target,
)
from ranchhand.games.glory_ranch.cards import Effect
from ranchhand.games.glory_ranch.describe import Move, describe, round_line
from ranchhand.games.glory_ranch.game import HAND_SIZE, RANCH_LIMIT, GloryRanch
from ranchhand.games.glory_ranch.notation import parse_action
from ranchhand.games.glory_ranch.observation import GloryObservation
from ranchhand.games.glory_ranch.scoring import add_round, round_breakdown
from ranchhand.games.glory_ranch.words import words

Step = tuple[Any, ...]
DECISIONS = frozenset({"discard", "give", "pass", "play", "target", "place", "pick"})
LOG_LENGTH = 12

_DRAWN = (Draw, Steal)
"""The chance outcomes' classes, as a tuple: ``isinstance`` with ``Draw | Steal`` builds the
union anew at every card drawn."""


class GloryState(State):
    """One position of a Glory Ranch game."""

    game: GloryRanch

    def __init__(self, game: GloryRanch) -> None:
        super().__init__(game)
        n, kinds = game.players, game.kinds
        self.deck = list(game.deck.copies)
        self.discard = [0] * kinds
        self.hands = [[0] * kinds for _ in range(n)]
        self.ranches: list[list[int]] = [[] for _ in range(n)]
        self.shields: list[list[int]] = [[] for _ in range(n)]
        self.passing: list[list[int]] = [[] for _ in range(n)]
        self.totals = [0] * n
        self.round = 1
        self.first = 0
        self.current = 0
        self.direction = 1
        self.skips = 0
        self.playing = False
        self.exhausted = False
        self.seventh = False
        """A 7th card was played into a ranch this turn: the round ends with the turn,
        even if a card leaves that ranch again (the rulebook: "played a 7th card")."""
        self.played_slot = 0
        self.round_turns = 0
        self.signs: dict[int, str] = {}
        self.stack: list[Step] = []
        self.rounds: list[dict[str, Any]] = []
        self.history_from: tuple[int, tuple[int, ...]] = (1, (0,) * n)
        """Where ``rounds`` begins: that round's number and the totals before it. Round 1
        and zeros in a game played from its start; a position set up by hand, or rebuilt
        from an observation, has a history from its own round (or its last round) on. The
        records of every round since then, added to those totals, make ``totals``."""
        self.log: list[str] = []
        self.result: Outcome | None = None
        self.moves: list[Move] | None = None
        """When a list, every action appends what it does (for the log; see describe.py)."""
        self._offered: tuple[Step, list[Hashable]] | None = None
        """The choices of the step on top, as ``_settle`` found them while checking the step
        is a real decision; ``_legal_actions`` hands them out for that same step."""
        self._played: Memo[GloryState | None] | None = None
        """The last action worked out for the log (:func:`.describe.played`): the player, the
        action and the copy it was applied to; every viewer's line, in notation and in
        words, asks for the same one, so it is applied once. Forgotten with the caches."""
        self._deal()

    def _forget_cached(self) -> None:
        super()._forget_cached()
        self._played = None

    # ------------------------------------------------------------ protocol
    def _current_player(self) -> int:
        if not self.stack:
            return self.current
        top = self.stack[-1]
        kind = top[0]
        if kind == "draw" or kind == "steal":
            return CHANCE
        if kind == "rps":
            return SIMULTANEOUS
        return top[1]

    def _acting_players(self) -> tuple[int, ...]:
        top = self.stack[-1]
        return tuple(p for p in (top[1], top[2]) if p not in self.signs)

    def _chance_outcomes(self) -> ChanceOutcomes:
        counts, faces = self._drawn_from()
        actions = [faces[k] for k, c in enumerate(counts) if c]
        return ChanceOutcomes(actions, [c for c in counts if c])

    def _drawn_from(self) -> tuple[list[int], tuple[Draw | Steal, ...]]:
        """The counts a chance node draws from (the deck, or a robbed hand) and their faces."""
        top = self.stack[-1]
        if top[0] == "draw":
            return self.deck, self.game.draws
        return self.hands[top[2]], self.game.steals

    def _sample_chance(self, rng: random.Random) -> Hashable:
        """The card ``chance_outcomes().sample(rng)`` gives, walked from the counts (those
        of the deck for a draw, read here without a call: a game draws a card at every
        other step)."""
        top = self.stack[-1]
        faces: tuple[Draw | Steal, ...]
        if top[0] == "draw":
            counts, faces = self.deck, self.game.draws
        else:
            counts, faces = self._drawn_from()
        return faces[draw_weighted(rng, counts, sum(counts))]

    def _is_chance_outcome(self, action: Hashable) -> bool:
        top = self.stack[-1]
        faces: tuple[Draw | Steal, ...]
        if top[0] == "draw":  # the deck's counts, as in _sample_chance
            counts, faces = self.deck, self.game.draws
        else:
            counts, faces = self._drawn_from()
        kind = self.game.index.get(action.card) if isinstance(action, _DRAWN) else None
        if kind is None:
            return False
        face = faces[kind]  # a draw sampled here is this very object: no field comparison
        return (face is action or face == action) and counts[kind] > 0

    def _legal_actions(self, player: int) -> list[Hashable]:
        if not self.stack:
            return self._hand_choices("play", player)
        top = self.stack[-1]
        if top[0] == "rps":
            return [Choose(s) for s in SIGNS]
        offered = self._offered
        if offered is not None and offered[0] is top:
            return offered[1]
        return self._options(top)

    def _why_illegal(self, action: Hashable, player: int) -> str | None:
        """Why ``action`` is refused, with what would be accepted (see :func:`_refusal`)."""
        return _refusal(self, action, player)

    def _parse(self, text: str, player: int) -> Hashable:
        return parse_action(self, text, player)

    def _outcome(self) -> Outcome | None:
        return self.result

    def evaluate(self) -> list[float]:
        """Each player's rough chance to win, for search bots' cut rollouts.

        The running totals plus what each ranch and hand would score if the round
        ended now, shared out by ``exp(total / spread)`` with a spread of a fifth of the
        Glory target: one good round's lead (about 10 of a 50 target) is worth 7 to 1.
        """
        parts = round_breakdown(self.game.tables, self.ranches, self.hands)
        projected = add_round(self.totals, parts.points)
        spread = max(1.0, self.game.target / 5)
        top = max(projected)
        weights = [math.exp((t - top) / spread) for t in projected]
        share = sum(weights)
        return [w / share for w in weights]

    def _apply(self, action: Hashable, player: int) -> None:
        self._offered = None
        stack = self.stack
        if player == CHANCE:
            top = stack.pop()
            card = self.game.index[action.card]  # type: ignore[attr-defined]
            if top[0] == "draw":
                self.deck[card] -= 1
                self.hands[top[1]][card] += 1
            else:
                self.hands[top[2]][card] -= 1
                self.hands[top[1]][card] += 1
                self._moved(("steal", "", top[1], top[2], card))
        elif isinstance(action, Choose):
            self.signs[player] = action.sign
            if len(self.signs) == 2:
                self._contest()
        elif not stack:
            self._play(player, self.game.index[action.card])  # type: ignore[attr-defined]
        else:
            self._decide(stack.pop(), action)
        self._settle()

    # --------------------------------------------------------------- turns
    def _deal(self) -> None:
        """Queue the deal: five cards to each player in turn, from the first player."""
        n = self.game.players
        order = [(self.first + i) % n for i in range(n)]
        steps = [("draw", p) for _ in range(HAND_SIZE) for p in order]
        self.stack = steps[::-1]

    def _play(self, player: int, card: int) -> None:
        """Put ``card`` at the right end of ``player``'s ranch and queue its actions."""
        self.hands[player][card] -= 1
        self.ranches[player].append(card)
        self.shields[player].append(0)
        self.played_slot = len(self.ranches[player]) - 1
        if len(self.ranches[player]) == RANCH_LIMIT:
            self.seventh = True
        self.playing = True
        self._note(f"P{player} plays {self.game.deck.cards[card].name}", "play", player, card)
        for number in reversed(self.game.card_effects[card]):
            self.stack.append(("do", player, -1, number))

    def _settle(self) -> None:
        """Carry out steps that need no choice until a decision, chance or contest is due."""
        stack = self.stack
        while self.result is None:
            if not stack:
                if not self.playing:
                    return
                self._finish_turn()
                continue
            top = stack[-1]
            kind = top[0]
            if kind == "do":
                stack.pop()
                self._expand(self.game.effects[top[3]], top[1], top[2], -1)
            elif kind == "draw":
                if any(self.deck):
                    return
                if any(self.discard):
                    self.deck, self.discard = self.discard, [0] * self.game.kinds
                    self._note("the discard pile is shuffled into the deck", "shuffle")
                    return
                self.exhausted = True
                stack.pop()
            elif kind == "steal":
                if any(self.hands[top[2]]):
                    return
                stack.pop()
            elif kind == "rps":
                return
            elif kind == "deliver":
                stack.pop()
                n = self.game.players
                for p, cards in enumerate(self.passing):
                    seat = (p + top[1]) % n
                    for card in cards:
                        self.hands[seat][card] += 1
                        self._moved(("pass", "", p, seat, card))
                    cards.clear()
            elif kind == "trade":
                stack.pop()
                a, b = top[1], top[2]
                hand_a, hand_b = tuple(self.hands[a]), tuple(self.hands[b])
                self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
                self._note(f"P{a} trades hands with P{b}", "trade", a, b, hand_a, hand_b)
            else:
                options = self._options(top)
                if len(options) > 1:
                    self._offered = (top, options)
                    return
                stack.pop()
                if options:
                    self._decide(top, options[0])

    def _finish_turn(self) -> None:
        self.playing = False
        self.round_turns += 1
        self._end_turn()
        n = self.game.players
        ended = self.exhausted or self.seventh or not all(map(any, self.hands))
        self.seventh = False
        if ended:
            self._end_round()
            return
        step = self.direction * (1 + self.skips)
        self.skips = 0
        self.current = (self.current + step) % n

    def _end_round(self) -> None:
        game = self.game
        parts = round_breakdown(game.tables, self.ranches, self.hands)
        points = parts.points
        best = max(points)
        self.rounds.append(
            {
                "ranches": [[game.ids[k] for k in r] for r in self.ranches],
                "points": points,
                "glory": list(parts.glory),
                "bonus": list(parts.bonus),
                "penalty": list(parts.penalty),
                "winners": [p for p, x in enumerate(points) if x == best],
                "turns": self.round_turns,
            }
        )
        self.totals = add_round(self.totals, points)
        top = max(self.totals)
        if top >= game.target:
            leaders = tuple(p for p, t in enumerate(self.totals) if t == top)
            if len(leaders) == 1 or game.share_ties:
                self.result = Outcome(
                    leaders, tuple(float(t) for t in self.totals), "target reached"
                )
        scores = ", ".join(f"P{p} {x:+d}" for p, x in enumerate(points))
        winners = self.result.winners if self.result is not None else ()
        self._note(
            f"round {self.round} ends: {scores}",
            "round",
            round_line(self, self.round),
            self.round,
            tuple(points),
            tuple(self.totals),
            winners,
        )
        if self.result is None:
            self._new_round()

    def _new_round(self) -> None:
        game = self.game
        n = game.players
        self.round += 1
        self.first = (self.first + 1) % n
        self.current = self.first
        self.deck = list(game.deck.copies)
        self.discard = [0] * game.kinds
        self.hands = [[0] * game.kinds for _ in range(n)]
        self.ranches = [[] for _ in range(n)]
        self.shields = [[] for _ in range(n)]
        self.direction, self.skips, self.round_turns = 1, 0, 0
        self.exhausted = False
        self._deal()

    # -------------------------------------------------------- card actions
    def _order(self, actor: int) -> list[int]:
        """Every player, from ``actor`` round the table clockwise."""
        n = self.game.players
        return [(actor + i) % n for i in range(n)]

    def _expand(self, e: Effect, actor: int, rival: int, target: int) -> None:
        """Turn one card action into the steps that carry it out (pushed on the stack)."""
        do = e.do
        if do == "draw" or do == "discard":
            chosen_field = e.who
        else:
            chosen_field = e.to if do == "give" else e.target
        if chosen_field == "chosen" and target < 0:
            number = self.game.effect_number[e]
            self.stack.append(("target", actor, rival, number))
            return
        if chosen_field == "rival":
            target = rival
        steps: list[Step] = []
        if do in ("draw", "discard"):
            who = e.who
            if who == "you":
                players = [actor]
            elif who == "each":
                players = self._order(actor)
            elif who == "others":
                players = self._order(actor)[1:]
            else:
                players = [target]
            if do == "draw":
                steps = [("draw", p) for p in players for _ in range(e.n)]
            else:
                steps = [("discard", p) for p in players for _ in range(e.n)]
        elif do == "give":
            steps = [("give", actor, target)] * e.n
        elif do == "steal":
            steps = [("steal", actor, target)] * e.n
        elif do == "trade":
            steps = [("trade", actor, target)]
        elif do == "pass":
            n = self.game.players
            shift = 1 if e.to == "left" else -1
            steps = [("pass", p, (p + shift) % n) for p in self._order(actor) for _ in range(e.n)]
            steps.append(("deliver", shift))
        elif do == "reverse":
            self.direction = -self.direction
            self._note("play reverses", "reverse", self.direction)
        elif do == "skip":
            self.skips += 1
            n = self.game.players
            skipped = (self.current + self.direction * self.skips) % n
            self._note("the next player will lose their turn", "skip", skipped)
        elif do == "play":
            steps = [("play", actor)]
        elif do == "place":
            if e.at == "left":
                self._move_played(actor, 0)
            else:
                steps = [("place", actor)]
        elif do in ("banish", "return"):
            steps = [("pick", actor, do, e.target)]
        elif do == "protect":
            steps = [("pick", actor, "protect", "yours")]
        elif do == "rps":
            steps = [("rps", actor, target, self.game.effect_number[e], 0)]
            self._note(
                f"P{actor} challenges P{target} to rock-paper-scissors", "challenge", actor, target
            )
        self.stack.extend(reversed(steps))

    def _move_played(self, player: int, slot: int) -> None:
        ranch, shields = self.ranches[player], self.shields[player]
        card, shield = ranch.pop(self.played_slot), shields.pop(self.played_slot)
        ranch.insert(slot, card)
        shields.insert(slot, shield)
        self.played_slot = slot

    def _hand_choices(self, verb: str, player: int) -> list[Hashable]:
        return list(compress(self.game.hand_cards[verb], self.hands[player]))

    def _options(self, step: Step) -> list[Hashable]:
        """The choices a decision step offers (empty: it cannot be done and is skipped)."""
        kind, actor = step[0], step[1]
        if kind == "play":
            if len(self.ranches[actor]) >= RANCH_LIMIT:
                return []
            return self._hand_choices("play", actor)
        if kind in ("discard", "give", "pass"):
            return self._hand_choices(kind, actor)
        if kind == "target":
            return [_target(p) for p in self._order(actor)[1:]]
        if kind == "place":
            return [_place(s + 1) for s in range(len(self.ranches[actor]))]
        # pick: a card in a ranch, for banish / return / protect
        what, scope = step[2], step[3]
        if scope == "yours":
            seats = [actor]
        elif scope == "opponent":
            seats = self._order(actor)[1:]
        else:
            seats = self._order(actor)
        ids = self.game.ids
        picks: list[Hashable] = []
        for seat in seats:
            shields = self.shields[seat]
            for slot, card in enumerate(self.ranches[seat]):
                if not shields[slot]:
                    picks.append(_pick(seat, slot + 1, ids[card]))
        if what == "protect" and not picks:
            return []
        return picks

    def _decide(self, step: Step, action: Any) -> None:
        """Carry out a decision ``action`` answering ``step`` (already popped)."""
        kind, actor = step[0], step[1]
        names = self.game.deck.cards
        if kind == "target":
            self._expand(self.game.effects[step[3]], actor, step[2], action.seat)
        elif kind == "play":
            self._play(actor, self.game.index[action.card])
        elif kind == "discard":
            card = self.game.index[action.card]
            self.hands[actor][card] -= 1
            self.discard[card] += 1
            self._note(f"P{actor} discards {names[card].name}", "discard", actor, card)
        elif kind == "give":
            card = self.game.index[action.card]
            self.hands[actor][card] -= 1
            self.hands[step[2]][card] += 1
            self._note(f"P{actor} gives P{step[2]} a card", "give", actor, step[2], card)
        elif kind == "pass":
            card = self.game.index[action.card]
            self.hands[actor][card] -= 1
            self.passing[actor].append(card)
        elif kind == "place":
            self._move_played(actor, action.slot - 1)
        else:
            seat, slot = action.seat, action.slot - 1
            what = step[2]
            card = self.ranches[seat][slot]
            if what == "protect":
                self.shields[seat][slot] = 1
                self._note(f"P{actor} protects {names[card].name}", "protect", actor, seat, card)
                return
            self.ranches[seat].pop(slot)
            self.shields[seat].pop(slot)
            if seat == actor and slot < self.played_slot:
                self.played_slot -= 1
            if what == "banish":
                self.discard[card] += 1
                self._note(
                    f"P{actor} discards P{seat}'s {names[card].name}", "banish", actor, seat, card
                )
            else:
                self.hands[seat][card] += 1
                self._note(
                    f"P{actor} returns P{seat}'s {names[card].name} to their hand",
                    "return",
                    actor,
                    seat,
                    card,
                )

    def _contest(self) -> None:
        """Both signs are in: a tie replays; otherwise queue the winner's and loser's actions.

        The rulebook replays ties "until you do not"; players who always show the same
        sign (bots, mostly) would never stop, so the ``rps_ties``-th tie in a row voids
        the contest: nobody wins and its consequences are skipped, like any action that
        cannot be done (rulebook FAQ). Every game therefore ends.
        """
        step = self.stack[-1]
        a, b = step[1], step[2]
        sa, sb = self.signs[a], self.signs[b]
        self.signs = {}
        if sa == sb:
            ties = step[4] + 1
            if ties >= self.game.rps_ties:
                self.stack.pop()
                line = f"P{a} and P{b} both show {sa}: {ties} ties, the contest is void"
                self._note(line, "tie", a, b, sa, ties, True)
                return
            self.stack[-1] = (*step[:4], ties)
            self._note(f"P{a} and P{b} both show {sa}: again", "tie", a, b, sa, ties, False)
            return
        self.stack.pop()
        winner, loser = (a, b) if BEATS[sa] == sb else (b, a)
        self._note(
            f"P{a} shows {sa}, P{b} shows {sb}: P{winner} wins", "contest", a, b, sa, sb, winner
        )
        effect = self.game.effects[step[3]]
        number = self.game.effect_number
        steps = [("do", winner, loser, number[w]) for w in effect.win]
        steps += [("do", loser, winner, number[x]) for x in effect.lose]
        self.stack.extend(reversed(steps))

    def _note(self, text: str, kind: str = "note", *details: Any) -> None:
        """A public line of the log; ``kind`` and ``details`` say what it was for the moves
        (a card given is "a card" in the public line, its name is in the details)."""
        log = self.log
        log.append(text)
        if len(log) > LOG_LENGTH:
            del log[0]
        moves = self.moves
        if moves is not None:  # the move is made only for a log that keeps it
            moves.append((kind, text, *details))

    def _moved(self, move: Move) -> None:
        if self.moves is not None:
            self.moves.append(move)

    # --------------------------------------------------------- information
    def asking(self) -> str:
        """What the game waits for now, in words (for views and error messages)."""
        top = self.stack[-1] if self.stack else None
        effect = self.game.effects[top[3]] if top is not None and top[0] == "target" else None
        return _asking(self.result is not None, self.current, top, effect)

    def describe_for(self, viewer: int | None, action: Hashable, player: int) -> str:
        """``action`` and what follows from it, as ``viewer`` may see it (see describe.py).

        A card given or passed is named to the giver and the receiver; a card drawn
        to the drawer; a card stolen to the thief and the robbed player; traded hands
        to the two traders. A rock-paper-scissors sign is "chooses a sign" to everyone
        else until both players have chosen (the contest's result names both signs).
        Plays and discards are face up, so they are named to everyone. ``viewer`` None
        is nobody in particular: a shared screen, a spectator.
        """
        return describe(self, viewer, action, player)

    def describe_words(
        self, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
    ) -> str:
        """``action`` and what follows, in sentences for a table's log (see words.py):
        "Ann played Wyvern.", "You drew Kraken." / "Bob drew a card.". It keeps every
        secret :meth:`describe_for` keeps, from the same consequences."""
        return words(self, viewer, action, player, names)

    def observe(self, player: int | None) -> GloryObservation:
        """What ``player`` sees; ``player`` None (or any number that is not a seat) is the
        spectator: every ranch, total and hand size, but no hand, no pending sign and no
        card being passed.

        The fields in :data:`~ranchhand.games.glory_ranch.observation.LATER` (what the
        greedy bot never reads) are made on first read, from values taken now that the
        player may see (public ones, and their own sign and cards to pass; see
        :func:`_later_fields`): nothing else of the state is kept, so the observation holds
        no secret and stays what the player saw however the game goes on."""
        game = self.game
        seat = player if player is not None and 0 <= player < game.players else None
        stack = self.stack
        top = stack[-1] if stack else None
        result = self.result
        current = self.current_player()  # TERMINAL (no one acts) once there is a result
        effect = None
        if top is not None and top[0] in ("target", "rps"):
            effect = game.effects[top[3]]
        sizes = list(map(sum, self.hands))
        return GloryObservation.of_fields(
            {
                "player": seat,
                "players": game.players,
                "totals": list(self.totals),
                "hand": [] if seat is None else _cards(self.hands[seat], sizes[seat]),
                "hand_sizes": sizes,
                "ranches": list(map(list, self.ranches)),
                "shields": list(map(list, self.shields)),
                "step": None if top is None or top[0] == "do" else top[:3],
                "effect": effect,
                "cards": game.deck,
                "_later": (
                    _later_fields,
                    (
                        self.round,
                        game.target,
                        self.current,
                        self.first,
                        self.direction,
                        sum(self.deck),
                        None if seat is None else self.signs.get(seat),
                        list(self.log),
                        list(stack),
                        game.ids,
                    ),
                    None  # mine and everyone's count: never another player's cards
                    if not any(self.passing)
                    else (
                        [] if seat is None else list(self.passing[seat]),
                        list(map(len, self.passing)),
                    ),
                    current if current >= 0 else self._acting(current),
                    result,
                    top,
                    effect,
                    self.rounds[-1] if self.rounds else None,
                    tuple(self.totals),
                    tuple(self.discard),
                    (
                        self.turn,
                        self.round_turns,
                        self.skips,
                        self.playing,
                        self.exhausted,
                        self.seventh,
                        self.played_slot,
                    ),
                ),
            }
        )

    def standing(self) -> list[float]:
        """Each player's running total of rounds scored, the lab's "who is ahead"."""
        return [float(t) for t in self.totals]

    def details(self) -> dict[str, Any]:
        """Per round: ranch cards, points, round winners, turns; the game's totals."""
        return {
            "rounds": [dict(r) for r in self.rounds],
            "turns": self.turn,
            "winners": list(self.result.winners) if self.result else [],
            "totals": list(self.totals),
        }

    # ----------------------------------------------------------- copy, JSON
    def clone(self) -> GloryState:
        twin = self._twin()
        twin._offered = None  # a copy's hands or ranches may be changed before it moves
        twin.deck = list(self.deck)
        twin.discard = list(self.discard)
        twin.hands = [list(h) for h in self.hands]
        twin.ranches = [list(r) for r in self.ranches]
        twin.shields = [list(s) for s in self.shields]
        twin.passing = [list(p) for p in self.passing]
        twin.totals = list(self.totals)
        twin.signs = dict(self.signs)
        twin.stack = list(self.stack)
        twin.rounds = list(self.rounds)
        twin.log = list(self.log)
        return twin

    def _to_json(self) -> dict[str, Any]:
        """The state as JSON; ``history_from`` only when the history does not start with
        the game (a set-up or sampled position), so a game's JSON is as it always was."""
        ids = self.game.ids
        data = {
            "deck": _named(self.deck, ids),
            "discard": _named(self.discard, ids),
            "hands": [_named(h, ids) for h in self.hands],
            "ranches": [[ids[k] for k in r] for r in self.ranches],
            "shields": [list(s) for s in self.shields],
            "passing": [[ids[k] for k in p] for p in self.passing],
            "totals": list(self.totals),
            "round": self.round,
            "first": self.first,
            "current": self.current,
            "direction": self.direction,
            "skips": self.skips,
            "playing": self.playing,
            "exhausted": self.exhausted,
            "seventh": self.seventh,
            "played_slot": self.played_slot,
            "round_turns": self.round_turns,
            "signs": {str(p): s for p, s in self.signs.items()},
            "stack": [list(s) for s in self.stack],
            "rounds": self.rounds,
            "log": list(self.log),
            "result": None if self.result is None else self.result.to_json(),
        }
        start, base = self.history_from
        if start != 1 or any(base):
            data["history_from"] = {"round": start, "totals": list(base)}
        return data

    @classmethod
    def from_json(cls, game: GloryRanch, data: Mapping[str, Any]) -> GloryState:
        """The state ``data`` (from :meth:`to_json`) describes, every field checked."""
        from ranchhand.games.glory_ranch.positions import state_from_json

        return state_from_json(game, data)

    def _validate(self) -> None:
        """Refuse, naming the field, a position that could not arise (see positions.py)."""
        from ranchhand.games.glory_ranch.positions import validate

        validate(self)


def _asking(over: bool, current: int, top: Step | None, effect: Effect | None) -> str:
    """What the game waits for, in words: ``over`` once it has a result, ``current`` the
    player whose turn it is, ``top`` the step on top of the stack (``effect`` its card
    action, for a target)."""
    if over:
        return "nothing: the game is over"
    if top is None:
        return f"player {current} plays a card from their hand"
    kind = top[0]
    if kind == "draw":
        return f"player {top[1]} draws a card (chance)"
    if kind == "steal":
        return f"player {top[1]} steals a random card from player {top[2]} (chance)"
    if kind == "rps":
        return f"players {top[1]} and {top[2]} choose rock, paper or scissors"
    if kind == "target":
        assert effect is not None, "a target step names its card action"
        return f"player {top[1]} chooses another player for: {_lower(effect)}"
    if kind == "play":
        return f"player {top[1]} plays another card"
    if kind in ("discard", "give", "pass"):
        to = f" to player {top[2]}" if kind != "discard" else ""
        return f"player {top[1]} chooses a card to {kind}{to}"
    if kind == "place":
        return f"player {top[1]} chooses where the card goes in their ranch"
    what = {"banish": "discard", "return": "return to its owner's hand"}.get(top[2], top[2])
    return f"player {top[1]} picks a ranch card to {what}"


def _later_fields(
    taken: tuple[Any, ...],
    passing: tuple[list[int], list[int]] | None,
    acting: int | tuple[int, ...],
    result: Outcome | None,
    top: Step | None,
    effect: Effect | None,
    record: dict[str, Any] | None,
    totals: tuple[int, ...],
    discard: tuple[int, ...],
    turn: tuple[int | bool, ...],
) -> dict[str, Any]:
    """The observation's fields made on first read, from the public values ``observe``
    took: the fields of :data:`TAKEN` as they were (in that order), the observer's cards
    put face down to pass and how many each player put (None while nobody passes, most of
    the time), who acts
    (a seat, or the players of a contest), the result, the step on top and its card action, the last
    round's record, the totals, the discard pile's counts and the turn counters (in
    :data:`TURN_STATE`'s order)."""
    made = dict(zip(TAKEN, taken, strict=True))
    over = result is not None
    round_number = made["round"]
    last = None
    if record is not None:
        last = {
            "round": round_number if over else round_number - 1,
            "ranches": [list(r) for r in record["ranches"]],
            "turns": record["turns"],
            **{
                key: None if record.get(key) is None else list(record[key])
                for key in ("glory", "bonus", "penalty")
            },
            "points": list(record["points"]),
            "totals": list(totals),
            "winners": list(record["winners"]),
        }
    if passing is None:
        made["passing"], made["passing_sizes"] = [], [0] * len(totals)  # a total per player
    else:
        made["passing"], made["passing_sizes"] = passing
    made["discard"] = sum(discard)
    made["acting"] = [acting] if isinstance(acting, int) else list(acting)
    made["asking"] = _asking(over, made["current"], top, effect)
    made["last_round"] = last
    made["winners"] = list(result.winners) if result is not None else []
    made["discard_pile"] = _cards(discard)
    made["turn_state"] = dict(zip(TURN_STATE, turn, strict=True))
    return made


TAKEN = (
    "round",
    "target",
    "current",
    "first",
    "direction",
    "deck",
    "my_sign",
    "log",
    "pending",
    "ids",
)
"""The fields :func:`_later_fields` is handed as they are."""

TURN_STATE = ("turn", "round_turns", "lost_turns", "playing", "exhausted", "seventh", "played_slot")
"""The keys of an observation's ``turn_state``, in order."""


def _named(counts: list[int], ids: tuple[str, ...]) -> dict[str, int]:
    return {ids[k]: c for k, c in enumerate(counts) if c}


@lru_cache(maxsize=1024)
def _lower(effect: Effect) -> str:
    """The effect in words, lower-cased to follow a colon; remembered per effect, since
    every observation at a target step says it (a deck has a few dozen effects)."""
    from ranchhand.games.glory_ranch.cards import effect_text

    text = effect_text(effect)
    return text[:1].lower() + text[1:]


def _refusal(state: GloryState, action: Hashable, player: int) -> str:
    """Why ``action`` is not legal now, naming the choices that are.

    A card in no hand, yourself as the other player, a protected ranch card ("Selkie
    in P1's ranch is protected"), a card outside the ranches you may pick from, a
    position past the end of your ranch: each is said, with the legal choices.
    """
    game = state.game
    asked = state.asking()
    legal = state.legal_actions(player)
    if isinstance(action, HandCard):
        if action.card not in game.index:
            return f"there is no card {action.card!r} in this deck"
        if not state.hands[player][game.index[action.card]]:
            return f"you have no {action.card} in your hand"
    if isinstance(action, Target):
        seats = [f"P{a.seat}" for a in legal if isinstance(a, Target)]
        choices = f": {_either(seats)}" if seats else ""
        if action.seat == player:
            return f"choose another player, not yourself{choices}"
        if seats:
            return f"P{action.seat} cannot be chosen now; choose {_either(seats)}"
    if isinstance(action, Pick):
        picks = [f"{a.seat}:{a.slot}" for a in legal if isinstance(a, Pick)]
        ranch = state.ranches[action.seat] if 0 <= action.seat < game.players else []
        choices = f"; pick one of {', '.join(picks)}" if picks else ""
        if picks and 0 < action.slot <= len(ranch):
            card = game.deck.cards[ranch[action.slot - 1]]
            where = f"P{action.seat}'s ranch"
            if card.id != action.card:
                return f"the card at {action.seat}:{action.slot} is {card.id}, not {action.card}"
            if state.shields[action.seat][action.slot - 1]:
                return f"{card.name} in {where} is protected{choices}"
            scope = sorted({a.seat for a in legal if isinstance(a, Pick)})
            whose = "your" if scope == [player] else "another player's"
            return (
                f"{card.name} in {where} cannot be picked: the card asks for {whose} ranch{choices}"
            )
        return f"{action} is not a card you may choose now ({asked}){choices}"
    if isinstance(action, Place):
        slots = [a.slot for a in legal if isinstance(a, Place)]
        if slots:
            return f"your ranch has positions 1 to {max(slots)}: place 1..{max(slots)}"
    examples = ", ".join(str(a) for a in legal[:3])
    return f"{action} does not answer what is asked now: {asked}" + (
        f" (e.g. {examples})" if examples else ""
    )


def _either(items: list[str]) -> str:
    """``P1``, ``P1 or P2``, ``P1, P2 or P3``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


@lru_cache(maxsize=4096)
def _pick(seat: int, slot: int, card: str) -> Pick:
    """The same (immutable) pick each time it is offered: a frozen dataclass is slow to
    make, and every ranch card is offered at every banish, return and protect."""
    return Pick(seat, slot, card)


@lru_cache(maxsize=64)
def _target(seat: int) -> Target:
    """The same (immutable) target each time it is offered (see :func:`_pick`)."""
    return Target(seat)


@lru_cache(maxsize=64)
def _place(slot: int) -> Place:
    """The same (immutable) position each time it is offered (see :func:`_pick`)."""
    return Place(slot)


def _cards(counts: Sequence[int], size: int | None = None) -> list[int]:
    """Each card index as often as ``counts`` holds it, in index order (a hand, a pile).

    ``compress`` skips the many zero counts in C, and a list of single copies (most hands)
    is done there: observations are made at every decision. ``size``, the sum of
    ``counts`` when the caller has it, tells single copies apart without a look at them.
    """
    cards = list(compress(range(len(counts)), counts))
    several = max(counts, default=0) > 1 if size is None else len(cards) != size
    if several:
        return [k for k in cards for _ in range(counts[k])]
    return cards
