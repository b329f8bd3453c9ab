"""WebSockets: ``/ws/tables/{id}?token=...``, a live view of one table for one viewer.

On connect the viewer gets its view; after every change to the table (made by any
process: the hub hears of it through the notifier's ``on_change`` only) it gets
its view again, built from its own seat's observation. A client may send
``{"action": "TEXT", "step": N}`` and gets the new view or ``{"error": "..."}``.
The socket layer keeps no game state: views come from the table service, which
checks the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from ranchhand.server.errors import TableError
from ranchhand.server.live import Live
from ranchhand.server.tables import TableService
from ranchhand.server.views import table_view

log = logging.getLogger("ranchhand.server")

MAX_FRAME = 16 * 1024
"""The largest frame a client may send; larger ones get an error frame."""
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4403


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    table_id: str
    seat: int | None
    sent: tuple[Any, ...] = (-1, ())
    """The version (step, seat kinds, names, open seats) of the last view sent, so none is
    sent twice."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send_view(self, live: Live) -> None:
        version = (live.step, live.meta.kinds, live.meta.names, live.meta.open)
        async with self.lock:
            if version == self.sent or live.step < self.sent[0]:
                return
            self.sent = version
            await self.socket.send_text(json.dumps(table_view(live, self.seat)))

    async def send_error(self, message: str) -> None:
        async with self.lock:
            await self.socket.send_text(json.dumps({"error": message}))


class Hub:
    """Who watches which table; told of every change by the notifier."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.watchers: dict[str, set[Connection]] = {}

    def join(self, connection: Connection) -> None:
        self.watchers.setdefault(connection.table_id, set()).add(connection)

    def leave(self, connection: Connection) -> None:
        group = self.watchers.get(connection.table_id)
        if group is not None:
            group.discard(connection)
            if not group:
                del self.watchers[connection.table_id]

    async def on_change(self, table_id: str, step: int) -> None:
        group = self.watchers.get(table_id)
        if not group:
            return
        try:
            live = await asyncio.to_thread(self.service.current, table_id)
        except TableError:
            return
        await asyncio.gather(*(self._send(c, live) for c in list(group)))

    async def refresh(self) -> None:
        """Send every watched table's current view again (after the notifier reconnects,
        changes made by other processes meanwhile were not heard)."""
        await asyncio.gather(*(self.on_change(table_id, -1) for table_id in list(self.watchers)))

    async def _send(self, connection: Connection, live: Live) -> None:
        try:
            await connection.send_view(live)
        except Exception:  # a closed socket: its own handler removes it
            log.debug("table %s: a view could not be sent", connection.table_id)

    @property
    def count(self) -> int:
        return sum(len(group) for group in self.watchers.values())


def router(hub: Hub, publish: Any) -> APIRouter:
    """The WebSocket route; ``publish(table_id, step)`` announces a committed move."""
    routes = APIRouter()
    service = hub.service

    @routes.websocket("/ws/tables/{table_id}")
    async def table_socket(socket: WebSocket, table_id: str, token: str | None = None) -> None:
        """A live view of one table: the spectator's without a token, else the seat's."""
        await socket.accept()
        try:
            live, seat = await asyncio.to_thread(service.view_seat, table_id, token)
        except TableError as error:
            await socket.send_text(json.dumps({"error": error.message}))
            code = CLOSE_NO_TABLE if error.status == 404 else CLOSE_BAD_TOKEN
            await socket.close(code=code, reason=error.message[:100])
            return
        connection = Connection(socket, table_id, seat)
        hub.join(connection)
        try:
            await connection.send_view(live)
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                reply = await _handle(service, connection, message, token, publish)
                if reply is not None:
                    await connection.send_error(reply)
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(connection)
            if socket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await socket.close()

    return routes


async def _handle(
    service: TableService,
    connection: Connection,
    message: MutableMapping[str, Any],
    token: str | None,
    publish: Any,
) -> str | None:
    """Play one frame's move; the error to send back, or None once the view is sent."""
    raw = message.get("text")
    if raw is None:
        data = message.get("bytes") or b""
        if len(data) > MAX_FRAME:
            return f"a frame is at most {MAX_FRAME:,} bytes, this one has {len(data):,}"
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError:
            return "a frame must be UTF-8 JSON text"
    if len(raw) > MAX_FRAME:
        return f"a frame is at most {MAX_FRAME:,} characters, this one has {len(raw):,}"
    try:
        frame = json.loads(raw)
    except (ValueError, RecursionError):
        return 'malformed JSON; send {"action": "TEXT", "step": N}'
    if not isinstance(frame, dict) or set(frame) - {"action", "step"}:
        return 'expected {"action": "TEXT", "step": N} and nothing else'
    action, step = frame.get("action"), frame.get("step")
    if not isinstance(action, str):
        return "action: expected a text"
    if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
        return "step: expected a whole number"
    if connection.seat is None:
        return "spectators cannot move; connect with a seat's token"
    try:
        moved = await asyncio.to_thread(service.act, connection.table_id, token, action, step)
    except TableError as error:
        return error.message
    await connection.send_view(moved.live)
    await publish(connection.table_id, moved.live.step)
    return None
