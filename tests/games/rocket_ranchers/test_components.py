"""The data files: the deck's spread of 4+/5+ marks, beam patterns, and load errors."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from ranchhand.core import DataError
from ranchhand.games.rocket_ranchers.components import load_beams, load_deck
from ranchhand.games.rocket_ranchers.game import RocketGame

SPECIES = [
    *("Bako", "Canis", "Capiwata", "Chicken", "Eleplant"),
    *("Flama", "Kelk", "Kow", "Plushie", "Woolbee"),
]
BIOMES = ["Desert", "Grassland", "Jungle", "Mountains", "Tundra"]


def test_the_standard_deck_has_every_card_once() -> None:
    deck = load_deck("standard")
    assert list(deck.species) == SPECIES and list(deck.biomes) == BIOMES
    faces = Counter((c.species, c.biome, c.dots) for c in deck.cards)
    assert len(deck.cards) == 150 and set(faces.values()) == {1}
    assert set(faces) == {(s, b, d) for s in SPECIES for b in BIOMES for d in (1, 2, 3)}
    marks = Counter(c.players for c in deck.cards)
    assert marks == {2: 90, 4: 30, 5: 30}
    assert deck.space_cats == {2: 11, 3: 13, 4: 17, 5: 21}


@pytest.mark.parametrize(
    ("players", "per_species", "per_biome"), [(2, 9, 18), (3, 9, 18), (4, 12, 24), (5, 15, 30)]
)
def test_the_marks_are_spread_evenly(players: int, per_species: int, per_biome: int) -> None:
    cards, _ = load_deck("standard").for_players(players)
    assert set(Counter(c.species for c in cards).values()) == {per_species}
    assert set(Counter(c.biome for c in cards).values()) == {per_biome}


@pytest.mark.parametrize(("players", "size"), [(2, 101), (3, 103), (4, 137), (5, 171)])
def test_the_deck_built_for_each_player_count(players: int, size: int) -> None:
    state = RocketGame(players).new_initial_state()
    assert state.deck_size == size


def test_the_standard_beams() -> None:
    beams = load_beams("standard")
    assert [b.name for b in beams] == ["I2", "I3", "L3", "O4"]
    assert [len(b.cells) for b in beams] == [2, 3, 3, 4]


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_bad_deck_file_names_the_field(tmp_path: Path) -> None:
    text = (
        Path(__file__).parents[3] / "src/ranchhand/games/rocket_ranchers/deck-standard.toml"
    ).read_text()
    bad = _write(
        tmp_path,
        "deck.toml",
        text.replace('biome = "Tundra", dots = 3', 'biome = "Tundra", dots = 0', 1),
    )
    with pytest.raises(DataError, match=r"cards\[14\]\.dots: expected an integer 1\.\.9, got 0"):
        RocketGame(2, deck=bad)
    worse = _write(tmp_path, "deck2.toml", text.replace('species = "Kow"', 'species = "Cow"', 1))
    with pytest.raises(DataError, match="species: expected one of"):
        RocketGame(2, deck=worse)


def test_a_bad_beam_file_names_the_field(tmp_path: Path) -> None:
    text = (
        Path(__file__).parents[3] / "src/ranchhand/games/rocket_ranchers/beams-standard.toml"
    ).read_text()
    bad = _write(tmp_path, "beams.toml", text.replace("[[0, 0], [0, 1]]", "[[0, 0], [0, 2]]"))
    with pytest.raises(
        DataError, match=r"beam\[0\]\.cells: the pattern must be orthogonally connected"
    ):
        RocketGame(2, beams=bad)
    with pytest.raises(DataError, match="no such data file"):
        RocketGame(2, beams="deluxe")


def test_a_custom_beam_file_changes_the_game(tmp_path: Path) -> None:
    text = (
        Path(__file__).parents[3] / "src/ranchhand/games/rocket_ranchers/beams-standard.toml"
    ).read_text()
    path = _write(tmp_path, "beams.toml", text.replace('name = "O4"', 'name = "Q4"'))
    state = RocketGame(2, beams=path).new_initial_state()
    assert [b.name for b in state.tables.beams] == ["I2", "I3", "L3", "Q4"]


def test_draws_are_weighted_by_identical_copies(tmp_path: Path) -> None:
    lines = ['name = "tiny"', 'species = ["Kow", "Bako"]']
    lines.append('biomes = [{ name = "Desert", colour = "yellow" }]')
    lines.append("space_cats = { 2 = 3, 3 = 3, 4 = 3, 5 = 3 }")
    cards = ['{ species = "Kow", biome = "Desert", dots = 1 }'] * 12
    cards += ['{ species = "Bako", biome = "Desert", dots = 2 }'] * 6
    lines.append("cards = [" + ", ".join(cards) + "]")
    path = _write(tmp_path, "tiny.toml", "\n".join(lines) + "\n")
    state = RocketGame(2, deck=path).new_initial_state()
    probabilities = {str(a): p for a, p in state.chance_outcomes().probabilities()}
    assert probabilities == {
        "draw kow/desert/1": Fraction(12, 21),
        "draw bako/desert/2": Fraction(6, 21),
        "draw cat": Fraction(3, 21),
    }
    state.apply_text("draw kow/desert/1")
    assert state.chance_outcomes().probability(state.parse_action("draw kow/desert/1")) == Fraction(
        11, 20
    )


def test_the_first_draw_of_a_standard_game() -> None:
    state = RocketGame(2).new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 91  # 90 different Wildlife cards and the Space Cats
    assert outcomes.probability(state.parse_action("draw cat")) == Fraction(11, 101)
