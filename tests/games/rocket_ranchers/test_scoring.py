"""End-game scoring: every table row, both Abundance tables and counts, Space Cats, ties."""

from __future__ import annotations

import pytest

from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.scoring import (
    cat_points,
    score_corral,
    score_players,
    winner,
)
from ranchhand.games.rocket_ranchers.tables import HIDDEN
from tests.games.rocket_ranchers.helpers import endgame, position

RULEBOOK = [(0, 0), (4, 0), (5, 12), (6, 12), (7, 18), (8, 18), (9, 24), (12, 24)]
SCORING_CARD = [(0, 0), (4, 0), (5, 10), (6, 10), (7, 15), (8, 15), (9, 22), (12, 22)]
VARIETY = [(1, 0), (2, 0), (3, 8), (4, 12), (5, 18)]


def _kow_corral(game: RocketGame, cards: int, biomes: int = 1) -> tuple[int, tuple[int, ...]]:
    """A corral of ``cards`` face-up Kow cards spread over the first ``biomes`` biomes."""
    kind = game.tables.kind_by_text
    names = ["desert", "grassland", "jungle", "mountains", "tundra"]
    faces = [f"kow/{names[i % biomes]}/{1 + (i // biomes) % 3}" for i in range(cards)]
    return kind["bako/desert/3"], tuple(kind[f] for f in faces)


@pytest.mark.parametrize(
    ("table_name", "rows"), [("rulebook", RULEBOOK), ("scoring-card", SCORING_CARD)]
)
@pytest.mark.parametrize("index", range(len(RULEBOOK)))
def test_abundance_counts_face_up_cards(table_name: str, rows: list, index: int) -> None:
    cards, points = rows[index]
    game = RocketGame(5, abundance_table=table_name)
    corral = _kow_corral(game, cards)
    assert score_corral(game.tables, game.options, corral).abundance == points


@pytest.mark.parametrize(
    ("table_name", "rows"), [("rulebook", RULEBOOK), ("scoring-card", SCORING_CARD)]
)
@pytest.mark.parametrize("index", range(len(RULEBOOK)))
def test_abundance_counting_dots(table_name: str, rows: list, index: int) -> None:
    dots, points = rows[index]
    game = RocketGame(5, abundance_table=table_name, abundance_counts="dots")
    kind = game.tables.kind_by_text
    threes, rest = divmod(dots, 3)
    faces = [f"kow/{b}/3" for b in ("desert", "grassland", "jungle", "mountains")[:threes]]
    faces += [f"kow/tundra/{rest}"] if rest else []
    corral = (kind["bako/desert/3"], tuple(kind[f] for f in faces))
    assert sum(game.tables.dots[k] for k in corral[1]) == dots
    assert score_corral(game.tables, game.options, corral).abundance == points


@pytest.mark.parametrize(("biomes", "points"), VARIETY)
def test_variety_counts_biomes_of_face_up_cards(biomes: int, points: int) -> None:
    game = RocketGame(5)
    score = score_corral(game.tables, game.options, _kow_corral(game, biomes, biomes))
    assert score.variety == points


def test_the_face_down_founder_counts_for_variety_only_with_variety_counts_all() -> None:
    kind = RocketGame(5).tables.kind_by_text
    corral = (kind["bako/tundra/2"], tuple(kind[f"kow/{b}/2"] for b in ("desert", "jungle")))
    face_up = RocketGame(5)
    every = RocketGame(5, variety_counts="all")
    assert score_corral(face_up.tables, face_up.options, corral).variety == 0
    assert score_corral(every.tables, every.options, corral).variety == 8
    hidden = (HIDDEN, corral[1])  # what another player sees: no biome to count
    assert score_corral(every.tables, every.options, hidden).variety == 0


def test_each_corral_scores_the_better_way_unless_told() -> None:
    game = RocketGame(5)
    wide = _kow_corral(game, 5, 5)  # 5 cards (12) in 5 biomes (18)
    assert score_corral(game.tables, game.options, wide).points == 18
    assert score_corral(game.tables, game.options, wide).scored_as == "variety"
    forced = RocketGame(5, corral_scoring="abundance")
    assert score_corral(forced.tables, forced.options, wide).points == 12


def test_space_cats_most_lose_five_ties_all_lose_others_gain_two_each() -> None:
    tables = RocketGame(5).tables
    assert cat_points([4, 2, 0], tables) == [-5, 4, 0]
    assert cat_points([3, 3, 1, 0], tables) == [-5, -5, 2, 0]
    assert cat_points([0, 0], tables) == [-5, -5]  # nobody has cats: all "have the most"


def test_score_split_adds_up() -> None:
    game = RocketGame(2)
    corrals = [[_kow_corral(game, 7), _kow_corral(game, 4, 4)], [_kow_corral(game, 2)]]
    scores = score_players(game.tables, game.options, corrals, [1, 3])
    assert [(s.abundance, s.variety, s.cats, s.total) for s in scores] == [
        (18, 12, 2, 32),
        (0, 0, -5, -5),
    ]


def test_ties_go_to_most_space_cats_then_the_later_seat() -> None:
    assert winner([20, 20, 10], [1, 3, 0]) == 1
    assert winner([20, 20, 10], [3, 1, 0]) == 0
    assert winner([20, 20, 20], [2, 2, 0]) == 1
    assert winner([5, 5, 5], [0, 0, 0]) == 2


def test_the_outcome_reports_scores_and_the_winner() -> None:
    state = endgame(2, 1)  # the deck is empty: the last turn of the game
    state.apply_text("beam I2 r0 @a1")
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    outcome = state.outcome()
    assert outcome is not None
    details = state.details()
    assert list(outcome.scores) == [float(s) for s in details["score"]]
    assert outcome.winners == (details["winner"],)


def test_a_cut_rollout_is_scored_by_the_points_so_far() -> None:
    """``evaluate`` (for search bots): shares of 1, the leader's the largest."""
    kow = ["kow/desert/3", "kow/jungle/1", "kow/mountains/2"]
    state = position(seats=[{"corrals": [{"founder": "flama/desert/2", "face_up": kow}]}])
    assert [s.total for s in state.observe(0).scores()] == [3, -5]  # V8 - 5, then -5
    estimate = state.evaluate()
    assert abs(sum(estimate) - 1) < 1e-9
    assert estimate[0] > 0.7 > 0.3 > estimate[1] > 0
    assert RocketGame(3).new_initial_state().evaluate() == [1 / 3] * 3
