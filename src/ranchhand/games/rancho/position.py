"""Setting up a Rancho position by hand: "what if I hold 3 sheep and 2 cows on these pastures?"

A designer or a player studying the game describes only what differs from the start
of a game (TOML, or the same as a mapping)::

    player = 0                       # whose expand step it is (default 0)
    turn = 12                        # player turns already played (default 0)

    [[players]]                      # seat 0; seats not listed are as at the start
    animals = { rabbit = 4, sheep = 3, cow = 2 }   # exactly what this player holds
    pastures = ["4.1", "4.2"]        # the pastures they own (default none)
    arrangement = "cow @5.1-5.2; ..."  # default: the engine's safest arrangement

Everything not given takes its start-of-game value: a seat without ``animals`` holds
the start animals (a rabbit and a sheep), without ``pastures`` only its pen. The herd
is what the players do not hold. The position is at the start of ``player``'s expand
step; a player who holds a full herd has won (the game ends the moment one does).

The keys mirror the state JSON (``players[0].animals.sheep``), and every error names
the key: ``setup.players[0].pastures[1]: '9.9' is not a space of the board``. The
position is then checked like a loaded one (:mod:`ranchhand.games.rancho.checks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ranchhand.core import StateError
from ranchhand.games.rancho.checks import PLURALS, validate
from ranchhand.games.rancho.snapshot import (
    arrangement,
    exact_keys,
    pasture_ids,
    sequence,
    whole,
)
from ranchhand.games.rancho.tables import KEYS

if TYPE_CHECKING:
    from ranchhand.games.rancho.game import RanchoGame
    from ranchhand.games.rancho.state import RanchoState

KEYS_OF_SETUP = ("player", "turn", "players")
KEYS_OF_SEAT = ("animals", "pastures", "arrangement")
MAX_TURN = 10**9


def setup(game: RanchoGame, spec: Mapping[str, Any]) -> RanchoState:
    """The position ``spec`` describes; StateError naming the key if it cannot be."""
    from ranchhand.games.rancho.state import RanchoState

    players = game.players
    exact_keys(spec, KEYS_OF_SETUP, "setup", required=False)
    state = RanchoState(game)
    state.player = whole(spec.get("player", 0), "setup.player", 0, players - 1)
    state.turn = whole(spec.get("turn", 0), "setup.turn", 0, MAX_TURN)
    rows = list(sequence(spec.get("players", []), "setup.players", 0, players))
    rows += [{}] * (players - len(rows))
    for p, row in enumerate(rows):
        where = f"setup.players[{p}]"
        exact_keys(row, KEYS_OF_SEAT, where, required=False)
        state.animals[p] = _animals(game, row, where)
        for index in pasture_ids(state, row.get("pastures", []), f"{where}.pastures"):
            state.land[p] |= 1 << index
            state.owner[index] = p
            state.taken |= 1 << index
    for kind in range(len(KEYS)):
        held = sum(state.animals[p][kind] for p in range(players))
        if held > game.start_herd[kind]:
            raise StateError(
                "setup.players",
                f"the players hold {held} {PLURALS[kind]}; a {players}-player game has "
                f"{game.start_herd[kind]} in all (seats not listed hold the start animals)",
            )
        state.herd[kind] = game.start_herd[kind] - held
    for p, row in enumerate(rows):
        where = f"setup.players[{p}]"
        if "arrangement" in row:
            state.pieces[p] = arrangement(state, row["arrangement"], f"{where}.arrangement")
            continue
        pieces = state.safest(p)
        if pieces is None:
            reason = game.grazing.why_not(state.region(p), state.animals[p])
            raise StateError(f"{where}.animals", f"they do not all fit: {reason}")
        state.pieces[p] = pieces
    full = [p for p in range(players) if state.full_herd(p)]
    if len(full) > 1:
        raise StateError(
            "setup.players",
            f"players {', '.join(map(str, full))} all hold a full herd; the game ends the "
            "moment the first completes one, so at most one may",
        )
    if full:
        state.winner = full[0]
    validate(state, "setup")
    return state


def _animals(game: RanchoGame, row: Mapping[str, Any], where: str) -> list[int]:
    """The seat's ``animals`` (kinds not named: none), or the start animals if not given."""
    if "animals" not in row:
        return [*game.tables.start, 0, 0]
    table = row["animals"]
    exact_keys(table, KEYS, f"{where}.animals", required=False)
    return [
        whole(table.get(key, 0), f"{where}.animals.{key}", 0, game.start_herd[kind])
        for kind, key in enumerate(KEYS)
    ]
