"""The deck file: validation errors that point at the card and field, generated rules text."""

from __future__ import annotations

import re

import pytest

from ranchhand.core import DataError
from ranchhand.games.glory_ranch.cards import (
    BONUS_KINDS,
    VOCABULARY,
    Bonus,
    Effect,
    bonus_text,
    deck_from_text,
    effect_text,
    load_deck,
)
from tests.games.glory_ranch.helpers import VOCABULARY_DECK

GOOD = """
families = ["beast"]
[[card]]
id = "ox"
name = "Ox"
family = "beast"
glory = 2
penalty = 1
"""


def test_standard_deck_is_big_enough_and_original() -> None:
    deck = load_deck()
    assert deck.size >= 60
    assert len(deck.cards) >= 25
    assert len({c.name for c in deck.cards}) == len(deck.cards)
    for card in deck.cards:
        assert card.text  # every card reads as text generated from its data


def test_test_deck_uses_every_action_word_and_bonus() -> None:
    deck = load_deck(VOCABULARY_DECK)
    words = {e.do for c in deck.cards for e in c.actions}
    words |= {x.do for c in deck.cards for e in c.actions for x in (*e.win, *e.lose)}
    assert words == set(VOCABULARY)
    assert {c.bonus.kind for c in deck.cards if c.bonus} == set(BONUS_KINDS)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("glory = 2", None),
        ('glory = "x"', "card[0] 'ox'.glory: expected an integer"),
        ("glory = 11", "card[0] 'ox'.glory: expected an integer 0..10"),
        ('family = "bird"', "card[0] 'ox'.family: expected one of beast"),
        ('actions = [{ do = "fly" }]', "actions[0].do: expected one of draw"),
        ('actions = [{ do = "draw", who = "rival" }]', "'rival' is only allowed inside an rps"),
        ('actions = [{ do = "draw", n = 9 }]', "actions[0].n: expected an integer 1..3"),
        ('actions = [{ do = "skip", n = 2 }]', "actions[0].n: unknown field"),
        ('actions = [{ do = "skip" }, { do = "place", at = "left" }]', "place must be the card"),
        ('actions = [{ do = "rps", against = "chosen" }]', "needs a consequence"),
        ('hourglass = { per = "family", family = "fae", glory = 1 }', "hourglass.family"),
        ('colour = "red"', "card[0] 'ox'.colour: unknown field"),
    ],
)
def test_validation_names_the_card_and_field(change: str, message: str | None) -> None:
    key = change.split(" = ")[0]
    lines = [line for line in GOOD.splitlines() if not line.startswith(f"{key} =")]
    text = "\n".join(lines) + "\n" + change + "\n"
    if message is None:
        assert deck_from_text(text).cards[0].glory == 2
        return
    with pytest.raises(DataError, match=re.escape(message)) as caught:
        deck_from_text(text)
    assert str(caught.value).startswith("deck.toml: ")


def test_duplicate_ids_and_nested_contests_are_refused() -> None:
    with pytest.raises(DataError, match="duplicate card id 'ox'"):
        deck_from_text(GOOD + GOOD.split("\n", 2)[2])
    nested = GOOD + (
        'actions = [{ do = "rps", against = "chosen", '
        'win = [{ do = "rps", against = "chosen", win = [{ do = "skip" }] }] }]\n'
    )
    with pytest.raises(DataError, match="cannot be a consequence of another contest"):
        deck_from_text(nested)


@pytest.mark.parametrize(
    ("effect", "text"),
    [
        (Effect("draw", 2), "Draw 2 cards."),
        (Effect("draw", 1, who="each"), "Each player draws a card."),
        (Effect("draw", 1, who="others"), "Each other player draws a card."),
        (Effect("draw", 2, who="chosen"), "Choose another player: they draw 2 cards."),
        (Effect("discard", 1), "Discard a card."),
        (Effect("discard", 1, who="each"), "Each player discards a card."),
        (Effect("discard", 1, who="chosen"), "Choose another player: they discard a card."),
        (Effect("give", 1, to="chosen"), "Give a card from your hand to another player."),
        (Effect("pass", 1, to="left"), "Every player passes a card to the player on their left."),
        (
            Effect("pass", 2, to="right"),
            "Every player passes 2 cards to the player on their right.",
        ),
        (Effect("trade", target="chosen"), "Trade hands with another player."),
        (Effect("steal", 2, target="chosen"), "Steal 2 random cards from another player's hand."),
        (Effect("reverse"), "Reverse the direction of play."),
        (Effect("skip"), "The next player loses their turn."),
        (Effect("play"), "Play another card."),
        (Effect("place", at="left"), "Place this card at the left end of your ranch."),
        (Effect("place", at="any"), "Place this card anywhere in your ranch."),
        (Effect("banish", target="opponent"), "Discard a card from another player's ranch."),
        (Effect("banish", target="any"), "Discard a card from any ranch."),
        (
            Effect("return", target="opponent"),
            "Return a card from another player's ranch to its owner's hand.",
        ),
        (Effect("return", target="yours"), "Return a card from your ranch to your hand."),
        (
            Effect("protect"),
            "Protect a card in your ranch: it cannot be discarded or returned this round.",
        ),
        (
            Effect(
                "rps",
                target="chosen",
                win=(Effect("steal", 1, target="rival"),),
                lose=(Effect("draw", 1),),
            ),
            "Play rock-paper-scissors with another player; then the winner steals a random "
            "card from the loser's hand and the loser draws a card.",
        ),
    ],
)
def test_generated_action_text(effect: Effect, text: str) -> None:
    assert effect_text(effect) == text


@pytest.mark.parametrize(
    ("bonus", "text"),
    [
        (Bonus("family", 1, family="dragon"), "+1 Glory for each Dragon in your ranch."),
        (Bonus("family", 1, family="any"), "+1 Glory for each card in your ranch."),
        (Bonus("neighbour", 2, family="sea"), "+2 Glory for each Sea next to this card."),
        (
            Bonus("position", 3, at="left"),
            "+3 Glory if this card is the leftmost card of your ranch.",
        ),
        (
            Bonus("most", 2, of="cards"),
            "+2 Glory if no ranch holds more cards than yours (at least one).",
        ),
        (Bonus("empty-hand", 2), "+2 Glory if your hand is empty."),
        (Bonus("variety", 1), "+1 Glory for each family in your ranch."),
    ],
)
def test_generated_hour_glass_text(bonus: Bonus, text: str) -> None:
    assert bonus_text(bonus) == text


def test_card_text_joins_actions_and_hour_glass() -> None:
    drake = load_deck().by_id()["hearth-drake"]
    assert drake.text == (
        "Protect a card in your ranch: it cannot be discarded or returned this round. "
        "Hour Glass: +1 Glory for each Dragon in your ranch."
    )


def test_rules_page_shows_the_current_language_and_deck() -> None:
    from pathlib import Path

    from ranchhand.games.glory_ranch.catalogue import fill_page

    page = Path(__file__).resolve().parents[3] / "docs" / "games" / "glory-ranch.md"
    text = page.read_text()
    assert fill_page(text) == text, (
        "regenerate with: python -m ranchhand.games.glory_ranch.catalogue docs/games/glory-ranch.md"
    )
    for card in load_deck().cards:
        assert card.text in text
