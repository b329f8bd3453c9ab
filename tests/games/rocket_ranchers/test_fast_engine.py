"""The fast engine plays Rocket Ranchers by the same rules, and its greedy bot the same moves.

Both engines are driven by one stream of choices: the same draw (a point below the deck's
size, which both turn into a card from the deck's counts) and, for a random seat, the same
index into the legal list. A greedy seat is asked in both engines and must choose the same
action. At every step the seat to act, the whole legal list (as the reference's action
objects, in order) and the whole table (the reference state's JSON, rebuilt from the
kernel's arrays) must agree; at the end the winner and the turns. Every value of every
named option is played beside the defaults, at every player count, and positions taken
from the middle of reference games are loaded and played on. The bulk path
(``FastRocket.play``) draws from its own generator, so it is checked for reproducibility
and for the figures the simulate report reads.
"""

from __future__ import annotations

import json
import random
from typing import Any

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

from ranchhand.bots.ismcts import ISMCTSBot, level
from ranchhand.cli.main import app
from ranchhand.games.rocket_ranchers.bots import GreedyBot
from ranchhand.games.rocket_ranchers.fast import kernel
from ranchhand.games.rocket_ranchers.fast.engine import FastRocket, FastTable
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState

SEATS = ("random", "greedy")
OPTION_VALUES: list[dict[str, Any]] = [
    {},
    {"abundance_table": "scoring-card"},
    {"abundance_counts": "dots"},
    {"variety_counts": "all"},
    {"cat_chain": True},
    {"corral_scoring": "abundance"},
    {"corral_scoring": "variety"},
    {"abundance_counts": "dots", "variety_counts": "all", "cat_chain": True},
]
"""Every value of every named option beside the defaults (the deck and beam files are
data: the kernel reads whatever file is loaded), and a mix where the options meet."""


class Point:
    """A generator whose one ``randrange`` gives ``point``: the reference's own draw."""

    def __init__(self, point: int) -> None:
        self.point = point

    def randrange(self, total: int) -> int:
        assert 0 <= self.point < total
        return self.point


def step_both(
    reference: RocketState,
    fast: FastTable,
    bots: list[GreedyBot | None],
    rng: random.Random,
    steps: int,
) -> None:
    """One step of the same choice in both engines, then both tables compared."""
    player = reference.current_player()
    assert fast.current_player() == player, f"step {steps}: who acts"
    if player == CHANCE:
        point = rng.randrange(reference.deck_size)
        reference.apply(reference.sample_chance(Point(point)), CHANCE)  # type: ignore[arg-type]
        fast.chance(point)
    else:
        legal = reference.legal_actions()
        assert fast.legal_actions() == legal, f"step {steps}: legal actions of P{player}"
        bot = bots[player]
        if bot is None:
            index = rng.randrange(len(legal))
            reference.apply(legal[index])
            fast.apply(index)
        else:
            wanted = bot.act(reference.observe(player), legal, rng)
            assert fast.greedy() == wanted, f"step {steps}: the greedy choice of P{player}"
            reference.apply(wanted)
            fast.apply_greedy()
    assert fast.state().to_json() == reference.to_json(), f"step {steps}: the table"


def play_both(
    game: RocketGame,
    seed: int,
    seats: tuple[str, ...],
    start: RocketState | None = None,
    max_steps: int = 100_000,
) -> RocketState:
    """One game in both engines from one stream of choices (from ``start`` if given), for
    at most ``max_steps`` steps; the reference's final state."""
    rng = random.Random(seed)
    reference = start.clone() if start is not None else game.new_initial_state()
    fast = FastRocket(game).table(start)
    bots: list[GreedyBot | None] = [GreedyBot() if s == "greedy" else None for s in seats]
    steps = 0
    while not reference.is_terminal() and steps < max_steps:
        assert not fast.is_over(), f"step {steps}: the fast game ended early"
        step_both(reference, fast, bots, rng, steps)
        steps += 1
    assert fast.is_over() == reference.is_terminal()
    assert fast.turn == reference.turn
    if reference.is_terminal():
        outcome = reference.outcome()
        assert outcome is not None
        assert fast.winner == (outcome.winners[0] if outcome.winners else -1)
    return reference


def option_id(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "rules"


@pytest.mark.parametrize("options", OPTION_VALUES, ids=option_id)
def test_every_option_plays_the_same_games_step_by_step(options: dict[str, Any]) -> None:
    """Whole games at every player count, random and greedy seats mixed, then all greedy."""
    for players in (2, 3, 4, 5):
        game = load("rocket-ranchers", players, **options)
        rng = random.Random(players)
        mixed = tuple(rng.choice(SEATS) for _ in range(players))
        for seed, seats in enumerate((mixed, ("greedy",) * players)):
            final = play_both(game, seed, seats)
            assert final.over is not None  # played to the end of the deck


def test_greedy_tables_match_over_many_games() -> None:
    """The bot's choices (sums, ties, swaps, reboots) are where the kernel differs most
    from Python: many whole games of greedy seats."""
    for players in (2, 4):
        game = load("rocket-ranchers", players)
        for seed in range(10):
            play_both(game, 100 + seed, ("greedy",) * players)


def test_games_cut_at_max_turns_end_alike() -> None:
    game = load("rocket-ranchers", 3, max_turns=7)
    final = play_both(game, 5, ("greedy", "random", "greedy"))
    assert final.turn == 7 and final.outcome() is not None and final.over is None


def walk(state: RocketState, rng: random.Random, steps: int) -> RocketState:
    """``state`` after up to ``steps`` random steps of the reference engine."""
    for _ in range(steps):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(player)), player)
    return state


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 5),
    cut=st.integers(0, 400),
    options=st.sampled_from(OPTION_VALUES),
    imagined=st.booleans(),
)
def test_a_position_from_the_middle_of_a_game_plays_on_the_same(
    seed: int, players: int, cut: int, options: dict[str, Any], imagined: bool
) -> None:
    """Positions of every phase, loaded from the reference engine into the kernel; with
    ``imagined``, the table a search imagines from a player's observation (the other
    players' founding cards redrawn)."""
    game = load("rocket-ranchers", players, **options)
    rng = random.Random(seed)
    state = walk(game.new_initial_state(), rng, cut)
    if imagined and not state.is_terminal():
        state = game.sample_state(state.observe(rng.randrange(players)), rng)
    seats = tuple(rng.choice(SEATS) for _ in range(players))
    play_both(game, seed + 1, seats, start=state)


def test_the_bulk_path_repeats_from_its_seeds_and_reports_sound_figures() -> None:
    game = load("rocket-ranchers", 3)
    seeds = np.arange(200)
    seats = ("greedy", "random", "greedy")
    first = FastRocket(game).play(seeds, seats)
    again = FastRocket(load("rocket-ranchers", 3)).play(seeds, seats)
    assert (first == again).all()
    assert set(first[:, kernel.R_WINNER]) <= {0, 1, 2}
    assert (first[:, kernel.R_PLAYERS] == 3).all()
    assert (first[:, kernel.R_STEPS] > first[:, kernel.R_TURNS]).all()
    parts = first[:, 4 : 4 + 3 * len(kernel.PARTS)].reshape(-1, 3, len(kernel.PARTS))
    named = dict(zip(kernel.PARTS, np.moveaxis(parts, 2, 0), strict=True))
    assert (named["score"] == named["abundance"] + named["variety"] + named["cats"]).all()
    # The Space Cats taken come from the deck (some may be left in the display).
    assert (named["space_cats"].sum(axis=1) <= game.tables.deck_counts(3)[1]).all()
    assert named["space_cats"].sum() > 0
    # Greedy seats outscore the random one.
    assert named["score"][:, [0, 2]].mean() > named["score"][:, 1].mean()
    cut = FastRocket(load("rocket-ranchers", 2, max_turns=5)).play(seeds[:10], ("random",) * 2)
    assert (cut[:, kernel.R_WINNER] == -1).all() and (cut[:, kernel.R_TURNS] == 5).all()


def test_bots_the_fast_engine_lacks_are_refused_by_name() -> None:
    engine = FastRocket(load("rocket-ranchers", 2))
    with pytest.raises(OptionError, match="plays random, greedy seats, not 'ismcts'"):
        engine.play(np.arange(2), ("ismcts", "random"))
    with pytest.raises(OptionError, match="rocket-ranchers only"):
        FastRocket(load("rancho", 2))


def simulate_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["simulate", "rocket-ranchers", "--json", *args])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.output)
    for timing in ("seconds", "games_per_s"):
        report.pop(timing)
    return report


def test_simulate_fast_reports_like_the_reference_and_repeats_from_its_seed() -> None:
    args = ("--players", "2", "--seats", "greedy,random", "--games", "100")
    fast = simulate_json(*args, "--engine", "fast", "--seed", "7")
    assert fast == simulate_json(*args, "--engine", "fast", "--seed", "7")
    assert fast != simulate_json(*args, "--engine", "fast", "--seed", "8")
    reference = simulate(Simulation("rocket-ranchers", ("greedy", "random"), 4, 7), jobs=1)
    shape = reference.to_json()
    assert set(fast) == set(shape) - {"seconds", "games_per_s"}
    assert set(fast["summary"]) == set(shape["summary"])
    assert fast["games"] == 100


def test_bench_times_the_fast_engine_beside_the_reference() -> None:
    engines = ["--engine", "fast", "--engine", "reference"]
    sizes = ["--players", "2", "--games", "3", "--bot", "random"]
    result = CliRunner().invoke(app, ["bench", "rocket-ranchers", *engines, *sizes, "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["results"]
    assert sorted(r["engine"] for r in rows) == ["fast", "reference"]
    assert all(r["steps"] >= r["turns"] > 0 for r in rows)


@pytest.mark.parametrize("options", OPTION_VALUES[:1] + OPTION_VALUES[-1:], ids=option_id)
def test_the_compiled_playout_is_the_reference_rollout(options: dict[str, Any]) -> None:
    """At positions of every phase along reference games (tables a search imagines from
    them), ``compiled_playout`` returns what ``streams.playout`` returns with fresh greedy
    bots and the same stream: the same values (returns at the end, else ``evaluate()``),
    steps and end, for several step limits; neither the position nor the stream moves."""
    compared = 0
    phases: set[int] = set()
    for players in (2, 3, 5):
        game = load("rocket-ranchers", players, max_turns=60, **options)
        fast = game.compiled_playout("greedy")
        assert fast is not None and fast is game.compiled_playout("greedy")
        rng = random.Random(players)
        state = game.new_initial_state()
        while not state.is_terminal():
            if rng.random() < 0.3:
                imagined = game.sample_state(state.observe(rng.randrange(players)), rng)
                phases.add(imagined.phase)
                for stream_number in (1, 2**40 + 3):
                    stream = ChanceStream(stream_number)
                    stream.at(imagined.turn)
                    stream.k = rng.randrange(3)
                    for max_steps in (0, 12, 10_000):
                        before = imagined.to_json()
                        got = fast(imagined, stream, max_steps)
                        want = playout(imagined.clone(), GreedyBot, stream.fork(), max_steps, rng)
                        assert got == want, (players, imagined.turn, max_steps)
                        assert imagined.to_json() == before and stream.turn == imagined.turn
                        compared += 1
            walk(state, rng, 1)
    assert phases == {0, 1, 2, 3} and compared > 100
    assert game.compiled_playout("random") is None


def test_the_search_decides_the_same_with_the_compiled_playout() -> None:
    """The ``normal`` search's choices (and iterations) at the first decisions of games,
    with the kernel's rollouts and with the reference's: the same."""
    compiled = load("rocket-ranchers", 2)
    assert compiled.compiled_playout("greedy") is not None

    class Reference(RocketGame):
        def compiled_playout(self, policy: str) -> None:
            return None

    reference = Reference(2)
    search = {**level("rocket-ranchers", "normal"), "iterations": 40, "time_cap": None}

    def decisions(game: RocketGame, seed: int) -> list[tuple[str, int]]:
        state = game.new_initial_state()
        rng = random.Random(seed)
        bot = ISMCTSBot(game, **search)
        made: list[tuple[str, int]] = []
        while len(made) < 8 and not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            player = state.current_player()
            action = bot.act(state.observe(player), state.legal_actions(player), rng)
            if bot.searched:
                made.append((str(action), bot.searched))
            state.apply(action, player)
        return made

    for seed in (1, 2):
        fast = decisions(compiled, seed)
        assert fast and fast == decisions(reference, seed)
