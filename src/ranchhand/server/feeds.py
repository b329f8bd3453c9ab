"""Chat lines and presence for the WebSockets of one process (``?extras=chat,presence``).

The hub (:mod:`ranchhand.server.ws`) sends views; this sends what is not a view:

- ``{"chat": [{"seq", "seat", "name", "text", "time", "system"}, ...]}``: on connect the
  last :data:`~ranchhand.server.chat.RECENT` lines (with ``chat_options``), then every
  new line once. Each socket remembers the last line it was given; a new line is heard
  as a change of kind ``chat`` (from any process, through the notifier) and the lines
  after the oldest such mark are read once for all of the table's sockets here.
- ``{"presence": [{"seat", "state", "since", "hand_over"}, ...]}``: every seat's state
  (:mod:`ranchhand.server.presence`), sent when it differs from the last one sent: after
  a change of kind ``presence`` (a seat's socket opened, closed or said its page is
  hidden, anywhere), and at each heartbeat (a process that died, a seat now offline long
  enough to be handed over).

Nothing here waits on a client: frames go into the sockets' mailboxes. Database work
runs in threads, in tasks of its own, never in the socket's reader.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import asdict
from typing import Any

from ranchhand.server.chat import ChatStore
from ranchhand.server.errors import Conflict, WrongToken
from ranchhand.server.live import HUMAN, Live
from ranchhand.server.notify import Coalescer, event_key, split_key
from ranchhand.server.presence import PAGE_STATES, PresenceStore
from ranchhand.server.ws import Connection, Hub

log = logging.getLogger("ranchhand.server")

PublishEvent = Callable[[str, str, int], Awaitable[None]]
EXTRAS = ("chat", "presence")
"""The frames a socket may ask for besides views."""
SWEEP_BATCH = 500
"""Tables whose presence one query reads at most."""


class Feeds:
    """Chat and presence frames for the sockets of ``hub``."""

    def __init__(
        self, hub: Hub, chat: ChatStore, presence: PresenceStore, publish: PublishEvent
    ) -> None:
        self.hub = hub
        self.chat = chat
        self.presence = presence
        self.publish = publish
        self._events = Coalescer(self._handle, name="ranchhand-feeds")
        self._tasks: set[asyncio.Task[Any]] = set()
        self._chains: dict[Connection, asyncio.Task[Any]] = {}
        self._saying: set[Connection] = set()
        """Sockets with a page state waiting to be written."""
        self._beat: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.open_rows = 0
        """Seat sockets of this process with an open ``presence`` row (none: no beat)."""

    # ------------------------------------------------------------ lifetime
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._beat = asyncio.create_task(self._beating(), name="ranchhand-presence-beat")

    async def stop(self) -> None:
        """Stop beating; this process's open rows are closed (its sockets are going)."""
        beat, self._beat = self._beat, None
        if beat is not None:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
        await self._events.stop()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.presence.close_process)

    # ------------------------------------------------------------ sockets
    def opened(self, connection: Connection, extras: str) -> None:
        """A socket began watching: its row if it holds a seat, then what it asked for."""
        wanted = {name.strip() for name in extras.split(",")} & set(EXTRAS)
        connection.extras = frozenset(wanted)
        self._then(connection, self._opened(connection))

    def closed(self, connection: Connection) -> None:
        """A socket ended: its seat's row says so (once what was under way is done)."""
        if connection.seat is None:
            return
        self._then(connection, self._closed(connection), last=True)

    def page_said(self, connection: Connection, said: Any) -> str | None:
        """A page's ``{"presence": "visible" | "hidden" | "idle"}``; the error, if any.
        A spectator's is taken and ignored: spectators count nowhere."""
        if not isinstance(said, str) or said not in PAGE_STATES:
            return f"presence: expected one of {', '.join(PAGE_STATES)}"
        if connection.seat is None or said == connection.page_state:
            return None
        connection.page_state = said
        if connection not in self._saying:  # a write already waiting writes the newest
            self._saying.add(connection)
            self._then(connection, self._changed(connection))
        return None

    async def _opened(self, connection: Connection) -> None:
        table_id = connection.table_id
        if connection.seat is not None:
            connection.presence_conn = await asyncio.to_thread(
                self.presence.join, table_id, connection.seat
            )
            self.open_rows += 1
            await self.publish("presence", table_id, 0)
        if "presence" in connection.extras:
            states = await asyncio.to_thread(self.presence.of, table_id)
            connection.presence_sent = states
            connection.feed("presence", states, whole=True, **self._presence_more(table_id))
        if "chat" in connection.extras:
            options = await asyncio.to_thread(self.chat.options, table_id)
            lines = await asyncio.to_thread(self.chat.recent, table_id)
            connection.chat_seq = lines[-1]["seq"] if lines else 0
            shown = {**asdict(options), "max_chars": self.chat.max_chars}
            connection.feed("chat", lines, whole=False, chat_options=shown)
            # A line written while these were read was heard before this socket had a
            # mark: look once more (lines it already has are not sent twice).
            self._events.submit(event_key("chat", table_id), 0)

    async def _changed(self, connection: Connection) -> None:
        """Write what the page said last (a page that flips its state as fast as it can
        costs one write at a time, never a queue of them)."""
        self._saying.discard(connection)
        if connection.presence_conn is None:
            return
        state = PAGE_STATES[connection.page_state]
        if await asyncio.to_thread(self.presence.change, connection.presence_conn, state):
            await self.publish("presence", connection.table_id, 0)

    async def _closed(self, connection: Connection) -> None:
        if connection.presence_conn is None:
            return
        self.open_rows -= 1
        await asyncio.to_thread(self.presence.leave, connection.presence_conn)
        await self.publish("presence", connection.table_id, 0)

    def _then(
        self, connection: Connection, work: Coroutine[Any, Any, None], *, last: bool = False
    ) -> None:
        """Run ``work`` after the socket's earlier work (a row is written before it is
        changed, and changed before it is closed), in a task: never in its reader."""
        before = self._chains.get(connection)

        async def run() -> None:
            if before is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await before
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: chat or presence work failed", connection.table_id)

        task = asyncio.create_task(run(), name=f"ranchhand-feeds-{connection.table_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if last:
            self._chains.pop(connection, None)
        else:
            self._chains[connection] = task
            task.add_done_callback(lambda done: self._forget_chain(connection, done))

    def _forget_chain(self, connection: Connection, task: asyncio.Task[Any]) -> None:
        if self._chains.get(connection) is task:
            del self._chains[connection]

    # ------------------------------------------------------------ changes
    async def on_event(self, kind: str, table_id: str, number: int) -> None:
        """A chat line or a presence change of a table, made by any process."""
        if table_id in self.hub.watchers:
            self._events.submit(event_key(kind, table_id), number)

    async def refresh(self) -> None:
        """After a lost notifier connection: every watched table's chat and presence."""
        for table_id in list(self.hub.watchers):
            self._events.submit(event_key("chat", table_id), 0)
            self._events.submit(event_key("presence", table_id), 0)

    async def _handle(self, key: str, _number: int) -> None:
        kind, table_id = split_key(key)
        if kind == "chat":
            await self._send_chat(table_id)
        elif kind == "presence":
            await self._send_presence([table_id])

    async def _send_chat(self, table_id: str) -> None:
        readers = [c for c in self.hub.watchers.get(table_id, ()) if c.chat_seq is not None]
        if not readers:
            return
        after = min(c.chat_seq for c in readers if c.chat_seq is not None)
        lines = await asyncio.to_thread(self.chat.recent, table_id, after)
        for connection in list(self.hub.watchers.get(table_id, ())):
            mark = connection.chat_seq
            if mark is None:
                continue
            new = [line for line in lines if line["seq"] > mark]
            if new:
                connection.chat_seq = new[-1]["seq"]
                connection.feed("chat", new, whole=False)

    async def _send_presence(self, table_ids: list[str]) -> None:
        watched = [t for t in table_ids if self._presence_watchers(t)]
        if not watched:
            return
        found = await asyncio.to_thread(self.presence.states, watched)
        for table_id, states in found.items():
            for connection in self._presence_watchers(table_id):
                if connection.presence_sent != states:
                    connection.presence_sent = states
                    more = self._presence_more(table_id)
                    connection.feed("presence", states, whole=True, **more)

    def _presence_more(self, table_id: str) -> dict[str, Any]:
        """What a presence frame says besides the seats: the bot a seat offline for
        ``hand_over_after`` seconds may be handed to."""
        return {
            "hand_over_bot": self.presence.bots.get(table_id),
            "hand_over_after": self.presence.hand_over_after,
        }

    def _presence_watchers(self, table_id: str) -> list[Connection]:
        return [c for c in self.hub.watchers.get(table_id, ()) if "presence" in c.extras]

    async def _beating(self) -> None:
        """Mark this process's rows seen; resend presence where it changed with time."""
        while True:
            await asyncio.sleep(self.presence.heartbeat)
            try:
                if self.open_rows:  # an idle process writes nothing
                    await asyncio.to_thread(self.presence.beat)
                tables = list(self.hub.watchers)
                for start in range(0, len(tables), SWEEP_BATCH):
                    await self._send_presence(tables[start : start + SWEEP_BATCH])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence: a heartbeat failed")

    def announce(self, kind: str, table_id: str, number: int) -> None:
        """Publish a change from a thread (a request's work): on the event loop."""
        if self.loop is None:
            return

        async def publish() -> None:
            await self.publish(kind, table_id, number)

        asyncio.run_coroutine_threadsafe(publish(), self.loop)


class HandOver:
    """Another seat's token may hand an offline person's seat to the table's cheap bot
    (the TableService's ``hand_over``): allowed once that seat has been offline for the
    presence store's ``hand_over_after`` seconds. Its owner takes it back with its own
    token (``"kind": "human"``), as with any seat handed to a bot."""

    def __init__(self, presence: PresenceStore, chat: ChatStore, feeds: Feeds) -> None:
        self.presence = presence
        self.chat = chat
        self.feeds = feeds

    def check(self, live: Live, mine: int, seat: int, kind: str, cheap: str) -> None:
        """Refuse unless ``mine`` may hand ``seat`` to ``kind`` now: with 403, as any other
        seat's token was refused before hand-overs, saying why."""
        meta = live.meta
        why = None
        if not 0 <= seat < meta.players:
            why = f"there is no seat {seat} (seats 0 to {meta.players - 1})"
        elif kind != cheap:
            why = (
                f"another player's seat may only be handed to this table's bot, {cheap!r}, "
                "and only its owner takes it back"
            )
        elif meta.kinds[seat] != HUMAN:
            why = f"seat {seat} is already played by the {meta.kinds[seat]} bot"
        elif meta.is_open(seat):
            why = f"seat {seat} is free for anyone to claim: nobody left it"
        else:
            states = self.presence.of(meta.id)
            state = states[seat] if seat < len(states) else None
            if state is None or not state["hand_over"]:
                why = (
                    f"seat {seat} is {state['state'] if state else 'unknown'}; another player "
                    "may hand it to a bot only once it has been offline for "
                    f"{self.presence.hand_over_after:g} s"
                )
        if why is not None:
            raise WrongToken(f"this token is not seat {seat}'s: {why}")

    def done(self, live: Live, mine: int, seat: int, kind: str) -> None:
        """Say so in the chat (everyone sees it), and tell every process."""
        names = live.meta.names
        text = f"{names[mine]} handed {names[seat]}'s seat to the {kind} bot (offline too long)"
        try:
            line = self.chat.post(live.meta.id, None, "", text, system=True)
        except Conflict:  # a chat full to its last line: the seat is handed all the same
            log.info("table %s: %s", live.meta.id, text)
        else:
            self.feeds.announce("chat", live.meta.id, line["seq"])
        self.feeds.announce("presence", live.meta.id, 0)
