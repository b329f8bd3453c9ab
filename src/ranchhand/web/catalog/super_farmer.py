"""Super Farmer's static data for the browser table (``ui.catalog`` in super-farmer.js).

The page draws the two twelve-faced dice face by face and the printed exchange table,
so it needs what the rules file says and no more: each species with its value in
rabbits, the faces of each die in order (rabbits first, the predator last), the
classic table's rows (one animal against so many of the next cheaper one, and the
one-for-one swaps) and the box the herd starts with. All of it is printed on the
box; nothing here depends on a game in progress.

>>> from ranchhand.games.super_farmer import SuperFarmerGame
>>> data = catalog(SuperFarmerGame(2))
>>> [die["name"] for die in data["dice"]], len(data["dice"][0]["faces"])
(['wolf', 'fox'], 12)
>>> data["table"][0]
{'give': {'rabbit': 6}, 'take': {'sheep': 1}}
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ranchhand.games.super_farmer.tables import DIE_NAMES, FACES, FARM, KEYS, SPECIES


def catalog(game: Any) -> dict[str, Any]:
    """The species, dice, exchange table and box of ``game`` (a SuperFarmerGame)."""
    tables = game.tables
    values = tables.values
    return {
        "species": [
            {"key": key, "name": name, "value": value}
            for key, name, value in zip(KEYS, SPECIES, values, strict=True)
        ],
        "dice": [
            {
                "name": name,
                "faces": [FACES[face] for face, count in enumerate(counts) for _ in range(count)],
            }
            for name, counts in zip(DIE_NAMES, tables.dice, strict=True)
        ],
        "table": _rows(values, tables.swaps),
        "box": dict(zip(KEYS, tables.herd, strict=True)),
    }


def _rows(values: tuple[int, ...], swaps: frozenset[tuple[int, int]]) -> list[dict[str, Any]]:
    """The printed exchange table: each farm animal for so many of the one below it, then
    each one-for-one swap once (the table prints both directions as one row)."""
    rows = [
        {"give": {KEYS[low]: values[high] // values[low]}, "take": {KEYS[high]: 1}}
        for low, high in pairwise(FARM)
        if values[high] % values[low] == 0
    ]
    for a, b in sorted({(min(a, b), max(a, b)) for a, b in swaps}):
        rows.append({"give": {KEYS[a]: 1}, "take": {KEYS[b]: 1}})
    return rows
