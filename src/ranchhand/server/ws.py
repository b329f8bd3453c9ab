"""WebSockets: ``/ws/tables/{id}?token=...``, a live view of one table for one viewer.

On connect the viewer gets its view; after every change to the table (made by any
process: the hub hears of it through the notifier's ``on_change`` only) it gets
its view again, built from its own seat's observation. A client may send
``{"action": "TEXT", "step": N}`` (or ``{"undo": true, "step": N}``, see
:mod:`ranchhand.server.undo`) and gets the new view or ``{"error": "..."}``.
The socket layer keeps no game state: views come from the table service, which
checks the database.

Back-pressure: a client that does not read must cost the others nothing. So
nobody ever waits on a connection's send but that connection's own sender task:

- Each connection has a :class:`Mailbox`, what it still has to be sent, and a
  sender that sends it in order. Views are whole states, so a view waiting behind
  no error frame is replaced by a newer one: a client that falls behind gets the
  newest view, never a backlog. Error frames keep their place between views. The
  view's JSON is built by the sender when it sends it, so a stuck client costs
  no CPU however often its table changes.
- A frame must be on its way within ``send_timeout`` seconds of being queued (a
  newer view that replaces a waiting one keeps the waiting one's time): a client
  that stays behind longer, or whose send stays blocked, is closed with code
  4408 and its TCP connection dropped (:class:`AbortableSockets`).
- The hub only reads a changed table (one read in flight per table, at most
  ``READS`` tables at once, changes that arrive meanwhile coalesced into one more
  read) and puts the state in each watcher's mailbox: it never awaits a send, and
  notifiers never await the hub. A move made over a WebSocket here is put in every
  watcher's mailbox at once (:meth:`Hub.share`), before the hub reads it back.
- A connection's own frames are read only while its mailbox has room, so a client
  that sends without reading its replies is slowed by TCP, not queued for.
- At most ``per_table`` connections watch one table and ``per_address`` come from
  one client address (an IPv6 address's /64, as for the rate limits); more are
  refused with an error frame and code 4429.

Chat and presence (:mod:`ranchhand.server.feeds`) are sent only to a socket that asks
for them (``?extras=chat,presence``), so a client written for views alone gets views
alone. ``log-tail`` among the extras has views carry only the log lines this socket was
not sent yet (:meth:`Connection.tails`). A presence frame is a whole state, replaced like
a view; chat lines are never dropped: lines waiting are gathered into one frame, and a
socket with more than ``FEED_BACKLOG`` frames waiting is closed as too slow.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import struct
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine, MutableMapping
from dataclasses import dataclass
from socket import SO_LINGER, SOL_SOCKET
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketState

from ranchhand.server.errors import TableError
from ranchhand.server.limits import Limiter, client_key
from ranchhand.server.live import Live
from ranchhand.server.notify import Coalescer
from ranchhand.server.tables import TableService
from ranchhand.server.undo import undo_frame
from ranchhand.server.views import table_view, to_text

log = logging.getLogger("ranchhand.server")

MAX_FRAME = 16 * 1024
"""The largest frame a client may send; larger ones get an error frame."""
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4403
CLOSE_TOO_SLOW = 4408
"""A client that did not take its frames within ``send_timeout`` (like HTTP's 408)."""
CLOSE_TOO_MANY = 4429
"""Refused: its table or its address has as many WebSockets as allowed (like HTTP's 429)."""

SEND_TIMEOUT = 10.0
"""Seconds a frame may wait for a client to take it. Long enough for a phone on a bad
network to get a view (tens of KB), short enough that a stuck client's buffers are
given back soon."""
PER_TABLE = 100
"""WebSockets watching one table at once: its seats (at most 6) and spectators."""
PER_ADDRESS = 64
"""WebSockets from one client address at once (behind a proxy, pass ``--proxy-headers``
so that each client has its own address)."""
READS = 2
"""Tables the hub reads at once. Its reads share the thread pool with the moves, and a
move waits behind every read queued there: bounded, the reads cannot crowd the moves
out, and a table whose read waits gathers all its changes into that one read."""
BACKLOG = 8
"""Frames a connection's mailbox holds before its own frames are read no further."""
CLOSE_GRACE = 2.0
"""Seconds a closed connection has to take its close frame before it is dropped."""
ABORT = "ranchhand.abort"
FEED_BACKLOG = 64
"""Frames a socket may have waiting once chat or presence is added to them; beyond, the
client cannot keep up and is closed (4408) rather than dropping chat lines."""
"""The scope key where :class:`AbortableSockets` puts a call that drops the connection."""


@dataclass(frozen=True)
class SocketLimits:
    """How much a WebSocket client may hold: see the module's docstring."""

    send_timeout: float = SEND_TIMEOUT
    per_table: int = PER_TABLE
    per_address: int = PER_ADDRESS

    def __post_init__(self) -> None:
        if not (math.isfinite(self.send_timeout) and 0 < self.send_timeout <= 3600):
            raise ValueError(f"send_timeout must be 0 to 3600 seconds, got {self.send_timeout}")
        for name in ("per_table", "per_address"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**6:
                raise ValueError(f"{name} must be a whole number from 1 to 1000000, got {value!r}")


@dataclass
class Frame:
    """One thing a mailbox holds: a view to build from ``live``, or an error's text."""

    since: float
    """When this place in the mailbox was taken (a newer view keeps it)."""
    live: Live | None = None
    error: str | None = None
    feed: dict[str, Any] | None = None
    """A chat or presence frame, sent as it is (``{"chat": [...]}``)."""


class Mailbox:
    """What one connection still has to be sent, oldest first.

    A view put behind a waiting view replaces it (views are whole states: the newer
    one says all the older did), unless it is of an earlier step; an error frame is
    put behind whatever waits, so it arrives after the views that came before it and
    before those that come after.
    """

    def __init__(self, capacity: int = BACKLOG, clock: Callable[[], float] = time.monotonic):
        self.capacity = capacity
        self.clock = clock
        self._frames: deque[Frame] = deque()
        self._ready = asyncio.Event()
        self._room = asyncio.Event()
        self._room.set()

    def put_view(self, live: Live) -> None:
        last = self._frames[-1] if self._frames else None
        if last is not None and last.live is not None:
            if live.step >= last.live.step:
                last.live = live
            return
        self._put(Frame(self.clock(), live=live))

    def put_error(self, message: str) -> None:
        self._put(Frame(self.clock(), error=message))

    def put_feed(self, key: str, items: list[Any], *, whole: bool, **more: Any) -> None:
        """A frame ``{key: items, **more}``: a whole state (``whole``) replaces a waiting
        frame of ``key`` at the end, lines are added to it; else it goes behind."""
        last = self._frames[-1] if self._frames else None
        if last is not None and last.feed is not None and key in last.feed:
            last.feed[key] = list(items) if whole else [*last.feed[key], *items]
            last.feed.update(more)
            return
        self._put(Frame(self.clock(), feed={key: list(items), **more}))

    def _put(self, frame: Frame) -> None:
        self._frames.append(frame)
        self._ready.set()
        if len(self._frames) >= self.capacity:
            self._room.clear()

    async def get(self) -> Frame:
        """The oldest frame, once there is one."""
        while not self._frames:
            self._ready.clear()
            await self._ready.wait()
        frame = self._frames.popleft()
        if len(self._frames) < self.capacity:
            self._room.set()
        return frame

    async def room(self) -> None:
        """Return once the mailbox holds fewer frames than its capacity."""
        await self._room.wait()

    def __len__(self) -> int:
        return len(self._frames)


class Connection:
    """One WebSocket: its viewer, its mailbox and the sender that empties it."""

    def __init__(
        self,
        socket: WebSocket,
        table_id: str,
        seat: int | None,
        *,
        send_timeout: float = SEND_TIMEOUT,
        address: str = "",
    ) -> None:
        self.socket = socket
        self.table_id = table_id
        self.seat = seat
        self.send_timeout = send_timeout
        self.address = address
        self.mailbox = Mailbox()
        self.sent: tuple[Any, ...] = (-1, ())
        """The version (step, seat kinds, names, open seats, closed) of the last view
        sent, so none is sent twice and views only move forward (a table that expires
        keeps its step: its closing is a new version all the same)."""
        self.too_slow = False
        self.extras: frozenset[str] = frozenset()
        """The frames besides views this socket asked for (``chat``, ``presence``)."""
        self.chat_seq: int | None = None
        """The last chat line queued here (None until the recent lines are)."""
        self.presence_sent: Any = None
        self.presence_conn: str | None = None
        """This socket's ``presence`` row (a seat's socket only)."""
        self.page_state = "visible"
        self.tail = False
        """Views carry only the log's new lines (``?extras=log-tail``; see :meth:`tails`)."""
        self.lines_sent: dict[str, list[str]] = {}
        """The ``log`` and ``words`` of the last view sent (with :attr:`tail`)."""

    def feed(self, key: str, items: list[Any], *, whole: bool, **more: Any) -> None:
        """Queue a chat or presence frame if this socket asked for ``key``; returns at
        once. A socket that has too many frames waiting is closed as too slow."""
        if key not in self.extras or self.too_slow:
            return
        self.mailbox.put_feed(key, items, whole=whole, **more)
        if len(self.mailbox) > FEED_BACKLOG:
            self.too_slow = True
            asyncio.get_running_loop().create_task(self.close_slow())

    def offer(self, live: Live) -> None:
        """Have the view of ``live`` sent (or a newer one): returns at once."""
        self.mailbox.put_view(live)

    def tell(self, message: str) -> None:
        """Have ``{"error": message}`` sent, after what is queued: returns at once."""
        self.mailbox.put_error(message)

    def render(self, frame: Frame) -> str | None:
        """The text to send for ``frame``; None for a view already sent or older."""
        if frame.feed is not None:
            return to_text(frame.feed)
        if frame.live is None:
            return to_text({"error": frame.error})
        live = frame.live
        version = (live.step, live.meta.kinds, live.meta.names, live.meta.open, live.expired)
        if version == self.sent or live.step < self.sent[0]:
            return None
        self.sent = version
        view = table_view(live, self.seat)
        if self.tail:
            self.tails(view)
        return to_text(view)

    def tails(self, view: dict[str, Any]) -> None:
        """Cut ``view``'s ``log`` and ``words`` to what this socket has not been sent.

        A view holds a table's whole log, so a long game's views grow with it, and
        encoding, compressing and framing them was much of a move's cost. With
        ``log-tail`` a view's ``log`` holds the lines from ``log_from`` on (``words``
        from ``words_from``): the client keeps the lines before. The log only grows, and
        only its last line changes in place (``x2`` becomes ``x3``), so the lines kept
        are those this socket was last sent up to the first that differs. Computed when
        a view is sent, against what was sent, so a view dropped unsent loses nothing.
        """
        for key in ("log", "words"):
            lines = view.get(key)
            if not isinstance(lines, list):
                continue
            before = self.lines_sent.get(key, [])
            kept = min(len(before), len(lines))
            while kept and before[kept - 1] != lines[kept - 1]:
                kept -= 1
            self.lines_sent[key] = lines
            view[key] = lines[kept:]
            view[f"{key}_from"] = kept

    async def send_all(self) -> None:
        """The sender: send what the mailbox gets, in order, until the client is too
        slow (then close it and return) or gone (then raise)."""
        while True:
            frame = await self.mailbox.get()
            left = self.send_timeout - (self.mailbox.clock() - frame.since)
            if left <= 0:
                await self.close_slow()
                return
            text = self.render(frame)
            if text is None:
                continue
            try:
                async with asyncio.timeout(left):  # no task per send, unlike wait_for
                    await self.socket.send_text(text)
            except TimeoutError:
                await self.close_slow()
                return

    async def close_slow(self) -> None:
        """Close a client that did not take its frames in time, and drop its connection
        (its close frame may never get through: it waits behind what was not read)."""
        self.too_slow = True
        log.info(
            "table %s: closed a WebSocket from %s that took no frame for %g s",
            self.table_id,
            self.address or "an unknown address",
            self.send_timeout,
        )
        reason = f"too slow: a frame waited over {self.send_timeout:g} s"
        await close_or_drop(self.socket, CLOSE_TOO_SLOW, reason)

    async def serve(self, read: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run the sender beside ``read`` (the loop of the client's frames) until either
        ends: the client left, or it was too slow."""
        sender = asyncio.create_task(self.send_all(), name=f"ranchhand-ws-send-{self.table_id}")
        reader = asyncio.create_task(read(), name=f"ranchhand-ws-read-{self.table_id}")
        tasks = {sender, reader}
        sender.add_done_callback(self._sender_ended)
        reader.add_done_callback(self._reader_ended)
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:  # cancelled from outside (the server stops): cancel both, wait for neither
            for task in tasks:
                task.cancel()
        await asyncio.wait(tasks)

    def _sender_ended(self, task: asyncio.Task[None]) -> None:
        """A send that failed is a client gone: said at debug level."""
        failed = None if task.cancelled() else task.exception()
        if failed is not None:
            log.debug("table %s: a WebSocket's send failed: %r", self.table_id, failed)

    def _reader_ended(self, task: asyncio.Task[None]) -> None:
        """A client gone is said at debug level; any other failure is a bug: logged."""
        failed = None if task.cancelled() else task.exception()
        if failed is None:
            return
        if isinstance(failed, WebSocketDisconnect | OSError):
            log.debug("table %s: a WebSocket ended: %r", self.table_id, failed)
        else:
            log.error("table %s: a WebSocket's frame failed", self.table_id, exc_info=failed)


async def close_or_drop(socket: WebSocket, code: int, reason: str) -> None:
    """Ask the client to close (``code``, ``reason``); drop the TCP connection if the close
    frame cannot be written within ``CLOSE_GRACE`` s, or was not taken by then."""
    abort = socket.scope.get(ABORT)
    short = reason.encode()[:120].decode(errors="ignore")  # a close reason is at most 123 bytes
    try:
        await asyncio.wait_for(socket.close(code=code, reason=short), CLOSE_GRACE)
    except Exception:  # a blocked send (TimeoutError), or a connection already gone
        if abort is not None:
            abort()
        return
    if abort is not None:
        asyncio.get_running_loop().call_later(CLOSE_GRACE, abort)


async def refuse(socket: WebSocket, code: int, message: str) -> None:
    """An error frame, then the close ``code``: for a connection that is not let in."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(socket.send_text(json.dumps({"error": message})), CLOSE_GRACE)
    await close_or_drop(socket, code, message)


class Hub:
    """Who watches which table; told of every change by the notifier."""

    def __init__(self, service: TableService, limits: SocketLimits | None = None) -> None:
        self.service = service
        self.limits = limits or SocketLimits()
        self.watchers: dict[str, set[Connection]] = {}
        self.addresses: Counter[str] = Counter()
        self._changes = Coalescer(self._update, name="ranchhand-hub")
        self._reading = asyncio.Semaphore(READS)
        self.reads = 0
        """Tables read to send their views (for tests: a burst costs few reads)."""
        self.solo = False
        """Whether this process alone writes the tables (the app sets it with a
        ``LocalNotifier``): then a change it shared needs no read (see :meth:`on_change`)."""
        self.skipped = 0
        """Changes not read again because their state was shared (for tests)."""
        self._shared: dict[str, Live] = {}
        self.feeds: Any = None
        """Chat and presence (:class:`ranchhand.server.feeds.Feeds`), when the app has them."""

    def admit(self, address: str) -> str | None:
        """Count one more connection from ``address``; the refusal if it has too many."""
        most = self.limits.per_address
        if self.addresses[address] >= most:
            return (
                f"too many WebSockets from your address: at most {most} at once; "
                "close some and try again"
            )
        self.addresses[address] += 1
        return None

    def release(self, address: str) -> None:
        self.addresses[address] -= 1
        if self.addresses[address] <= 0:
            del self.addresses[address]

    def join(self, connection: Connection) -> str | None:
        """Watch a table; the refusal if it already has as many watchers as allowed."""
        group = self.watchers.setdefault(connection.table_id, set())
        most = self.limits.per_table
        if len(group) >= most:
            return (
                f"this table has {most} WebSockets watching it, the most it takes; try again later"
            )
        group.add(connection)
        return None

    def leave(self, connection: Connection) -> None:
        group = self.watchers.get(connection.table_id)
        if group is not None:
            group.discard(connection)
            if not group:
                del self.watchers[connection.table_id]
                self._shared.pop(connection.table_id, None)

    def share(self, live: Live) -> None:
        """Put a state this process just committed in every watcher's mailbox (each gets
        its own seat's view of it): they need not wait for the hub to read it back. The
        change is still published, and its read shows whatever else came at that step."""
        group = self.watchers.get(live.meta.id)
        if not group:
            return
        for connection in list(group):
            connection.offer(live)
        if self.solo:
            self._shared[live.meta.id] = live

    async def on_change(self, table_id: str, step: int) -> None:
        """Have the table's watchers sent its new view; returns at once.

        A change this process made and shared (:meth:`share`) is not read again when
        this process alone writes the tables (:attr:`solo`) and its table cache still
        holds that very state: every write here either caches the state it made or
        drops the table from the cache, so nothing can have come since that the shared
        state lacks. That saves, for each move, a thread hop and a query that would
        find nothing new. Changes heard from other processes are always read.
        """
        if table_id not in self.watchers:
            return
        shared = self._shared.pop(table_id, None)
        if (
            shared is not None
            and 0 <= step <= shared.step
            and shared is self.service.peek(table_id)
        ):
            self.skipped += 1
            return
        self._changes.submit(table_id, step)

    async def refresh(self) -> None:
        """Send every watched table's current view again (after the notifier reconnects,
        changes made by other processes meanwhile were not heard); returns at once."""
        for table_id in list(self.watchers):
            self._changes.submit(table_id, -1)

    async def stop(self) -> None:
        await self._changes.stop()

    async def _update(self, table_id: str, step: int) -> None:
        """Read the table once and put its view in every watcher's mailbox."""
        async with self._reading:
            if table_id not in self.watchers:
                return
            self.reads += 1
            try:
                live = await asyncio.to_thread(self.service.current, table_id)
            except TableError:
                return
        for connection in list(self.watchers.get(table_id, ())):
            connection.offer(live)

    @property
    def count(self) -> int:
        return sum(len(group) for group in self.watchers.values())


def drop(transport: Any) -> None:
    """Drop a connection at once with a TCP reset: what the client did not read is thrown
    away, here and in the kernel (a plain close would leave the kernel sending it, for
    minutes, to a client that does not read)."""
    if transport.is_closing():
        return
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(SOL_SOCKET, SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


class AbortableSockets:
    """ASGI middleware: puts in each WebSocket's scope (key ``ABORT``) a call that drops
    its TCP connection at once.

    ASGI can only ask a server to close a WebSocket, and the close frame waits behind
    whatever the client has not read: a client that never reads would keep its
    connection, and the server's buffers for it, for ever. uvicorn's own ``send`` is
    a method of the connection's protocol, whose transport can abort. So this must
    wrap the app outermost (added last), where ``send`` is still the server's own;
    elsewhere, or under another server, nothing is put in the scope and a stuck
    connection is only asked to close.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if callable(getattr(transport, "abort", None)):  # asyncio's or uvloop's
                scope[ABORT] = functools.partial(drop, transport)
        await self.app(scope, receive, send)


def router(hub: Hub, publish: Any, limiter: Limiter | None = None) -> APIRouter:
    """The WebSocket route; ``publish(table_id, step)`` announces a committed move, and
    ``limiter`` (if given) holds each client's moves to its ``actions`` rate."""
    routes = APIRouter()

    @routes.websocket("/ws/tables/{table_id}")
    async def table_socket(
        socket: WebSocket, table_id: str, token: str | None = None, extras: str = ""
    ) -> None:
        """A live view of one table: the spectator's without a token, else the seat's."""
        await socket.accept()
        address = client_key(socket.scope)  # an IPv6 client is its /64, as for the rates
        refusal = hub.admit(address)
        if refusal is not None:
            await refuse(socket, CLOSE_TOO_MANY, refusal)
            return
        try:
            await _watch(hub, socket, table_id, token, address, publish, limiter, extras)
        finally:
            hub.release(address)

    return routes


async def _watch(
    hub: Hub,
    socket: WebSocket,
    table_id: str,
    token: str | None,
    address: str,
    publish: Any,
    limiter: Limiter | None,
    extras: str = "",
) -> None:
    service = hub.service
    connection = Connection(
        socket, table_id, None, send_timeout=hub.limits.send_timeout, address=address
    )
    refusal = hub.join(connection)  # before the read: no change after it goes unheard
    if refusal is not None:
        await refuse(socket, CLOSE_TOO_MANY, refusal)
        return
    try:
        live, connection.seat = await asyncio.to_thread(service.view_seat, table_id, token)
    except TableError as error:
        hub.leave(connection)
        code = CLOSE_NO_TABLE if error.status == 404 else CLOSE_BAD_TOKEN
        await refuse(socket, code, error.message)
        return

    async def read() -> None:
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            await connection.mailbox.room()
            reply = await _handle(hub, connection, message, token, publish, limiter)
            if reply is not None:
                connection.tell(reply)

    connection.tail = "log-tail" in {name.strip() for name in extras.split(",")}
    try:
        connection.offer(live)  # after any view a change put first, it is dropped as older
        if hub.feeds is not None:
            hub.feeds.opened(connection, extras)
        await connection.serve(read)
    finally:
        hub.leave(connection)
        if hub.feeds is not None:
            hub.feeds.closed(connection)
        if (
            not connection.too_slow
            and socket.application_state == WebSocketState.CONNECTED
            and socket.client_state == WebSocketState.CONNECTED
        ):
            await close_or_drop(socket, 1000, "")


async def _handle(
    hub: Hub,
    connection: Connection,
    message: MutableMapping[str, Any],
    token: str | None,
    publish: Any,
    limiter: Limiter | None = None,
) -> str | None:
    """Play one frame's move; the error to send back, or None once the view is queued."""
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
    if isinstance(frame, dict) and set(frame) == {"presence"} and hub.feeds is not None:
        return hub.feeds.page_said(connection, frame["presence"])  # {"presence": "hidden"}
    if isinstance(frame, dict) and "undo" in frame:  # {"undo": true, "step": N}
        return await undo_frame(hub, connection, frame, token, publish, limiter)
    if not isinstance(frame, dict) or set(frame) - {"action", "step"}:
        return 'expected {"action": "TEXT", "step": N} and nothing else'
    action, step = frame.get("action"), frame.get("step")
    if not isinstance(action, str):
        return "action: expected a text"
    if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
        return "step: expected a whole number"
    if connection.seat is None:
        return "spectators cannot move; connect with a seat's token"
    if limiter is not None and limiter.allow(connection.address, "actions") is not None:
        return limiter.refusal("actions")  # the same budget as moves over HTTP
    try:
        moved = await asyncio.to_thread(hub.service.act, connection.table_id, token, action, step)
    except TableError as error:
        return error.message
    hub.share(moved.live)
    await publish(connection.table_id, moved.live.step)
    return None
