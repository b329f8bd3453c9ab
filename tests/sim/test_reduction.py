"""The running reduction gives the very report the old keep-every-result one gave.

The reference below is the reduction as it was before results were added up on
arrival (a list of every game, ``numpy`` statistics, each game's ``summarize`` over
the list of details), kept here to hold the new one to it on real games.
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranchhand.core.game import GameSummary
from ranchhand.core.registry import canonical_name, load
from ranchhand.sim.simulate import Report, Simulation, play_one
from ranchhand.sim.stats import describe, wilson_interval
from ranchhand.sim.tally import IndexRanges, InOrder, Tally, TurnHistogram
from ranchhand.sim.workers import StopControl, run_pool


# ----------------------------------------------------------------- the old reduction
def _old_rancho(details: Sequence[Mapping[str, Any]], players: int) -> dict[str, Any]:
    games = len(details)
    if not games:
        return {}
    wins = [0] * players
    for d in details:
        if d.get("winner") is not None:
            wins[d["winner"]] += 1
    average = {
        "eaten_value": sum(d["eaten_value"] for d in details) / games,
        "dogs_given": sum(d["dogs_given"] for d in details) / games,
        "winner_pastures": (
            sum(d["winner_pastures"] for d in details if d.get("winner") is not None)
            / max(1, sum(1 for d in details if d.get("winner") is not None))
        ),
    }
    return {
        "games": games,
        "mean_turns": sum(d["turns"] for d in details) / games,
        "wins_by_seat": wins,
        "mean_eaten_value": average["eaten_value"],
        "mean_dogs_given": average["dogs_given"],
        "mean_pastures_of_winner": average["winner_pastures"],
        "average": average,
    }


def _old_rocket(details: Sequence[Mapping[str, Any]], players: int) -> dict[str, Any]:
    games = [d for d in details if d.get("score")]
    if not games:
        return {}
    seats = len(games[0]["score"])
    parts = ("abundance", "variety", "cats", "score", "space_cats", "corrals")
    per_seat = {
        part: [sum(d[part][p] for d in games) / len(games) for p in range(seats)] for part in parts
    }
    overall = {part: sum(per_seat[part]) / seats for part in parts}
    wins = [sum(1 for d in games if d["winner"] == p) / len(games) for p in range(seats)]
    return {"games": len(games), "per_seat": per_seat, "average": overall, "win_rate": wins}


def _old_glory(details: Sequence[Mapping[str, Any]], players: int, deck: Any) -> dict[str, Any]:
    games = [d for d in details if d.get("rounds") is not None]
    rounds = [r for d in games for r in d["rounds"]]
    wins = [0] * players
    for d in games:
        for seat in d.get("winners", []):
            wins[seat] += 1
    seen = {c.id: 0 for c in deck.cards}
    won = {c.id: 0 for c in deck.cards}
    player_rounds = round_wins = 0
    for r in rounds:
        for seat, ranch in enumerate(r["ranches"]):
            winner = seat in r["winners"]
            player_rounds += 1
            round_wins += winner
            for card in set(ranch):
                seen[card] += 1
                won[card] += winner
    average = round_wins / player_rounds if player_rounds else 0.0
    cards: list[dict[str, Any]] = []
    for card in deck.cards:
        count = seen[card.id]
        rate = won[card.id] / count if count else 0.0
        cards.append(
            {
                "card": card.id,
                "name": card.name,
                "rounds": count,
                "win_rate": round(rate, 4),
                "lift": round(rate - average, 4) if count else 0.0,
            }
        )
    cards.sort(key=lambda row: -float(row["lift"]))
    total_turns = sum(r["turns"] for r in rounds)
    return {
        "games": len(games),
        "rounds_per_game": round(len(rounds) / len(games), 3) if games else 0.0,
        "turns_per_round": round(total_turns / len(rounds), 3) if rounds else 0.0,
        "wins_per_seat": wins,
        "win_share_per_seat": [round(w / len(games), 4) if games else 0.0 for w in wins],
        "round_win_rate": round(average, 4),
        "cards": cards,
        "average": {
            "rounds": round(len(rounds) / len(games), 3) if games else 0.0,
            "turns_per_round": round(total_turns / len(rounds), 3) if rounds else 0.0,
            "top_card_lift_points": round(100 * float(cards[0]["lift"]), 1) if cards else 0.0,
        },
    }


def _old_report(sim: Simulation, results: list[GameSummary], summary: dict[str, Any]) -> dict:
    games = len(results)
    truncated = sum(r.truncated for r in results)
    wins = [0] * sim.players
    ties = 0
    for r in results:
        if len(r.winners) == 1:
            wins[r.winners[0]] += 1
        elif len(r.winners) > 1:
            ties += 1
    scores = [r.scores for r in results if r.scores is not None and not r.truncated]
    mean_scores = (
        [sum(s[p] for s in scores) / len(scores) for p in range(sim.players)] if scores else None
    )
    return {
        "game": canonical_name(sim.game),
        "players": sim.players,
        "seats": list(sim.seats),
        "games": games,
        "finished": games - truncated,
        "truncated": truncated,
        "wins": wins,
        "win_rate": [w / games for w in wins],
        "win_ci95": [list(wilson_interval(w, games)) for w in wins],
        "ties": ties,
        "turns": describe([r.turns for r in results if not r.truncated]),
        "mean_scores": mean_scores,
        "summary": summary,
    }


# ------------------------------------------------------------------------ the tests
class _Collect:
    """Stands in for a Tally to gather every result, in order, from real workers."""

    def __init__(self) -> None:
        self.results: list[GameSummary] = []

    def add(self, result: GameSummary) -> None:
        self.results.append(result)


def _played(sim: Simulation) -> list[GameSummary]:
    collect = _Collect()
    order = InOrder(collect)  # type: ignore[arg-type]
    run = run_pool(partial(play_one, sim), sim.games, 2, 25, order, StopControl())
    assert run.error is None and order.waiting == 0
    return collect.results


@pytest.mark.parametrize(
    ("game", "seats", "games", "options"),
    [
        ("rancho", ("greedy", "random", "greedy"), 300, (("max_turns", 200),)),
        ("rocket-ranchers", ("greedy", "random"), 200, (("max_turns", 1000),)),
        ("glory-ranch", ("greedy", "greedy", "random"), 300, (("max_turns", 1000),)),
    ],
)
def test_running_reduction_equals_the_old_list_reduction(
    game: str, seats: tuple[str, ...], games: int, options: tuple[tuple[str, Any], ...]
) -> None:
    sim = Simulation(game, seats, games, 11, options)
    loaded = load(game, len(seats), **dict(options))
    results = _played(sim)
    assert [r.index for r in results] == list(range(games))
    details = [r.details for r in results if not r.truncated]
    old_summary = {
        "rancho": lambda: _old_rancho(details, loaded.players),
        "rocket-ranchers": lambda: _old_rocket(details, loaded.players),
        "glory-ranch": lambda: _old_glory(details, loaded.players, loaded.deck),  # type: ignore[attr-defined]
    }[game]()
    expected = _old_report(sim, results, old_summary)

    # The same games arriving in chunks out of order, as from several workers.
    tally = Tally(sim.players, loaded.summary())
    order = InOrder(tally)
    chunks = [(i, results[i : i + 17]) for i in range(0, games, 17)]
    random.Random(games).shuffle(chunks)
    for start, chunk in chunks:
        order.offer(start, chunk)
    assert order.waiting == 0
    got = Report(sim, tally, 1.0, dict(loaded.options)).to_json()
    assert {key: got[key] for key in expected} == expected
    assert got["indices"] == [[0, games - 1]] and got["partial"] is False
    assert loaded.summarize(details) == old_summary  # the list convenience agrees too


@given(st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=300))
def test_turn_histogram_matches_numpy(values: list[int]) -> None:
    histogram = TurnHistogram()
    for value in values:
        histogram.add(value)
    array = np.asarray(values, dtype=float)
    assert histogram.describe() == {
        "mean": float(array.mean()),
        "median": float(np.median(array)),
        "p90": float(np.percentile(array, 90)),
    }
    assert histogram.describe() == describe(values)


def test_turn_histogram_of_nothing_is_zeros() -> None:
    assert TurnHistogram().describe() == {"mean": 0.0, "median": 0.0, "p90": 0.0}


def test_index_ranges_merge_and_answer_membership() -> None:
    ranges = IndexRanges()
    for start, stop in ((0, 5), (10, 12), (5, 7), (20, 21), (7, 10)):
        ranges.add(start, stop)
    assert list(ranges) == [(0, 11), (20, 20)]
    assert ranges.text() == "0-11, 20"
    assert 11 in ranges and 12 not in ranges and 20 in ranges and -1 not in ranges
    assert IndexRanges().text() == "none"


def test_tally_memory_does_not_grow_with_the_number_of_games() -> None:
    """Adding 20,000 games' results keeps a few KB: counts, not the results."""
    loaded = load("rancho", 3)
    tally = Tally(3, loaded.summary())
    details = {"winner": 1, "turns": 40, "eaten_value": 3, "dogs_given": 0, "winner_pastures": 5}

    def feed(start: int, count: int) -> None:
        for index in range(start, start + count):
            tally.add(GameSummary(index, (1,), False, 30 + index % 50, (1.0, 2.0, 3.0), details))

    feed(0, 1000)  # every turn count seen once: the histogram is full size
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    feed(1000, 20000)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 20_000  # a kept result would be ~500 bytes a game: 10 MB
    assert tally.games == 21000 and list(tally.indices) == [(0, 20999)]
