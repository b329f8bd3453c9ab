"""Replays for the browser: a record's table as any seat saw it at any step.

A record is untrusted input: it is read with :meth:`Record.from_json` (every
field checked), options naming files are refused, and its size and length are
capped. Each step's view has the table view's shape (:func:`table_view`), so a
game's drawing module draws a replay exactly as it draws a live table. Replayed
records are kept in a small LRU cache keyed by their content, so stepping through
one replays it once; the API stays stateless (every request carries the record),
so any server process can answer.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ranchhand.core.errors import RecordError
from ranchhand.core.game import Game, State
from ranchhand.core.records import Record, parse_step
from ranchhand.server.errors import BadRequest
from ranchhand.server.live import Live, Meta
from ranchhand.server.views import table_view

MAX_RECORD_UPLOAD = 2_000_000
"""The largest ``POST /api/replays`` body, in bytes."""
MAX_REPLAY_STEPS = 20_000
"""The most actions a replayed record may hold."""
KEPT = 8
"""Replayed records kept in memory."""


@dataclass
class Frame:
    """The table before one step: its state, and how much of the log was released."""

    state: State
    events: int


@dataclass
class Replayed:
    record: Record
    game: Game
    meta: Meta
    frames: list[Frame]
    moves: list[tuple[int, str]]
    events: list[tuple[str, ...]]

    def view(self, step: int, seat: int | str | None) -> dict[str, Any]:
        last = len(self.frames) - 1
        if step > last:
            raise BadRequest(f"step: this record has steps 0 to {last}, got {step}")
        if isinstance(seat, int) and not 0 <= seat < self.meta.players:
            raise BadRequest(f"seat: this record has seats 0 to {self.meta.players - 1}")
        frame = self.frames[step]
        live = Live(
            self.meta,
            self.game,
            frame.state,
            moves=self.moves[:step],
            events=self.events[: frame.events],
        )
        view = table_view(live, None if seat == "all" else seat)  # type: ignore[arg-type]
        view["id"] = None
        view["replay"] = {
            "steps": last,
            "seat": seat,
            "next": None if step == last else self.moves[step][1],
            "next_player": None if step == last else self.moves[step][0],
            "outcome": None if self.record.outcome is None else self.record.outcome.to_json(),
        }
        if seat == "all":
            view["log"] = [
                f"{self.meta.label(player)}: {text}" for player, text in self.moves[:step]
            ]
            view["seat_views"] = [table_view(live, s) for s in range(self.meta.players)]
        return view


def replay_record(record: Record) -> Replayed:
    """Play ``record`` through, keeping each step's state; RecordError names a bad step."""
    if len(record.steps) > MAX_REPLAY_STEPS:
        raise RecordError(f"a replayed record holds at most {MAX_REPLAY_STEPS:,} actions")
    game = record.load_game(allow_files=False)
    kinds = tuple(record.seats) or ("player",) * record.players
    meta = Meta(
        id="replay",
        game=game.id,
        players=record.players,
        options=dict(record.options),
        created_seats=kinds,
        kinds=kinds,
        names=kinds,
        hashes=(None,) * record.players,
        seed=0,
        bot_delay=0.0,
        clock=None,
        clock_bot="",
        created=0.0,
    )
    live = Live(meta, game, game.new_initial_state())
    frames = []
    for index, step in enumerate(record.steps):
        state = live.state
        frames.append(Frame(state.clone(), len(live.events)))
        live.apply(step.player, parse_step(state, step, index))
    live.events.extend(live.pending)
    frames.append(Frame(live.state, len(live.events)))
    return Replayed(record, game, meta, frames, live.moves, live.events)


class ReplayCache:
    """Replayed records by content, the :data:`KEPT` most recently used."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Replayed] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, data: dict[str, Any]) -> Replayed:
        """The record ``data`` replayed (BadRequest says why it cannot be)."""
        key = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
        with self._lock:
            replayed = self._kept.get(key)
            if replayed is not None:
                self._kept.move_to_end(key)
        if replayed is None:
            try:
                replayed = replay_record(Record.from_json(data))
            except RecordError as error:
                raise BadRequest(f"not a record ranchhand can replay: {error}") from None
            with self._lock:
                self._kept[key] = replayed
                while len(self._kept) > KEPT:
                    self._kept.popitem(last=False)
        return replayed
