"""The fast engine plays Rancho by the same rules, and its greedy bot the same moves.

Both engines are driven by one stream of choices: the same chance outcome (a point
drawn in 0..total-1 of the node's integer weights, which both turn into an outcome
the same way) and, for a random seat, the same index into the legal action list. A
greedy seat is asked in both engines and must choose the same action. At every step
the seat to act, the whole legal list (as the reference's action objects, in order),
the herd and every seat's animals must agree; at the end the outcome and the land.
The bulk path (``FastRancho.play``) draws from its own generator, so it is checked
for reproducibility and for the figures the simulate report reads.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_right
from itertools import accumulate

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ranchhand.core import CHANCE, OptionError
from ranchhand.core.registry import load
from ranchhand.sim.fast import FAST_ENGINES
from ranchhand.sim.simulate import Simulation, simulate

pytest.importorskip("numba")

from ranchhand.cli.main import app
from ranchhand.games.rancho import bots
from ranchhand.games.rancho.actions import Deal
from ranchhand.games.rancho.fast import greedy
from ranchhand.games.rancho.fast.engine import RESULT_COLUMNS, FastRancho
from ranchhand.games.rancho.state import EXPAND, RanchoState


def play_both(
    engine: FastRancho, seed: int, seats: tuple[str, ...], capped: list[int] | None = None
) -> tuple[RanchoState, int]:
    """One game in both engines from one stream of choices; (reference state, purchases
    through other players' pastures). ``capped`` gets the steps at which a player was to
    trade after ``deals_per_turn`` deals this turn (and so was offered none)."""
    rng = random.Random(seed)
    reference: RanchoState = engine.game.new_initial_state()
    greedy_bots = [bots.GreedyBot() for _ in seats]
    fast = engine.table()
    steps = via = 0
    while not reference.is_terminal():
        assert not fast.is_over(), f"step {steps}: the fast game ended early"
        player = reference.current_player()
        assert fast.current_player() == player, f"step {steps}: who acts"
        limit = engine.game.deal_limit
        if capped is not None and limit and reference.phase == EXPAND and reference.deals == limit:
            capped.append(steps)
        if player == CHANCE:
            outcomes = reference.chance_outcomes()
            point = rng.randrange(outcomes.total)
            reference.apply(
                outcomes.actions[bisect_right(list(accumulate(outcomes.weights)), point)]
            )
            fast.chance(point)
        elif seats[player] == "greedy":
            legal = reference.legal_actions()
            wanted = greedy_bots[player].act(reference.observe(player), legal, rng)
            assert fast.greedy() == wanted, f"step {steps}: the greedy choice of P{player}"
            reference.apply(wanted)
            fast.apply_greedy()
        else:
            legal = reference.legal_actions()
            assert fast.legal_actions() == legal, f"step {steps}: legal actions of P{player}"
            index = rng.randrange(len(legal))
            via += isinstance(legal[index], Deal) and bool(legal[index].via)
            reference.apply(legal[index])
            fast.apply(index)
        steps += 1
        assert fast.herd == reference.herd, f"step {steps}: the herd"
        assert fast.animals == reference.animals, f"step {steps}: the players' animals"
    assert fast.is_over()
    assert fast.winner == reference.winner
    assert fast.turn == reference.turn
    assert fast.land == reference.land
    return reference, via


RULES = [
    (2, {}),
    (3, {"dogs": "all"}),
    (4, {}),
    (5, {"dice": "farmer"}),
    (6, {}),
    (6, {"board": "hex-compact", "dogs": "none"}),
    (2, {"deals_per_turn": 1}),
    (4, {"deals_per_turn": 3, "board": "hex-compact"}),
]


@pytest.mark.parametrize(("players", "options"), RULES)
def test_random_games_agree_step_by_step(players: int, options: dict[str, str]) -> None:
    engine = FastRancho(load("rancho", players, max_turns=50, **options))
    for seed in range(60):
        play_both(engine, seed, ("random",) * players)


@settings(max_examples=20, deadline=None)
@given(
    players=st.integers(2, 6),
    board=st.sampled_from(["hex-rings", "hex-compact"]),
    dice=st.sampled_from(["twin", "farmer"]),
    dogs=st.sampled_from(["by-players", "all", "none"]),
    seed=st.integers(0, 2**32 - 1),
    greedy_seats=st.integers(0, 63),
)
def test_any_options_and_seats_agree(
    players: int, board: str, dice: str, dogs: str, seed: int, greedy_seats: int
) -> None:
    """Every combination of the options, with any seats greedy, plays the same."""
    engine = FastRancho(load("rancho", players, board=board, dice=dice, dogs=dogs, max_turns=40))
    seats = tuple("greedy" if greedy_seats >> seat & 1 else "random" for seat in range(players))
    play_both(engine, seed, seats)


@pytest.mark.parametrize("limit", [1, 3])
def test_deals_per_turn_bounds_the_expand_step_alike(limit: int) -> None:
    """Under ``deals_per_turn`` (the research adapters' default) both engines stop
    offering deals at the limit, the greedy bot stops trading, and the count starts
    afresh each turn: random and greedy seats, several limits, the limit reached often."""
    engine = FastRancho(load("rancho", 3, max_turns=60, deals_per_turn=limit))
    capped: list[int] = []
    for seed in range(6):
        seats = ("random", "greedy", "random") if seed % 2 else ("greedy", "random", "random")
        play_both(engine, seed, seats, capped)
    assert len(capped) >= 10


def test_walled_in_players_buy_through_others_alike() -> None:
    """The crowded map walls players in: routes, tolls and payments agree."""
    engine = FastRancho(load("rancho", 4, board="hex-compact", max_turns=120))
    via = sum(play_both(engine, seed, ("random",) * 4)[1] for seed in range(40))
    assert via >= 5


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {}), (5, {"board": "hex-compact"})])
def test_greedy_chooses_as_the_reference_bot(players: int, options: dict[str, str]) -> None:
    engine = FastRancho(load("rancho", players, max_turns=120, **options))
    for seed in range(12):
        seats = tuple("greedy" if (seat + seed) % 3 else "random" for seat in range(players))
        play_both(engine, seed, seats)


def test_whole_games_to_the_end_agree() -> None:
    """Untruncated games reach a full herd the same way (the ends of long games)."""
    engine = FastRancho(load("rancho", 3))
    for seed in range(3):
        reference, _via = play_both(engine, 1000 + seed, ("random", "greedy", "random"))
        assert reference.winner >= 0


def test_greedy_bot_constants_are_the_reference_bots() -> None:
    for name in ("RABBITS_KEPT", "WOLF_WORRY", "FOX_WORRY", "ROOM", "ROOM_PER_RABBITS"):
        assert getattr(greedy, name) == getattr(bots, name), name
    assert greedy.DEALS_PER_TURN == bots.DEALS_PER_TURN


def test_bulk_games_are_reproducible_from_their_seeds() -> None:
    engine = FastRancho(load("rancho", 4, max_turns=200))
    seeds = np.arange(20)
    seats = ("random", "greedy", "random", "greedy")
    first = engine.play(seeds, seats)
    again = FastRancho(load("rancho", 4, max_turns=200)).play(seeds, seats)
    assert (first == again).all()
    columns = dict(zip(RESULT_COLUMNS, first.T, strict=True))
    finished = columns["winner"] >= 0
    assert ((columns["turns"] == 200) | finished).all()
    assert (columns["steps"] > columns["turns"]).all()
    assert (columns["winner_pastures"][~finished] == 0).all()


def test_bots_the_fast_engine_lacks_are_refused_by_name() -> None:
    engine = FastRancho(load("rancho", 2, max_turns=10))
    with pytest.raises(OptionError, match="plays random, greedy seats, not 'ismcts'"):
        engine.play(np.arange(2), ("ismcts", "random"))


def simulate_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["simulate", "rancho", "--json", *args])
    assert result.exit_code == 0, result.output
    report: dict[str, object] = json.loads(result.output)
    for timing in ("seconds", "games_per_s"):
        report.pop(timing)
    return report


def test_simulate_fast_reports_like_the_reference_and_repeats_from_its_seed() -> None:
    args = ("--players", "3", "--seats", "greedy,random,random", "--games", "30", "-o",
            "max_turns=150")  # fmt: skip
    fast = simulate_json(*args, "--engine", "fast", "--seed", "7")
    assert fast == simulate_json(*args, "--engine", "fast", "--seed", "7")
    assert fast != simulate_json(*args, "--engine", "fast", "--seed", "8")
    reference = Simulation("rancho", ("greedy", "random", "random"), 5, 7, (("max_turns", 150),))
    shape = simulate(reference, jobs=1).to_json()
    assert set(fast) == set(shape) - {"seconds", "games_per_s"}
    assert set(fast["summary"]) == set(shape["summary"])  # type: ignore[arg-type]
    assert fast["games"] == 30


def test_simulate_fast_refuses_what_it_cannot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(
        app, ["simulate", "rancho", "--seats", "ismcts", "--engine", "fast"]
    )
    assert result.exit_code != 0
    assert "not 'ismcts'" in result.output
    # Every game has a compiled engine now: take one away to see the refusal's words.
    monkeypatch.delitem(FAST_ENGINES, "glory-ranch")
    result = CliRunner().invoke(app, ["simulate", "glory-ranch", "--engine", "fast"])
    assert result.exit_code != 0
    having = "rancho, rocket-ranchers, super-farmer"
    assert f"glory-ranch has no fast engine (games with one: {having})" in result.output


def test_bench_times_the_fast_engine() -> None:
    result = CliRunner().invoke(
        app, ["bench", "rancho", "--engine", "fast", "--players", "2", "--games", "5", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["results"]
    assert [(r["engine"], r["players"], r["games"]) for r in rows] == [("fast", 2, 5)]
    assert rows[0]["steps"] > rows[0]["turns"] > 0
