"""Bounded costs at the HTTP edge: per-client rates, body and header timeouts, connections.

Every request a stranger can send costs the server something; these limits bound it
per client, so one client cannot crowd out the others:

- :class:`RateLimit` (ASGI middleware) keeps a token bucket per client and kind of
  request (every request, table creations, actions, replay requests); past a
  bucket the request gets ``429`` with ``Retry-After`` and ``{"error": ...}``
  naming the limit. :meth:`Limiter.allow` is the same check for code that is not
  an HTTP request (WebSocket frames, new replay records).
- :class:`BodyGuard` (ASGI middleware) refuses bodies over a size (``413``) or not
  received within a deadline (``408``), and turns a client that hangs up mid-body
  into one short log line instead of tracebacks.
- :class:`HeaderTimeout` (a uvicorn HTTP protocol) closes a connection whose request
  head is not complete within a deadline: uvicorn has no such timeout, so 300
  half-sent requests ("slowloris") would otherwise stay open for ever.

A client is its address (behind a proxy, ``--proxy-headers`` makes it the address
the proxy reports); an IPv6 client is its /64 network, as one host usually holds a
whole /64. :class:`LimitSettings` holds every number; ``docs/server.md`` lists them.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ranchhand.core.errors import OptionError
from ranchhand.server.errors import TableError

log = logging.getLogger("ranchhand.server")

_UNITS = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0, "h": 3600.0}
_RATE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*/\s*([a-z]+)\s*(?::\s*([0-9]+))?\s*$")


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``period`` seconds, at most ``burst`` at once (a token
    bucket that holds ``burst`` tokens and refills at ``count / period`` a second)."""

    count: float
    period: float
    burst: int

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"10/min"``, ``"20/s:60"`` (burst 60; the count when left out), ``"off"``."""
        if text.strip().lower() == "off":
            return None
        found = _RATE.match(text.lower())
        if not found or found[2] not in _UNITS:
            raise OptionError(
                f"a rate is COUNT/UNIT[:BURST] (units s, min, h) or off, got {text!r}"
            )
        count = float(found[1])
        burst = int(found[3]) if found[3] else max(1, math.ceil(count))
        if not 0 < count <= 1_000_000 or not 1 <= burst <= 1_000_000:
            raise OptionError(f"a rate's count and burst are 1 to 1,000,000, got {text!r}")
        return cls(count, _UNITS[found[2]], burst)

    @property
    def per_second(self) -> float:
        return self.count / self.period

    def __str__(self) -> str:
        unit = {1.0: "s", 60.0: "min", 3600.0: "h"}.get(self.period, f"{self.period:g}s")
        return f"{self.count:g}/{unit}:{self.burst}"


@dataclass(frozen=True)
class LimitSettings:
    """Every limit at the HTTP edge; ``docs/server.md`` ("Limits") explains each."""

    requests: Rate | None = Rate(50, 1, 200)
    """Any HTTP request or WebSocket handshake, per client."""
    tables: Rate | None = Rate(10, 60, 10)
    """Table creations (``POST /api/tables`` and ``/again``), per client."""
    actions: Rate | None = Rate(20, 1, 60)
    """Moves, seat changes and claims over HTTP, and moves over a WebSocket, per client."""
    chat: Rate | None = Rate(30, 60, 10)
    """Chat lines (``POST /api/tables/{id}/chat``), per client."""
    chat_seat: Rate | None = Rate(20, 60, 8)
    """Chat lines of one seat of one table, wherever they come from."""
    replays: Rate | None = Rate(10, 1, 60)
    """``POST /api/replays`` requests (stepping through a record), per client."""
    replay_records: Rate | None = Rate(10, 60, 10)
    """Records replayed afresh (not in the replay cache), per client."""
    clients: int = 10_000
    """Clients whose buckets are remembered (the least recently seen are forgotten)."""
    header_timeout: float = 10.0
    """Seconds a connection may take to send a request's head (line and headers)."""
    body_timeout: float = 30.0
    """Seconds a request may take to send its body, once its head is in."""
    max_connections: int = 1000
    """Open connections (WebSockets included) per process before new requests get 503."""
    replay_cpu: float = 2.0
    """Seconds of CPU one replay request may spend checking a record."""
    replay_cache_bytes: int = 64 * 1024 * 1024
    """Estimated bytes of replayed records kept in memory, per process."""
    replay_workers: int = 1
    """Replay requests worked on at once, per process (others wait, then get 503)."""
    replay_wait: float = 10.0
    """Seconds a replay request waits for a free worker before 503."""

    def __post_init__(self) -> None:
        for name, low, high in _NUMBERS:
            value = getattr(self, name)
            if not isinstance(value, int | float) or not low <= value <= high:
                raise OptionError(f"limit {name}: expected {low} to {high}, got {value!r}")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for name in RATE_NAMES:
            rate = getattr(self, name)
            data[name] = "off" if rate is None else str(rate)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LimitSettings:
        return cls().with_overrides(f"{key}={value}" for key, value in data.items())

    def with_overrides(self, items: Iterable[str]) -> LimitSettings:
        """These settings with ``NAME=VALUE`` items applied (``serve --limit``):
        ``tables=5/min``, ``actions=off``, ``body_timeout=20``. OptionError names a bad one."""
        changes: dict[str, Any] = {}
        for item in items:
            name, _, value = item.partition("=")
            name = name.strip().replace("-", "_")
            if name in RATE_NAMES:
                changes[name] = Rate.parse(value)
            elif name in NUMBER_NAMES:
                kind = int if name in _INTEGERS else float
                try:
                    number = kind(value.strip()) if value.strip().isascii() else None
                except ValueError:
                    number = None
                if number is None or not math.isfinite(number):
                    raise OptionError(f"limit {name}: expected a number, got {value!r}")
                changes[name] = number
            else:
                known = ", ".join([*RATE_NAMES, *NUMBER_NAMES])
                raise OptionError(f"no limit called {name!r}; limits are: {known}")
        return replace(self, **changes)


RATE_NAMES = ("requests", "tables", "actions", "chat", "chat_seat", "replays", "replay_records")
_NUMBERS = (
    ("clients", 100, 10_000_000),
    ("header_timeout", 1, 3600),
    ("body_timeout", 1, 3600),
    ("max_connections", 10, 1_000_000),
    ("replay_cpu", 0.1, 600),
    ("replay_cache_bytes", 1_000_000, 2**40),
    ("replay_workers", 1, 64),
    ("replay_wait", 0, 600),
)
NUMBER_NAMES = tuple(name for name, _, _ in _NUMBERS)
_INTEGERS = {"clients", "max_connections", "replay_cache_bytes", "replay_workers"}

_LABELS = {
    "requests": "requests",
    "tables": "new tables",
    "actions": "actions",
    "chat": "chat lines",
    "chat_seat": "chat lines from one seat",
    "replays": "replay requests",
    "replay_records": "new replay records",
}


class RetryLater(TableError):
    """A refusal the client may retry after ``retry_after`` seconds (429 by default)."""

    status = 429

    def __init__(self, message: str, retry_after: float, status: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        if status is not None:
            self.status = status

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


def client_key(scope: Scope) -> str:
    """Whose buckets a request draws on: its address, an IPv6 address's /64."""
    client = scope.get("client")
    host = client[0] if client else "local"
    if ":" in host:
        try:
            return str(ipaddress.IPv6Network(f"{host}/64", strict=False))
        except ValueError:
            return host
    return str(host)


class Limiter:
    """Token buckets per client and limit, for at most ``settings.clients`` clients
    (the least recently seen are forgotten, which only ever lets a client do more).

    Thread-safe and cheap (a dict lookup and some arithmetic), so WebSocket code can
    call :meth:`allow` per frame.
    """

    def __init__(self, settings: LimitSettings) -> None:
        self.settings = settings
        self._clients: OrderedDict[str, dict[str, tuple[float, float]]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, client: str, name: str, now: float | None = None) -> float | None:
        """Take one token from ``client``'s ``name`` bucket: None if allowed, else the
        seconds until one is free (nothing is taken then)."""
        rate: Rate | None = getattr(self.settings, name)
        if rate is None:
            return None
        now = time.monotonic() if now is None else now
        with self._lock:
            buckets = self._clients.get(client)
            if buckets is None:
                buckets = self._clients[client] = {}
                while len(self._clients) > self.settings.clients:
                    self._clients.popitem(last=False)
            else:
                self._clients.move_to_end(client)
            tokens, then = buckets.get(name, (float(rate.burst), now))
            tokens = min(float(rate.burst), tokens + (now - then) * rate.per_second)
            if tokens >= 1.0:
                buckets[name] = (tokens - 1.0, now)
                return None
            buckets[name] = (tokens, now)
            return (1.0 - tokens) / rate.per_second

    def check(self, client: str, name: str) -> None:
        """Raise :class:`RetryLater` (429) if ``client`` is past the ``name`` limit."""
        wait = self.allow(client, name)
        if wait is not None:
            raise RetryLater(self.refusal(name), wait)

    def refusal(self, name: str) -> str:
        rate = getattr(self.settings, name)
        return (
            f"too many {_LABELS.get(name, name)}: the limit is {rate.count:g} per "
            f"{_period_words(rate.period)} (bursts of {rate.burst}) per client; retry later"
        )

    @property
    def tracked(self) -> int:
        return len(self._clients)


class QuietLog:
    """Info lines about refusals, at most one a minute per client and kind: a flood of
    refused requests must not become a flood of log lines."""

    def __init__(self, every: float = 60.0, kept: int = 10_000) -> None:
        self.every, self.kept = every, kept
        self._last: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()

    def info(self, client: str, kind: str, message: str, *args: object) -> None:
        now = time.monotonic()
        with self._lock:
            last = self._last.get((client, kind))
            if last is not None and now - last < self.every:
                return
            self._last[(client, kind)] = now
            self._last.move_to_end((client, kind))
            while len(self._last) > self.kept:
                self._last.popitem(last=False)
        log.info(message + " (refusals like it are logged once a minute)", *args)


def _period_words(period: float) -> str:
    return {1.0: "second", 60.0: "minute", 3600.0: "hour"}.get(period, f"{period:g} seconds")


_ID = r"[^/]+"
_KINDS = (
    ("POST", re.compile(r"^/api/tables/?$"), "tables"),
    ("POST", re.compile(rf"^/api/tables/{_ID}/again/?$"), "tables"),
    ("POST", re.compile(rf"^/api/tables/{_ID}/actions/?$"), "actions"),
    ("POST", re.compile(rf"^/api/tables/{_ID}/undo/?$"), "actions"),
    ("PUT", re.compile(rf"^/api/tables/{_ID}/seats/{_ID}/?$"), "actions"),
    ("POST", re.compile(rf"^/api/tables/{_ID}/seats/{_ID}/claim/?$"), "actions"),
    ("POST", re.compile(rf"^/api/tables/{_ID}/chat/?$"), "chat"),
    ("POST", re.compile(r"^/api/replays/?$"), "replays"),
)


def kind_of(method: str, path: str) -> str | None:
    """Which specific limit an HTTP request draws on besides ``requests`` (or None)."""
    for wanted, pattern, name in _KINDS:
        if method == wanted and pattern.match(path):
            return name
    return None


def _path(scope: Scope) -> str:
    path = str(scope.get("path", ""))
    root = str(scope.get("root_path", ""))
    return path[len(root) :] if root and path.startswith(root) else path


async def refuse(send: Send, status: int, message: str, headers: dict[str, str]) -> None:
    """Send ``{"error": message}`` as a whole HTTP response."""
    body = json.dumps({"error": message}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class RateLimit:
    """ASGI middleware: every request and WebSocket handshake draws on the client's
    ``requests`` bucket, and table creations, actions and replays on their own;
    past one, 429 with ``Retry-After`` (a WebSocket handshake is refused with 429)."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app, self.limiter = app, limiter
        self.quiet = QuietLog()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = client_key(scope)
        names = ["requests"]
        if scope["type"] == "http":
            kind = kind_of(scope.get("method", ""), _path(scope))
            if kind is not None:
                names.insert(0, kind)
        for name in names:
            wait = self.limiter.allow(client, name)
            if wait is not None:
                refused = RetryLater(self.limiter.refusal(name), wait)
                self.quiet.info(client, name, "%s refused: %s", client, refused.message)
                if scope["type"] == "http":
                    await refuse(send, 429, refused.message, refused.headers)
                else:
                    await refuse_handshake(scope, send, 429, refused.message, refused.headers)
                return
        await self.app(scope, receive, send)


async def refuse_handshake(
    scope: Scope, send: Send, status: int, message: str, headers: dict[str, str] | None = None
) -> None:
    """Refuse a WebSocket handshake with ``status`` and ``{"error": ...}`` where the
    server can send an HTTP response (uvicorn can), else by closing (403)."""
    if "websocket.http.response" in scope.get("extensions", {}):
        body = json.dumps({"error": message}).encode()
        raw = [(b"content-type", b"application/json")]
        raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        await send({"type": "websocket.http.response.start", "status": status, "headers": raw})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})


class BodyTooLarge(Exception):
    pass


class BodyTimeout(Exception):
    pass


@dataclass
class _Body:
    """One request's body as it arrives: bytes seen so far and whether it ended."""

    limit: int
    deadline: float
    seen: int = 0
    done: bool = False
    started: bool = False


class BodyGuard:
    """ASGI middleware for request bodies: at most ``limit`` bytes (``larger`` allows
    more on some paths: an uploaded record), declared or streamed (413); all of it
    within ``timeout`` seconds of the head (408, the connection closed); a client that
    hangs up mid-body ends its request with one debug line, no traceback."""

    def __init__(
        self, app: ASGIApp, limit: int, timeout: float, larger: dict[str, int] | None = None
    ) -> None:
        self.app, self.default, self.timeout, self.larger = app, limit, timeout, larger or {}
        self.quiet = QuietLog()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = _path(scope)
        body = _Body(self.larger.get(path, self.default), time.monotonic() + self.timeout)
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > body.limit
            except ValueError:
                too_big = False
            if too_big:
                await refuse(send, 413, _too_large(body.limit), {"Connection": "close"})
                return

        async def guarded() -> Message:
            if body.done:
                return await receive()
            left = body.deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.001))
            except TimeoutError:
                raise BodyTimeout(
                    f"the request body did not arrive within {self.timeout:g} seconds"
                ) from None
            if message["type"] == "http.request":
                body.seen += len(message.get("body", b""))
                if body.seen > body.limit:
                    raise BodyTooLarge(_too_large(body.limit))
                body.done = not message.get("more_body", False)
            elif message["type"] == "http.disconnect":
                body.done = True
            return message

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                body.started = True
            await send(message)

        try:
            await self.app(scope, guarded, watched)
        except BodyTooLarge as error:
            await self._refuse(body, send, 413, str(error))
        except BodyTimeout as error:
            client = client_key(scope)
            self.quiet.info(
                client, "body", "%s %s from %s: %s", scope.get("method"), path, client, error
            )
            await self._refuse(body, send, 408, str(error))
        except ClientDisconnect:
            log.debug(
                "%s %s: the client hung up before its body arrived", scope.get("method"), path
            )

    @staticmethod
    async def _refuse(body: _Body, send: Send, status: int, message: str) -> None:
        if not body.started:
            await refuse(send, status, message, {"Connection": "close"})


def _too_large(limit: int) -> str:
    return f"a request body is at most {limit:,} bytes"


class HeaderTimeout:
    """Mixed into uvicorn's HTTP protocol: a connection whose request head (request
    line and headers) is not complete within ``header_timeout`` seconds of its first
    byte (or of the connection, for the first request) gets a 408 and is closed.

    Idle keep-alive connections are uvicorn's (``timeout_keep_alive``); bodies are
    :class:`BodyGuard`'s. Works on ``self.cycle``, which both of uvicorn's HTTP/1.1
    protocols set when a head is complete, so it reads no parser internals.
    """

    header_timeout: float = 10.0
    cycle: Any
    transport: Any
    loop: asyncio.AbstractEventLoop

    def __init__(self, *args: Any, header_timeout: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if header_timeout is not None:
            self.header_timeout = header_timeout
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_cycle: object = None

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_cycle = self.cycle
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.cycle is self._head_cycle and not self.transport.is_closing():
            log.debug("closed a connection whose request head took over %gs", self.header_timeout)
            message = b"request head not received in time"
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\nconnection: close"
                b"\r\ncontent-length: " + str(len(message)).encode() + b"\r\n\r\n" + message
            )
            self.transport.close()

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def data_received(self, data: bytes) -> None:
        idle = self.cycle is None or self.cycle.response_complete
        if idle and self._head_timer is None:
            self._arm()  # a new request begins on a kept-alive connection
        super().data_received(data)  # type: ignore[misc]
        if self._head_timer is not None and self.cycle is not self._head_cycle:
            self._disarm()  # its head is complete

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(*args)  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HTTP
except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
    from uvicorn.protocols.http.h11_impl import H11Protocol as _HTTP  # type: ignore[assignment]


class HeaderTimeoutProtocol(HeaderTimeout, _HTTP):
    """uvicorn's HTTP/1.1 protocol (httptools, else h11) with :class:`HeaderTimeout`."""


def uvicorn_options(settings: LimitSettings) -> dict[str, Any]:
    """What ``uvicorn.run`` needs for these limits: the head deadline's protocol and
    the connection cap. The protocol is a ``functools.partial`` of a module-level
    class, so it pickles into ``--workers`` processes."""
    import functools

    protocol = functools.partial(HeaderTimeoutProtocol, header_timeout=settings.header_timeout)
    return {"http": protocol, "limit_concurrency": settings.max_connections}
