"""The data files: the deck's spread of 4+/5+ marks, beam patterns, and files refused on load.

A file that loads must make a playable game; one that would break it (a name the
notation cannot type, a count that does not fit) is refused naming the field.
"""

from __future__ import annotations

import json
import random
import tempfile
import tomllib
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranchhand.core import CHANCE, DataError
from ranchhand.games.rocket_ranchers.components import load_beams, load_deck
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState
from tests.mutation import mutated

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


# --------------------------------------------------------------- files that load but break
SHIPPED = Path(__file__).parents[3] / "src/ranchhand/games/rocket_ranchers"


def _toml(value: object) -> str:
    """A TOML value (inline tables and arrays) for the mutated data below."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"


def _document(data: dict) -> str:
    return "".join(f"{json.dumps(str(k))} = {_toml(v)}\n" for k, v in data.items())


def _shipped(kind: str) -> dict:
    return tomllib.loads((SHIPPED / f"{kind}-standard.toml").read_text())


def _deck_with(tmp_path: Path, change: Callable[[dict], None]) -> str:
    data = _shipped("deck")
    change(data)
    return _write(tmp_path, "deck.toml", _document(data))


def _beams_with(tmp_path: Path, change: Callable[[dict], None]) -> str:
    data = _shipped("beams")
    change(data)
    return _write(tmp_path, "beams.toml", _document(data))


def _set(path: tuple, value: object) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def test_the_shipped_files_written_back_load_the_same(tmp_path: Path) -> None:
    deck = load_deck(_deck_with(tmp_path, lambda d: None))
    assert deck == load_deck("standard")
    assert load_beams(_beams_with(tmp_path, lambda d: None)) == load_beams("standard")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(("biomes", 0, "name"), "Deep Sea"), r"biomes\[0\]\.name: expected one word"),
        (_set(("biomes", 0, "name"), "Désert"), r"biomes\[0\]\.name: expected one word"),
        (_set(("biomes", 1, "name"), "DESERT"), r"biomes\[1\]: 'DESERT' differs from 'Desert'"),
        (_set(("species", 7), "Space Kow"), r"species\[7\]: expected one word"),
        (_set(("species", 7), "BAKO"), r"species\[7\]: 'BAKO' differs from 'Bako' only in case"),
        (_set(("species", 7), "K" * 25), r"species\[7\]: expected one word of 1 to 24"),
        (_set(("species",), []), "species: expected a non-empty list"),
        (_set(("cards", 0, "species"), "bako"), r"cards\[0\]\.species: expected one of"),
        (_set(("cards", 0, "biome"), "desert"), r"cards\[0\]\.biome: expected one of"),
        (_set(("biomes", 0, "colour"), "bold red"), r"biomes\[0\]\.colour: expected a colour"),
        (_set(("biomes", 0, "colour"), "ultraviolet"), r"biomes\[0\]\.colour: expected a colour"),
        (_set(("space_cats", "2"), -3), r"space_cats\.2: expected an integer 0\.\.1000, got -3"),
        (_set(("space_cats", "3"), True), r"space_cats\.3: expected an integer, got True"),
        (_set(("space_cats", "5"), 12), r"space_cats\.5: 12 Space Cats for 5 players is fewer"),
        (_set(("space_cats", "6"), 25), r"space_cats\.6: unknown field"),
        (_set(("cards", 3, "mark"), "6+"), r"cards\[3\]\.mark: expected one of"),
        (_set(("cards", 3, "dots"), -3), r"cards\[3\]\.dots: expected an integer 1\.\.9, got -3"),
    ],
)
def test_a_deck_that_would_break_the_game_is_refused(
    tmp_path: Path, change: Callable[[dict], None], message: str
) -> None:
    with pytest.raises(DataError, match=message):
        load_deck(_deck_with(tmp_path, change))


def test_marks_that_leave_a_player_count_without_wildlife_are_refused(tmp_path: Path) -> None:
    def every_card_5_plus(data: dict) -> None:
        for card in data["cards"]:
            card["mark"] = "5+"

    with pytest.raises(DataError, match="cards: the 2-player deck has no Wildlife card"):
        load_deck(_deck_with(tmp_path, every_card_5_plus))

    def five_cards_for_small_tables(data: dict) -> None:
        for index, card in enumerate(data["cards"]):
            card["mark"] = "" if index < 5 else "4+"

    with pytest.raises(DataError, match="the 2-player deck has 5 Wildlife cards and 11 Space"):
        load_deck(_deck_with(tmp_path, five_cards_for_small_tables))


@pytest.mark.parametrize("name", ["at", "reboot", "END", "in", "corral", "cat", "draw", "form"])
def test_a_beam_named_like_a_notation_word_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(DataError, match=r"beam\[2\]\.name: .* a word of the action notation"):
        load_beams(_beams_with(tmp_path, _set(("beam", 2, "name"), name)))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("r90", "reads as a rotation or a cell"),
        ("B2", "reads as a rotation or a cell"),
        ("i2", r"'i2' is the name of beam\[0\] too"),
        ("L 3", "expected a short name"),
        ("Lightning", "expected a short name of 1 to 8"),
        ("3L", "starting with a letter"),
    ],
)
def test_beam_names_the_notation_cannot_tell_apart_are_refused(
    tmp_path: Path, name: str, message: str
) -> None:
    with pytest.raises(DataError, match=rf"beam\[1\]\.name: .*{message}"):
        load_beams(_beams_with(tmp_path, _set(("beam", 1, "name"), name)))


def test_a_beam_set_must_have_four_beams(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="beam: expected four beams"):
        load_beams(_beams_with(tmp_path, lambda d: d["beam"].pop()))


# ------------------------------------------------------------------- fuzzing the files
ODD = st.one_of(
    st.integers(-(10**20), 10**20),
    st.integers(-3, 20),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", " ", "Kow", "kow", "KOW", "Desert", "at", "cat", "5+", "I2", "r90"]),
    st.lists(st.integers(-2, 5), max_size=3),
    st.just({}),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(which=st.sampled_from(["deck", "beams"]), data=st.data())
def test_mutated_data_files_load_and_play_or_raise_data_error(
    which: str, data: st.DataObject
) -> None:
    document = data.draw(mutated(_shipped(which), ODD))
    with tempfile.TemporaryDirectory() as folder:
        path = _write(Path(folder), f"{which}.toml", _document(document))
        try:
            game = RocketGame(2, **{which: path})
        except DataError:
            return
        _play_a_little(game.new_initial_state())


def _play_a_little(state: RocketState, steps: int = 250) -> None:
    """Random play that also round-trips every offered action through its text."""
    rng = random.Random(0)
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
            continue
        actions = state.legal_actions()
        for action in rng.sample(actions, min(5, len(actions))):
            assert state.parse_action(str(action)) == action
        state.apply(rng.choice(actions))
