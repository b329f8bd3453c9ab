"""Reading Super Farmer's action texts back into actions.

The grammar (case-insensitive; plurals and "a"/"an" forgiven; ``>`` may be written ``for``)::

    roll                                  end the exchange step, roll both dice
    trade <animals> > <animals>           e.g. trade horse > cow + 2 pig + 2 sheep + 12 rabbit
    roll <wolf die face>+<fox die face>   a chance outcome, e.g. roll rabbit+fox

``<animals>`` is ``[N] species`` joined by ``+``; a count is ASCII digits 1 to the most
animals of one kind in the herd, so ``trade ² sheep > ...`` is refused, never misread.
"""

from __future__ import annotations

import re
from collections.abc import Hashable

from ranchhand.core.errors import InvalidAction, shorten
from ranchhand.core.notation import read_number
from ranchhand.games.super_farmer.actions import DiceRoll, Roll, Trade
from ranchhand.games.super_farmer.tables import FACES, SPECIES, Counts

NAMES: dict[str, int] = {name: kind for kind, name in enumerate(SPECIES)}
NAMES |= {f"{name}s": kind for name, kind in list(NAMES.items()) if name != "sheep"}
NAMES |= {"sheeps": 1, "smalldog": 5, "bigdog": 6, "large dog": 6, "large dogs": 6}
ANIMALS_HELP = "rabbit, sheep, pig, cow, horse, small dog, big dog"
# The count is any word not starting with a letter, so that '²', '-1' or '1e9' reaches
# read_number and is refused as a number rather than as "not an animal".
_COUNTED = re.compile(r"^(?:([^\sa-z]\S*)\s+|an?\s+)?([a-z][a-z ]*?)$")


def parse(text: str, most: int) -> Hashable:
    """Parse one action text; ``most`` bounds a count (the most animals of one kind)."""
    said = " ".join(text.lower().split())
    if not said:
        raise InvalidAction("empty text; try 'roll', 'trade 6 rabbit > sheep' or 'help'")
    if said == "roll":
        return Roll()
    word, _, rest = said.partition(" ")
    if word == "roll":
        return _dice(rest)
    if word == "trade":
        give, sep, take = rest.replace(" for ", " > ").partition(">")
        if not sep:
            raise InvalidAction("a trade gives and takes: 'trade 6 rabbit > sheep'")
        return Trade(parse_animals(give, most), parse_animals(take, most))
    raise InvalidAction(f"unknown action {shorten(word)!r}; actions are roll and trade")


def parse_animals(text: str, most: int) -> Counts:
    """'2 sheep + small dog' as a 7-tuple of counts; each species named at most once."""
    counts = [0] * len(SPECIES)
    text = text.strip()
    if not text:
        raise InvalidAction(f"name the animals, e.g. '6 rabbit' or 'sheep' ({ANIMALS_HELP})")
    for part in text.split("+"):
        match = _COUNTED.match(part.strip())
        if match is None:
            raise InvalidAction(f"{shorten(part.strip())!r} is no animal; say e.g. '2 sheep'")
        number, name = match.groups()
        kind = NAMES.get(name.strip())
        if kind is None:
            raise InvalidAction(f"{shorten(name)!r} is no animal; animals: {ANIMALS_HELP}")
        if counts[kind]:
            raise InvalidAction(f"{SPECIES[kind]} is named twice; give each species once")
        counts[kind] = 1 if number is None else read_number(number, SPECIES[kind], 1, most)
    return tuple(counts)  # type: ignore[return-value]


def _dice(rest: str) -> DiceRoll:
    wolf, sep, fox = rest.partition("+")
    faces = [f.strip() for f in (wolf, fox)]
    if not sep or not all(f in FACES for f in faces):
        raise InvalidAction(
            "a roll names the wolf die's face, then the fox die's: e.g. 'roll rabbit+fox'"
        )
    return DiceRoll(FACES.index(faces[0]), FACES.index(faces[1]))
