"""Parsing action texts of Rocket Ranchers back into actions.

Parsing is forgiving about case, ``@``/``at`` before the anchor and the order
of the rotation and anchor, and returns the canonical action, so
``parse(str(action)) == action`` for every action. Whether the action is
allowed now is the state's business, not the parser's.
"""

from __future__ import annotations

from collections.abc import Hashable

from ranchhand.core.errors import InvalidAction, shorten
from ranchhand.core.notation import is_number, read_number
from ranchhand.games.rocket_ranchers.actions import (
    END_TURN,
    REBOOT,
    Beam,
    Dogship,
    Occupy,
    cell_index,
    cell_name,
)
from ranchhand.games.rocket_ranchers.tables import CAT, Tables

FORMS = (
    "beam SHAPE rDEG @CELL, reboot, dogship CELL CELL, form CARD, "
    "occupy CARD in N, end (chance: draw CARD)"
)


def parse_action(text: str, tables: Tables) -> Hashable:
    """The action ``text`` names; raises InvalidAction saying what was expected."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise InvalidAction(f"empty text; expected one of: {FORMS}")
    verb, rest = words[0], words[1:]
    if verb == "reboot" and not rest:
        return REBOOT
    if verb in ("end", "done", "pass") and rest in ([], ["turn"]):
        return END_TURN
    if verb == "beam":
        return _beam(rest, tables)
    if verb in ("dogship", "swap"):
        return _dogship(rest)
    if verb == "form" and len(rest) == 1:
        return tables.forms[_kind(rest[0], tables)]
    if verb == "occupy":
        return _occupy(rest, tables)
    if verb == "draw" and len(rest) == 1:
        card = tables.card_of(rest[0])
        if card is None:
            raise InvalidAction(
                f"{shorten(rest[0])!r} is no card; a card is SPECIES/BIOME/DOTS or cat"
            )
        return tables.draw_cat if card == CAT else tables.draws[card]
    raise InvalidAction(f"expected one of: {FORMS}")


def _beam(words: list[str], tables: Tables) -> Beam:
    names = ", ".join(b.name for b in tables.beams)
    words = [w for w in words if w != "at"]
    if not words or words[0] not in tables.beam_index:
        raise InvalidAction(f"expected a beam name after 'beam' ({names}), e.g. 'beam L3 r90 @b2'")
    beam = tables.beams[tables.beam_index[words[0]]]
    rotations: list[int] = []
    cells: list[int] = []
    for word in words[1:]:
        cell = cell_index(word)
        if cell is not None:
            cells.append(cell)
        elif word.startswith("r"):
            rotations.append(_rotation(word))
        else:
            raise InvalidAction(
                f"{shorten(word)!r} is neither a rotation (r0, r90, r180, r270) "
                "nor a cell (a1 to d4)"
            )
    if len(rotations) > 1 or len(cells) > 1:
        raise InvalidAction("give one rotation and one cell, e.g. 'beam L3 r90 @b2'")
    rotation = rotations[0] if rotations else 0
    if (beam.name.lower(), rotation) not in tables.canonical:
        raise InvalidAction(f"rotation r{rotation}: beams turn by r0, r90, r180 or r270")
    if not cells:
        raise InvalidAction("say where the beam goes: its top-left cell, e.g. @b2")
    return Beam(beam.name, tables.canonical[(beam.name.lower(), rotation)], cell_name(cells[0]))


def _rotation(word: str) -> int:
    """The degrees of ``r90``: ASCII digits only (``r²`` and a 5,000-digit turn are refused)."""
    if not is_number(word[1:]):
        raise InvalidAction(f"rotation: expected r0, r90, r180 or r270, got {shorten(word)!r}")
    return int(word[1:])


def _dogship(words: list[str]) -> Dogship:
    cells = [cell_index(w) for w in words]
    if len(cells) != 2 or None in cells:
        raise InvalidAction("expected two cells (a1 to d4) after 'dogship', e.g. 'dogship a1 c3'")
    first, second = sorted(c for c in cells if c is not None)
    return Dogship(cell_name(first), cell_name(second))


def _kind(word: str, tables: Tables) -> int:
    kind = tables.kind_by_text.get(word)
    if kind is None:
        raise InvalidAction(
            f"{shorten(word)!r} is no Wildlife card; write SPECIES/BIOME/DOTS, e.g. kow/tundra/2"
        )
    return kind


def _occupy(words: list[str], tables: Tables) -> Occupy:
    words = [w for w in words if w not in ("in", "corral")]
    if len(words) != 2:
        raise InvalidAction(
            "expected 'occupy CARD in N' with N a corral number, e.g. 'occupy kow/tundra/2 in 1'"
        )
    kind = _kind(words[0], tables)
    most = max(len(tables.deck.cards), 1)  # a corral a card: no player can have more
    number = read_number(words[1], "corral number", 1, most)
    return tables.occupy(kind, number - 1)
