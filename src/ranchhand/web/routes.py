"""The browser's pages and the small APIs they need, mounted by :func:`install`.

Pages: the lobby ``/``, the tables this browser holds seats at ``/my``, a table
``/tables/{id}`` (the seat's token rides in the ``#fragment``), the rules
``/rules/{game}`` and the replay viewer ``/replay``; assets under ``/static``.
APIs: ``GET /api/games`` (games, options, bots, bot levels and notation for the lobby
and help panel), ``GET /api/lobby`` (counts and the expiry time the lobby shows:
:mod:`ranchhand.web.lobby`), ``GET /api/tables/{id}/catalog`` (a game's public static
data for its drawing module), ``POST /api/replays`` (a record's view at a step, as any
seat saw it) and ``/api/tables/{id}/again`` (play again with the same seats:
:mod:`ranchhand.server.rematch`). Routes stay thin: the replays are
:mod:`ranchhand.web.replays`, the games' rules are the engine's.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import (
    GAME_MODULES,
    bot_names,
    canonical_name,
    game_class,
    game_module,
)
from ranchhand.server import rematch
from ranchhand.server.api import AuthHeader, TokenQuery, bearer, parse
from ranchhand.server.errors import BadRequest, NoSuchTable
from ranchhand.server.limits import Limiter, client_key
from ranchhand.server.tables import TableService
from ranchhand.web.catalog import catalog_for
from ranchhand.web.lobby import bot_levels, lobby_counts
from ranchhand.web.replays import MAX_RECORD_UPLOAD, Replays

STATIC = Path(__file__).parent / "static"
Publish = Callable[[str, int], Awaitable[None]]
NO_REFERRER = {"Referrer-Policy": "no-referrer"}


class ReplayRequest(BaseModel):
    """``POST /api/replays``: a record, the step to show and whose eyes to see it with."""

    model_config = ConfigDict(extra="forbid")
    record: dict[str, Any]
    step: int = Field(default=0, ge=0)
    seat: int | str | None = Field(default=None, examples=[0, None, "all"])
    catalog: bool = False
    """Add the game's catalog (``catalog``) to the reply."""


def install(
    app: FastAPI, service: TableService, publish: Publish, public_url: str | None = None
) -> None:
    """Add the pages, the web APIs and ``/static`` to ``app`` (``public_url``: the address
    people use, for the links a rematch hands out)."""
    app.include_router(router(service, publish, public_url))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def router(service: TableService, publish: Publish, public_url: str | None = None) -> APIRouter:
    routes = APIRouter()

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html", headers=NO_REFERRER)

    @routes.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        """Create a table, list tables, watch one."""
        return page("lobby.html")

    @routes.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        """The page a person opens to sit at a table (the token rides in the #fragment)."""
        return page("table.html")

    @routes.get("/my", include_in_schema=False)
    async def my_tables_page() -> FileResponse:
        """The tables whose seat links this browser keeps (read from its localStorage)."""
        return page("my.html")

    @routes.get("/api/lobby")
    async def lobby_facts(request: Request) -> dict[str, Any]:
        """What the lobby says besides the list: tables ``playing``, ``free`` (a seat
        anyone may claim) and ``finished`` (expired ones never count), and the seconds
        after which an idle table is closed (``expire_after``; ``expire_bots_only_after``
        where only bots sit)."""
        found = await asyncio.to_thread(lobby_counts, service.engine)
        bots = getattr(request.app.state, "bots", None)
        return {
            "counts": found,
            "expire_after": getattr(bots, "expire_after", None),
            "expire_bots_only_after": getattr(bots, "expire_bots_only_after", None),
        }

    @routes.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        """Step through a finished table's record, or an uploaded one."""
        return page("replay.html")

    @routes.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def rules_page(game: str) -> HTMLResponse:
        """The game's rules as implemented, and its action notation."""
        try:
            name = canonical_name(game)
        except OptionError as error:
            raise NoSuchTable(str(error)) from None
        return HTMLResponse(rules_html(name))

    @routes.get("/api/games")
    async def list_games() -> dict[str, Any]:
        """Every game: players, options (kind, default, allowed values, doc), bots (every
        name a seat takes) and bot levels (what a person picks, in words), notation."""
        return {"games": [game_info(name) for name in GAME_MODULES]}

    @routes.get("/api/tables/{table_id}/catalog")
    async def table_catalog(table_id: str) -> dict[str, Any]:
        """The table's game's public static data for its drawing module (``{}`` if none)."""
        live = await asyncio.to_thread(service.current, table_id)
        return catalog_for(live.game)

    @routes.post("/api/replays", openapi_extra={"x-body-limit": MAX_RECORD_UPLOAD})
    async def replay_view(request: Request) -> dict[str, Any]:
        """A record's view at ``step`` for ``seat`` (null: nobody in particular; "all":
        every seat's view and every action's text: a finished game's record is public).

        The record is checked up to ``step`` only, within a CPU budget per request: a
        long one may answer 503 with ``Retry-After`` (asking again goes on where it
        stopped); 429 past the client's rate of records not replayed before."""
        asked = await parse(request, ReplayRequest)
        if isinstance(asked.seat, str) and asked.seat != "all":
            raise BadRequest(f'seat: expected a seat number, null or "all", got {asked.seat!r}')
        replays: Replays = request.app.state.replays
        limiter: Limiter = request.app.state.limits
        client = client_key(request.scope)
        view, game = await replays.view(
            asked.record, asked.step, asked.seat, lambda: limiter.check(client, "replay_records")
        )
        if asked.catalog:
            view["catalog"] = catalog_for(game)
        return view

    @routes.post("/api/tables/{table_id}/again", status_code=201)
    async def play_again(
        table_id: str, request: Request, authorization: AuthHeader = None, token: TokenQuery = None
    ) -> dict[str, Any]:
        """Start another game with the same game, options, seats and names (once per finished
        table), and get YOUR seat at it: each person's seat waits for its owner, who gets it
        with their own token here or from ``GET``; nobody is handed another's token."""
        made = await asyncio.to_thread(
            rematch.start, service, table_id, bearer(authorization, token)
        )
        if made.created:
            await publish(made.id, 0)
        return _again_reply(request, made)

    @routes.get("/api/tables/{table_id}/again")
    async def next_table(
        table_id: str, request: Request, authorization: AuthHeader = None, token: TokenQuery = None
    ) -> dict[str, Any]:
        """Once someone started another game: your seat's link to it (with your old seat's
        token; without one, the table to watch). 404 until then."""
        made = await asyncio.to_thread(
            rematch.find, service, table_id, bearer(authorization, token)
        )
        return _again_reply(request, made)

    def _again_reply(request: Request, made: rematch.Rematch) -> dict[str, Any]:
        """The rematch as the caller may know it: every seat's public facts, and a token
        and link for the caller's own seat only."""
        base = f"{(public_url or str(request.base_url)).rstrip('/')}/tables/{made.id}"
        meta = made.meta
        url = f"{base}#token={made.token}" if made.token is not None else None
        return {
            "id": made.id,
            "seat": made.seat,
            "token": made.token,
            "url": url,
            "spectate": base,
            "seats": [
                {
                    "seat": s,
                    "kind": kind,
                    "name": meta.names[s],
                    "open": meta.is_open(s),
                    "yours": s == made.seat and made.token is not None,
                }
                for s, kind in enumerate(meta.kinds)
            ],
        }

    return routes


def game_info(name: str) -> dict[str, Any]:
    """What the lobby and the help panel know of a game."""
    cls = game_class(name)
    options = []
    for spec in cls.option_specs():
        kind = spec.kind.__name__
        options.append(
            {
                "name": spec.name,
                "kind": kind,
                "default": spec.default,
                "choices": list(spec.choices) or ([False, True] if kind == "bool" else []),
                "minimum": spec.minimum,
                "maximum": spec.maximum,
                "allowed": spec.allowed(),
                "doc": spec.doc,
                "choice_docs": dict(spec.choice_docs),
            }
        )
    return {
        "id": cls.id,
        "name": cls.name,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "options": options,
        "bots": bot_names(name),
        "bot_levels": bot_levels(name),
        "notation": notation(name),
        "rules": f"/rules/{cls.id}",
    }


def notation(name: str) -> str:
    """The game's terminal notation help (``VIEW.notation``; none for a game registered
    without a terminal view)."""
    return str(getattr(getattr(game_module(name), "VIEW", None), "notation", ""))


def rules_markdown(name: str) -> str:
    package = GAME_MODULES[name]
    return resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")


def rules_html(name: str) -> str:
    """The rules page: ``rules.md`` rendered with raw HTML disabled (escaped), and the notation."""
    from markdown_it import MarkdownIt

    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = renderer.render(rules_markdown(name))
    title = html.escape(game_class(name).name)
    return RULES_PAGE.format(
        title=title, body=body, notation=html.escape(notation(name)), game=html.escape(name)
    )


RULES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: rules</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
</head><body class="page rules">
<header class="top"><a href="/" class="brand">ranchhand</a>
<nav><a href="/">Lobby</a> <a href="/replay">Replays</a></nav></header>
<main>
<p class="crumbs">Rules of <strong>{title}</strong>, as ranchhand implements them.</p>
<article class="prose">{body}</article>
<section id="notation" class="prose"><h2>Action notation</h2>
<p>What the buttons send, and what you may type in the table's action box.</p>
<pre>{notation}</pre></section>
</main></body></html>
"""
