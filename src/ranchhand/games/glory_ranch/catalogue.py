"""The deck list and the card language as Markdown, generated from the data.

The rules page (docs/games/glory-ranch.md) embeds this output between marker
lines and a test checks it is current, so the page always shows the cards the
engine plays. Print it with ``python -m ranchhand.games.glory_ranch.catalogue``;
rewrite the page with ``python -m ranchhand.games.glory_ranch.catalogue docs/games/glory-ranch.md``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from ranchhand.games.glory_ranch.cards import (
    Bonus,
    Deck,
    Effect,
    bonus_text,
    effect_text,
    load_deck,
)

LANGUAGE_EXAMPLES: tuple[tuple[str, Effect], ...] = (
    ('{ do = "draw", who = "you", n = 2 }', Effect("draw", 2)),
    ('{ do = "draw", who = "each", n = 1 }', Effect("draw", 1, who="each")),
    ('{ do = "draw", who = "others", n = 1 }', Effect("draw", 1, who="others")),
    ('{ do = "draw", who = "chosen", n = 2 }', Effect("draw", 2, who="chosen")),
    ('{ do = "discard", who = "you", n = 1 }', Effect("discard", 1)),
    ('{ do = "discard", who = "each", n = 1 }', Effect("discard", 1, who="each")),
    ('{ do = "discard", who = "chosen", n = 1 }', Effect("discard", 1, who="chosen")),
    ('{ do = "give", to = "chosen", n = 1 }', Effect("give", 1, to="chosen")),
    ('{ do = "pass", to = "left", n = 1 }', Effect("pass", 1, to="left")),
    ('{ do = "pass", to = "right", n = 2 }', Effect("pass", 2, to="right")),
    ('{ do = "trade", with = "chosen" }', Effect("trade", target="chosen")),
    ('{ do = "steal", from = "chosen", n = 1 }', Effect("steal", 1, target="chosen")),
    ('{ do = "reverse" }', Effect("reverse")),
    ('{ do = "skip" }', Effect("skip")),
    ('{ do = "play" }', Effect("play")),
    ('{ do = "place", at = "left" }', Effect("place", at="left")),
    ('{ do = "place", at = "any" }', Effect("place", at="any")),
    ('{ do = "banish", from = "opponent" }', Effect("banish", target="opponent")),
    ('{ do = "banish", from = "any" }', Effect("banish", target="any")),
    ('{ do = "return", from = "opponent" }', Effect("return", target="opponent")),
    ('{ do = "return", from = "yours" }', Effect("return", target="yours")),
    ('{ do = "return", from = "any" }', Effect("return", target="any")),
    ('{ do = "protect" }', Effect("protect")),
    (
        '{ do = "rps", against = "chosen", win = [{ do = "give", to = "rival", n = 1 }], '
        'lose = [{ do = "draw", who = "you", n = 1 }] }',
        Effect(
            "rps",
            target="chosen",
            win=(Effect("give", 1, to="rival"),),
            lose=(Effect("draw", 1),),
        ),
    ),
)

BONUS_EXAMPLES: tuple[tuple[str, Bonus], ...] = (
    ('{ per = "family", family = "dragon", glory = 1 }', Bonus("family", 1, family="dragon")),
    ('{ per = "family", family = "any", glory = 1 }', Bonus("family", 1, family="any")),
    ('{ per = "neighbour", family = "sea", glory = 2 }', Bonus("neighbour", 2, family="sea")),
    ('{ per = "position", at = "left", glory = 3 }', Bonus("position", 3, at="left")),
    ('{ per = "position", at = "right", glory = 1 }', Bonus("position", 1, at="right")),
    ('{ per = "most", of = "sea", glory = 2 }', Bonus("most", 2, of="sea")),
    ('{ per = "most", of = "cards", glory = 2 }', Bonus("most", 2, of="cards")),
    ('{ per = "empty-hand", glory = 2 }', Bonus("empty-hand", 2)),
    ('{ per = "variety", glory = 1 }', Bonus("variety", 1)),
)


def language_markdown() -> str:
    """Every action form and Hour Glass bonus: its data and the text players read."""
    lines = ["| data | generated text |", "|---|---|"]
    lines += [f"| `{data}` | {effect_text(effect)} |" for data, effect in LANGUAGE_EXAMPLES]
    lines += ["", "| Hour Glass data | generated text |", "|---|---|"]
    lines += [f"| `{data}` | Hour Glass: {bonus_text(bonus)} |" for data, bonus in BONUS_EXAMPLES]
    return "\n".join(lines)


def deck_markdown(deck: Deck) -> str:
    """The deck list: every card with its numbers and generated text."""
    lines = [
        f"{deck.size} cards, {len(deck.cards)} creatures, families: {', '.join(deck.families)}.",
        "",
        "| creature (id) | family | Glory | penalty | copies | text |",
        "|---|---|---|---|---|---|",
    ]
    for card in deck.cards:
        lines.append(
            f"| {card.name} (`{card.id}`) | {card.family} | {card.glory} | {card.penalty} "
            f"| {card.copies} | {card.text} |"
        )
    return "\n".join(lines)


def _standard_deck_markdown() -> str:
    return deck_markdown(load_deck())


MARKERS: dict[str, Callable[[], str]] = {
    "card language": language_markdown,
    "deck list": _standard_deck_markdown,
}


def fill_page(text: str) -> str:
    """``text`` with every marked block replaced by its freshly generated Markdown."""
    for name, make in MARKERS.items():
        pattern = re.compile(rf"(<!-- {name}: [^\n]*-->\n)(.*?)(<!-- end {name} -->)", re.DOTALL)
        block = make()

        def put(match: re.Match[str], block: str = block) -> str:
            return match[1] + block + "\n" + match[3]

        text = pattern.sub(put, text)
    return text


def main(argv: list[str]) -> None:
    """Print the language and the deck, or with a page path rewrite its marked blocks."""
    if not argv:
        print(language_markdown())
        print()
        print(deck_markdown(load_deck()))
        return
    for name in argv:
        path = Path(name)
        path.write_text(fill_page(path.read_text()))


if __name__ == "__main__":
    main(sys.argv[1:])
