"""Reading Rancho's action texts back into actions.

The grammar (words are case-insensitive, plurals and "a"/"an" forgiven)::

    roll | roll and end turn                  end the expand step (and settle in advance)
    trade <animals> > <animals>               e.g. trade 2 sheep + small dog > 3 rabbit + ...
    buy <spaces>[ + <animals>][ via <spaces>] with <animals>
    arrange <piece>; <piece>; ...             piece: [N] rabbit|sheep|cow|horse @a-b-c
    arrange safest | end turn | fox first | wolf first
    give small dog | keep large dog | return <animals>
    roll rabbit+wolf | strike 2               chance outcomes

``>`` may also be written ``for``. A buy with change (``buy 3.4 + 4 rabbit with
sheep``) and a trade that takes pastures (``trade sheep > 3.4 + 4 rabbit``) are
the same transaction.

Every number is read by :func:`ranchhand.core.notation.read_number`: ASCII digits
within bounds that follow from the rules (a count of animals is 1 to the most
animals of one kind in the game, a rabbit stack 1 to the rabbits a space holds, a
strike a pasture price), so ``strike ²``, ``trade ١ sheep > 6 rabbit`` or a count
five thousand digits long is refused saying what is allowed, never misread.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable

from ranchhand.core.errors import InvalidAction, shorten
from ranchhand.core.notation import read_number
from ranchhand.games.rancho.actions import (
    Arrange,
    ArrangeSafest,
    DiceRoll,
    Dog,
    EndTurn,
    First,
    Return,
    Roll,
    Strike,
)
from ranchhand.games.rancho.actions import Deal as DealAction
from ranchhand.games.rancho.board import MAX_PRICE
from ranchhand.games.rancho.tables import (
    FACES,
    FARM,
    FOX,
    LARGE_DOG,
    RABBIT,
    SMALL_DOG,
    SPECIES,
    WOLF,
    load_tables,
)

NAMES: dict[str, int] = {
    "rabbit": 0,
    "rabbits": 0,
    "r": 0,
    "sheep": 1,
    "sheeps": 1,
    "s": 1,
    "cow": 2,
    "cows": 2,
    "c": 2,
    "horse": 3,
    "horses": 3,
    "h": 3,
    "small dog": 4,
    "small dogs": 4,
    "smalldog": 4,
    "sd": 4,
    "large dog": 5,
    "large dogs": 5,
    "largedog": 5,
    "ld": 5,
    "big dog": 5,
}
ANIMALS_HELP = "rabbit, sheep, cow, horse, small dog, large dog"
# The count is any word not starting with a letter, so that '²', '-1' or '1e9' reaches
# read_number and is refused as a number rather than as "not animals".
_COUNTED = re.compile(r"^(?:([^\sa-z][^\sx]*)\s*x?\s+|an?\s+)?([a-z][a-z ]*?)$")
_PIECE_HELP = "say e.g. '6 rabbit @2.1', 'sheep @5.1', 'cow @4.3-4.4', 'horse @4.1-4.2-4.24'"


def _most_of_one_kind() -> int:
    """The most animals of one kind any game holds (60 rabbits): the bound of a count."""
    tables = load_tables()
    farm = max(max(herd) for herd in tables.herd.values())
    dogs = max(max(max(pair) for pair in rows.values()) for _doc, rows in tables.dogs.values())
    return max(farm, dogs)


MOST_ANIMALS = _most_of_one_kind()
"""No action text may count more animals of one kind than the game has."""
STACK = load_tables().rabbits_per_space
"""The most rabbits one space (one stack) holds."""

IsSpace = Callable[[str], bool]


def parse(text: str, is_space: IsSpace) -> Hashable:
    """Parse one action text; ``is_space`` tells board space ids from animal words."""
    said = " ".join(text.lower().replace(",", ", ").split())
    if not said:
        raise InvalidAction("empty text; try 'roll', 'trade 6 rabbit > sheep' or 'help'")
    word, _, rest = said.partition(" ")
    simple: dict[str, Hashable] = {
        "roll": Roll(),
        "roll and end turn": Roll(True),
        "roll and end": Roll(True),
        "arrange safest": ArrangeSafest(),
        "end turn": EndTurn(),
        "end": EndTurn(),
        "fox first": First(FOX),
        "wolf first": First(WOLF),
        "give small dog": Dog(True, SMALL_DOG),
        "keep small dog": Dog(False, SMALL_DOG),
        "give large dog": Dog(True, LARGE_DOG),
        "keep large dog": Dog(False, LARGE_DOG),
    }
    if said in simple:
        return simple[said]
    if word == "roll":
        return _dice(rest)
    if word == "strike":
        return Strike(read_number(rest, "strike <price>", 1, MAX_PRICE))
    if word == "trade":
        return _trade(rest, is_space)
    if word == "buy":
        return _buy(rest, is_space)
    if word == "arrange":
        return _arrange(rest)
    if word == "return":
        animals = parse_animals(rest, "return")
        if not any(animals):
            raise InvalidAction("say which animals go back, e.g. 'return 2 rabbit + cow'")
        return Return(animals)
    raise InvalidAction(
        f"unknown action {shorten(word)!r}; actions start with roll, trade, buy, arrange, "
        "end turn, fox first, wolf first, give, keep or return"
    )


def parse_animals(text: str, where: str) -> tuple[int, int, int, int, int, int]:
    """'2 sheep + small dog + 3 rabbit' -> counts; 'nothing' -> all zero."""
    counts = [0] * 6
    if text.strip() in ("nothing", ""):
        return (0, 0, 0, 0, 0, 0)
    for part in re.split(r"\s*(?:\+|,|\band\b)\s*", text.strip()):
        if not part:
            continue
        match = _COUNTED.match(part)
        name = match.group(2).strip() if match else ""
        if not match or name not in NAMES:
            raise InvalidAction(
                f"{where}: {shorten(part)!r} is not animals; say e.g. '3 rabbit' ({ANIMALS_HELP})"
            )
        number = 1
        if match.group(1):
            number = read_number(match.group(1), f"{where}: the count of {name}", 1, MOST_ANIMALS)
        counts[NAMES[name]] += number
    return tuple(counts)  # type: ignore[return-value]


def _split_side(
    text: str, is_space: IsSpace, where: str
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Split 'a.b + 4 rabbit' into the pastures named and the animals."""
    spaces: list[str] = []
    animal_parts: list[str] = []
    for part in re.split(r"\s*(?:\+|,|\band\b)\s*", text.strip()):
        if not part:
            continue
        if is_space(part):
            spaces.append(part)
        else:
            animal_parts.append(part)
    return tuple(spaces), parse_animals(" + ".join(animal_parts), where)


def _trade(rest: str, is_space: IsSpace) -> DealAction:
    give_text, sep, take_text = rest.partition(">")
    if not sep:
        give_text, sep, take_text = rest.partition(" for ")
    if not sep:
        raise InvalidAction("expected 'trade <animals> > <animals>', e.g. 'trade 6 rabbit > sheep'")
    give = parse_animals(give_text, "what you give")
    pastures, take = _split_side(take_text, is_space, "what you take")
    return DealAction(give, take, pastures)  # type: ignore[arg-type]


def _buy(rest: str, is_space: IsSpace) -> DealAction:
    head, sep, give_text = f" {rest} ".partition(" with ")
    if not sep:
        raise InvalidAction("expected 'buy <space> with <animals>', e.g. 'buy 4.2 with 4 rabbit'")
    head, via_sep, via_text = f"{head} ".partition(" via ")
    via = tuple(v for v in re.split(r"[\s,+-]+", via_text.strip()) if v) if via_sep else ()
    if via_sep and not via:
        raise InvalidAction("'via' needs the spaces crossed, e.g. 'buy 3.5 via 3.6 with 2 rabbit'")
    pastures, take = _split_side(head, is_space, "what you buy")
    if not pastures:
        raise InvalidAction(
            f"{shorten(head.strip())!r} names no space to buy; spaces look like '4.2'"
        )
    for space in via:
        if not is_space(space):
            raise InvalidAction(f"via: {shorten(space)!r} is not a space of the board")
    give = parse_animals(give_text, "what you pay")
    return DealAction(give, take, pastures, via)  # type: ignore[arg-type]


def _arrange(rest: str) -> Arrange:
    if rest == "nothing":
        return Arrange(())
    pieces = [_piece(part) for part in (p.strip() for p in rest.split(";")) if part]
    if not pieces:
        raise InvalidAction("'arrange' needs pieces or 'safest', e.g. 'arrange sheep @5.1; ...'")
    return Arrange(tuple(pieces))


def _piece(part: str) -> tuple[int, int, tuple[str, ...]]:
    """One piece: '[N] rabbit @a', 'rabbit N @a', 'sheep @a', 'cow @a-b', 'horse a-b-c'.

    Without ``@`` the last word names the spaces. Only rabbits stack: a count on a
    sheep, cow or horse other than 1 is refused (two sheep never share a space).
    """
    head, at, where = part.partition("@")
    if not at:
        head, _, where = part.rpartition(" ")
    where = re.sub(r"\s*-\s*", "-", where.strip())
    words = head.split()
    if not where or " " in where or not 1 <= len(words) <= 2:
        raise InvalidAction(f"{shorten(part)!r} is not a piece; {_PIECE_HELP}")
    if len(words) == 1:
        name, count_word = words[0], None
    elif words[0] in NAMES:
        name, count_word = words
    else:
        count_word, name = words
    if name not in NAMES or NAMES[name] not in FARM:
        raise InvalidAction(f"{shorten(part)!r} is not a piece; {_PIECE_HELP}")
    kind = NAMES[name]
    count = 1
    if count_word is not None:
        what = "a rabbit stack" if kind == RABBIT else f"the count of {SPECIES[kind]}"
        count = read_number(count_word, what, 1, STACK)
        if kind != RABBIT and count != 1:
            raise InvalidAction(
                f"{shorten(part)!r}: only rabbits stack; each {SPECIES[kind]} is a piece of "
                f"its own, e.g. '{SPECIES[kind]} @5.1; {SPECIES[kind]} @...'"
            )
    ids = tuple(i for i in where.split("-") if i)
    if not ids:
        raise InvalidAction(f"{shorten(part)!r} names no space; {_PIECE_HELP}")
    return kind, count, ids


def _dice(rest: str) -> DiceRoll:
    faces = [f.strip() for f in rest.split("+")]
    if len(faces) != 2 or any(f not in FACES for f in faces):
        raise InvalidAction(
            f"expected 'roll <face>+<face>' with faces {', '.join(FACES)}, e.g. 'roll rabbit+wolf'"
        )
    first, second = sorted(FACES.index(f) for f in faces)
    return DiceRoll(first, second)
