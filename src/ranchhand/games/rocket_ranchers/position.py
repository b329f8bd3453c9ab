"""Describing a Rocket Ranchers position by hand: for puzzles, study and rule tests.

A description (a mapping, or the same as TOML) says whose turn it is, the 16
display cells and, per seat, the corrals, floof pile and token sides; the deck
is whatever of the box is not on the table. The position is the start of that
player's turn. Every problem is refused naming the key, e.g.
``setup.players[1].corrals[0].founder: ...``. The keys are documented on the
docs page (docs/games/rocket-ranchers.md, "Setting up a position").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ranchhand.core.errors import StateError, shorten
from ranchhand.games.rocket_ranchers.phases import START
from ranchhand.games.rocket_ranchers.serial import display_card, kind_of, read_count, read_list
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY, HIDDEN

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.game import RocketGame
    from ranchhand.games.rocket_ranchers.state import RocketState

KEYS = ("player", "turn", "display", "players")
SEAT_KEYS = ("corrals", "floof", "beams_up", "dogship_up")
MAX_TURN = 10**6


def build_position(game: RocketGame, spec: Mapping[str, Any]) -> RocketState:
    """The position ``spec`` describes, at the start of ``player``'s turn."""
    from ranchhand.games.rocket_ranchers.state import RocketState

    _only(spec, KEYS, "setup")
    players = game.players
    tables = game.tables
    state = RocketState(game)
    state.player = _number(spec, "player", players - 1, 0)
    state.turn = _number(spec, "turn", MAX_TURN, state.player)
    if state.turn % players != state.player:
        raise StateError(
            "setup.turn",
            f"after {state.turn} turns of {players} players it is seat "
            f"{state.turn % players}'s turn, not seat {state.player}'s",
        )
    if "display" not in spec:
        raise StateError("setup.display", f"missing; expected the {CELLS} cells a1, b1, ... d4")
    cells = read_list(spec["display"], "setup.display", CELLS)
    state.display = [display_card(tables, c, f"setup.display[{i}]") for i, c in enumerate(cells)]
    seats = read_list(spec.get("players", []), "setup.players")
    if len(seats) > players:
        raise StateError("setup.players", f"{len(seats)} seats described for {players} players")
    for seat, described in enumerate(seats):
        _read_seat(state, seat, described)
    state.public = [tuple((HIDDEN, up) for _, up in mine) for mine in state.corrals]
    _deal_the_rest(state)
    state.phase = START
    state.setting_up = False
    empty = [i for i, c in enumerate(state.display) if c == EMPTY]
    if empty and state.deck_size:
        raise StateError(
            f"setup.display[{empty[0]}]",
            f"empty while the deck still has {state.deck_size} cards; the display is "
            "refilled at the end of every turn",
        )
    if not state.deck_size and state.player == 0:
        state.over = state._final_outcome()
    return state


def _read_seat(state: RocketState, seat: int, described: Any) -> None:
    where = f"setup.players[{seat}]"
    if not isinstance(described, Mapping):
        raise StateError(where, f"expected a table, got {type(described).__name__}")
    _only(described, SEAT_KEYS, where)
    tables = state.tables
    corrals = []
    for number, corral in enumerate(read_list(described.get("corrals", []), f"{where}.corrals")):
        at = f"{where}.corrals[{number}]"
        if not isinstance(corral, Mapping):
            raise StateError(at, f"expected a table, got {type(corral).__name__}")
        _only(corral, ("founder", "face_up"), at)
        if "founder" not in corral:
            raise StateError(f"{at}.founder", "missing; every corral has a face-down card")
        founder = kind_of(tables, corral["founder"], f"{at}.founder")
        face_up = read_list(corral.get("face_up", []), f"{at}.face_up")
        kinds = tuple(kind_of(tables, k, f"{at}.face_up[{i}]") for i, k in enumerate(face_up))
        for index, kind in enumerate(kinds):
            if tables.species[kind] != tables.species[kinds[0]]:
                raise StateError(
                    f"{at}.face_up[{index}]",
                    f"{tables.text[kind]} in a corral of {tables.text[kinds[0]].split('/')[0]}; "
                    "a corral holds one species",
                )
        corrals.append((founder, kinds))
    state.corrals[seat] = corrals
    state.floof[seat] = read_count(described.get("floof", 0), f"{where}.floof")
    state.beams[seat] = _beams_up(state, described, where)
    dogship = described.get("dogship_up", True)
    if not isinstance(dogship, bool):
        raise StateError(f"{where}.dogship_up", f"expected true or false, got {dogship!r}")
    state.dogship[seat] = dogship


def _beams_up(state: RocketState, described: Mapping[str, Any], where: str) -> int:
    """The face-up beams, named (any case); all four if not given."""
    if "beams_up" not in described:
        return state.all_beams
    index = state.tables.beam_index
    names = ", ".join(b.name for b in state.tables.beams)
    mask = 0
    for number, name in enumerate(read_list(described["beams_up"], f"{where}.beams_up")):
        beam = index.get(name.lower()) if isinstance(name, str) else None
        if beam is None:
            shown = shorten(name) if isinstance(name, str) else name
            raise StateError(
                f"{where}.beams_up[{number}]", f"expected one of {names}, got {shown!r}"
            )
        if mask >> beam & 1:
            raise StateError(f"{where}.beams_up[{number}]", f"{name} is named twice")
        mask |= 1 << beam
    if not mask:
        raise StateError(
            f"{where}.beams_up",
            "empty; between turns at least one beam is face up (using the fourth flips all "
            "four back up)",
        )
    return mask


def _deal_the_rest(state: RocketState) -> None:
    """The deck: the box for the player count minus every card on the table."""
    tables = state.tables
    players = state.game.players
    box, cats = tables.deck_counts(players)
    used: Counter[int] = Counter()
    places = [(c, f"setup.display[{i}]") for i, c in enumerate(state.display) if c >= 0]
    for seat, mine in enumerate(state.corrals):
        for number, (founder, face_up) in enumerate(mine):
            at = f"setup.players[{seat}].corrals[{number}]"
            places.append((founder, f"{at}.founder"))
            places.extend((k, f"{at}.face_up[{i}]") for i, k in enumerate(face_up))
    for kind, where in places:
        used[kind] += 1
        if used[kind] > box[kind]:
            raise StateError(
                where,
                f"{used[kind]} copies of {tables.text[kind]} on the table; the box has "
                f"{box[kind]} for {players} players",
            )
    shown = state.display.count(CAT)
    held = sum(state.floof)
    if shown + held > cats:
        raise StateError(
            "setup.players" if held else "setup.display",
            f"{shown + held} Space Cats on the table (display {shown}, floof piles {held}); "
            f"{players} players shuffle in {cats}",
        )
    state.deck = [n - used[k] for k, n in enumerate(box)]
    state.left = [k for k, n in enumerate(state.deck) if n]
    state.deck_cats = cats - shown - held
    state.deck_size = sum(state.deck) + state.deck_cats


def _number(spec: Mapping[str, Any], key: str, high: int, default: int) -> int:
    value = spec.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise StateError(f"setup.{key}", f"expected a whole number 0..{high}, got {value!r}")
    return value


def _only(table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    extra = sorted(str(k) for k in table if k not in allowed)
    if extra:
        raise StateError(
            f"{where}.{shorten(extra[0], 30)}", f"unknown key; keys: {', '.join(allowed)}"
        )
