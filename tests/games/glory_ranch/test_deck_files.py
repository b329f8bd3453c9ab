"""Deck files that load but would break the game are refused on load, naming the field."""

from __future__ import annotations

import random
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE, DataError
from ranchhand.games.glory_ranch import GloryRanch
from ranchhand.games.glory_ranch.cards import (
    DECK_FILE,
    PACKAGE,
    check_deck,
    deck_from_data,
    deck_from_text,
)
from ranchhand.games.glory_ranch.scoring import Tables
from tests.mutation import mutated

SHIPPED = tomllib.loads(resources.files(PACKAGE).joinpath(DECK_FILE).read_text())

TWO = """
families = ["beast", "sky"]
[[card]]
id = "ox"
name = "Ox"
family = "beast"
glory = 2
penalty = 1
[[card]]
id = "roc"
name = "Roc"
family = "sky"
glory = 5
penalty = 3
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('id = "ox"', 'id = "Ox"', "card[0].id: expected lower-case letters, digits and '-'"),
        ('id = "ox"', 'id = "big ox"', "card[0].id: expected lower-case letters"),
        ('id = "ox"', 'id = "ox²"', "card[0].id: expected lower-case letters"),
        ('id = "ox"', 'id = "öx"', "card[0].id: expected lower-case letters"),
        ('id = "ox"', 'id = ""', "card[0].id: expected lower-case letters"),
        ('id = "roc"', 'id = "ox"', "card[1] 'ox'.id: duplicate card id 'ox'"),
        ('name = "Roc"', 'name = "OX"', "card[1] 'roc'.name: 'OX' reads as 'ox', already card"),
        ('name = "Ox"', 'name = "Roc"', "card[1] 'roc'.id: 'roc' is already the name of card 'ox'"),
        ('name = "Ox"', 'name = ""', "card[0] 'ox'.name: expected 1 to 40 printable"),
        ('name = "Ox"', 'name = "Ox\\u001b[2J"', "card[0] 'ox'.name: expected 1 to 40 printable"),
        ('name = "Ox"', 'name = "Big  Ox"', "card[0] 'ox'.name: single spaces"),
        ('name = "Ox"', 'name = "Ox\\t"', "card[0] 'ox'.name"),
        (
            "penalty = 1",
            "penalty = 1\ncopies = -1",
            "card[0] 'ox'.copies: expected an integer 1..6",
        ),
        ("penalty = 1", "penalty = 1\ncopies = 0", "card[0] 'ox'.copies: expected an integer 1..6"),
        ('"beast", "sky"', '"beast", "beast", "sky"', "families[1]: duplicate family 'beast'"),
        ('"beast", "sky"', '"beast", "sky", "any"', "families[2]: 'any' means every card"),
        ('"beast", "sky"', '"beast", "Sky"', "families[1]: expected lower-case"),
        (
            "penalty = 1",
            'penalty = 1\nactions = [{ do = "summon", card = "dragon" }]',
            "card[0] 'ox'.actions[0].do: expected one of draw",
        ),
        (
            "penalty = 1",
            'penalty = 1\nactions = [{ do = "draw", card = "dragon" }]',
            "card[0] 'ox'.actions[0].card: unknown field",
        ),
        (
            "penalty = 1",
            'penalty = 1\nhourglass = { per = "most", of = "dragon", glory = 1 }',
            "card[0] 'ox'.hourglass.of: expected one of beast, sky, cards",
        ),
    ],
)
def test_a_deck_that_would_break_the_game_is_refused(old: str, new: str, message: str) -> None:
    assert old in TWO
    text = TWO.replace(old, new, 1)
    with pytest.raises(DataError) as caught:
        deck_from_text(text)
    assert message in str(caught.value)
    assert str(caught.value).startswith("deck.toml: ")


def test_the_two_card_deck_loads_and_names_are_typed_like_ids() -> None:
    same = TWO.replace('name = "Ox"', 'name = "Big Bird"').replace(
        'name = "Roc"', 'name = "big bird"'
    )
    with pytest.raises(DataError, match=r"card\[1\] 'roc'\.name: 'big bird' reads as 'big-bird'"):
        deck_from_text(same)
    deck = deck_from_text(TWO)
    assert [c.id for c in deck.cards] == ["ox", "roc"]
    assert deck.find("OX") is deck.cards[0]


def test_a_small_deck_names_its_own_file(tmp_path: Path) -> None:
    path = tmp_path / "small.toml"
    path.write_text(TWO)
    with pytest.raises(DataError, match=r"small\.toml: card: a deck needs at least 30 cards"):
        GloryRanch(2, deck=str(path))
    with pytest.raises(DataError, match=r"^mine\.toml: "):
        check_deck(deck_from_text(TWO), "mine.toml")


def test_too_many_creatures_are_refused() -> None:
    cards = "".join(
        f'[[card]]\nid = "c{i}"\nname = "C{i}"\nfamily = "beast"\nglory = 1\npenalty = 1\n'
        for i in range(201)
    )
    with pytest.raises(DataError, match="card: at most 200 creatures, got 201"):
        deck_from_text('families = ["beast"]\n' + cards)


# ------------------------------------------------------- mutation testing
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "Ox", "ox", "wyvern", "Wyvern", "dragon", "any", "rival", "chosen",
                       "draw", "rps", "left", "²", "a b", "x" * 50])
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated(SHIPPED, VALUES))
def test_a_mutated_deck_file_loads_or_is_refused_with_a_data_error(data: dict[str, Any]) -> None:
    try:
        deck = deck_from_data(data, "cards.toml")
        check_deck(deck)
    except DataError as error:
        assert str(error).startswith("cards.toml")
        return
    Tables.of(deck)
    for card in deck.cards:
        assert card.text
        assert deck.find(card.id) is card and deck.find(card.name) is card


@pytest.mark.parametrize("seed", range(3))
def test_a_mutated_deck_that_loads_plays(seed: int, tmp_path: Path) -> None:
    """Decks that pass the checks make games that play to the end."""
    rng = random.Random(seed)
    text = resources.files(PACKAGE).joinpath(DECK_FILE).read_text()
    glories = re.findall(r"(?m)^glory = \d+$", text)
    for old in rng.sample(glories, 5):
        text = text.replace(old, f"glory = {rng.randint(0, 10)}", 1)
    text = text.replace('name = "Roc"', 'name = "Great Roc"')
    path = tmp_path / "deck.toml"
    path.write_text(text)
    game = GloryRanch(3, deck=str(path), target=15, max_turns=300)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = CHANCE if state.is_chance_node() else state.acting_players()[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
    assert game.deck.find("Great Roc") is not None
