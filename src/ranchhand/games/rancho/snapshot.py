"""A Rancho state as JSON-ready data and back (records, saved games, observations).

The arrangement of each player is written as arrangement text ("6 rabbit @2.1; cow
@5.1-5.2"), so a saved table reads like the game's own notation and is checked by
the same parser when loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ranchhand.core import InvalidAction, RecordError
from ranchhand.games.rancho.actions import Arrange
from ranchhand.games.rancho.grazing import counts_of
from ranchhand.games.rancho.notation import parse
from ranchhand.games.rancho.tables import FACES, KEYS, PREDATOR_NAMES

if TYPE_CHECKING:
    from ranchhand.games.rancho.state import RanchoState


def state_to_json(state: RanchoState) -> dict[str, Any]:
    """The whole public table."""
    from ranchhand.games.rancho.state import PHASES

    board, game = state.game.board, state.game
    strike = state.strike
    return {
        "player": state.player,
        "phase": PHASES[state.phase],
        "herd": dict(zip(KEYS, state.herd, strict=True)),
        "players": [
            {
                "pen": game.pen_numbers[p],
                "animals": dict(zip(KEYS, state.animals[p], strict=True)),
                "pastures": board.ids(state.land[p]),
                "arrangement": state.arrangement_text(p),
            }
            for p in range(game.players)
        ],
        "dice": None if state.dice is None else [FACES[f] for f in state.dice],
        "predators": [PREDATOR_NAMES[p] for p in state.predators],
        "strike": None if strike is None else [PREDATOR_NAMES[strike[0]], strike[1]],
        "strikes": [[PREDATOR_NAMES[p], price] for p, price in state.strikes],
        "dog_queue": list(state.dog_queue),
        "winner": state.winner if state.winner >= 0 else None,
        "settled": state.settled,
        "eaten_value": state.eaten_value,
        "dogs_given": state.dogs_given,
    }


def state_from_json(state: RanchoState, data: Mapping[str, Any]) -> RanchoState:
    """Fill the fresh ``state`` from :func:`state_to_json` data; RecordError if it is wrong."""
    from ranchhand.games.rancho.state import PHASES, RETURN

    game = state.game
    board = game.board
    try:
        state.player = int(data["player"])
        state.phase = PHASES.index(data["phase"])
        state.herd = [int(data["herd"][k]) for k in KEYS]
        players = data["players"]
        if len(players) != game.players:
            raise ValueError(f"expected {game.players} players, got {len(players)}")
        for p, row in enumerate(players):
            state.animals[p] = [int(row["animals"][k]) for k in KEYS]
            for space_id in row["pastures"]:
                index = board.by_id[space_id]
                state.land[p] |= 1 << index
                state.owner[index] = p
                state.taken |= 1 << index
            text = row["arrangement"]
            arrange = parse(f"arrange {text}", state._is_space) if text else Arrange(())
            if not isinstance(arrange, Arrange):
                raise ValueError(f"bad arrangement {text!r}")
            pieces, problem = state.resolve(arrange)
            waiting = state.phase == RETURN and p == state.player  # newborns not placed
            if problem or (counts_of(pieces) != state.animals[p][:4] and not waiting):
                raise ValueError(f"player {p}: arrangement {text!r} does not match the animals")
            state.pieces[p] = pieces
        dice = data["dice"]
        state.dice = None if dice is None else (FACES.index(dice[0]), FACES.index(dice[1]))
        names = {v: k for k, v in PREDATOR_NAMES.items()}
        state.predators = [names[p] for p in data["predators"]]
        strike = data["strike"]
        state.strike = None if strike is None else (names[strike[0]], int(strike[1]))
        state.strikes = [(names[p], int(price)) for p, price in data["strikes"]]
        state.dog_queue = [int(p) for p in data["dog_queue"]]
        state.winner = -1 if data["winner"] is None else int(data["winner"])
        state.settled = bool(data["settled"])
        state.eaten_value = int(data["eaten_value"])
        state.dogs_given = int(data["dogs_given"])
    except (KeyError, ValueError, TypeError, IndexError, InvalidAction) as error:
        raise RecordError(f"rancho state JSON: {error}") from None
    return state
