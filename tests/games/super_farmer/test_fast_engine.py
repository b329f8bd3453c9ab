"""The fast engine plays Super Farmer by the same rules, and its bots the same exchanges.

Both engines are driven by one stream of choices: the same roll of the dice (a point
drawn in 0..143 of the outcomes' integer weights, which both turn into an outcome the
same way) and, for a random seat, the same index into the legal list. A greedy or
daring seat is asked in both engines and must choose the same action. At every step
the seat to act, the whole legal list (as the reference's action objects, in order),
the herd and every farm must agree; at the end the winner, the turns and every
statistic the reports read. Every named option is played, each value beside the
defaults, and positions taken from the middle of reference games are loaded and
played on. The bulk path (``FastSuperFarmer.play``) draws from its own generator, so it
is checked for reproducibility and for the figures the simulate report reads.
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
from ranchhand.core.streams import ChanceStream, playout
from ranchhand.sim.simulate import Simulation, simulate

pytest.importorskip("numba")

from ranchhand.cli.main import app
from ranchhand.games.super_farmer.bots import DaringBot, GreedyBot
from ranchhand.games.super_farmer.fast.engine import RESULT_COLUMNS, FastSuperFarmer, FastTable
from ranchhand.games.super_farmer.game import SuperFarmerGame
from ranchhand.games.super_farmer.state import SuperFarmerState

SEATS = ("random", "greedy", "daring")
OPTION_VALUES = [
    {},
    {"exchanges": "many"},
    {"trade": "one-kind"},
    {"fox": "leave-one"},
    {"wolf": "takes-small-dog"},
    {"dog": "if-needed"},
    {"predators": "wolf-first"},
    {"wolf": "takes-small-dog", "dog": "if-needed", "predators": "wolf-first"},
    {"exchanges": "many", "trade": "one-kind", "fox": "leave-one"},
]
"""Every value of every named option beside the defaults, and two mixes where the
options meet (the order of the predators matters only with the wolf or the dogs'
readings changed)."""


def step_both(
    reference: SuperFarmerState,
    fast: FastTable,
    seats: tuple[str, ...],
    rng: random.Random,
    steps: int,
) -> None:
    """One step of the same choice in both engines, then both tables compared."""
    player = reference.current_player()
    assert fast.current_player() == player, f"step {steps}: who acts"
    if player == CHANCE:
        outcomes = reference.chance_outcomes()
        point = rng.randrange(outcomes.total)
        reference.apply(outcomes.actions[bisect_right(list(accumulate(outcomes.weights)), point)])
        fast.chance(point)
    elif seats[player] == "random":
        legal = reference.legal_actions()
        assert fast.legal_actions() == legal, f"step {steps}: legal actions of P{player}"
        index = rng.randrange(len(legal))
        reference.apply(legal[index])
        fast.apply(index)
    else:
        bot = GreedyBot() if seats[player] == "greedy" else DaringBot()
        legal = reference.legal_actions()
        wanted = bot.act(reference.observe(player), legal, rng)
        chosen = fast.greedy(guards=seats[player] == "greedy")
        assert chosen == wanted, f"step {steps}: the {seats[player]} choice of P{player}"
        reference.apply(wanted)
        fast.apply_greedy()
    assert list(fast.herd) == reference.herd, f"step {steps}: the herd"
    assert fast.animals.tolist() == reference.animals, f"step {steps}: the farms"


def play_both(
    game: SuperFarmerGame,
    engine: FastSuperFarmer,
    seed: int,
    seats: tuple[str, ...],
    start: SuperFarmerState | None = None,
) -> SuperFarmerState:
    """One game in both engines from one stream of choices (from ``start`` if given);
    the reference's final state."""
    rng = random.Random(seed)
    reference = start.clone() if start is not None else game.new_initial_state()
    fast = engine.table(start)
    steps = 0
    while not reference.is_terminal():
        assert not fast.is_over(), f"step {steps}: the fast game ended early"
        step_both(reference, fast, seats, rng, steps)
        steps += 1
    assert fast.is_over()
    assert fast.winner == reference.winner
    assert fast.turn == reference.turn
    assert fast.stats == reference.stats
    return reference


@pytest.mark.parametrize("options", OPTION_VALUES, ids=lambda o: ",".join(o.values()) or "rules")
def test_every_option_plays_the_same_game_step_by_step(options: dict[str, str]) -> None:
    seen_wins = 0
    for players in (1, 2, 4, 6):
        game = load("super-farmer", players, max_turns=400, **options)
        engine = FastSuperFarmer(game)
        for seed in range(4):
            rng = random.Random(seed * 7 + players)
            seats = tuple(rng.choice(SEATS) for _ in range(players))
            final = play_both(game, engine, seed, seats)
            seen_wins += final.winner >= 0
    assert seen_wins > 0  # games were played to a full herd, not only cut


def test_greedy_and_daring_tables_match_over_many_games() -> None:
    """The bots' choices are where the kernel differs most from Python: many games."""
    for players in (1, 3):
        game = load("super-farmer", players)
        engine = FastSuperFarmer(game)
        for seed in range(15):
            seats = ("greedy", "daring", "random")[:players]
            play_both(game, engine, 100 + seed, seats)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(1, 6),
    cut=st.integers(0, 300),
    options=st.sampled_from(OPTION_VALUES),
)
def test_a_position_from_the_middle_of_a_game_plays_on_the_same(
    seed: int, players: int, cut: int, options: dict[str, str]
) -> None:
    """Positions of every phase, loaded from the reference engine into the kernel."""
    game = load("super-farmer", players, max_turns=300, **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(cut):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(player)), player)
    seats = tuple(rng.choice(SEATS) for _ in range(players))
    play_both(game, FastSuperFarmer(game), seed + 1, seats, start=state)


def test_the_bulk_path_repeats_from_its_seeds_and_reports_sound_figures() -> None:
    game = load("super-farmer", 3, max_turns=150)
    engine = FastSuperFarmer(game)
    seeds = np.arange(300)
    seats = ("greedy", "random", "daring")
    first = engine.play(seeds, seats)
    again = FastSuperFarmer(load("super-farmer", 3, max_turns=150)).play(seeds, seats)
    assert (first == again).all()
    columns = dict(zip(RESULT_COLUMNS, first.T, strict=True))
    finished = columns["winner"] >= 0
    assert finished.any() and set(columns["winner"][finished]) <= {0, 1, 2}
    assert ((columns["turns"] == 150) | finished).all()
    assert (columns["steps"] >= columns["turns"]).all()
    assert (columns["rolls"] <= columns["turns"]).all()
    assert (columns["rabbits_lost"] <= columns["value_lost"]).all()
    # Greedy seats buy dogs and give them up; the daring seat never holds one to give.
    assert columns["dogs_given"].sum() > 0


def test_bots_the_fast_engine_lacks_are_refused_by_name() -> None:
    engine = FastSuperFarmer(load("super-farmer", 2))
    with pytest.raises(OptionError, match="plays random, greedy, daring seats, not 'optimal'"):
        engine.play(np.arange(2), ("optimal", "random"))
    with pytest.raises(OptionError, match="super-farmer only"):
        FastSuperFarmer(load("rancho", 2))


def simulate_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["simulate", "super-farmer", "--json", *args])
    assert result.exit_code == 0, result.output
    report: dict[str, object] = json.loads(result.output)
    for timing in ("seconds", "games_per_s"):
        report.pop(timing)
    return report


def test_simulate_fast_reports_like_the_reference_and_repeats_from_its_seed() -> None:
    args = ("--players", "2", "--seats", "greedy,daring", "--games", "200")
    fast = simulate_json(*args, "--engine", "fast", "--seed", "7")
    assert fast == simulate_json(*args, "--engine", "fast", "--seed", "7")
    assert fast != simulate_json(*args, "--engine", "fast", "--seed", "8")
    reference = Simulation("super-farmer", ("greedy", "daring"), 20, 7)
    shape = simulate(reference, jobs=1).to_json()
    assert set(fast) == set(shape) - {"seconds", "games_per_s"}
    assert set(fast["summary"]) == set(shape["summary"])  # type: ignore[arg-type]
    assert fast["games"] == 200


def test_bench_times_the_fast_engine_beside_the_reference() -> None:
    engines = ["--engine", "fast", "--engine", "reference"]
    sizes = ["--players", "1", "--games", "5", "--bot", "greedy"]
    result = CliRunner().invoke(app, ["bench", "super-farmer", *engines, *sizes, "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["results"]
    assert sorted(r["engine"] for r in rows) == ["fast", "reference"]
    assert all(r["steps"] >= r["turns"] > 0 for r in rows)


@pytest.mark.parametrize("options", OPTION_VALUES[:1] + OPTION_VALUES[-2:], ids=str)
@pytest.mark.parametrize("bot", ["greedy", "daring"])
def test_the_compiled_playout_is_the_reference_rollout(options: dict[str, str], bot: str) -> None:
    """At positions of every phase along reference games, ``compiled_playout`` returns
    what ``streams.playout`` returns with fresh bots and the same stream: the same values
    (returns at the end, else ``evaluate()``), steps and end, for several step limits;
    neither the position nor the stream moves."""
    make = GreedyBot if bot == "greedy" else DaringBot
    compared = 0
    for players in (1, 2, 5):
        game = load("super-farmer", players, max_turns=120, **options)
        fast = game.compiled_playout(bot)
        assert fast is not None and fast is game.compiled_playout(bot)
        rng = random.Random(players)
        state = game.new_initial_state()
        while not state.is_terminal() and compared < 400:
            for stream_number in (1, 2**40 + 3):
                stream = ChanceStream(stream_number)
                stream.at(state.turn)
                stream.k = rng.randrange(3)
                for max_steps in (0, 7, 10_000):
                    before = state.to_json()
                    got = fast(state, stream, max_steps)
                    want = playout(state.clone(), make, stream.fork(), max_steps, rng)
                    assert got == want, (players, state.turn, max_steps)
                    assert state.to_json() == before and stream.turn == state.turn
                    compared += 1
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
            else:
                state.apply(rng.choice(state.legal_actions(player)), player)
    assert game.compiled_playout("random") is None and game.compiled_playout("optimal") is None
