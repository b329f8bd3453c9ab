"""A Super Farmer state as JSON-ready data and back, positions set up by hand, and the
checks every loaded position passes.

Loading trusts nothing: each field is read with its type and range checked and named
in the error (``state JSON: data.farmers[1].pig: expected a whole number 0..1000000,
got -1``); :func:`validate` then checks that the fields fit together: the box
conserved between the herd and the farmers, the step's bookkeeping, the winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ranchhand.core import StateError
from ranchhand.core.errors import shorten
from ranchhand.games.super_farmer.tables import FACES, KEYS, SPECIES

if TYPE_CHECKING:
    from ranchhand.games.super_farmer.game import SuperFarmerGame
    from ranchhand.games.super_farmer.state import SuperFarmerState

FIELDS = ("player", "phase", "traded", "herd", "farmers", "dice", "winner", "stats")
SETUP_FIELDS = ("player", "phase", "traded", "farmers")
MOST = 1_000_000
"""A bound for any count in a state (far above the box) so no number is unbounded."""


def state_to_json(state: SuperFarmerState) -> dict[str, Any]:
    """The whole public table."""
    from ranchhand.games.super_farmer.state import PHASES

    return {
        "player": state.player,
        "phase": PHASES[state.phase],
        "traded": state.traded,
        "herd": dict(zip(KEYS, state.herd, strict=True)),
        "farmers": [dict(zip(KEYS, mine, strict=True)) for mine in state.animals],
        "dice": None if state.dice is None else [FACES[f] for f in state.dice],
        "winner": state.winner if state.winner >= 0 else None,
        "stats": dict(state.stats),
    }


def state_from_json(game: SuperFarmerGame, data: Mapping[str, Any]) -> SuperFarmerState:
    """Rebuild a state from :func:`state_to_json` data; StateError names a bad field."""
    from ranchhand.games.super_farmer.state import STATS, SuperFarmerState

    _only(data, FIELDS, "data", required=True)
    state = SuperFarmerState(game)
    _common(state, data, "data")
    state.herd = _animals(data["herd"], "data.herd")
    dice = data["dice"]
    if dice is not None:
        if not isinstance(dice, list) or len(dice) != 2:
            raise StateError("data.dice", f"expected null or two faces, got {shorten(repr(dice))}")
        for i, face in enumerate(dice):
            if face not in FACES or not game.tables.dice[i][FACES.index(face)]:
                raise StateError(f"data.dice[{i}]", f"no face of that die: {shorten(repr(face))}")
        state.dice = (FACES.index(dice[0]), FACES.index(dice[1]))
    winner = data["winner"]
    state.winner = -1 if winner is None else _whole(winner, "data.winner", game.players - 1)
    stats = data["stats"]
    _only(stats, STATS, "data.stats", required=True)
    state.stats = {key: _whole(stats[key], f"data.stats.{key}", MOST) for key in STATS}
    return state


def setup(game: SuperFarmerGame, spec: Mapping[str, Any]) -> SuperFarmerState:
    """A position from ``spec``: ``farmers`` (each farmer's animals, by name), ``player``
    (whose turn, default 0), ``phase`` ("trade" or "roll") and ``traded`` (exchanges made
    this turn). The herd holds the rest of the box."""
    from ranchhand.games.super_farmer.state import SuperFarmerState

    _only(spec, SETUP_FIELDS, "setup", required=False)
    state = SuperFarmerState(game)
    _common(state, spec, "setup")
    state.herd = [box - sum(mine[k] for mine in state.animals) for k, box in enumerate(game.box)]
    return state


def _common(state: SuperFarmerState, data: Mapping[str, Any], where: str) -> None:
    """The fields a saved state and a setup share: player, phase, traded, farmers."""
    from ranchhand.games.super_farmer.state import PHASES

    players = state.game.players
    state.player = _whole(data.get("player", 0), f"{where}.player", players - 1)
    phase = data.get("phase", "trade")
    if phase not in PHASES:
        raise StateError(
            f"{where}.phase", f"expected one of {', '.join(PHASES)}, got {shorten(repr(phase))}"
        )
    state.phase = PHASES.index(phase)
    state.traded = _whole(data.get("traded", 0), f"{where}.traded", MOST)
    farmers = data.get("farmers", [{} for _ in range(players)])
    if not isinstance(farmers, list) or len(farmers) != players:
        raise StateError(f"{where}.farmers", f"expected a list of {players} farmers' animals")
    state.animals = [_animals(f, f"{where}.farmers[{i}]") for i, f in enumerate(farmers)]


def _animals(table: Any, where: str) -> list[int]:
    if not isinstance(table, Mapping):
        raise StateError(where, f"expected a table of animals, got {shorten(repr(table))}")
    _only(table, KEYS, where, required=False)
    return [_whole(table.get(key, 0), f"{where}.{key}", MOST) for key in KEYS]


def _whole(value: Any, where: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise StateError(where, f"expected a whole number 0..{high}, got {shorten(repr(value))}")
    return value


def _only(table: Any, allowed: tuple[str, ...], where: str, required: bool) -> None:
    if not isinstance(table, Mapping):
        raise StateError(where, f"expected a table, got {shorten(repr(table))}")
    extra = sorted(set(table) - set(allowed), key=str)
    if extra:
        raise StateError(
            f"{where}.{shorten(str(extra[0]))}", f"unknown field; allowed: {', '.join(allowed)}"
        )
    missing = [key for key in allowed if key not in table]
    if required and missing:
        raise StateError(f"{where}.{missing[0]}", "missing")


def validate(state: SuperFarmerState) -> None:
    """Refuse a position no game reaches: the box not conserved, a full herd in a game
    that goes on, a winner without one, a second exchange where one is allowed."""
    from ranchhand.games.super_farmer.state import TRADE

    game = state.game
    for kind, box in enumerate(game.box):
        held = state.herd[kind] + sum(mine[kind] for mine in state.animals)
        if state.herd[kind] < 0:
            raise StateError(
                f"herd.{KEYS[kind]}",
                f"the farmers hold more {SPECIES[kind]} than the box has ({box})",
            )
        if held != box:
            raise StateError(
                f"herd.{KEYS[kind]}", f"herd and farmers hold {held} {SPECIES[kind]}, the box {box}"
            )
    one = game.options["exchanges"] == "one"
    if state.winner >= 0:
        if state.winner != state.player or not state.full_herd(state.winner):
            raise StateError(
                "winner", "the winner is the farmer whose turn it was, with a full herd"
            )
        if state.phase != TRADE:
            raise StateError("phase", "a finished game waits for no roll")
    else:
        for player in range(game.players):
            if state.full_herd(player):
                raise StateError(f"farmers[{player}]", "a full herd ends the game; name the winner")
        if one and state.phase == TRADE and state.traded:
            raise StateError("traded", "with one exchange a turn, the dice follow the exchange")
    if one and state.traded > 1:
        raise StateError("traded", "one exchange a turn (option exchanges=one)")
