"""Parsing action texts of Rocket Ranchers back into actions.

Parsing is forgiving about case, ``@``/``at`` before the anchor and the order
of the rotation and anchor, and returns the canonical action, so
``parse(str(action)) == action`` for every action. Whether the action is
allowed now is the state's business, not the parser's.

Two shortcuts need the position, given as ``legal`` (the legal actions, asked
for only when needed): a beam without its rotation (``beam L3 @c2``) is the one
rotation that may be used at that anchor, and a card named in part
(``form capiwata``, ``occupy kow/tundra in 1``) is the one collected card that
fits. Where several fit, :class:`AmbiguousAction` lists them (for a beam, the
cells each rotation would take).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from itertools import permutations

from ranchhand.core.errors import AmbiguousAction, InvalidAction, shorten
from ranchhand.core.notation import is_number, read_number
from ranchhand.games.rocket_ranchers.actions import (
    END_TURN,
    REBOOT,
    Beam,
    Dogship,
    Form,
    Occupy,
    cell_index,
    cell_name,
)
from ranchhand.games.rocket_ranchers.tables import CAT, Tables

FORMS = (
    "beam SHAPE rDEG @CELL, reboot, dogship CELL CELL, form CARD, "
    "occupy CARD in N, end (chance: draw CARD)"
)


Legal = Callable[[], Collection[Hashable]]
"""The legal actions now, asked for only by a text that needs the position."""


def parse_action(text: str, tables: Tables, legal: Legal | None = None) -> Hashable:
    """The action ``text`` names; raises InvalidAction saying what was expected.

    Without ``legal`` a text must name one action by itself: a missing rotation
    is accepted only where one rotation fits the grid at that anchor, a card
    only in full (or by parts naming one card of the deck).
    """
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise InvalidAction(f"empty text; expected one of: {FORMS}")
    verb, rest = words[0], words[1:]
    if verb == "reboot" and not rest:
        return REBOOT
    if verb in ("end", "done", "pass") and rest in ([], ["turn"]):
        return END_TURN
    if verb == "beam":
        return _beam(rest, tables, legal)
    if verb in ("dogship", "swap"):
        return _dogship(rest)
    if verb == "form" and len(rest) == 1:
        return tables.forms[_card(rest[0], tables, legal, tables.forms.__getitem__)]
    if verb == "occupy":
        return _occupy(rest, tables, legal)
    if verb == "draw" and len(rest) == 1:
        card = tables.card_of(rest[0])
        if card is None:
            raise InvalidAction(
                f"{shorten(rest[0])!r} is no card; a card is SPECIES/BIOME/DOTS or cat"
            )
        return tables.draw_cat if card == CAT else tables.draws[card]
    raise InvalidAction(f"expected one of: {FORMS}")


def _beam(words: list[str], tables: Tables, legal: Legal | None) -> Beam:
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
    if rotations and (beam.name.lower(), rotations[0]) not in tables.canonical:
        raise InvalidAction(f"rotation r{rotations[0]}: beams turn by r0, r90, r180 or r270")
    if not cells:
        raise InvalidAction("say where the beam goes: its top-left cell, e.g. @b2")
    if not rotations:
        return _unturned(tables.beam_index[beam.name.lower()], cell_name(cells[0]), tables, legal)
    rotation = tables.canonical[(beam.name.lower(), rotations[0])]
    return Beam(beam.name, rotation, cell_name(cells[0]))


def _unturned(index: int, anchor: str, tables: Tables, legal: Legal | None) -> Beam:
    """A beam typed without its rotation: the one that may be used at ``anchor``.

    The rotations lying wholly inside the grid there are the candidates (turns
    giving the same pattern count once); with the position, those that are legal.
    If none is legal, the first is returned and the state says why (the beam is
    face down, or it is not the time for a beam).
    """
    beam = tables.beams[index]
    fits = [p for p in tables.by_beam[index] if p.action.cell == anchor]
    if not fits:
        return Beam(beam.name, 0, anchor)  # outside the grid whichever way: the state says so
    if legal is not None and len(fits) > 1:
        allowed = set(legal())
        fits = [p for p in fits if p.action in allowed] or fits[:1]
    if len(fits) == 1:
        return fits[0].action
    takes = "; ".join(
        f"r{p.action.rotation} takes {' '.join(cell_name(c) for c in p.cells)}" for p in fits
    )
    raise AmbiguousAction(
        f"{beam.name} at {anchor} can be turned {len(fits)} ways: {takes}",
        suggestions=[str(p.action) for p in fits],
    )


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


def named_by(word: str, tables: Tables) -> list[int]:
    """The card kinds a full or partial card text names, in deck order.

    A part is a species, a biome or a number of dots, in any order, each at most
    once: ``kow``, ``kow/tundra``, ``tundra/kow/2`` (``kow/tundra/2`` in full).

    >>> from ranchhand.games.rocket_ranchers.tables import tables_for
    >>> tables = tables_for("standard", "standard", "rulebook")
    >>> [tables.text[k] for k in named_by("tundra/kow", tables)]
    ['kow/tundra/1', 'kow/tundra/2', 'kow/tundra/3']
    """
    kind = tables.kind_by_text.get(word)
    if kind is not None:
        return [kind]
    parts = word.split("/")
    if len(parts) > 3 or not all(parts):
        return []
    deck = tables.deck
    named = []
    for kind in range(tables.kinds):
        fields = (
            deck.species[tables.species[kind]].lower(),
            deck.biomes[tables.biome[kind]].lower(),
            str(tables.dots[kind]),
        )
        if any(
            all(part == fields[f] for part, f in zip(parts, order, strict=False))
            for order in permutations(range(3), len(parts))
        ):
            named.append(kind)
    return named


def _card(word: str, tables: Tables, legal: Legal | None, action: Callable[[int], Hashable]) -> int:
    """The card kind ``word`` names for ``action(kind)``: in full, or in part when
    exactly one collected card fits (AmbiguousAction lists them when several do)."""
    named = named_by(word, tables)
    if len(named) == 1:
        return named[0]
    if not named:
        raise _no_card(word)
    if legal is None:
        raise InvalidAction(
            f"{shorten(word)!r} names {len(named)} cards; write SPECIES/BIOME/DOTS, "
            f"e.g. {tables.text[named[0]]}"
        )
    actions = legal()
    allowed = set(actions)
    fitting = [kind for kind in named if action(kind) in allowed]
    if len(fitting) == 1:
        return fitting[0]
    if fitting:
        raise AmbiguousAction(
            f"{shorten(word)!r} fits {len(fitting)} collected cards",
            suggestions=[str(action(k)) for k in fitting],
        )
    collected = [kind for kind in named if tables.forms[kind] in allowed]
    if collected:
        return collected[0]  # it cannot go there: the state says why
    waiting = [a.card for a in actions if isinstance(a, Form)]
    raise InvalidAction(
        f"{shorten(word)!r} names no collected card "
        + (f"(collected: {', '.join(waiting)})" if waiting else "(no card waits for a corral)")
    )


def _no_card(word: str) -> InvalidAction:
    return InvalidAction(
        f"{shorten(word)!r} is no Wildlife card; write SPECIES/BIOME/DOTS, e.g. "
        "kow/tundra/2 (a species alone will do when it names one collected card)"
    )


def _occupy(words: list[str], tables: Tables, legal: Legal | None) -> Occupy:
    words = [w for w in words if w not in ("in", "corral")]
    if len(words) != 2:
        raise InvalidAction(
            "expected 'occupy CARD in N' with N a corral number, e.g. 'occupy kow/tundra/2 in 1'"
        )
    if not named_by(words[0], tables):
        raise _no_card(words[0])
    most = max(len(tables.deck.cards), 1)  # a corral a card: no player can have more
    number = read_number(words[1], "corral number", 1, most)
    kind = _card(words[0], tables, legal, lambda k: tables.occupy(k, number - 1))
    return tables.occupy(kind, number - 1)
