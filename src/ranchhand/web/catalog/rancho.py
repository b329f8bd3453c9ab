"""Rancho's static public data for the browser: the board, the values and the dice.

``catalog(game)`` is what ``static/games/rancho.js`` needs to draw a table and that
never changes during a game: every hex of the board with its axial coordinates
(forest, pastures with ring and price, pens with their number and seats), the space
ids in the order the notation uses, the exchange values, the room rules and the
faces of the dice of the table's ``dice`` option. JSON-ready, public, no state.
"""

from __future__ import annotations

from typing import Any

from ranchhand.games.rancho.deals import MAX_PASTURES
from ranchhand.games.rancho.tables import FACES, KEYS


def _ring(space_id: str) -> int:
    return int(space_id.split(".", 1)[0])


def catalog(game: Any) -> dict[str, Any]:
    """The static data of a Rancho ``game`` (a loaded RanchoGame) for the browser."""
    board = game.board
    seat_of_pen = {pen: seat for seat, pen in enumerate(game.pen_numbers)}
    spaces = [
        {
            "id": s.id,
            "q": s.q,
            "r": s.r,
            "ring": _ring(s.id),
            "price": s.price,
            "pen": s.pen,
            "neighbours": [board.spaces[n].id for n in board.neighbours[s.index]],
        }
        for s in board.spaces
    ]
    pens = {
        str(pen): {
            "spaces": board.ids(mask),
            "seat": seat_of_pen.get(pen),
        }
        for pen, mask in sorted(board.pens.items())
    }
    dice = game.dice
    return {
        "game": "rancho",
        "board": {
            "name": board.name,
            "description": board.description,
            "forest": [{"id": fid, "q": q, "r": r} for fid, q, r in board.forest],
            "spaces": spaces,
            "pens": pens,
            "prices": list(board.prices),
        },
        "values": dict(zip(KEYS, game.values, strict=True)),
        "rabbits_per_space": game.tables.rabbits_per_space,
        "space_needs": {"rabbit": 1, "sheep": 1, "cow": 2, "horse": 3},
        "max_pastures": MAX_PASTURES,
        "dice": {
            "name": dice.name,
            "doc": dice.doc,
            "d12": [
                {face: count for face, count in zip(FACES, die, strict=True) if count}
                for die in dice.d12
            ],
            "d6": list(dice.d6),
        },
        "pen_numbers": list(game.pen_numbers),
    }
