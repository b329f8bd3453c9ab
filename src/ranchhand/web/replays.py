"""Replays for the browser: a record's table as any seat saw it at any step.

A record is untrusted input: it is read with :meth:`Record.from_json` (every
field checked), options naming files are refused, and its size and length are
capped. Each step's view has the table view's shape (:func:`table_view`), so a
game's drawing module draws a replay exactly as it draws a live table.

Replaying costs CPU and memory in proportion to the record (a 20,000-step Rancho
record is ~6 s of CPU to check and log), so the work is bounded:

- a record is checked *incrementally*, only as far as the step asked for, and
  each request spends at most a CPU budget on it (``replay_cpu``); past it the
  request is refused with 503 and ``Retry-After`` and the progress is kept, so
  asking again goes on from there (the viewer does so by itself);
- instead of a state per step, a record keeps a state every
  :data:`CHECKPOINT_EVERY` steps and replays forward from the nearest one on
  request (besides each step's log lines, which every view shows in full);
- the cache of replayed records is bounded in estimated *bytes*
  (``replay_cache_bytes``), least recently used first out;
- the work runs in a small pool of its own threads (``replay_workers``), never
  on the event loop; a request that finds them busy waits ``replay_wait``
  seconds at most, then gets 503 with ``Retry-After``.

The API stays stateless (every request carries the record), so any server
process can answer; the cache only saves work.
"""

from __future__ import annotations

import array
import asyncio
import gc
import hashlib
import json
import sys
import threading
import time
import types
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ranchhand.core.errors import RanchhandError, RecordError
from ranchhand.core.game import Game, State
from ranchhand.core.records import Record, parse_step
from ranchhand.core.undo import NothingToUndo, is_undo, replay_log
from ranchhand.server.errors import BadRequest
from ranchhand.server.limits import LimitSettings, RetryLater
from ranchhand.server.live import Live, Meta
from ranchhand.server.views import table_view

MAX_RECORD_UPLOAD = 2_000_000
"""The largest ``POST /api/replays`` body, in bytes."""
MAX_REPLAY_STEPS = 20_000
"""The most actions a replayed record may hold."""
CHECKPOINT_EVERY = 64
"""Steps between kept states: a view replays at most this many steps from the last one."""
_CHECK_CLOCK = 16
"""Steps between looks at the CPU clock while checking a record."""


def deep_size(root: object, skip: set[int] | None = None) -> int:
    """Bytes held by ``root`` and everything it reaches (``sys.getsizeof``), leaving out
    the objects whose ids are in ``skip`` and what only they reach, and classes,
    modules and functions. An estimate: objects shared elsewhere are counted too."""
    seen = set(skip or ())
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _NOT_DATA):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


_NOT_DATA = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


UNDONE = "undo: the last move is taken back"
"""The every-seat log's line for an undo step (core/undo.py)."""


class Replayed:
    """One record, checked as far as asked: its log so far and a state every
    :data:`CHECKPOINT_EVERY` steps. Not thread-safe by itself: hold :attr:`lock`."""

    def __init__(self, record: Record) -> None:
        if len(record.steps) > MAX_REPLAY_STEPS:
            raise RecordError(f"a replayed record holds at most {MAX_REPLAY_STEPS:,} actions")
        self.lock = threading.Lock()
        self.game: Game = record.load_game(allow_files=False)
        self.record: Record | None = record
        """Dropped once every step is checked (the moves then hold the same)."""
        self.total = len(record.steps)
        self.outcome = None if record.outcome is None else record.outcome.to_json()
        kinds = tuple(record.seats) or ("player",) * record.players
        self.meta = Meta(
            id="replay",
            game=self.game.id,
            players=record.players,
            options=dict(record.options),
            created_seats=kinds,
            kinds=kinds,
            names=tuple(record.names) or kinds,
            hashes=(None,) * record.players,
            seed=0,
            bot_delay=0.0,
            clock=None,
            clock_bot="",
            created=0.0,
        )
        first = self.game.new_initial_state()
        self.checkpoints: list[State] = [first.clone()]
        """The state before step ``i * CHECKPOINT_EVERY``."""
        self.cursor: Live | None = Live(self.meta, self.game, first)
        """The table after the steps checked so far (None once all are)."""
        self.moves: list[tuple[int, str]] = self.cursor.moves
        self.events: list[tuple[str, ...]] = self.cursor.events
        self.released = array.array("I", [0])
        """Log entries released before each step checked (and after the last)."""
        self.failure: tuple[int, str] | None = None
        self._record_bytes = deep_size(record)
        self._sized_events = 0
        self.size = self._record_bytes + deep_size(self.game) + deep_size(first, {id(self.game)})

    @property
    def checked(self) -> int:
        """Steps checked against the rules so far."""
        return len(self.moves)

    def advance(self, to: int, budget: float, started: float) -> None:
        """Check steps up to ``to``; RetryLater (503) if the CPU spent by this thread
        since ``started`` passes ``budget`` first, BadRequest at a step that breaks
        the rules. Progress is kept either way."""
        live, record = self.cursor, self.record
        if live is None or record is None or self.checked >= to:
            return
        if self.failure is not None and to > self.failure[0]:
            raise BadRequest(self.failure[1])
        while self.checked < to:
            index = self.checked
            if index % _CHECK_CLOCK == 0 and time.thread_time() - started > budget:
                raise RetryLater(
                    f"this record takes long to check: {index:,} of {self.total:,} steps done "
                    f"within this request's {budget:g} s of CPU; ask again to go on",
                    1,
                    status=503,
                )
            step = record.steps[index]
            try:
                if is_undo(step.player):  # a seat took its last action back (core/undo.py)
                    live.undo()
                else:
                    live.apply(step.player, parse_step(live.state, step, index))
            except RecordError as error:
                self.failure = (index, f"not a record ranchhand can replay: {error}")
                raise BadRequest(self.failure[1]) from None
            self.size += sys.getsizeof(self.moves[-1]) + sys.getsizeof(self.moves[-1][1]) + 4
            if self.checked == self.total:
                live.events.extend(live.pending)
                live.pending.clear()
            self.released.append(len(self.events))
            self._size_events()
            if self.checked % CHECKPOINT_EVERY == 0:
                kept = live.state.clone()
                self.checkpoints.append(kept)
                # The state's own data, as its JSON holds it: walking the live objects
                # would reach the process's shared memos (a game's tables, the rules'
                # caches), whose size depends on everything else this process played.
                self.size += deep_size(kept.to_json())
        if self.checked == self.total:
            self.cursor = self.record = None
            self.size -= self._record_bytes

    def _size_events(self) -> None:
        for entry in self.events[self._sized_events :]:
            self.size += sys.getsizeof(entry) + sum(sys.getsizeof(line) for line in entry)
        self._sized_events = len(self.events)

    def state_at(self, step: int) -> State:
        """The state before step ``step`` (checked already): a copy of the nearest
        kept state, replayed forward."""
        start = step - step % CHECKPOINT_EVERY
        state = self.checkpoints[start // CHECKPOINT_EVERY].clone()
        try:
            return replay_log(state, self.moves[start:step], first=start)
        except NothingToUndo:  # an undo of a step before the checkpoint: from the start
            return replay_log(self.checkpoints[0].clone(), self.moves[:step])

    def upcoming(self, state: State, step: int) -> tuple[int, str]:
        """Step ``step``'s player and action text: as the rules write it once checked (or
        if it parses here), else as the record has it (it may break the rules)."""
        if step < self.checked or self.record is None:
            return self.moves[step]
        raw = self.record.steps[step]
        try:
            return raw.player, str(parse_step(state, raw, step))
        except RecordError:
            return raw.player, raw.action

    def movers_words(self, step: int) -> list[str]:
        """The words of each move before ``step`` as its mover told it (a chance move: as
        the table saw it), one for each line of the every-seat log: the entries written
        as the record was checked hold them (one entry a move, in order)."""
        width = self.meta.players + 1
        held = [*self.events, *(self.cursor.pending if self.cursor is not None else ())]
        return [
            entry[width + (0 if player < 0 else player + 1)]
            for (player, _), entry in zip(self.moves[:step], held, strict=False)
        ]

    def view(self, step: int, seat: int | str | None) -> dict[str, Any]:
        """The table before step ``step`` as ``seat`` saw it (checked up to ``step``)."""
        last = self.total
        if step > last:
            raise BadRequest(f"step: this record has steps 0 to {last}, got {step}")
        if isinstance(seat, int) and not 0 <= seat < self.meta.players:
            raise BadRequest(f"seat: this record has seats 0 to {self.meta.players - 1}")
        live = Live(
            self.meta,
            self.game,
            self.state_at(step),
            moves=self.moves[:step],
            events=self.events[: self.released[step]],
        )
        view = table_view(live, None if seat == "all" else seat)  # type: ignore[arg-type]
        view["id"] = None
        upcoming = None if step == last else self.upcoming(live.state, step)
        view["replay"] = {
            "steps": last,
            "seat": seat,
            "next": None if upcoming is None else upcoming[1],
            "next_player": None if upcoming is None else upcoming[0],
            "outcome": self.outcome,
        }
        if seat == "all":
            view["log"] = [
                UNDONE if is_undo(player) else f"{self.meta.label(player)}: {text}"
                for player, text in self.moves[:step]
            ]
            view["words"] = self.movers_words(step)
            view["seat_views"] = [table_view(live, s) for s in range(self.meta.players)]
        return view


def record_key(data: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


class ReplayCache:
    """Replayed records by content, within ``limits.replay_cache_bytes`` (estimated),
    the least recently used forgotten first."""

    def __init__(self, limits: LimitSettings) -> None:
        self.limits = limits
        self._kept: OrderedDict[str, Replayed] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        with self._lock:
            return sum(entry.size for entry in self._kept.values())

    def __len__(self) -> int:
        return len(self._kept)

    def view(
        self,
        data: dict[str, Any],
        step: int,
        seat: int | str | None,
        on_new: Callable[[], None] = lambda: None,
    ) -> tuple[dict[str, Any], Game]:
        """The view of record ``data`` before ``step`` for ``seat``, and its game, spending
        at most ``limits.replay_cpu`` seconds of this thread's CPU on checking the record.

        ``on_new`` is called (and may refuse) before a record not in the cache is read.
        BadRequest says why a record cannot be replayed; RetryLater that its checking
        goes on at the next request.
        """
        started = time.thread_time()
        key = record_key(data)
        with self._lock:
            entry = self._kept.get(key)
            if entry is not None:
                self._kept.move_to_end(key)
        if entry is None:
            on_new()
            try:
                entry = Replayed(Record.from_json(data))
            except RanchhandError as error:
                raise BadRequest(f"not a record ranchhand can replay: {error}") from None
            with self._lock:
                entry = self._kept.setdefault(key, entry)
        if step > entry.total:
            raise BadRequest(f"step: this record has steps 0 to {entry.total}, got {step}")
        try:
            with entry.lock:
                entry.advance(step, self.limits.replay_cpu, started)
                return entry.view(step, seat), entry.game
        finally:
            self._trim(key)

    def _trim(self, used: str) -> None:
        """Forget records, least recently used first, until the rest fit; the one just
        used goes last (and goes too if it alone is over the bound)."""
        with self._lock:
            total = sum(entry.size for entry in self._kept.values())
            for key in [k for k in self._kept if k != used] + [used]:
                if total <= self.limits.replay_cache_bytes:
                    break
                entry = self._kept.pop(key, None)
                if entry is not None:
                    total -= entry.size


class Replays:
    """What ``POST /api/replays`` works with: the cache, the workers and the limits."""

    def __init__(self, limits: LimitSettings) -> None:
        self.cache = ReplayCache(limits)
        self.workers = ReplayWorkers(limits)

    async def view(
        self, data: dict[str, Any], step: int, seat: int | str | None, on_new: Callable[[], None]
    ) -> tuple[dict[str, Any], Game]:
        """:meth:`ReplayCache.view` on a replay worker."""
        result: tuple[dict[str, Any], Game] = await self.workers.run(
            lambda: self.cache.view(data, step, seat, on_new)
        )
        return result


class ReplayWorkers:
    """The threads replays run on: ``limits.replay_workers`` at once, in a pool of their
    own (never the event loop, never the pool other requests use). A request waits
    ``limits.replay_wait`` seconds at most for one, with at most :attr:`queue` others
    waiting, else RetryLater (503)."""

    def __init__(self, limits: LimitSettings) -> None:
        self.limits = limits
        self.queue = 8 * limits.replay_workers
        self._pool = ThreadPoolExecutor(limits.replay_workers, thread_name_prefix="replay")
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0

    async def run(self, work: Callable[[], Any]) -> Any:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limits.replay_workers)
        slots = self._slots
        busy = RetryLater(
            f"replays are busy: at most {self.limits.replay_workers} at once; retry shortly",
            2,
            status=503,
        )
        if self._waiting >= self.queue:
            raise busy
        self._waiting += 1
        try:
            async with asyncio.timeout(self.limits.replay_wait):
                await slots.acquire()
        except TimeoutError:
            raise busy from None
        finally:
            self._waiting -= 1
        try:
            future = asyncio.get_running_loop().run_in_executor(self._pool, work)
        except BaseException:
            slots.release()
            raise
        # The slot frees when the work ends, even if this request is cancelled first.
        future.add_done_callback(lambda _: slots.release())
        return await asyncio.shield(future)
