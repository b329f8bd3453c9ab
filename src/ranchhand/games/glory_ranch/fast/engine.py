"""The fast engine's Python face: a loaded game's deck as arrays, games in bulk, a table
stepped from Python, and the search's compiled playout.

:class:`FastGloryRanch` wraps one loaded :class:`GloryRanch` (its deck, options and
player count). ``play`` plays whole games in the kernel (``simulate --engine fast`` and
``bench --engine fast``); ``load`` copies any reference position into a kernel table;
:class:`FastTable` steps one game from Python, showing its legal actions as the reference
engine's action objects, which is what the differential test compares.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import numpy as np

from ranchhand.core import CHANCE, SIMULTANEOUS, Game, OptionError
from ranchhand.core.game import TRUNCATED, Outcome, State
from ranchhand.core.kernels import kernel_policy
from ranchhand.core.streams import ChanceStream, point
from ranchhand.games.glory_ranch import scoring
from ranchhand.games.glory_ranch.actions import SIGNS, Choose, Pick, Place, Target
from ranchhand.games.glory_ranch.bots import REST_READERS, knowledge
from ranchhand.games.glory_ranch.fast import kernel
from ranchhand.games.glory_ranch.game import GloryRanch
from ranchhand.games.glory_ranch.scoring import Tables
from ranchhand.games.glory_ranch.state import GloryState

POLICIES = {"random": kernel.RANDOM, "greedy": kernel.GREEDY}
"""The bots the fast engine plays, by their registry names."""

STEPS = {
    "do": kernel.S_DO,
    "draw": kernel.S_DRAW,
    "steal": kernel.S_STEAL,
    "rps": kernel.S_RPS,
    "deliver": kernel.S_DELIVER,
    "trade": kernel.S_TRADE,
    "target": kernel.S_TARGET,
    "play": kernel.S_PLAY,
    "discard": kernel.S_DISCARD,
    "give": kernel.S_GIVE,
    "pass": kernel.S_PASS,
    "place": kernel.S_PLACE,
    "pick": kernel.S_PICK,
}
"""``state.py``'s step names as the kernel's step codes."""
BONUS_KINDS = ("FAMILY", "NEIGHBOUR", "LEFT_END", "RIGHT_END", "MOST", "EMPTY_HAND", "VARIETY")
if any(getattr(kernel, name) != getattr(scoring, name) for name in BONUS_KINDS):
    raise AssertionError("the fast engine's bonus kinds no longer match scoring.py's")
HAND_STEPS = {kernel.S_PLAY: "play", kernel.S_DISCARD: "discard", kernel.S_GIVE: "give"}
"""Steps that choose a card from the hand, by the verb of their actions (and pass)."""


def policy_of(bot: str) -> int:
    """The kernel's policy for a bot name; OptionError naming the bots it has."""
    return kernel_policy(POLICIES, bot)


def rules_of(game: GloryRanch) -> kernel.Rules:
    """The kernel's :class:`~kernel.Rules` of a loaded game: its deck (whatever file it
    came from) and options as arrays, every card action numbered as ``game.effects``."""
    deck = game.deck
    cards = deck.cards
    families = {name: i for i, name in enumerate(deck.families)}
    tables = Tables.of(deck)
    effects = game.effects
    number = game.effect_number
    widest = max([len(c.actions) for c in cards] + [1])
    consequences = max([len(e.win) for e in effects] + [len(e.lose) for e in effects] + [1])

    def ints(values: Any) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    def family_of(name: str) -> int:
        return families.get(name, kernel.EVERY)

    actions = np.zeros((len(cards), widest), dtype=np.int64)
    for k, card in enumerate(cards):
        actions[k, : len(card.actions)] = game.card_effects[k]
    wins = np.zeros((len(effects), consequences), dtype=np.int64)
    loses = np.zeros((len(effects), consequences), dtype=np.int64)
    for i, e in enumerate(effects):
        wins[i, : len(e.win)] = [number[w] for w in e.win]
        loses[i, : len(e.lose)] = [number[x] for x in e.lose]
    kinds, glories, counted = [], [], []
    for rule in tables.rules:
        if rule is None:
            kinds.append(kernel.NO_BONUS)
            glories.append(0)
            counted.append(kernel.EVERY)
            continue
        kind, glory, of = rule
        kinds.append(kind)
        glories.append(glory)
        counted.append(family_of(of) if of else kernel.EVERY)

    def chosen(field: str) -> int:
        return {"chosen": kernel.CHOSEN, "rival": kernel.RIVAL}.get(field, -1)

    def player_field(e: Any) -> str:
        if e.do in ("draw", "discard"):
            return str(e.who)
        return str(e.to if e.do == "give" else e.target)

    known = knowledge(deck)
    options = [0] * kernel.OPTIONS
    options[kernel.O_PLAYERS] = game.players
    options[kernel.O_TARGET] = game.target
    options[kernel.O_SHARE] = int(game.share_ties)
    options[kernel.O_RPS_TIES] = game.rps_ties
    options[kernel.O_MAX_TURNS] = game.max_turns
    by_card = {
        "copies": deck.copies,
        "glory": tables.glory,
        "penalty": tables.penalty,
        "family": [families[c.family] for c in cards],
        "bonus_kind": kinds,
        "bonus_glory": glories,
        "bonus_family": counted,
        "action_count": [len(c.actions) for c in cards],
        "placed": [
            1 + (kernel.AT_LEFT if c.actions[0].at == "left" else kernel.AT_ANY)
            if known.placed[c.index]
            else 0
            for c in cards
        ],
        "returns": known.returns,
        "reads_rest": [any(e.do in REST_READERS for e in c.actions) for c in cards],
    }
    scopes = kernel.SCOPES
    per_effect = {
        "e_do": [kernel.WORDS.index(e.do) for e in effects],
        "e_n": [e.n for e in effects],
        "e_who": [kernel.WHO.index(e.who) for e in effects],
        "e_chosen": [chosen(player_field(e)) for e in effects],
        "e_side": [1 if e.to == "left" else -1 for e in effects],
        "e_at": [kernel.AT_LEFT if e.at == "left" else kernel.AT_ANY for e in effects],
        "e_scope": [kernel.SCOPES.index(e.target) if e.target in scopes else 0 for e in effects],
        "e_win_count": [len(e.win) for e in effects],
        "e_lose_count": [len(e.lose) for e in effects],
    }
    return kernel.Rules(
        cards=ints([by_card[name] for name in kernel.CARD_COLUMNS]).T.copy(),
        actions=actions,
        effects=ints([per_effect[name] for name in kernel.EFFECT_COLUMNS]).T.copy(),
        e_win=wins,
        e_lose=loses,
        options=ints(options),
    )


def result_columns(game: GloryRanch) -> tuple[str, ...]:
    """The columns of :meth:`FastGloryRanch.play`'s rows for ``game``."""
    fixed = ("winner", "turns", "steps", "winners", "rounds", "round_turns")
    return (
        *fixed,
        "player_rounds",
        "round_wins",
        "players",
        *(f"total_{p}" for p in range(game.players)),
        *(f"seen_{i}" for i in game.ids),
        *(f"won_{i}" for i in game.ids),
    )


class FastGloryRanch:
    """The compiled engine for one loaded Glory Ranch game."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, GloryRanch):
            raise OptionError(f"this fast engine plays glory-ranch only, not {game.id}")
        self.game = game
        self.rules = rules_of(game)
        self.columns = result_columns(game)

    def play(self, seeds: np.ndarray, seats: tuple[str, ...]) -> np.ndarray:
        """Play one game per seed (each below 2**32) with a bot of :data:`POLICIES` per
        seat; one row of :func:`result_columns` per game."""
        if len(seats) != self.game.players:
            raise OptionError(f"{self.game.players} players need as many seats, not {len(seats)}")
        policies = np.array([policy_of(name) for name in seats], dtype=np.int64)
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        results = np.zeros((len(seeds), len(self.columns)), dtype=np.int64)
        kernel.play_many(self.rules, kernel.table(self.rules), seeds, policies, results)
        return results

    def table(self, state: GloryState | None = None) -> FastTable:
        """A new game at its start, or at the reference ``state``, to step from Python."""
        return FastTable(self, state)

    def load(self, state: GloryState, t: kernel.Table) -> None:
        """Copy the reference ``state`` into the kernel table ``t``."""
        s = t.s
        s[:] = 0
        s[kernel.ROUND] = state.round
        s[kernel.FIRST] = state.first
        s[kernel.CURRENT] = state.current
        s[kernel.DIRECTION] = state.direction
        s[kernel.SKIPS] = state.skips
        s[kernel.PLAYING] = state.playing
        s[kernel.EXHAUSTED] = state.exhausted
        s[kernel.SEVENTH] = state.seventh
        s[kernel.PLAYED_SLOT] = state.played_slot
        s[kernel.ROUND_TURNS] = state.round_turns
        s[kernel.TURN] = state.turn
        if state.result is not None:
            s[kernel.OVER] = 1
            s[kernel.WINNERS] = sum(1 << p for p in state.result.winners)
        t.deck[:] = state.deck
        t.discard[:] = state.discard
        t.hands[:, :] = state.hands
        t.totals[:] = state.totals
        t.size[:] = 0
        t.passed[:] = 0
        t.signs[:] = -1
        for p, ranch in enumerate(state.ranches):
            t.size[p] = len(ranch)
            t.ranch[p, : len(ranch)] = ranch
            t.shield[p, : len(ranch)] = state.shields[p]
        for p, cards in enumerate(state.passing):
            t.passed[p] = len(cards)
            t.passing[p, : len(cards)] = cards
        for p, sign in state.signs.items():
            t.signs[p] = SIGNS.index(sign)
        stack = state.stack
        s[kernel.DEPTH] = len(stack)
        rows = t.stack
        for i, step in enumerate(stack):
            row = rows[i]
            row[:] = 0
            row[0] = STEPS[step[0]]
            if step[0] == "pick":
                row[1] = step[1]
                row[2] = kernel.WORDS.index(step[2])
                row[3] = kernel.SCOPES.index(step[3])
            else:
                row[1 : len(step)] = step[1:]
        t.tally[:] = 0

    def action(self, t: kernel.Table, player: int, code: int) -> Hashable:
        """The reference engine's action for the kernel action ``code`` of ``player`` now."""
        game = self.game
        depth = int(t.s[kernel.DEPTH])
        kind = kernel.S_PLAY if depth == 0 else int(t.stack[depth - 1, 0])
        if player == CHANCE:
            faces = game.draws if kind == kernel.S_DRAW else game.steals
            return faces[code]
        if kind == kernel.S_RPS:
            return Choose(SIGNS[code])
        if kind == kernel.S_PASS:
            return game.hand_cards["pass"][code]
        if kind in HAND_STEPS:
            return game.hand_cards[HAND_STEPS[kind]][code]
        if kind == kernel.S_TARGET:
            return Target(code)
        if kind == kernel.S_PLACE:
            return Place(code)
        seat, slot = divmod(code, kernel.SLOTS)
        return Pick(seat, slot + 1, game.ids[int(t.ranch[seat, slot])])


def same_table(a: kernel.Table, b: kernel.Table) -> list[str]:
    """The parts in which two kernel tables differ (empty: the same position)."""
    differ = []
    for name in ("s", "deck", "discard", "hands", "size", "passed", "totals", "signs"):
        if not np.array_equal(getattr(a, name), getattr(b, name)):
            differ.append(name)
    for p in range(len(a.size)):
        n = int(a.size[p])
        if not np.array_equal(a.ranch[p, :n], b.ranch[p, :n]):
            differ.append(f"ranch {p}")
        if not np.array_equal(a.shield[p, :n], b.shield[p, :n]):
            differ.append(f"shield {p}")
        m = int(a.passed[p])
        if not np.array_equal(a.passing[p, :m], b.passing[p, :m]):
            differ.append(f"passing {p}")
    depth = int(a.s[kernel.DEPTH])
    if not np.array_equal(a.stack[:depth], b.stack[:depth]):
        differ.append("stack")
    return differ


class FastTable:
    """One game in the kernel, stepped from Python (slow: for tests and study)."""

    def __init__(self, engine: FastGloryRanch, state: GloryState | None = None) -> None:
        self.engine = engine
        self.rules = engine.rules
        self.t = kernel.table(engine.rules)
        self._players = np.zeros(2, dtype=np.int64)
        self._count = 0
        self._choice = -1
        """The kernel action of the last :meth:`greedy` choice."""
        if state is None:
            kernel.setup(self.rules, self.t)
        else:
            engine.load(state, self.t)

    def current_player(self) -> int:
        """The player to act, CHANCE, SIMULTANEOUS, or -4 (the game is over)."""
        who = int(kernel.current(self.rules, self.t))
        if who == kernel.CHANCE:
            return CHANCE
        return SIMULTANEOUS if who == kernel.SIMULTANEOUS else who

    def acting_players(self) -> tuple[int, ...]:
        """At a contest, who still owes a sign."""
        count = int(kernel.acting(self.t, self._players))
        return tuple(int(p) for p in self._players[:count])

    def legal_actions(self, player: int) -> list[Hashable]:
        """The legal actions in the kernel's order, as the reference engine's objects."""
        self._count = int(kernel.legal(self.rules, self.t, player))
        codes = self.t.legal[: self._count].tolist()
        return [self.engine.action(self.t, player, code) for code in codes]

    def chance_outcomes(self) -> list[tuple[Hashable, int]]:
        """Each card the chance node may give, with its weight (cards held), in order."""
        counts = kernel.chance_counts(self.t).tolist()
        return [(self.engine.action(self.t, CHANCE, k), c) for k, c in enumerate(counts) if c]

    def chance(self, point_: int) -> None:
        """Apply the card at ``point_`` of the chance node's total weight."""
        kernel.chance(self.rules, self.t, point_)

    def apply(self, player: int, index: int) -> None:
        """Apply the ``index``-th action of the last :meth:`legal_actions` list."""
        if not 0 <= index < self._count:
            raise IndexError(f"action {index} of {self._count}")
        kernel.apply(self.rules, self.t, player, int(self.t.legal[index]))

    def greedy(self, player: int) -> Hashable:
        """The greedy bot's choice here (outside a contest), as a reference action."""
        count = int(kernel.legal(self.rules, self.t, player))
        self._count = count
        code = int(kernel.greedy(self.rules, self.t, player, count))
        self._choice = code
        return self.engine.action(self.t, player, code)

    def apply_greedy(self, player: int) -> None:
        """Apply the choice the last :meth:`greedy` made."""
        kernel.apply(self.rules, self.t, player, self._choice)

    def differs_from(self, state: GloryState) -> list[str]:
        """Where this table differs from the reference ``state`` (empty: nowhere)."""
        other = kernel.table(self.rules)
        self.engine.load(state, other)
        return same_table(self.t, other)


class FastPlayout:
    """``Game.compiled_playout`` for one loaded game and bot (a ``core.game.Playout``):
    fresh ``greedy`` (or ``random``) bots in every seat play on in the kernel, each card
    drawn as :mod:`ranchhand.core.streams` would draw it, so the rollout is the reference's
    (``streams.playout``) step for step, given the bots' own random choices: a greedy
    seat's sign, a random seat's every choice. Those the reference bots draw from the
    search's generator, which the protocol does not hand over; here they come from
    :class:`BotChoices` (the same stream, keyed apart from the cards), so a playout is a
    function of the position and the stream. One kernel table is kept and refilled each
    call (one call at a time: a search's rollouts follow one another)."""

    def __init__(self, engine: FastGloryRanch, bot: str) -> None:
        self.engine = engine
        self.policy = policy_of(bot)
        self.t = kernel.table(engine.rules)

    def __call__(
        self, state: State, stream: ChanceStream, max_steps: int
    ) -> tuple[list[float], int, bool]:
        """Play on from ``state`` (unchanged) for at most ``max_steps`` steps, cards drawn
        as ``streams.sample`` would go on drawing from ``stream`` (unchanged): (each
        player's returns if the game ended, else ``evaluate()`` where it stopped; the steps
        played; whether it ended)."""
        engine = self.engine
        if not isinstance(state, GloryState) or state.game is not engine.game:
            raise ValueError(f"this playout plays positions of {engine.game!r} only")
        t = self.t
        engine.load(state, t)
        steps, ended = kernel.play_on(
            engine.rules, t, self.policy, stream.stream, stream.turn, stream.k, max_steps
        )
        players = engine.game.players
        if ended:
            if t.s[kernel.OVER]:
                mask = int(t.s[kernel.WINNERS])
                outcome = Outcome(tuple(p for p in range(players) if mask >> p & 1))
            else:
                outcome = TRUNCATED
            return outcome.returns(players), int(steps), True
        where = state.clone()  # the position reached, for the game's own evaluation
        where.totals = t.totals.tolist()
        where.hands = t.hands.tolist()
        where.ranches = [t.ranch[p, : t.size[p]].tolist() for p in range(players)]
        return where.evaluate(), int(steps), False


class BotChoices(random.Random):
    """The bots' random choices of a compiled playout, as a ``random.Random`` a reference
    rollout's bots may draw from: ``randrange(n)`` is ``point(stream, turn,
    CHOICES_FROM + j, n)`` for the ``j``-th choice of the table's current turn (counted
    from where the playout starts), as the kernel draws them. With it, ``streams.playout``
    plays exactly the compiled playout (the differential test's proof)."""

    def __init__(self, stream: int, state: GloryState) -> None:
        super().__init__(stream)
        self.stream = stream
        self.state = state
        self.turn = state.turn
        self.j = 0

    def randrange(self, start: int, stop: Any = None, step: int = 1) -> int:  # type: ignore[override]
        if stop is not None or step != 1:
            return super().randrange(start, stop, step)
        if self.state.turn != self.turn:
            self.turn, self.j = self.state.turn, 0
        drawn = point(self.stream, self.turn, kernel.CHOICES_FROM + self.j, start)
        self.j += 1
        return drawn
