"""Short card texts and family codes, for a board that must fit 80 columns.

The full rules text of a card (:func:`~.cards.card_text`) is a sentence or two;
the board shows it when it fits on the card's line and this shorthand when not,
generated from the same data:

>>> from ranchhand.games.glory_ranch.cards import load_deck
>>> cards = load_deck().by_id()
>>> short_text(cards["hearth-drake"])
'protect a ranch card; ⧗+1 per dragon'
>>> short_text(cards["griffin"])
'RPS with a player: winner gives loser 1, loser draws 1'
>>> family_codes(("dragon", "fae", "beast", "spirit", "sea", "sky"))
{'dragon': 'D', 'fae': 'F', 'beast': 'B', 'spirit': 'Sp', 'sea': 'Se', 'sky': 'Sk'}
"""

from __future__ import annotations

from collections.abc import Sequence

from ranchhand.games.glory_ranch.cards import Bonus, Card, Effect

HOURGLASS = "⧗"
PROTECTED = "*"


def family_codes(families: Sequence[str]) -> dict[str, str]:
    """Each family's shortest prefix that no other family shares, capitalised."""
    codes = {}
    for family in families:
        size = 1
        while size < len(family) and any(
            other != family and other.startswith(family[:size]) for other in families
        ):
            size += 1
        codes[family] = family[:size].capitalize()
    return codes


def short_text(card: Card) -> str:
    """The card's actions and Hour Glass bonus in a few words ('no action' if none)."""
    parts = [short_effect(e) for e in card.actions]
    if card.bonus is not None:
        parts.append(short_bonus(card.bonus))
    return "; ".join(parts) or "no action"


def short_effect(e: Effect, role: str = "") -> str:
    """One action in a few words, done by ``role`` ('' for you, 'winner', 'loser')."""
    other = {"winner": "loser", "loser": "winner"}.get(role, "a player")
    me = role or "you"
    n = e.n
    do = e.do
    if do in ("draw", "discard"):
        third = f"{do}s"
        who = {
            "you": f"{role} {third}" if role else do,
            "each": f"all {do}",
            "others": f"others {do}",
            "chosen": f"a player {third}",
            "rival": f"{other} {third}",
        }[e.who]
        return f"{who} {n}"
    if do == "give":
        to = other if e.to == "rival" else "a player"
        return f"{_verb(role, 'give')} {to} {n}"
    if do == "pass":
        return f"all pass {n} {e.to}"
    if do == "trade":
        return f"{_verb(role, 'trade')} hands" + (f" with {other}" if e.target == "rival" else "")
    if do == "steal":
        whose = other if e.target == "rival" else "a player"
        return f"{_verb(role, 'steal')} {n} from {whose}"
    if do == "reverse":
        return "reverse play"
    if do == "skip":
        return "skip the next player"
    if do == "play":
        return f"{_verb(role, 'play')} again"
    if do == "place":
        return "goes leftmost" if e.at == "left" else "place anywhere"
    if do in ("banish", "return"):
        verb = _verb(role, "discard" if do == "banish" else "return")
        if e.target == "yours":
            return f"{verb} one of {'your' if me == 'you' else 'their'} ranch cards"
        whose = "a foe's" if e.target == "opponent" else "any"
        return f"{verb} {whose} ranch card"
    if do == "protect":
        return f"{_verb(role, 'protect')} a ranch card"
    then = [short_effect(w, "winner") for w in e.win] + [short_effect(x, "loser") for x in e.lose]
    return "RPS with a player: " + ", ".join(then)


def _verb(role: str, verb: str) -> str:
    return f"{role} {verb}s" if role else verb


def short_bonus(bonus: Bonus) -> str:
    """An Hour Glass bonus in a few words: ``⧗+2 per sea beside``."""
    plus = f"{HOURGLASS}+{bonus.glory}"
    kind = bonus.kind
    if kind == "family":
        return f"{plus} per {'card' if bonus.family == 'any' else bonus.family}"
    if kind == "neighbour":
        return f"{plus} per {'card' if bonus.family == 'any' else bonus.family} beside"
    if kind == "position":
        return f"{plus} if {bonus.at}most"
    if kind == "most":
        return f"{plus} if most {bonus.of}"
    if kind == "empty-hand":
        return f"{plus} if hand empty"
    return f"{plus} per family"
