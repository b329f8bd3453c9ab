"""Undo at a table: a seat takes back its own last action, written as a step of the log.

The rules are the terminal's (:class:`ranchhand.core.undo.Trail`): only the seat's own
consecutive actions since the last chance event, simultaneous choice or other player's
action, and only while it is that seat's turn. The undo is committed like a move (one
row of the moves table, player -2, see :mod:`ranchhand.core.undo`), under the same
condition: the table's row is still what the undo was made against, else it is looked
at again (a stale ``step`` is refused: the client saw another table than there is).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ranchhand.server.errors import Conflict, NeedsToken, TableError
from ranchhand.server.limits import Limiter
from ranchhand.server.live import Live
from ranchhand.server.tables import Moved, TableService, person_seat

if TYPE_CHECKING:
    from ranchhand.server.ws import Connection, Hub

log = logging.getLogger("ranchhand.server")

RACES = 3
"""Commits lost to other changes before the undo is refused as busy."""
NOTHING = (
    "nothing to undo: undo takes back only your own actions since the last dice roll, "
    "card drawn or another player's move"
)


def take_back(service: TableService, table_id: str, token: str | None, step: int) -> Moved:
    """Take back the last action of the seat ``token`` opens, made against ``step``.

    401 without a token, 403 with one that opens no seat, 409 when the step is stale,
    the game is over, the seat is a bot's or there is nothing it may take back, 410 on
    an expired table.
    """
    if token is None:
        raise NeedsToken("an undo needs the seat's token (Authorization: Bearer TOKEN)")
    live = service.current(table_id)
    for _race in range(RACES):
        seat = _check(live, token, step)
        work = live.fork()
        work.undo()
        if service._commit(work, live):  # the same conditional write as a move's
            log.info(
                "table %s: %s took back an action at step %d", table_id, live.meta.label(seat), step
            )
            return Moved(work, seat, live.step)
        live = service.current(table_id)
    raise Conflict("the table is busy; look again")


def _check(live: Live, token: str, step: int) -> int:
    """The seat ``token`` opens, if it may undo now at ``live`` (seen at ``step``)."""
    seat = person_seat(live, token)
    if step != live.step:
        raise Conflict(
            f"stale step: the undo was asked at step {step}, the table is at step "
            f"{live.step}; look again"
        )
    if live.undoable(seat) == 0:
        acting = live.state.acting_players()
        if seat not in acting:
            waiting = ", ".join(live.meta.label(p) for p in acting) or "nobody"
            raise Conflict(f"{NOTHING} (it is not your turn; waiting for {waiting})")
        raise Conflict(NOTHING)
    return seat


async def undo_frame(
    hub: Hub,
    connection: Connection,
    frame: dict[str, Any],
    token: str | None,
    publish: Callable[[str, int], Awaitable[None]],
    limiter: Limiter | None,
) -> str | None:
    """A WebSocket frame ``{"undo": true, "step": N}``: the error to send back, or None
    once the new view is shared (as a move's frame, on the same ``actions`` rate)."""
    if set(frame) != {"undo", "step"} or frame["undo"] is not True:
        return 'expected {"undo": true, "step": N} and nothing else'
    step = frame["step"]
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        return "step: expected a whole number"
    if connection.seat is None:
        return "spectators cannot undo; connect with a seat's token"
    if limiter is not None and limiter.allow(connection.address, "actions") is not None:
        return limiter.refusal("actions")
    try:
        moved = await asyncio.to_thread(take_back, hub.service, connection.table_id, token, step)
    except TableError as error:
        return error.message
    hub.share(moved.live)
    await publish(connection.table_id, moved.live.step)
    return None
