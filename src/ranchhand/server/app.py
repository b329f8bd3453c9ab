"""The ASGI app: ``create_app(settings)`` wires storage, notifier, bots and routes.

Routes stay thin (:mod:`ranchhand.server.api`, :mod:`ranchhand.server.ws`); the
domain is :mod:`ranchhand.server.tables`. ``app_from_env`` is the factory uvicorn
workers import (``--workers N``): it reads the settings ``run`` put in the
environment.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ranchhand import __version__, web
from ranchhand.core.errors import RanchhandError
from ranchhand.server import api, ws
from ranchhand.server.bots import BotRunner
from ranchhand.server.errors import TableError
from ranchhand.server.notify import Notifier, make_notifier
from ranchhand.server.store import DEFAULT_DB, make_engine, migrate, safe_url
from ranchhand.server.tables import CACHE_SIZE, TableService

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

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls) -> Settings:
        raw = os.environ.get(SETTINGS_ENV)
        return cls(**json.loads(raw)) if raw else cls()


def create_app(settings: Settings | None = None, notifier: Notifier | None = None) -> FastAPI:
    """The server's app for ``settings`` (its database is migrated on creation if asked)."""
    settings = settings or Settings()
    engine = make_engine(settings.db)
    if settings.migrate:
        migrate(engine)
    service = TableService(engine, cache_size=settings.cache_size)
    hub = ws.Hub(service)
    chosen = notifier or make_notifier(settings.db, on_reconnect=hub.refresh)
    bots = BotRunner(service, chosen)

    async def on_change(table_id: str, step: int) -> None:
        bots.poke(table_id)
        await hub.on_change(table_id, step)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await chosen.start(on_change)
        await bots.resume()
        log.info("serving tables from %s (%s)", safe_url(engine), type(chosen).__name__)
        try:
            yield
        finally:
            await bots.stop()
            await chosen.stop()
            engine.dispose()
            log.info("stopped")

    app = FastAPI(
        title="ranchhand",
        version=__version__,
        summary="Tables where friends and bots play Rancho, Rocket Ranchers and Glory Ranch.",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.hub = hub
    app.state.bots = bots
    app.state.notifier = chosen
    _errors(app)
    app.include_router(api.router(service, chosen.publish, settings.bot_delay, settings.public_url))
    app.include_router(ws.router(hub, chosen.publish))

    web.install(app, service, chosen.publish, settings.public_url)
    larger = {"/api/replays": web.MAX_RECORD_UPLOAD}
    app.add_middleware(BodyLimit, limit=MAX_BODY, larger=larger)  # type: ignore[arg-type]
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
        if error.status >= 500 or error.status == 403:
            log.info("%s %s refused: %s", request.method, request.url.path, error.message)
        return _error(error.status, error.message)

    @app.exception_handler(RanchhandError)
    async def ranchhand_error(request: Request, error: RanchhandError) -> JSONResponse:
        return _error(400, str(error))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(400, describe_validation(error.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, error: BodyTooLarge) -> JSONResponse:
        return _error(413, str(error))

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


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, declared or streamed
    (``larger`` allows more on some paths: an uploaded record for a replay)."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app, self.default, self.larger = app, limit, larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.default)
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                too_big = False
            if too_big:
                message = f"a request body is at most {limit:,} bytes"
                await _error(413, message)(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(f"a request body is at most {limit:,} bytes")
            return message

        await self.app(scope, limited, send)
