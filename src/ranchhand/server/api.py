"""HTTP routes: parse the request, call the table service, shape the reply.

Every error is ``{"error": "..."}`` with the library's own message: 400 bad input,
401 no token, 403 a token that opens no seat here, 404 no such table, 409 a stale
step, another's turn or a finished game, 410 a table that expired, 413 a body over
64 KB, 429 (with ``Retry-After``) a client with too many open tables.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ranchhand.core.records import MAX_PLAYERS
from ranchhand.server.errors import BadRequest
from ranchhand.server.limits import client_key
from ranchhand.server.security import require_json
from ranchhand.server.tables import TableService
from ranchhand.server.undo import take_back
from ranchhand.server.views import JSONText, table_view

M = TypeVar("M", bound=BaseModel)
Publish = Callable[[str, int], Awaitable[None]]
OptionValue = str | int | Annotated[float, Field(allow_inf_nan=False)] | bool
"""A game option's value; a float is finite (NaN and Infinity are refused, as in records)."""


class NewTable(BaseModel):
    """``POST /api/tables``: the game, its options and who sits where."""

    model_config = ConfigDict(strict=True, extra="forbid")
    game: str = Field(max_length=64, examples=["rancho"])
    players: int | None = Field(default=None, ge=1, le=MAX_PLAYERS)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=64)
    seats: list[Annotated[str, Field(max_length=64)]] | None = Field(
        default=None, max_length=MAX_PLAYERS, examples=[["human", "greedy", "human"]]
    )
    names: list[Annotated[str, Field(max_length=64)]] | None = Field(
        default=None, max_length=MAX_PLAYERS
    )
    bot_delay: float | None = Field(default=None, ge=0, le=60, allow_inf_nan=False)
    clock: float | None = Field(default=None, ge=1, le=7 * 86400, allow_inf_nan=False)
    clock_bot: str | None = Field(default=None, max_length=64)
    open: list[Annotated[int, Field(ge=0, lt=MAX_PLAYERS)]] | None = Field(
        default=None, max_length=MAX_PLAYERS, examples=[[2]]
    )
    """Human seats left free for anyone to claim (no token now)."""
    chat_spectators: bool = False
    """Spectators may write in the table's chat (else they only read it)."""
    chat_in_record: bool = False
    """The chat is part of the finished table's record (``chat``)."""


class Claim(BaseModel):
    """``POST /api/tables/{id}/seats/{seat}/claim``: the name to sit down as (optional)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    name: str | None = Field(default=None, max_length=64, examples=["Bo"])


class Move(BaseModel):
    """``POST /api/tables/{id}/actions``: an action's text, and the step it was chosen at."""

    model_config = ConfigDict(strict=True, extra="forbid")
    action: str = Field(max_length=10_000, examples=["roll"])
    step: int | None = Field(default=None, ge=0)


class Undo(BaseModel):
    """``POST /api/tables/{id}/undo``: the step of the view the undo was asked from."""

    model_config = ConfigDict(strict=True, extra="forbid")
    step: int = Field(ge=0)


class SeatChange(BaseModel):
    """``PUT /api/tables/{id}/seats/{seat}``: hand the seat to a bot, or take it back."""

    model_config = ConfigDict(strict=True, extra="forbid")
    kind: str = Field(max_length=64, examples=["greedy", "human"])


def body_of(model: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI's description of a JSON body read by :func:`parse` (not by FastAPI)."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


async def parse(request: Request, model: type[M]) -> M:
    """The request's JSON body as ``model``: 415 unless its Content-Type is JSON (a form or
    ``text/plain`` post is what another site's page can send without asking), 400 naming
    the field."""
    require_json(request)
    raw = await request.body()
    if not raw.strip():
        raise BadRequest("a JSON body is required")
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        from ranchhand.server.app import describe_validation

        raise BadRequest(describe_validation(error.errors())) from None


def bearer(authorization: str | None, token: str | None) -> str | None:
    """The token from ``Authorization: Bearer TOKEN``, else from ``?token=``."""
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
        return authorization.strip() or None  # a malformed header opens no seat
    return token or None


AuthHeader = Annotated[str | None, Header(include_in_schema=True)]
TokenQuery = Annotated[str | None, Query(max_length=200)]


def router(
    service: TableService,
    publish: Publish,
    default_bot_delay: float,
    public_url: str | None,
    max_open_per_client: int | None = None,
    record_extra: Callable[[str], dict[str, Any]] | None = None,
) -> APIRouter:
    """The table routes; ``record_extra(table_id)`` gives fields a record adds (its chat)."""
    routes = APIRouter(prefix="/api")

    def base(request: Request) -> str:
        return (public_url or str(request.base_url)).rstrip("/")

    @routes.get("/health")
    async def health() -> dict[str, Any]:
        """200 while the server runs and its database answers."""
        await asyncio.to_thread(service.playing)
        return {"status": "ok"}

    @routes.post("/tables", status_code=201, openapi_extra=body_of(NewTable))
    async def create_table(request: Request) -> dict[str, Any]:
        """A new table; one secret token and page per human seat, and a spectator page."""
        new = await parse(request, NewTable)
        delay = default_bot_delay if new.bot_delay is None else new.bot_delay
        creator = await asyncio.to_thread(service.client_key, client_key(request.scope))
        created = await asyncio.to_thread(
            service.create,
            new.game,
            new.players,
            dict(new.options),
            new.seats,
            new.names,
            bot_delay=delay,
            clock=new.clock,
            clock_bot=new.clock_bot,
            open_seats=new.open or (),
            creator=creator,
            max_open=max_open_per_client,
            chat={"chat_spectators": new.chat_spectators, "chat_record": new.chat_in_record},
        )
        await publish(created.id, created.step)
        page = f"{base(request)}/tables/{created.id}"
        tokens = created.tokens
        return {
            "id": created.id,
            "seats": [
                {
                    "seat": seat,
                    "kind": kind,
                    "name": created.meta.names[seat],
                    "token": tokens.get(seat),
                    "url": f"{page}#token={tokens[seat]}" if seat in tokens else None,
                    "open": created.meta.is_open(seat),
                }
                for seat, kind in enumerate(created.meta.kinds)
            ],
            "spectate": page,
            "websocket": f"/ws/tables/{created.id}",
        }

    @routes.get("/tables")
    async def list_tables(
        status: Annotated[str | None, Query(pattern="^(playing|finished)$")] = None,
        free: bool = False,
        before: Annotated[float | None, Query(allow_inf_nan=False)] = None,
    ) -> dict[str, Any]:
        """The lobby: the newest tables (public facts only: game, seats, status, step, the
        seats free to claim); ``?free=true`` lists only tables with a free seat;
        ``?before=T`` the ones last changed before ``T`` (a listed ``updated``: the next
        page)."""
        listed = await asyncio.to_thread(service.lobby, status, free_only=free, before=before)
        return {"tables": listed}

    @routes.get("/tables/{table_id}", response_class=JSONText)
    async def get_table(
        table_id: str, authorization: AuthHeader = None, token: TokenQuery = None
    ) -> JSONText:
        """The view for the token's seat; without a token, the spectator's view."""
        live, seat = await asyncio.to_thread(
            service.view_seat, table_id, bearer(authorization, token)
        )
        return JSONText(table_view(live, seat))

    @routes.post("/tables/{table_id}/actions", response_class=JSONText, openapi_extra=body_of(Move))
    async def post_action(
        table_id: str, request: Request, authorization: AuthHeader = None, token: TokenQuery = None
    ) -> JSONText:
        """Play an action for the token's seat; 200 with the new view."""
        move = await parse(request, Move)
        moved = await asyncio.to_thread(
            service.act, table_id, bearer(authorization, token), move.action, move.step
        )
        await publish(table_id, moved.live.step)
        return JSONText(table_view(moved.live, moved.seat))

    @routes.post("/tables/{table_id}/undo", response_class=JSONText, openapi_extra=body_of(Undo))
    async def post_undo(
        table_id: str, request: Request, authorization: AuthHeader = None, token: TokenQuery = None
    ) -> JSONText:
        """Take back the token's seat's last action (server/undo.py); 200 with the new view."""
        asked = await parse(request, Undo)
        moved = await asyncio.to_thread(
            take_back, service, table_id, bearer(authorization, token), asked.step
        )
        await publish(table_id, moved.live.step)
        return JSONText(table_view(moved.live, moved.seat))

    @routes.put(
        "/tables/{table_id}/seats/{seat}",
        response_class=JSONText,
        openapi_extra=body_of(SeatChange),
    )
    async def change_seat(
        table_id: str,
        seat: int,
        request: Request,
        authorization: AuthHeader = None,
        token: TokenQuery = None,
    ) -> JSONText:
        """Hand your seat to a bot (``{"kind": "greedy"}``) or take it back (``"human"``)."""
        change = await parse(request, SeatChange)
        moved = await asyncio.to_thread(
            service.set_seat, table_id, bearer(authorization, token), seat, change.kind
        )
        await publish(table_id, moved.live.step)
        return JSONText(table_view(moved.live, moved.seat))

    @routes.post(
        "/tables/{table_id}/seats/{seat}/claim",
        openapi_extra={
            "requestBody": {
                "required": False,
                "content": {"application/json": {"schema": Claim.model_json_schema()}},
            }
        },
    )
    async def claim_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """Sit down at an open seat: its token and page, given once (409 if taken)."""
        raw = await request.body()
        wanted = await parse(request, Claim) if raw.strip() else Claim()
        claimed = await asyncio.to_thread(service.claim, table_id, seat, wanted.name)
        await publish(table_id, claimed.live.step)
        page = f"{base(request)}/tables/{table_id}"
        return {
            "seat": claimed.seat,
            "token": claimed.token,
            "url": f"{page}#token={claimed.token}",
            "name": claimed.live.meta.names[claimed.seat],
        }

    @routes.get("/tables/{table_id}/record")
    async def get_record(table_id: str) -> JSONResponse:
        """The finished game's ``ranchhand-record/1`` (409 while it is played)."""
        record = await asyncio.to_thread(service.record, table_id)
        data = record.to_json()
        if record_extra is not None:
            data.update(await asyncio.to_thread(record_extra, table_id))
        return JSONResponse(data)

    return routes
