"""The games: one package each, exposing GAME, BOTS and VIEW (see core.registry)."""
