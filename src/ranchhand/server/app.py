"""The ASGI app: ``create_app(settings)`` wires storage, notifier, bots and routes.

Routes stay thin (:mod:`ranchhand.server.api`, :mod:`ranchhand.server.ws`); the
domain is :mod:`ranchhand.server.tables`. ``app_from_env`` is the factory uvicorn
workers import (``--workers N``): it reads the settings ``run`` put in the
environment.
"""

from __future__ import annotations

import gc
import json
import logging
import math
import os
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ranchhand import __version__, web
from ranchhand.core.errors import OptionError, RanchhandError
from ranchhand.server import api, chat_api, ws
from ranchhand.server.botpool import BotPool, default_processes
from ranchhand.server.bots import BOT_CPU_LIMIT, EXPIRE_AFTER, EXPIRE_BOTS_ONLY_AFTER, BotRunner
from ranchhand.server.chat import MAX_CHARS, MAX_LINES, ChatStore
from ranchhand.server.errors import TableError
from ranchhand.server.feeds import Feeds, HandOver
from ranchhand.server.limits import BodyGuard, Limiter, LimitSettings, RateLimit
from ranchhand.server.notify import LocalNotifier, Notifier, make_notifier
from ranchhand.server.presence import HAND_OVER_AFTER, HEARTBEAT, PresenceStore
from ranchhand.server.security import BrowserDefences, allowed_origins
from ranchhand.server.store import DEFAULT_DB, make_engine, migrate, safe_url
from ranchhand.server.tables import CACHE_SIZE, TableService
from ranchhand.web.replays import Replays

log = logging.getLogger("ranchhand.server")

MAX_BODY = 64 * 1024
"""The largest request body; larger ones are refused with 413."""
SETTINGS_ENV = "RANCHHAND_SERVER_SETTINGS"


@dataclass(frozen=True)
class Settings:
    """How a server runs: from ``ranchhand serve``'s options, or set by a test."""

    db: str = DEFAULT_DB
    bot_delay: float = 0.0
    """Seconds a bot waits before moving, for tables that do not say."""
    public_url: str | None = None
    """The address people use (behind a proxy), for the links in a new table's reply."""
    migrate: bool = True
    """Create or upgrade the schema when the app starts."""
    cache_size: int = CACHE_SIZE
    bot_processes: int = 0
    """Processes deciding for search bots (0: half the cores, at least one)."""
    bot_cpu_per_table: float = BOT_CPU_LIMIT
    """CPU seconds a table's search bots may use; then they play as the cheap bot."""
    expire_after: float = EXPIRE_AFTER
    """Seconds a table with people may go without a change before it is closed."""
    expire_bots_only_after: float = EXPIRE_BOTS_ONLY_AFTER
    """The same for a table where only bots sit."""
    max_open_tables_per_client: int = 20
    """Playing tables one client address may have created; more get 429."""
    ws_send_timeout: float = ws.SEND_TIMEOUT
    """Seconds a WebSocket frame may wait for its client; a client that falls further
    behind is closed with 4408 (:mod:`ranchhand.server.ws`)."""
    ws_per_table: int = ws.PER_TABLE
    """WebSockets watching one table at once; more are refused with 4429."""
    ws_per_address: int = ws.PER_ADDRESS
    """WebSockets from one client address at once; more are refused with 4429."""
    limits: LimitSettings = field(default_factory=LimitSettings)
    """Rates, timeouts and caps at the HTTP edge (:mod:`ranchhand.server.limits`)."""
    allowed_origins: tuple[str, ...] = ()
    chat_max_chars: int = MAX_CHARS
    """Characters a chat line may have (:mod:`ranchhand.server.chat`)."""
    chat_max_lines: int = MAX_LINES
    """Lines one table's chat may hold."""
    presence_heartbeat: float = HEARTBEAT
    """Seconds between a process's presence heartbeats; a WebSocket's row not seen for
    three of them counts as gone (:mod:`ranchhand.server.presence`)."""
    hand_over_after: float = HAND_OVER_AFTER
    """Seconds a person's seat must be offline before another seat may hand it to a bot."""
    """Other sites' origins (``https://host[:port]``) whose pages may act here, besides
    the server's own and ``public_url``'s (:mod:`ranchhand.server.security`)."""

    def to_env(self) -> str:
        return json.dumps({**asdict(self), "limits": self.limits.to_json()})

    def with_limits(self, items: Iterable[str]) -> Settings:
        """These settings with ``serve --limit NAME=VALUE`` items applied: the server's own
        numbers (:data:`SERVER_LIMITS`) here, the HTTP edge's in :class:`LimitSettings`.
        OptionError names a bad item and what is allowed."""
        own: dict[str, Any] = {}
        edge = []
        for item in items:
            name, sep, value = item.partition("=")
            key = name.strip().replace("-", "_")
            if key not in SERVER_LIMITS:
                edge.append(item)
                continue
            kind, low, high = SERVER_LIMITS[key]
            try:
                number = kind(value.strip()) if sep and value.strip().isascii() else None
            except ValueError:
                number = None
            if number is None or not math.isfinite(number) or not low <= number <= high:
                raise OptionError(f"--limit {key}: expected a number from {low:g} to {high:g}")
            own[key] = number
        return replace(self, limits=self.limits.with_overrides(edge), **own)

    @classmethod
    def from_env(cls) -> Settings:
        raw = os.environ.get(SETTINGS_ENV)
        if not raw:
            return cls()
        data = json.loads(raw)
        data["limits"] = LimitSettings.from_json(data.get("limits", {}))
        data["allowed_origins"] = tuple(data.get("allowed_origins", ()))
        return cls(**data)


SERVER_LIMITS: dict[str, tuple[type[int] | type[float], float, float]] = {
    "bot_processes": (int, 0, 64),
    "bot_cpu_per_table": (float, 1, 86400 * 7),
    "expire_after": (float, 60, 86400 * 365),
    "expire_bots_only_after": (float, 60, 86400 * 365),
    "max_open_tables_per_client": (int, 1, 1_000_000),
    "ws_send_timeout": (float, 1, 3600),
    "ws_per_table": (int, 1, 100_000),
    "ws_per_address": (int, 1, 100_000),
    "chat_max_chars": (int, 1, 10_000),
    "chat_max_lines": (int, 1, 1_000_000),
    "presence_heartbeat": (float, 0.2, 3600),
    "hand_over_after": (float, 1, 86400 * 7),
}
"""The :class:`Settings` numbers ``serve --limit NAME=VALUE`` may set, with their ranges."""


GC_THRESHOLDS = (50_000, 20, 20)
"""The serving process's collector thresholds (Python's are 700, 10, 10): see
:func:`tune_garbage_collector`."""


def tune_garbage_collector() -> None:
    """Collect cyclic garbage less often in a serving process, and never scan what
    startup made.

    A server keeps hundreds of tables in memory (states, logs, memos), and a move
    allocates thousands of objects; with Python's thresholds a collection ran every
    few hundred allocations and a full one, walking every cached table, often: 0.16-0.18
    ms of CPU a move at 100 tables, a quarter of a move's work (measured in one process
    playing 10,000 moves). With these thresholds and the modules, data and app frozen
    out of the collector's walks, 0.08-0.10 ms. Reference counting frees almost all of
    a move's garbage at once; cycles wait at most one full collection (every few
    thousand moves under load). Called by ``ranchhand serve`` once the app is built,
    never by the app itself: a test process building many apps keeps Python's ways.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(settings: Settings | None = None, notifier: Notifier | None = None) -> FastAPI:
    """The server's app for ``settings`` (its database is migrated on creation if asked)."""
    settings = settings or Settings()
    # A stranger's table must not start minutes of CPU and gigabytes of memory: bots that
    # solve on demand (Super Farmer's optimal, solver.solve.SOLVE_ENV) only read tables
    # already made, in this process and the bot pool's workers it starts.
    os.environ["RANCHHAND_SOLVE"] = "never"
    origins = allowed_origins(settings.allowed_origins, settings.public_url)
    engine = make_engine(settings.db)
    if settings.migrate:
        migrate(engine)
    service = TableService(engine, cache_size=settings.cache_size)
    sockets = ws.SocketLimits(
        settings.ws_send_timeout, settings.ws_per_table, settings.ws_per_address
    )
    hub = ws.Hub(service, sockets)

    async def reconnected() -> None:
        await hub.refresh()
        await feeds.refresh()

    chosen = notifier or make_notifier(settings.db, on_reconnect=reconnected)
    hub.solo = isinstance(chosen, LocalNotifier)
    chat = ChatStore(engine, max_chars=settings.chat_max_chars, max_lines=settings.chat_max_lines)
    presence = PresenceStore(
        engine, heartbeat=settings.presence_heartbeat, hand_over_after=settings.hand_over_after
    )
    feeds = hub.feeds = Feeds(hub, chat, presence, chosen.publish_event)
    service.hand_over = HandOver(presence, chat, feeds)
    bots = BotRunner(
        service,
        chosen,
        pool=BotPool(settings.bot_processes or default_processes()),
        cpu_limit=settings.bot_cpu_per_table,
        expire_after=settings.expire_after,
        expire_bots_only_after=settings.expire_bots_only_after,
    )

    async def on_change(table_id: str, step: int) -> None:
        bots.poke(table_id, step)
        await hub.on_change(table_id, step)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await chosen.start(on_change, feeds.on_event)
        await feeds.start()
        await bots.resume()
        log.info("serving tables from %s (%s)", safe_url(engine), type(chosen).__name__)
        try:
            yield
        finally:
            await bots.stop()
            await feeds.stop()
            await chosen.stop()
            await hub.stop()
            engine.dispose()
            log.info("stopped")

    app = FastAPI(
        title="ranchhand",
        version=__version__,
        summary="Tables where friends and bots play Rancho, Rocket Ranchers, Glory Ranch and "
        "Super Farmer.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI and ReDoc load from a CDN: /openapi.json stays
        redoc_url=None,
    )
    limiter = Limiter(settings.limits)
    app.state.limits = limiter
    app.state.service = service
    app.state.hub = hub
    app.state.bots = bots
    app.state.notifier = chosen
    _errors(app)
    app.include_router(
        api.router(
            service,
            chosen.publish,
            settings.bot_delay,
            settings.public_url,
            settings.max_open_tables_per_client,
            chat_api.record_chat(chat),
        )
    )
    app.include_router(ws.router(hub, chosen.publish, limiter))
    app.include_router(chat_api.router(service, chat, presence, chosen.publish_event, limiter))

    web.install(app, service, chosen.publish, settings.public_url)
    app.state.replays = Replays(settings.limits)
    larger = {"/api/replays": web.MAX_RECORD_UPLOAD}
    timeout = settings.limits.body_timeout
    # The last added runs first: headers and Origin, then rates, then bodies.
    app.add_middleware(BodyGuard, limit=MAX_BODY, timeout=timeout, larger=larger)  # type: ignore[arg-type]
    app.add_middleware(RateLimit, limiter=limiter)  # type: ignore[arg-type]
    app.add_middleware(BrowserDefences, allowed=origins)  # type: ignore[arg-type]
    app.add_middleware(ws.AbortableSockets)  # outermost: it must see uvicorn's own send
    return app


def app_from_env() -> FastAPI:
    """The factory uvicorn's workers call (``ranchhand serve --workers N``)."""
    return create_app(Settings.from_env())


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _errors(app: FastAPI) -> None:
    """Every refusal as ``{"error": ...}``; never a traceback in a response."""

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError) -> JSONResponse:
        if error.status >= 500 or error.status in (403, 429):
            log.info("%s %s refused: %s", request.method, request.url.path, error.message)
        reply = _error(error.status, error.message)
        reply.headers.update(getattr(error, "headers", {}))
        return reply

    @app.exception_handler(RanchhandError)
    async def ranchhand_error(request: Request, error: RanchhandError) -> JSONResponse:
        return _error(400, str(error))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(400, describe_validation(error.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(Exception)
    async def bug(request: Request, error: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return _error(500, "the server failed; its log says why")


def describe_validation(errors: Any) -> str:
    """FastAPI's validation errors as one line: ``players: Input should be ...``."""
    parts = []
    for item in list(errors)[:3]:
        if item.get("type") == "json_invalid":
            parts.append("malformed JSON in the request body")
            continue
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
        message = str(item.get("msg", "invalid"))
        if item.get("type") == "missing" and not where:
            message = "a JSON body is required"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "invalid request"
