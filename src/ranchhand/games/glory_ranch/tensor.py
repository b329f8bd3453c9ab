"""Glory Ranch's observation tensor: one player's view as a flat float32 vector.

Built from a :class:`~ranchhand.games.glory_ranch.observation.GloryObservation`
alone: the viewer's own hand, own cards being passed and own pending sign; every
ranch with its protected cards, the discard pile, the sizes of the deck and of
every hand, the totals, the last round scored, the turn counters and the steps
still pending. Seats are counted from the viewer (0 is the viewer, 1 the player
on their left, clockwise), as the action indices count them.

Cards are one-hot by kind (the deck file's order) in a ranch, and counted per
kind in a hand, the discard pile and the cards being passed. The pending steps
(what the card being resolved still has to do, and the deal's draws) are shown
top first, :data:`STEPS_SHOWN` of them in full; the ones below as a count per
kind of step and seat (at the deal these are draws, in a fixed order).

Left out: the log's text (its facts are in the tensor or in the past) and the
``asking`` sentence (it follows from the top step). Totals, Glory and points are
divided by the target, counts by :data:`COUNT_SCALE`, so entries stay near 0..1.

Every entry has a bound by construction (:meth:`GloryTensor.bounds`, the adapters'
observation Box): flags and one-hots lie in 0..1, copies of a card kind in 0..the
copies the deck holds, sizes in 0..the box. What the rules leave unbounded (rounds,
turns, totals, a long stack of steps) is clipped at a cap far beyond play: totals
and round points at :data:`POINTS_CAP` targets either way (measured over random games:
-0.67..3.35), counters at :data:`COUNTER_CAP` of their scale.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

import numpy as np

from ranchhand.games.glory_ranch.actions import SIGNS
from ranchhand.games.glory_ranch.game import RANCH_LIMIT

if TYPE_CHECKING:
    from ranchhand.games.glory_ranch.game import GloryRanch
    from ranchhand.games.glory_ranch.observation import GloryObservation

STEPS_SHOWN = 8
"""Pending steps written in full, from the top of the stack (the deepest measured,
besides the deal's draws, is 9 at 6 players)."""
COUNT_SCALE = 10.0
"""Hand sizes, rounds, lost turns and steps below the shown ones are divided by this;
turns by ten times it."""
STEP_KINDS = (
    *("do", "draw", "steal", "discard", "give", "pass", "deliver"),
    *("trade", "play", "place", "pick", "target", "rps"),
)
"""Every kind of pending step (``state.py``)."""
POINTS_CAP = 10.0
"""Totals and a round's Glory, bonus, penalty and points lie in -10..10 targets (clipped)."""
COUNTER_CAP = 10.0
"""Rounds, turns, lost turns, hand sizes and pending steps, once scaled, are clipped here
(rounds / 10 at 100 rounds, turns / 100 at 1,000 turns)."""
WITH_SECOND_SEAT = frozenset({"do", "steal", "give", "pass", "trade", "target", "rps"})
WITH_EFFECT = frozenset({"do", "target", "rps"})
PICKS = ("banish", "return", "protect")
SCOPES = ("yours", "opponent", "any")
SHIFTS = (1, -1)
"""A delivery of passed cards: to the left (+1) or to the right (-1)."""


class GloryTensor:
    """The layout of one deck's tensor (player count fixed) and its filling."""

    def __init__(self, game: GloryRanch) -> None:
        self.game = game
        n, kinds = game.players, game.kinds
        self.players, self.kinds = n, kinds
        effects = len(game.effects)
        self.step_size = len(STEP_KINDS) + 2 * n + effects + len(PICKS) + len(SCOPES) + 3
        self.box = float(game.deck.size)
        self.layout: list[tuple[str, int]] = [
            ("viewer's seat (one-hot, absolute seat number)", n),
            ("round / 10", 1),
            ("target / 100", 1),
            ("totals / target, seats from the viewer", n),
            ("whose turn (one-hot, seats from the viewer)", n),
            ("first player of the round (one-hot, seats from the viewer)", n),
            ("play goes counter-clockwise", 1),
            ("cards in the deck, on the discard pile (shares of the box)", 2),
            (f"own hand, copies per card kind ({kinds})", kinds),
            ("hand sizes / 10, seats from the viewer", n),
            (
                f"ranches: seat x position 1-{RANCH_LIMIT} x (card one-hot, protected)",
                n * RANCH_LIMIT * (kinds + 1),
            ),
            ("players who must choose now, seats from the viewer", n),
            ("own rock-paper-scissors sign (one-hot: none, " + ", ".join(SIGNS) + ")", 4),
            (f"own cards being passed, per kind ({kinds})", kinds),
            ("cards each player has put face down to pass / 10, seats from the viewer", n),
            (f"discard pile, copies per card kind ({kinds})", kinds),
            ("game winners, seats from the viewer", n),
            (
                "last round scored: present, turns / 100, per seat from the viewer Glory, "
                "Hour Glass bonus, penalty, points (/ target) and round winner",
                2 + 5 * n,
            ),
            (f"last round's ranches: copies per card kind, per seat ({n} x {kinds})", n * kinds),
            (
                "turn counters: turns / 100, turns this round / 100, lost turns / 10, a card "
                f"is being resolved, a draw found no card, a 7th card was played, the played "
                f"card's position (one-hot 0-{RANCH_LIMIT})",
                6 + RANCH_LIMIT + 1,
            ),
            ("pending steps, total / 10", 1),
            (
                f"the top {STEPS_SHOWN} pending steps x {self.step_size}: kind "
                f"({len(STEP_KINDS)}), first and second seat from the viewer ({n} + {n}), "
                f"card action ({effects}), pick for ({len(PICKS)}) from ({len(SCOPES)}), "
                "passed to the left or right, rock-paper-scissors ties / rps_ties",
                STEPS_SHOWN * self.step_size,
            ),
            (
                f"pending steps below those, count / 10 per kind x first seat "
                f"({len(STEP_KINDS)} x {n})",
                len(STEP_KINDS) * n,
            ),
        ]
        self.size = sum(length for _name, length in self.layout)
        self._blank = array("f", bytes(4 * self.size))
        """All zeros: each tensor is written into a copy of it (see :class:`_Writer`)."""
        self.low, self.high = self.bounds()

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The least and the greatest value of each entry, by construction (the layout's
        blocks in order; :meth:`build` clips the few unbounded counts to them)."""
        n, kinds = self.players, self.kinds
        copies = np.array(self.game.deck.copies, dtype=np.float32)
        in_ranch = np.minimum(copies, RANCH_LIMIT)
        flag, points, counter = (0.0, 1.0), (-POINTS_CAP, POINTS_CAP), (0.0, COUNTER_CAP)
        sizes = (0.0, min(COUNTER_CAP, self.box / COUNT_SCALE))
        blocks: list[tuple[int, tuple[Any, Any]]] = [
            (n, flag),
            (1, counter),
            (1, (0.0, 5.0)),  # the target option is at most 500
            (n, points),
            (2 * n + 1 + 2, flag),
            (kinds, (0.0, copies)),
            (n, sizes),
            (n * RANCH_LIMIT * (kinds + 1) + n + 4, flag),
            (kinds, (0.0, copies)),
            (n, sizes),
            (kinds, (0.0, copies)),
            (n, flag),
            (1, flag),
            (1, counter),
            (4 * n, points),
            (n, flag),
            (n * kinds, (0.0, np.tile(in_ranch, n))),
            (3, counter),
            (3 + RANCH_LIMIT + 1, flag),
            (1, counter),
            (STEPS_SHOWN * self.step_size, flag),
            (len(STEP_KINDS) * n, counter),
        ]
        low = np.concatenate([np.broadcast_to(np.float32(lo), (k,)) for k, (lo, _) in blocks])
        high = np.concatenate([np.broadcast_to(np.float32(hi), (k,)) for k, (_, hi) in blocks])
        assert low.size == self.size, (low.size, self.size)
        return low.astype(np.float32), high.astype(np.float32)

    def build(self, observation: GloryObservation, player: int) -> np.ndarray:
        """``player``'s tensor from ``observation`` (what that player sees, nothing else)."""
        n, kinds = self.players, self.kinds
        target = float(observation.target)
        out = self._blank[:]
        writer = _Writer(out, n, player)
        writer.one_hot(n, player)
        writer.put(observation.round / COUNT_SCALE)
        writer.put(target / 100)
        writer.seats([t / target for t in observation.totals])
        writer.seat_one_hot(observation.current)
        writer.seat_one_hot(observation.first)
        writer.put(float(observation.direction < 0))
        writer.put(observation.deck / self.box, observation.discard / self.box)
        writer.counts(kinds, observation.hand)
        writer.seats([size / COUNT_SCALE for size in observation.hand_sizes])
        self._ranches(writer, observation)
        writer.seats([float(p in observation.acting) for p in range(n)])
        sign = observation.my_sign
        writer.one_hot(4, 0 if sign is None else 1 + SIGNS.index(sign))
        writer.counts(kinds, observation.passing)
        writer.seats([size / COUNT_SCALE for size in observation.passing_sizes])
        writer.counts(kinds, observation.discard_pile)
        writer.seats([float(p in observation.winners) for p in range(n)])
        self._last_round(writer, observation.last_round, target)
        turn = observation.turn_state
        writer.put(turn["turn"] / (10 * COUNT_SCALE), turn["round_turns"] / (10 * COUNT_SCALE))
        writer.put(turn["lost_turns"] / COUNT_SCALE, float(turn["playing"]))
        writer.put(float(turn["exhausted"]), float(turn["seventh"]))
        writer.one_hot(RANCH_LIMIT + 1, turn["played_slot"])
        self._pending(writer, observation.pending)
        assert writer.at == self.size
        tensor = np.frombuffer(out, dtype=np.float32)
        return np.clip(tensor, self.low, self.high, out=tensor)

    def _ranches(self, writer: _Writer, observation: GloryObservation) -> None:
        n, width = self.players, self.kinds + 1
        for offset in range(n):
            seat = (writer.player + offset) % n
            ranch, shields = observation.ranches[seat], observation.shields[seat]
            for slot in range(RANCH_LIMIT):
                if slot < len(ranch):
                    writer.out[writer.at + ranch[slot]] = 1.0
                    writer.out[writer.at + self.kinds] = float(shields[slot])
                writer.at += width

    def _last_round(self, writer: _Writer, last: dict[str, Any] | None, target: float) -> None:
        n = self.players
        if last is None:
            writer.at += 2 + 5 * n + n * self.kinds
            return
        writer.put(1.0, last["turns"] / (10 * COUNT_SCALE))
        for part in ("glory", "bonus", "penalty", "points"):
            values = last[part] or [0] * n
            writer.seats([v / target for v in values])
        writer.seats([float(p in last["winners"]) for p in range(n)])
        index = self.game.index
        for offset in range(n):
            ranch = last["ranches"][(writer.player + offset) % n]
            writer.counts(self.kinds, [index[card] for card in ranch])

    def _pending(self, writer: _Writer, pending: list[tuple[Any, ...]]) -> None:
        n = self.players
        writer.put(len(pending) / COUNT_SCALE)
        top = pending[::-1]
        for step in top[:STEPS_SHOWN]:
            self._step(writer, step)
        writer.at += (STEPS_SHOWN - min(STEPS_SHOWN, len(top))) * self.step_size
        for step in top[STEPS_SHOWN:]:
            kind = STEP_KINDS.index(step[0])
            seat = (step[1] - writer.player) % n if step[0] != "deliver" else 0
            writer.out[writer.at + kind * n + seat] += 1 / COUNT_SCALE
        writer.at += len(STEP_KINDS) * n

    def _step(self, writer: _Writer, step: tuple[Any, ...]) -> None:
        kind = step[0]
        n = self.players
        writer.one_hot(len(STEP_KINDS), STEP_KINDS.index(kind))
        first = step[1] if kind != "deliver" else -1
        second = step[2] if kind in WITH_SECOND_SEAT else -1
        for seat in (first, second):
            if seat >= 0:
                writer.out[writer.at + (seat - writer.player) % n] = 1.0
            writer.at += n
        effects = len(self.game.effects)
        if kind in WITH_EFFECT:
            writer.out[writer.at + step[3]] = 1.0
        writer.at += effects
        if kind == "pick":
            writer.out[writer.at + PICKS.index(step[2])] = 1.0
            writer.out[writer.at + len(PICKS) + SCOPES.index(step[3])] = 1.0
        writer.at += len(PICKS) + len(SCOPES)
        if kind == "deliver":
            writer.out[writer.at + SHIFTS.index(step[1])] = 1.0
        writer.at += len(SHIFTS)
        writer.put(step[4] / self.game.rps_ties if kind == "rps" else 0.0)


class _Writer:
    """Fills a tensor from left to right; seats are turned to count from the viewer.

    It writes into a float32 ``array.array``, viewed as numpy once full: setting its
    elements one by one costs several times less than setting a numpy array's.
    """

    def __init__(self, out: array[float], players: int, player: int) -> None:
        self.out = out
        self.players = players
        self.player = player
        self.at = 0

    def put(self, *values: float) -> None:
        for value in values:
            self.out[self.at] = value
            self.at += 1

    def one_hot(self, size: int, index: int) -> None:
        self.out[self.at + index] = 1.0
        self.at += size

    def seat_one_hot(self, seat: int) -> None:
        self.one_hot(self.players, (seat - self.player) % self.players)

    def seats(self, values: list[float]) -> None:
        """Per-seat values in absolute seat order, written from the viewer round."""
        out, turn, at, n = self.out, self.player, self.at, self.players
        for offset in range(n):
            out[at + offset] = values[(turn + offset) % n]
        self.at = at + n

    def counts(self, size: int, cards: list[int]) -> None:
        for card in cards:
            self.out[self.at + card] += 1.0
        self.at += size
