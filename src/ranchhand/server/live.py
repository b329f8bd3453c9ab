"""A table in memory: its seats (:class:`Meta`) and its state rebuilt from the move log
(:class:`Live`), with the chance and bot moves that follow a person's move.

Chance is drawn from ``Random(derive_seed(seed, "chance", step))`` and bots from
``derive_seed(seed, "bots", step)``, so no generator state is kept anywhere.

Bots that answer in microseconds (``random``, ``greedy`` and the games' own) may move
right after a person's move, inside its request, within a small :class:`Budget` of
moves and CPU time. Search bots (:func:`is_search`) never do: the server's bot runner
has them decide in its process pool (:mod:`ranchhand.server.botpool`).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
import secrets
import time
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from typing import Any

from ranchhand.core.errors import RanchhandError
from ranchhand.core.game import CHANCE, SIMULTANEOUS, Game, State
from ranchhand.core.registry import bot_factory
from ranchhand.core.runner import derive_seed
from ranchhand.core.undo import UNDO_PLAYER, UNDO_TEXT, Trail, is_undo, replay_log
from ranchhand.server.errors import WrongToken

HUMAN = "human"
MAX_SETTLE_STEPS = 100_000
"""A guard: a move followed by more bot and chance moves than this is a bug, not a game."""
MAX_TEXTS = 20_000
"""Action texts a table remembers at most (then it starts again)."""
INLINE_STEPS = 500
"""Chance and cheap bot moves played at most inside one request (or one runner chunk)."""
INLINE_CPU = 0.05
"""CPU seconds of one thread those moves may take at most (checked after each move)."""


@functools.lru_cache(maxsize=64)
def _every_viewer(players: int) -> tuple[tuple[int | None, bool], ...]:
    """Every viewer of a table of ``players``, each shown (a replay's)."""
    return ((None, True), *((seat, True) for seat in range(players)))


@dataclass(frozen=True)
class _Run:
    """The words of a run of equal log lines, folded as the log folds them."""

    first: str
    count: int = 1
    mixed: tuple[str, ...] = ()
    """Every words line of the run, once two of them differ (else empty)."""

    def add(self, words: str) -> _Run:
        if not self.mixed and words == self.first:
            return _Run(self.first, self.count + 1)
        mixed = self.mixed or (self.first,) * self.count
        return _Run(self.first, self.count + 1, (*mixed, words))

    def text(self) -> str:
        """``words x3`` if every line is the same, else each sentence in turn (the
        notation hid what tells them apart)."""
        if self.mixed:
            return " ".join(self.mixed)
        return self.first if self.count == 1 else f"{self.first} x{self.count}"


def _took_back_words(
    before: State, viewer: int | None, action: Hashable, player: int, names: tuple[str, ...]
) -> str:
    """ "Ann took back: Ann trades ..." in words, as ``viewer`` was told the action."""
    who = "You" if viewer == player else names[player]
    words = before.describe_words(viewer, action, player, names)
    if words.startswith("You "):  # "You took back: you traded ..."
        words = f"you {words[4:]}"
    return f"{who} took back: {words}"


@dataclass(frozen=True)
class Budget:
    """How much bot and chance work :meth:`Live.settle` may do in one go.

    Only cheap bots move within a budget; a search bot due stops it. The defaults fit
    every game's whole bots-only game of cheap bots with two players, and the longest
    bot turns measured (a 6-player Rancho turn of random bots), in a request.
    """

    steps: int = INLINE_STEPS
    cpu: float = INLINE_CPU


@functools.lru_cache(maxsize=256)
def is_search(game: str, kind: str) -> bool:
    """Is ``kind`` a search bot in ``game`` (seconds a decision: never inside a request)?
    A bot is when its class says it ``thinks``, as the shared search does."""
    if kind == HUMAN:
        return False
    factory = bot_factory(game, kind)
    made = getattr(factory, "func", factory)
    return isinstance(made, type) and bool(getattr(made, "thinks", False))


def new_token() -> str:
    """A seat's secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Meta:
    """What a table is, besides its moves: read from the ``tables`` and ``seats`` rows."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    created_seats: tuple[str, ...]
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    hashes: tuple[str | None, ...]
    seed: int
    bot_delay: float
    clock: float | None
    clock_bot: str
    created: float
    open: tuple[bool, ...] = ()
    """Per seat: free for anyone to claim (a human seat with no token yet)."""

    def is_open(self, seat: int) -> bool:
        return seat < len(self.open) and self.open[seat]

    @functools.cached_property
    def viewers(self) -> tuple[tuple[int | None, bool], ...]:
        """Each viewer (None: a spectator, then each seat) and whether anyone may ever
        see that viewer's log: not a bot seat without a token (nobody holds it, and no
        seat without one becomes a person's but an open one)."""
        seats = enumerate(self.kinds)
        return (
            (None, True),
            *((seat, kind == HUMAN or self.hashes[seat] is not None) for seat, kind in seats),
        )

    def label(self, player: int) -> str:
        if is_undo(player):  # an undo step of the log, not a seat (see Live.undo)
            return "undo"
        return "chance" if player == CHANCE else f"P{player} {self.names[player]}"

    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` opens at this table (None without a token).

        Every seat's hash is compared in constant time, whatever matches first.
        """
        if token is None:
            return None
        if not token or len(token) > 200:
            raise WrongToken("this token opens no seat at this table")
        wanted = token_hash(token)
        found = None
        for seat, known in enumerate(self.hashes):
            if known is not None and hmac.compare_digest(known, wanted):
                found = seat
        if found is None:
            raise WrongToken("this token opens no seat at this table")
        return found


@dataclass
class Live:
    """A table's state after ``step`` moves, with each viewer's log and its bots.

    A Live in the cache is never changed: a move works on :meth:`fork` and the
    fork replaces it once the database has committed.
    """

    meta: Meta
    game: Game
    state: State
    moves: list[tuple[int, str]] = field(default_factory=list)
    events: list[tuple[str, ...]] = field(default_factory=list)
    """One entry per released action: its log line for each viewer (spectator first),
    then its words line for each viewer in the same order (:meth:`words_for`)."""
    pending: list[tuple[str, ...]] = field(default_factory=list)
    """Choices made at the simultaneous node still open: shown to nobody yet."""
    node_start: int = 0
    """The step at which the current decision (a simultaneous node: all of it) began."""
    updated: float = 0.0
    bots: dict[int, tuple[str, Any]] = field(default_factory=dict)
    """Each bot seat's bot (kind, object), shared by forks: some bots remember a turn."""
    expired: bool = False
    """Closed by the server (no move for too long): nothing more is played."""
    bot_cpu: float = 0.0
    """CPU seconds its search bots have used so far (the ``tables.bot_cpu`` column)."""
    seen_only: bool = False
    """Write log lines only for viewers who may ever read them: people's seats and seats
    a person may take back (a bot seat with no token is never viewed). The server's
    tables set it; a replay, which shows every seat, does not."""
    spectated: bool = True
    """The spectator's lines are written (else they are blank until
    :meth:`add_spectator_lines`: most tables are never watched, and a line is a
    ``describe_for``, much of a move's cost)."""
    texts: dict[Hashable, str] = field(default_factory=dict)
    """Actions' texts already made (shared by forks: the same moves recur all game)."""
    logs: dict[int, tuple[int, list[str], str, int]] = field(default_factory=dict)
    """Each viewer's folded log so far (see :meth:`log_for`)."""
    trail: Trail = field(default_factory=Trail)
    """What an undo may take back now (states kept for people's actions only)."""
    wording: dict[int, tuple[int, list[str], str, _Run]] = field(default_factory=dict)
    """Each viewer's folded words so far (see :meth:`words_for`)."""
    timeouts: dict[int, str] = field(default_factory=dict)
    """The steps the clock's bot played because their seat ran out of time, and that
    bot's name (stored with the move, ``moves.timeout``, so every process and a restart
    tell them alike)."""

    @property
    def step(self) -> int:
        return len(self.moves)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def fork(self) -> Live:
        return replace(
            self,
            state=self.state.clone(),
            moves=list(self.moves),
            events=list(self.events),
            pending=list(self.pending),
            logs=dict(self.logs),
            trail=self.trail.copy(),
            wording=dict(self.wording),
            timeouts=dict(self.timeouts),
        )

    def text(self, action: Hashable) -> str:
        """``str(action)``, remembered (about 10 times cheaper the second time)."""
        known = self.texts.get(action)
        if known is None:
            if len(self.texts) >= MAX_TEXTS:
                self.texts.clear()
            known = self.texts[action] = str(action)
        return known

    def add_spectator_lines(self) -> None:
        """Write the spectator's line of every move so far (replaying the log once), and
        from now on with each move. Safe to repeat: each call writes them all anew."""
        if self.spectated:
            return
        state = self.game.new_initial_state()
        names = self.meta.names
        lines = []
        trail = Trail()
        for index, (player, text) in enumerate(self.moves):
            if is_undo(player):
                state, undone = self._spectator_undo(trail)
                lines.append(undone)
                continue
            action = state.parse_action(text, player)
            line = f"{self.meta.label(player)}: {state.describe_for(None, action, player)}"
            said = (line, state.describe_words(None, action, player, names))
            lines.append(timed_out(said, self.meta, player, self.timeouts.get(index)))
            trail.before(state, player, index)
            state.apply(action, player)
        both = [*self.events, *self.pending]  # one entry a move, in order
        width = self.meta.players + 1
        entries = [
            (line, *entry[1:width], words, *entry[width + 1 :])
            for (line, words), entry in zip(lines, both, strict=True)
        ]
        released = len(self.events)
        self.events, self.pending = entries[:released], entries[released:]
        self.logs = {k: v for k, v in self.logs.items() if k != 0}
        self.wording = {k: v for k, v in self.wording.items() if k != 0}
        self.spectated = True

    def _spectator_undo(self, trail: Trail) -> tuple[State, tuple[str, ...]]:
        """The state an undo step brings back, and the spectator's lines for it."""
        _seat, step, kept = trail.take()
        assert kept is not None  # a new trail keeps every state
        before = kept.clone()
        player, text = self.moves[step]
        action = before.parse_action(text, player)
        took = before.describe_for(None, action, player)
        words = _took_back_words(before, None, action, player, self.meta.names)
        return before, (f"{self.meta.label(player)} took back: {took}", words)

    def log_for(self, viewer: int | None) -> list[str]:
        """``viewer``'s log: its line of every released action, runs of the same line
        folded into one (``collapse``). Folded once: later calls fold only what was
        released since. The list returned is never changed afterwards."""
        if viewer is None and not self.spectated:  # the server sees to it first: a safety net
            self.add_spectator_lines()
        index = 0 if viewer is None else viewer + 1
        done, lines, last, count = self.logs.get(index, (0, [], "", 0))
        events = self.events
        if done == len(events):
            return lines
        if done > len(events):  # cannot happen to an append-only log; start over
            done, lines, last, count = 0, [], "", 0
        folded = list(lines)
        for entry in events[done:]:
            line = entry[index]
            if folded and line == last:
                count += 1
                folded[-1] = f"{line} x{count}"
            else:
                folded.append(line)
                last, count = line, 1
        self.logs[index] = (len(events), folded, last, count)
        return folded

    def words_for(self, viewer: int | None) -> list[str]:
        """``viewer``'s log in words, parallel to :meth:`log_for`: one line for each of
        its lines, folded along the same runs (a run whose words are all the same reads
        ``words x3``; one whose words differ, its sentences one after the other).
        Folded once, like the log; the list returned is never changed afterwards."""
        if viewer is None and not self.spectated:
            self.add_spectator_lines()
        index = 0 if viewer is None else viewer + 1
        done, folded, last, run = self.wording.get(index, (0, [], "", _Run("")))
        events = self.events
        if done == len(events):
            return folded
        if done > len(events):  # cannot happen to an append-only log; start over
            done, folded, last, run = 0, [], "", _Run("")
        folded = list(folded)
        at = self.meta.players + 1 + index
        for entry in events[done:]:
            line, words = entry[index], entry[at]
            if folded and line == last:
                run = run.add(words)
                folded[-1] = run.text()
            else:
                folded.append(words)
                last, run = line, _Run(words)
        self.wording[index] = (len(events), folded, last, run)
        return folded

    def apply(self, player: int, action: Hashable, timeout: str | None = None) -> None:
        """Apply one move, logging it (notation and words) as each viewer may see it;
        ``timeout``: the clock's bot that made it because ``player`` ran out of time
        (every line says so)."""
        state = self.state
        before = state.current_player()
        acting = set(state.acting_players()) if before == SIMULTANEOUS else set()
        label = self.meta.label(player)
        names = self.meta.names
        seen = self.meta.viewers if self.seen_only else _every_viewer(self.meta.players)
        spectated = self.spectated
        told = [shown and (v is not None or spectated) for v, shown in seen]
        entry = (
            *(
                f"{label}: {state.describe_for(v, action, player)}" if tell else ""
                for (v, _), tell in zip(seen, told, strict=True)
            ),
            *(
                state.describe_words(v, action, player, names) if tell else ""
                for (v, _), tell in zip(seen, told, strict=True)
            ),
        )
        if timeout is not None:
            self.timeouts[self.step] = timeout
            entry = timed_out(entry, self.meta, player, timeout)
        people = player >= 0 and self.meta.kinds[player] == HUMAN  # bots never undo
        worked = state.worked_out(action, player)  # played on a copy to tell it: take that
        # Where the copy is taken, this state is never changed again: the trail keeps it
        # as it is instead of a copy of its own.
        self.trail.before(
            state, player, self.step, keep=people, final=timeout is not None, own=worked is None
        )
        if worked is None:
            state.apply(action, player)
        else:
            state = self.state = worked
        self.moves.append((player, self.text(action)))
        after = state.current_player()
        same_node = (
            before == SIMULTANEOUS
            and after == SIMULTANEOUS
            and set(state.acting_players()) == acting - {player}
        )
        if same_node:
            self.pending.append(entry)
            return
        self.events.extend(self.pending)
        self.pending.clear()
        self.events.append(entry)
        self.node_start = self.step

    def undoable(self, seat: int | None) -> int:
        """How many of its own last actions ``seat`` may take back now, one undo each
        (0 for a spectator, a closed table, or a seat not to act; see :class:`Trail`)."""
        if seat is None or self.expired:
            return 0
        return self.trail.available(self.state, seat)

    def undo(self) -> int:
        """Take back the last action still in force (its seat's own, see :class:`Trail`)
        as an undo step of the log (:data:`UNDO_PLAYER`), telling each viewer what it
        was shown of that action; return the seat. NothingToUndo if there is none."""
        seat, step, kept = self.trail.take()
        if kept is None:  # a bot's action, or beyond what was kept: the log rebuilds it
            kept = replay_log(self.game.new_initial_state(), self.moves[:step])
        before = kept.clone()  # the kept state is shared with forks: never changed
        player, text = self.moves[step]
        entry = self.took_back(before, before.parse_action(text, player), player)
        self.state = before
        self.moves.append((UNDO_PLAYER, UNDO_TEXT))
        self.events.extend(self.pending)
        self.pending.clear()
        self.events.append(entry)
        self.node_start = self.step
        return seat

    def took_back(self, before: State, action: Hashable, player: int) -> tuple[str, ...]:
        """The log entry of an undo: for each viewer, "P0 Ann took back: " and the line
        that viewer was given for the action (the same ``describe_for`` and
        ``describe_words`` of the same state), so an undo shows nobody anything new."""
        label, names = self.meta.label(player), self.meta.names
        seen = self.meta.viewers if self.seen_only else _every_viewer(self.meta.players)
        told = [shown and (v is not None or self.spectated) for v, shown in seen]
        notation = [
            f"{label} took back: {before.describe_for(v, action, player)}" if tell else ""
            for (v, _), tell in zip(seen, told, strict=True)
        ]
        words = [
            _took_back_words(before, v, action, player, names) if tell else ""
            for (v, _), tell in zip(seen, told, strict=True)
        ]
        return (*notation, *words)

    def replay(self, player: int, text: str, timeout: str | None = None) -> None:
        """Apply one step of the stored log: an action (``timeout``: the clock's bot's,
        stored with it), or an undo step."""
        if is_undo(player):
            self.undo()
        else:
            self.apply(player, self.state.parse_action(text, player), timeout)

    def fresh(self, step: int, seat: int) -> bool:
        """Was a move made against ``step`` made against what ``seat`` sees now?

        Yes if nothing happened since; at a simultaneous node also if what happened
        since is only other players' hidden choices at this node (their choices
        change nothing ``seat`` may see, so its own choice still stands).
        """
        if step == self.step:
            return True
        return (
            self.state.current_player() == SIMULTANEOUS
            and seat in self.state.acting_players()
            and self.node_start <= step < self.step
        )

    def bot(self, seat: int, kind: str) -> Any:
        """This table's bot for ``seat`` (kept between moves: some bots remember a turn;
        search bots are made with the loaded game)."""
        known = self.bots.get(seat)
        if known is None or known[0] != kind:
            known = self.bots[seat] = (kind, bot_factory(self.state.game, kind)())
        return known[1]

    def bot_move(self, seat: int, kind: str, *, timeout: bool = False) -> None:
        """``kind`` moves for ``seat``; with ``timeout`` because the seat's time ran out."""
        state = self.state
        rng = random.Random(derive_seed(self.meta.seed, "bots", self.step))
        action = self.bot(seat, kind).act(state.observe(seat), state.legal_actions(seat), rng)
        self.apply(seat, action, kind if timeout else None)

    def chance_move(self) -> None:
        rng = random.Random(derive_seed(self.meta.seed, "chance", self.step))
        self.apply(CHANCE, self.state.sample_chance(rng))

    def settle(self, *, bots: bool, budget: Budget | None = None) -> None:
        """Play chance, and with ``bots`` the bot moves due, until a person must act.

        With a ``budget`` (what the server gives) only cheap bots move, and only while it
        lasts: a search bot due, or the budget spent, ends it early and the server's bot
        runner goes on from there. Without one every bot moves here, search bots too.
        """
        started = time.thread_time()
        for done in range(MAX_SETTLE_STEPS):
            if self.state.is_terminal():
                return
            if budget is not None and (
                done >= budget.steps
                # the clock every 8 moves: reading a thread's CPU time is a system call
                or (done % 8 == 7 and time.thread_time() - started > budget.cpu)
            ):
                return
            if self.state.current_player() == CHANCE:
                self.chance_move()
                continue
            due = [p for p in self.state.acting_players() if self.meta.kinds[p] != HUMAN]
            if not bots or not due:
                return
            kind = self.meta.kinds[due[0]]
            if budget is not None and is_search(self.meta.game, kind):
                return
            self.bot_move(due[0], kind)
        raise RanchhandError(f"table {self.meta.id}: {MAX_SETTLE_STEPS} moves without a person")

    def stored_timeouts(self, first: int) -> list[str | None]:
        """The ``moves.timeout`` of each move from step ``first`` on."""
        return [self.timeouts.get(step) for step in range(first, self.step)]

    def bots_due(self) -> list[int]:
        if self.state.is_terminal():
            return []
        return [p for p in self.state.acting_players() if self.meta.kinds[p] != HUMAN]


def timed_out(lines: tuple[str, ...], meta: Meta, player: int, bot: str | None) -> tuple[str, ...]:
    """``lines`` (the viewers' lines of ``player``'s move, notation and words) told as
    the clock's ``bot``'s move for a seat that ran out of time ("Ann ran out of time:
    greedy played for them: ..."); unchanged if ``bot`` is None, and a blank line (a
    viewer nobody reads) stays blank. Every viewer gets the same words before its own
    line: that the time ran out and who played says nothing hidden."""
    if bot is None:
        return lines
    said = f"{meta.names[player]} ran out of time: {bot} played for them: "
    return tuple(f"{said}{line}" if line else line for line in lines)
