"""A Rancho state as JSON-ready data and back (records, saved games, observations).

The arrangement of each player is written as arrangement text ("6 rabbit @2.1; cow
@5.1-5.2"), so a saved table reads like the game's own notation and is checked by
the same parser when loaded.

Loading trusts nothing: every field is read here with its type and range checked
and named in the error (``state JSON: data.players[1].pastures[2]: '9.9' is not a
space of the board``); whether the fields fit together (the box conserved, each
arrangement legal, the step's bookkeeping) is checked afterwards by
:func:`ranchhand.games.rancho.checks.validate`, which positions set up by hand pass too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ranchhand.core import InvalidAction, StateError
from ranchhand.core.errors import shorten
from ranchhand.games.rancho.actions import Arrange
from ranchhand.games.rancho.board import MAX_PRICE
from ranchhand.games.rancho.grazing import Arrangement
from ranchhand.games.rancho.notation import parse
from ranchhand.games.rancho.tables import FACES, KEYS, PREDATOR_NAMES

if TYPE_CHECKING:
    from ranchhand.games.rancho.state import RanchoState

FIELDS = (
    "player",
    "phase",
    "herd",
    "players",
    "dice",
    "predators",
    "strike",
    "strikes",
    "dog_queue",
    "winner",
    "settled",
    "eaten_value",
    "dogs_given",
)
PLAYER_FIELDS = ("pen", "animals", "pastures", "arrangement")
MOST = 1_000_000
"""A bound for any count in a state (far above the box) so no number is unbounded."""
MAX_ARRANGEMENT_TEXT = 2_000
"""An arrangement of a full ranch is about 250 characters; longer text is not parsed."""
PREDATORS = {name: kind for kind, name in PREDATOR_NAMES.items()}


def state_to_json(state: RanchoState) -> dict[str, Any]:
    """The whole public table."""
    from ranchhand.games.rancho.state import PHASES

    board, game = state.game.board, state.game
    strike = state.strike
    data: dict[str, Any] = {
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
    if game.deal_limit:  # the count decides what is legal only under deals_per_turn
        data["deals"] = state.deals
    return data


def state_from_json(state: RanchoState, data: Mapping[str, Any]) -> RanchoState:
    """Fill the fresh ``state`` from :func:`state_to_json` data; StateError names a bad field."""
    from ranchhand.games.rancho.state import PHASES

    game = state.game
    players = game.players
    limited = bool(game.deal_limit)
    exact_keys(data, (*FIELDS, "deals") if limited else FIELDS, "data")
    if limited:
        state.deals = whole(data["deals"], "data.deals", 0, game.deal_limit)
    state.player = whole(data["player"], "data.player", 0, players - 1)
    state.phase = PHASES.index(choice(data["phase"], "data.phase", PHASES))
    state.herd = counts(data["herd"], "data.herd")
    rows = sequence(data["players"], "data.players", players, players)
    for p, row in enumerate(rows):
        where = f"data.players[{p}]"
        exact_keys(row, PLAYER_FIELDS, where)
        pen = game.pen_numbers[p]
        if row["pen"] != pen:
            raise StateError(
                f"{where}.pen",
                f"expected {pen} (with {players} players the seats use pens "
                f"{', '.join(map(str, game.pen_numbers))} in order), got {_shown(row['pen'])}",
            )
        state.animals[p] = counts(row["animals"], f"{where}.animals")
        for index in pasture_ids(state, row["pastures"], f"{where}.pastures"):
            state.land[p] |= 1 << index
            state.owner[index] = p
            state.taken |= 1 << index
        state.pieces[p] = arrangement(state, row["arrangement"], f"{where}.arrangement")
    dice = data["dice"]
    if dice is not None:
        first, second = sorted(
            FACES.index(choice(face, f"data.dice[{i}]", FACES))
            for i, face in enumerate(sequence(dice, "data.dice", 2, 2))
        )
        state.dice = (first, second)
    state.predators = [
        PREDATORS[choice(name, f"data.predators[{i}]", tuple(PREDATORS))]
        for i, name in enumerate(sequence(data["predators"], "data.predators", 0, 2))
    ]
    if data["strike"] is not None:
        state.strike = strike(data["strike"], "data.strike")
    state.strikes = [
        strike(item, f"data.strikes[{i}]")
        for i, item in enumerate(sequence(data["strikes"], "data.strikes", 0, 2))
    ]
    state.dog_queue = [
        whole(p, f"data.dog_queue[{i}]", 0, players - 1)
        for i, p in enumerate(sequence(data["dog_queue"], "data.dog_queue", 0, players))
    ]
    winner = data["winner"]
    state.winner = -1 if winner is None else whole(winner, "data.winner", 0, players - 1)
    if not isinstance(data["settled"], bool):
        raise StateError("data.settled", f"expected true or false, got {_shown(data['settled'])}")
    state.settled = data["settled"]
    state.eaten_value = whole(data["eaten_value"], "data.eaten_value", 0, MOST * 1000)
    state.dogs_given = whole(data["dogs_given"], "data.dogs_given", 0, MOST)
    return state


# ------------------------------------------------------------------ fields
def _shown(value: Any) -> str:
    """A value as an error shows it: short, whatever its size."""
    return shorten(repr(value))


def exact_keys(value: Any, allowed: Sequence[str], where: str, *, required: bool = True) -> None:
    """``value`` is an object with the keys ``allowed`` (all of them if ``required``)."""
    if not isinstance(value, Mapping):
        raise StateError(where, f"expected an object, got {type(value).__name__}")
    for key in value:
        if key not in allowed:
            raise StateError(
                f"{where}.{shorten(str(key))}", f"unknown field; allowed: {', '.join(allowed)}"
            )
    if required:
        for key in allowed:
            if key not in value:
                raise StateError(f"{where}.{key}", "missing")


def whole(value: Any, where: str, low: int, high: int) -> int:
    """An integer (not a bool, not 3.0) in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StateError(where, f"expected a whole number {low}..{high}, got {_shown(value)}")
    return value


def choice(value: Any, where: str, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise StateError(where, f"expected one of {', '.join(allowed)}, got {_shown(value)}")
    return value


def sequence(value: Any, where: str, low: int, high: int) -> list[Any]:
    """A list of ``low..high`` items."""
    if not isinstance(value, list):
        raise StateError(where, f"expected a list, got {type(value).__name__}")
    if not low <= len(value) <= high:
        span = f"{low}" if low == high else f"{low} to {high}"
        raise StateError(where, f"expected {span} items, got {len(value)}")
    return value


def counts(value: Any, where: str) -> list[int]:
    """A count of each kind (rabbit .. large_dog): a whole number 0 or more."""
    exact_keys(value, KEYS, where)
    return [whole(value[key], f"{where}.{key}", 0, MOST) for key in KEYS]


def strike(value: Any, where: str) -> tuple[int, int]:
    """``["fox", 2]``: the predator and the pasture price the six-sided die showed."""
    predator, price = sequence(value, where, 2, 2)
    name = choice(predator, f"{where}[0]", tuple(PREDATORS))
    return PREDATORS[name], whole(price, f"{where}[1]", 1, MAX_PRICE)


def pasture_ids(state: RanchoState, value: Any, where: str) -> list[int]:
    """The spaces a player owns: ids of pastures of the board, each free and named once."""
    board = state.game.board
    ids = sequence(value, where, 0, len(board.spaces))
    out: list[int] = []
    for i, space_id in enumerate(ids):
        at = f"{where}[{i}]"
        if not isinstance(space_id, str) or space_id not in board.by_id:
            raise StateError(at, f"{_shown(space_id)} is not a space of the board")
        index = board.by_id[space_id]
        if board.spaces[index].is_pen:
            raise StateError(at, f"{space_id} is a pen, not a pasture")
        if index in out:
            raise StateError(at, f"{space_id} is named twice")
        if state.owner[index] >= 0:
            raise StateError(at, f"{space_id} also belongs to player {state.owner[index]}")
        out.append(index)
    return out


def arrangement(state: RanchoState, text: Any, where: str) -> Arrangement:
    """Arrangement text ("6 rabbit @2.1; cow @5.1-5.2") as pieces on known spaces.

    Whether the pieces are a legal arrangement of the player's animals is checked
    with the rest of the position (:func:`ranchhand.games.rancho.checks.validate`).
    """
    if not isinstance(text, str):
        raise StateError(where, f"expected arrangement text, got {type(text).__name__}")
    if len(text) > MAX_ARRANGEMENT_TEXT:
        raise StateError(where, f"longer than {MAX_ARRANGEMENT_TEXT:,} characters")
    if not text.strip():
        return ()
    try:
        action = parse(f"arrange {text}", state._is_space)
    except InvalidAction as error:
        raise StateError(where, error.reason) from None
    if not isinstance(action, Arrange):
        raise StateError(
            where, f"expected pieces like '6 rabbit @2.1; cow @5.1-5.2', got {shorten(text)!r}"
        )
    pieces, problem = state.resolve(action)
    if problem:
        raise StateError(where, problem)
    return pieces
