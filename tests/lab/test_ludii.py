"""Ludii's metrics on small hand-made games, each checked twice: against values worked out
by hand, and against a second, direct implementation of Ludii's definition (written from
the definitions in docs/lab.md, loop by loop, sharing no code with ranchhand.lab)."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranchhand.lab.flow import Flow
from ranchhand.lab.ludii import MoveFacts, move_facts
from ranchhand.lab.metrics import ludii_metrics
from ranchhand.lab.trace import LabGame

# Three hand-made two-player games: (legal actions before each move, evaluation before
# each move, winners, turns, truncated).
GAME_A = ([2, 1, 3, 2], [[0.5, 0.5], [0.6, 0.4], [0.3, 0.7], [0.2, 0.8]], (1,), 2, False)
GAME_B = ([1, 1, 4], [[0.5, 0.5], [0.9, 0.1], [0.8, 0.2]], (0,), 2, False)
GAME_C = ([3, 3], [[0.5, 0.5], [0.4, 0.6]], (), 9, True)  # cut off by max_turns
HAND = [GAME_A, GAME_B, GAME_C]


def lab_game(index: int, spec: tuple) -> LabGame:  # type: ignore[type-arg]
    legal, evaluations, winners, turns, truncated = spec
    facts = move_facts(legal, evaluations, winners, 2)
    return LabGame(index, winners, truncated, turns, None, {}, index, len(legal), sum(legal),
                   Flow(0, 0), facts)  # fmt: skip


def test_per_game_values_known_by_hand() -> None:
    a = lab_game(0, GAME_A).moves
    # leaders {0,1} {0} {1} {1}: the first reading and two changes, over 4 moves
    assert a.lead_change == pytest.approx(3 / 4)
    # the winner (1) trails the top by 0, 0.2, 0, 0
    assert a.drama == pytest.approx(0.05) and a.drama_max == pytest.approx(0.2)
    # the loser's best is 0.6; the winner first exceeds it before move 2 (0.7): 2 / 4
    assert a.decisiveness == pytest.approx(0.5)
    # each player's variance over the moves: var(.5,.6,.3,.2) = 0.025, twice
    assert a.stability == pytest.approx(0.05)
    assert a.decision_share == pytest.approx(3 / 4)
    b = lab_game(1, GAME_B).moves
    assert b.lead_change == pytest.approx(2 / 3)  # {0,1} then {0} twice
    assert b.drama == 0.0 and b.decisiveness == pytest.approx(1 / 3)  # 0.9 > 0.5 at move 1
    c = lab_game(2, GAME_C).moves
    # no winner: both players top-ranked; drama is their mean gap; no loser, no decisiveness
    assert c.drama == pytest.approx((0 + 0.1) / 2) and c.decisiveness is None


def test_cell_values_known_by_hand() -> None:
    m = ludii_metrics([lab_game(i, g) for i, g in enumerate(HAND)], 2)

    def value(name: str) -> float:
        e = m[name]
        assert e is not None
        return e.value

    assert value("Balance") == pytest.approx(1.0)  # one win each over three games
    assert value("Completion") == pytest.approx(2 / 3)
    assert value("Timeouts") == pytest.approx(1 / 3)
    assert value("Drawishness") == 0.0
    assert value("Duration (turns)") == pytest.approx(13 / 3)
    assert value("Duration (moves)") == pytest.approx(3.0)
    assert value("Branching factor") == pytest.approx((8 / 4 + 6 / 3 + 6 / 2) / 3)
    assert value("Lead change") == pytest.approx((3 / 4 + 2 / 3 + 2 / 2) / 3)
    assert value("Decisiveness") == pytest.approx((1 / 2 + 1 / 3) / 2)


# ------------------------------------------------------ the second implementation
def direct(legal: list[int], evaluations: list[list[float]], winners: tuple[int, ...],
           players: int) -> dict[str, float | None]:  # fmt: skip
    """Ludii's per-game values straight from docs/lab.md."""
    m = len(legal)
    ranked = list(winners) if winners else list(range(players))
    out: dict[str, float | None] = {"Decision moves": len([n for n in legal if n >= 2]) / m}
    changes = 0
    before: set[int] = set()
    gaps = []
    for e in evaluations:
        top = max(e)
        now = {p for p in range(players) if e[p] == top}
        if now != before:
            changes += 1
        before = now
        gaps.append(sum(top - e[w] for w in ranked) / len(ranked))
    out["Lead change"] = changes / m
    out["Drama (average)"] = sum(gaps) / m
    out["Drama (max)"] = max(gaps)
    out["Stability"] = sum(statistics.pvariance([e[p] for e in evaluations])
                           for p in range(players))  # fmt: skip
    losers = [p for p in range(players) if p not in ranked]
    if losers:
        line = max(max(e[p] for p in losers) for e in evaluations)
        at = m
        for i, e in enumerate(evaluations):
            if max(e[w] for w in ranked) > line:
                at = i
                break
        out["Decisiveness"] = at / m
    else:
        out["Decisiveness"] = None
    entropies = []
    for e in evaluations:
        total = sum(e)
        h = -sum((v / total) * math.log(v / total) for v in e if v > 0)
        entropies.append(h / math.log(players))
    out["Uncertainty"] = sum(entropies) / m
    return out


def ours(facts: MoveFacts) -> dict[str, float | None]:
    return {
        "Decision moves": facts.decision_share,
        "Lead change": facts.lead_change,
        "Drama (average)": facts.drama,
        "Drama (max)": facts.drama_max,
        "Stability": facts.stability,
        "Decisiveness": facts.decisiveness,
        "Uncertainty": facts.uncertainty,
    }


def _close(a: dict[str, float | None], b: dict[str, float | None]) -> None:
    assert a.keys() == b.keys()
    for key in a:
        x, y = a[key], b[key]
        assert (x is None) == (y is None), key
        if x is not None and y is not None:
            assert x == pytest.approx(y, abs=1e-12), key


@pytest.mark.parametrize("spec", HAND)
def test_the_hand_made_games_agree_with_the_direct_definition(spec: tuple) -> None:  # type: ignore[type-arg]
    legal, evaluations, winners, _, _ = spec
    _close(ours(move_facts(legal, evaluations, winners, 2)), direct(legal, evaluations, winners, 2))


def _chances(players: int) -> st.SearchStrategy[list[float]]:
    weights = st.lists(st.integers(0, 4), min_size=players, max_size=players)
    return weights.filter(any).map(lambda w: [x / sum(w) for x in w])


@st.composite
def games(draw: st.DrawFn) -> tuple[list[int], list[list[float]], tuple[int, ...], int]:
    players = draw(st.integers(2, 4))
    moves = draw(st.integers(1, 12))
    legal = draw(st.lists(st.integers(1, 5), min_size=moves, max_size=moves))
    evaluations = draw(st.lists(_chances(players), min_size=moves, max_size=moves))
    winners = draw(st.sets(st.integers(0, players - 1), max_size=players))
    return legal, evaluations, tuple(sorted(winners)), players


@given(games())
def test_random_games_agree_with_the_direct_definition(
    game: tuple[list[int], list[list[float]], tuple[int, ...], int],
) -> None:
    legal, evaluations, winners, players = game
    _close(ours(move_facts(legal, evaluations, winners, players)),
           direct(legal, evaluations, winners, players))  # fmt: skip


def test_a_game_without_evaluation_has_only_the_counts() -> None:
    facts = move_facts([2, 1], None, (0,), 2)
    assert facts.decision_share == 0.5 and facts.lead_change is None and facts.drama is None
