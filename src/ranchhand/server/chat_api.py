"""HTTP routes of chat and presence: ``POST``/``GET /api/tables/{id}/chat`` and
``GET /api/tables/{id}/presence`` (the WebSocket's frames are :mod:`ranchhand.server.feeds`).

A seat writes with its token (``Authorization: Bearer`` or ``?token=``), as for moves;
a spectator writes with no token where the table allows it. Every line draws on the
client's ``chat`` rate (the middleware) and a seat's lines on that seat's ``chat_seat``
rate as well, wherever they come from: 429 with ``Retry-After`` past either.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ranchhand.server.api import AuthHeader, TokenQuery, bearer, body_of, parse
from ranchhand.server.chat import SPECTATOR, ChatStore
from ranchhand.server.errors import WrongToken
from ranchhand.server.limits import Limiter, RetryLater
from ranchhand.server.presence import PresenceStore
from ranchhand.server.tables import Gone, TableService

PublishEvent = Callable[[str, str, int], Awaitable[None]]
MAX_BODY_TEXT = 10_000
"""Characters a line may arrive with (it is cleaned, then held to ``max_chars``)."""


class ChatLine(BaseModel):
    """``POST /api/tables/{id}/chat``: one line of text."""

    model_config = ConfigDict(strict=True, extra="forbid")
    text: str = Field(max_length=MAX_BODY_TEXT, examples=["good luck, all"])


def router(
    service: TableService,
    chat: ChatStore,
    presence: PresenceStore,
    publish: PublishEvent,
    limiter: Limiter,
) -> APIRouter:
    routes = APIRouter(prefix="/api")

    @routes.post("/tables/{table_id}/chat", status_code=201, openapi_extra=body_of(ChatLine))
    async def post_chat(
        table_id: str, request: Request, authorization: AuthHeader = None, token: TokenQuery = None
    ) -> dict[str, Any]:
        """Say something at the table: 201 with the line as every viewer gets it."""
        line = await parse(request, ChatLine)
        live, seat = await asyncio.to_thread(
            service.view_seat, table_id, bearer(authorization, token)
        )
        if live.expired:
            raise Gone("this table was closed (no move for too long): its chat is closed too")
        if seat is None:
            options = await asyncio.to_thread(chat.options, table_id)
            if not options.spectators:
                raise WrongToken(
                    "spectators may read this table's chat but not write in it; "
                    "write with a seat's token"
                )
            name = SPECTATOR
        else:
            wait = limiter.allow(f"seat {table_id}/{seat}", "chat_seat")
            if wait is not None:
                rate = limiter.settings.chat_seat
                assert rate is not None
                raise RetryLater(
                    f"too many chat lines from this seat: at most {rate.count:g} a "
                    f"{'minute' if rate.period == 60 else f'{rate.period:g} s'} "
                    f"(bursts of {rate.burst}); retry later",
                    wait,
                )
            name = live.meta.names[seat]
        said = await asyncio.to_thread(chat.post, table_id, seat, name, line.text)
        await publish("chat", table_id, said["seq"])
        return said

    @routes.get("/tables/{table_id}/chat")
    async def get_chat(table_id: str, after: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
        """The chat's lines after ``after`` (the last ``seq`` you have), at most the last
        100, oldest first, and its options. Anyone who can see the table reads it."""
        options = await asyncio.to_thread(chat.options, table_id)
        lines = await asyncio.to_thread(chat.recent, table_id, after)
        return {
            "chat": lines,
            "chat_options": {
                "spectators": options.spectators,
                "record": options.record,
                "max_chars": chat.max_chars,
            },
        }

    @routes.get("/tables/{table_id}/presence")
    async def get_presence(table_id: str) -> dict[str, Any]:
        """Each seat's presence: ``online``, ``away`` or ``offline`` since when, and
        whether another seat may hand it to a bot now."""
        await asyncio.to_thread(chat.options, table_id)  # 404 for no such table
        states = await asyncio.to_thread(presence.of, table_id)
        return {
            "presence": states,
            "hand_over_bot": presence.bots.get(table_id),
            "hand_over_after": presence.hand_over_after,
        }

    return routes


def record_chat(chat: ChatStore) -> Callable[[str], dict[str, Any]]:
    """What a finished table's record adds: its ``chat`` if the table said so."""

    def extra(table_id: str) -> dict[str, Any]:
        if not chat.options(table_id).record:
            return {}
        return {"chat": chat.every(table_id)}

    return extra
