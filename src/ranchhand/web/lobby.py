"""What the lobby says about the server's tables besides the list: how many tables play,
wait for someone or are over, and how long an idle table stays open.

``GET /api/lobby`` answers from here. It is a separate endpoint so ``GET /api/tables``
keeps its published shape; the lobby polls both every few seconds, and both are bounded
(an indexed count per status, no rows).

The bot levels a person picks in the lobby (``GET /api/games``' ``bot_levels``) are
here too: the registry names bots for programs (``greedy``, ``ismcts``); a person chooses
by strength and by how long a bot thinks, so each level says both.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, distinct, func, select, true

from ranchhand.core.registry import canonical_name, game_module, own_levels
from ranchhand.server import store
from ranchhand.server.live import is_search

EXPIRED = "expired"
LABELS = {
    "daring": "Daring (easy, never keeps dogs)",
    "optimal": "Optimal (solved solitaire play)",
}
"""Words for a game's own bots where the registry's name alone says little (a bot class's
``label`` attribute, if it has one, is preferred)."""


def lobby_counts(engine: Engine) -> dict[str, int]:
    """Tables by what the lobby shows: ``playing``, ``free`` (playing with a seat anyone
    may claim) and ``finished``. Expired tables are never counted: the lobby never lists
    them."""
    tables, seats = store.tables, store.seats
    with engine.connect() as db:
        by_status: dict[str, int] = {
            row[0]: row[1]
            for row in db.execute(
                select(tables.c.status, func.count())
                .where(tables.c.status != EXPIRED)
                .group_by(tables.c.status)
            )
        }
        free = db.execute(
            select(func.count(distinct(seats.c.table_id)))
            .select_from(seats.join(tables, tables.c.id == seats.c.table_id))
            .where(seats.c.open == true(), tables.c.status == "playing")
        ).scalar_one()
    return {
        "playing": int(by_status.get("playing", 0)),
        "free": int(free),
        "finished": int(by_status.get("finished", 0)),
    }


def bot_levels(game: str) -> list[dict[str, Any]]:
    """The bots a person may seat at ``game``, easiest first, each once: ``kind`` (what
    ``POST /api/tables`` takes), ``label`` (what the lobby shows), ``search`` (it thinks
    for seconds a move, off the request path), ``doc`` (one sentence) and ``same_as`` (the
    registry's other names for it, also accepted)."""
    name = canonical_name(game)
    own = game_module(name).BOTS
    levels = []
    greedy = own.get("greedy")
    levels.append(
        {
            "kind": "easy",
            "label": "Greedy (easy)" if greedy else "Random (easy)",
            "search": False,
            "doc": "Takes the move worth most right now, without looking ahead. "
            + (_first_line(greedy) if greedy else ""),
            "same_as": ["greedy"] if greedy else [],
        }
    )
    mine = own_levels(name)
    covered = {"greedy"}
    for strength in ("normal", "hard"):
        if strength in mine:
            made = mine[strength]
            cls = getattr(made, "func", made)
            aliases = [kind for kind, bot in own.items() if bot is made]
            covered.update(aliases)
            levels.append(
                {
                    "kind": strength,
                    "label": f"{strength.capitalize()}: "
                    + (getattr(cls, "label", None) or cls.__name__),
                    "search": is_search(name, strength),
                    "doc": _first_line(cls),
                    "same_as": aliases,
                }
            )
            continue
        aliases = ["ismcts"] if strength == "normal" else []
        covered.update(aliases)
        levels.append(_search_level(name, strength, strength, aliases))
    if "ismcts" not in covered:
        levels.append(_search_level(name, "ismcts", "normal", []))
    for kind in sorted(own):
        if kind in covered:
            continue
        levels.append(
            {
                "kind": kind,
                "label": getattr(own[kind], "label", None) or LABELS.get(kind, kind.capitalize()),
                "search": is_search(name, kind),
                "doc": _first_line(own[kind]),
                "same_as": [],
            }
        )
    levels.append(
        {
            "kind": "random",
            "label": "Random (practice)",
            "search": False,
            "doc": "Plays any legal move at random.",
            "same_as": [],
        }
    )
    return levels


def _search_level(game: str, kind: str, strength: str, aliases: list[str]) -> dict[str, Any]:
    """The shared search (``ismcts``) at ``strength``'s budget, offered as ``kind``."""
    from ranchhand.bots.ismcts import level

    cap = level(game, strength).get("time_cap")
    thinking = f"up to {cap:g} s a move" if cap else ""
    named = ", ".join(w for w in (strength if kind == strength else "", thinking) if w)
    return {
        "kind": kind,
        "label": f"Search ({named})",
        "search": is_search(game, kind),
        "doc": "Plays many possible games to the end from here (what it cannot see "
        "is guessed) and picks the move that won most; "
        + ("it looks longer than normal." if strength == "hard" else "a fair match."),
        "same_as": aliases,
    }


def _first_line(cls: Any) -> str:
    return ((cls.__doc__ or "").strip().splitlines() or [""])[0]
