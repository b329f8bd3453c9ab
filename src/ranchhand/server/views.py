"""The JSON a seat or a spectator receives: built from that viewer's observation only.

A seat's view holds ``state.observe(seat)``, the log lines ``describe_for`` gives
that seat (``log``) and the same told in words by ``describe_words`` (``words``, one
for each line of ``log``), and legal actions only when the seat is to act; a spectator's view
(``you`` null) holds ``state.observe(None)``, what the table shows to nobody in
particular. Nothing else of the state, no token and no seed, is ever put in.

A table the server closed (``expired``: no move for too long) shows its last state with
status ``expired``, nobody to act and no legal actions.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson
from fastapi.responses import Response

from ranchhand.server.live import HUMAN, Live

log = logging.getLogger("ranchhand.server")
_warned: set[str] = set()


def table_view(live: Live, seat: int | None) -> dict[str, Any]:
    """The view of ``live`` for ``seat`` (None: a spectator)."""
    state, meta = live.state, live.meta
    outcome = state.outcome()
    closed = live.expired and outcome is None
    to_act = [] if closed else list(state.acting_players())
    legal: list[str] = []
    if seat is not None and seat in to_act and meta.kinds[seat] == HUMAN:
        text = live.text
        legal = [text(a) for a in state.legal_actions(seat)]
    return {
        "id": meta.id,
        "game": meta.game,
        "players": meta.players,
        "status": "finished" if outcome is not None else "expired" if closed else "playing",
        "step": live.step,
        "turn": state.turn,
        "to_act": to_act,
        "you": seat,
        "observation": observation(live, seat),
        "legal_actions": legal,
        "undo": live.undoable(seat) if legal else 0,  # a person to act, now
        "log": list(live.log_for(seat)),
        "words": list(live.words_for(seat)),
        "outcome": None if outcome is None else outcome.to_json(),
        "seats": [
            {"seat": s, "kind": kind, "name": name, "open": meta.is_open(s)}
            for s, (kind, name) in enumerate(zip(meta.kinds, meta.names, strict=True))
        ],
        "options": dict(meta.options),
        "bot_delay": meta.bot_delay,
        "clock": None if meta.clock is None else clock_view(live, to_act),
    }


def clock_view(live: Live, to_act: list[int]) -> dict[str, Any]:
    """The table's per-move clock: its length, when the seats to act run out of time
    (``deadline``), the bot that then moves for them, the seats whose time runs now
    (``running``: the people to act, unless a bot is due first, as the bot runner reads
    it), and the server's time as the view is made (``now``, Unix seconds) so a page
    counts down from the server's clock, not its own (which may be minutes off)."""
    meta = live.meta
    assert meta.clock is not None
    people = [s for s in to_act if meta.kinds[s] == HUMAN]
    return {
        "seconds": meta.clock,
        "deadline": live.updated + meta.clock,
        "bot": meta.clock_bot,
        "running": people if len(people) == len(to_act) and not live.finished else [],
        "now": time.time(),
    }


def to_text(data: Any) -> str:
    """``data`` as JSON text, for WebSocket frames: orjson, about ten times quicker than
    ``json.dumps`` on a view (a late Rancho view, 24 KB: 0.008 ms against 0.1 ms), which
    was a tenth of the server's time a move. Keys that are not strings are written as
    strings, as ``json.dumps`` writes them."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


class JSONText(Response):
    """A JSON reply encoded by :func:`to_text`'s encoder. Endpoints that return a view
    return one of these rather than the dict, which FastAPI would first walk through its
    ``jsonable_encoder`` (as dear as the encoding) and then encode with ``json``."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


def observation(live: Live, seat: int | None) -> dict[str, Any] | None:
    """``state.observe(seat).to_json()``; None for a spectator if the game cannot show one."""
    if seat is not None:
        return live.state.observe(seat).to_json()
    try:
        return live.state.observe(None).to_json()  # type: ignore[arg-type]
    except (TypeError, KeyError, IndexError, ValueError, AttributeError) as error:
        # A game not yet taught to observe for nobody in particular: the spectator
        # gets no observation rather than a seat's (which would leak that seat's hand).
        if live.meta.game not in _warned:
            _warned.add(live.meta.game)
            log.warning(
                "%s cannot yet show a spectator's observation (%s: %s); "
                "spectators see the log only",
                live.meta.game,
                type(error).__name__,
                error,
            )
        return None
