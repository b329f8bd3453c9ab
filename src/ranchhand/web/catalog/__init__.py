"""Each game's public static data for its drawing module: ``catalog_for(game)``.

A game may add ``ranchhand/web/catalog/<package>.py`` (``rancho``,
``rocket_ranchers``, ``glory_ranch``) with ``catalog(game) -> dict``: board
geometry, card data, colours, whatever its ``static/games/<id>.js`` needs and
every player may know. Nothing secret: it is served to anyone who knows the
table's id, at ``GET /api/tables/{id}/catalog``.
"""

from __future__ import annotations

import importlib
from typing import Any

from ranchhand.core.game import Game
from ranchhand.core.registry import GAME_MODULES


def catalog_for(game: Game) -> dict[str, Any]:
    """The game's catalog, or ``{}`` when its module does not exist (yet).

    >>> from ranchhand.core.registry import load
    >>> isinstance(catalog_for(load("rancho", 2)), dict)
    True
    """
    package = GAME_MODULES.get(game.id, "").rpartition(".")[2]
    if not package:
        return {}
    try:
        module = importlib.import_module(f"ranchhand.web.catalog.{package}")
    except ModuleNotFoundError as error:
        if error.name != f"ranchhand.web.catalog.{package}":
            raise
        return {}
    data: dict[str, Any] = module.catalog(game)
    return data
