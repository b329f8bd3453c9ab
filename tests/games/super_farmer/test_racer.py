"""The racing bot and the law of turns it reads (``solver.race``): the table's numbers
solve their equations exactly (a small box), the bot plays legal, seed-free moves, and
when another farmer is one exchange from winning it takes the choice the reference
engine says most often wins at once."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import play
from ranchhand.games.super_farmer.optimal import OptimalBot
from ranchhand.games.super_farmer.racer import RacerBot
from ranchhand.games.super_farmer.solver import kernel
from ranchhand.games.super_farmer.solver.race import GAMMAS, compute
from ranchhand.games.super_farmer.solver.solve import Rules, solve
from tests.games.super_farmer.helpers import table
from tests.games.super_farmer.test_solver import SMALL_BOX


def test_the_law_of_turns_solves_its_equations() -> None:
    """On a small box, the swept expected turns and ``E[g**T]`` satisfy their linear
    equations, and every farm the table calls winnable is."""
    solution = solve(None, box=SMALL_BOX)
    rules = Rules.of(None, box=SMALL_BOX)
    race = compute(solution, box=SMALL_BOX)
    delta = rules.take @ rules.strides - rules.give @ rules.strides
    chosen = solution.keys + np.where(solution.move >= 0, delta[solution.move], 0)
    successors = np.empty((len(chosen), len(rules.faces)), np.int32)
    args = (rules.box, rules.dims, rules.strides, rules.faces, rules.flags, solution.keys)
    kernel.race_successors(chosen, *args, successors)
    n = len(chosen)
    assert n > 100
    weights = rules.weights[None, :]
    full_now = (weights * (successors == kernel.FULL_ROW)).sum(axis=1)
    won_next = (weights * (successors == kernel.WINNABLE_ROW)).sum(axis=1)
    live = successors >= 0
    rows = np.where(live, successors, 0)

    def stay(values: np.ndarray) -> np.ndarray:
        """The expected ``values`` of the live farm a roll leaves (0 where it leaves none)."""
        return (weights * live * values[rows]).sum(axis=1)

    # The solution of each linear system is unique (every farm wins with chance 1), so
    # satisfying it is being it.
    turns = race.turns.astype(np.float64)
    assert np.abs(turns - (1.0 + won_next + stay(turns))).max() < 1e-4
    assert ((turns - solution.value >= -1e-4) & (turns - solution.value <= 1 + 1e-4)).all()
    for g, gamma in enumerate(GAMMAS):
        powers = race.powers[:, g].astype(np.float64)
        equation = gamma * (full_now + gamma * won_next + stay(powers))
        assert np.abs(powers - equation).max() < 1e-4
    farm = np.empty(7, np.int64)
    for i in range(0, n, max(1, n // 50)):
        for f in np.flatnonzero(successors[i] == kernel.WINNABLE_ROW):
            kernel.decode(chosen[i], rules.dims, farm)
            kernel.roll(farm, rules.box, *map(int, rules.faces[f]), rules.flags)
            assert kernel.winnable(farm, rules.box, rules.give, rules.take)


def test_racer_plays_legal_moves_whatever_its_generator() -> None:
    """Whole games against greedy at 2 and 3 players (and with exchanges=many) end with
    every move legal (the runner checks), and a position's choice does not depend on
    the bot's generator."""
    for players, options in ((2, {}), (3, {}), (2, {"exchanges": "many"})):
        game = load("super-farmer", players, **options)
        seats = [bot_factory(game, "greedy")() for _ in range(players)]
        seats[1] = bot_factory(game, "racer")()
        result = play(game, seats, 3)
        assert result.outcome.reason == "full herd"
    state = table({"rabbit": 30, "sheep": 3, "small_dog": 1}, {"rabbit": 20, "pig": 2})
    observation = state.observe(0)
    legal = state.legal_actions()
    bot = RacerBot()
    choices = {bot.act(observation, legal, random.Random(seed)) for seed in range(4)}
    assert len(choices) == 1 and choices <= set(legal)


def test_racer_goes_for_the_win_when_another_farmer_is_about_to() -> None:
    """The other farmer completes the herd by one exchange at its next turn, so only a
    win in this roll counts: the racer's choice is one of those the reference engine
    says win most often at once (optimal plays for the long run, and does not)."""
    state = table(
        {"pig": 1, "cow": 1, "horse": 1, "rabbit": 3},
        {"rabbit": 1, "sheep": 1, "pig": 1, "cow": 3},
    )
    bot = RacerBot()
    solution = bot.policy({})
    assert solution is not None
    from ranchhand.games.super_farmer.solver.race import race

    deadline = bot.deadline(state, 0, race(solution))
    assert deadline[0] == 1.0 and not deadline[1:].any()  # it wins at its next turn
    outcomes = state.game.roll_outcomes

    def wins_at_once(action: object) -> float:
        after = state.clone()
        after.apply(action)
        if after.is_terminal():
            return 1.0
        if not after.is_chance_node():
            after.apply_text("roll")
        chance = 0.0
        for roll, weight in zip(outcomes.actions, outcomes.weights, strict=True):
            rolled = after.clone()
            rolled.apply(roll)
            chance += weight / outcomes.total * (rolled.returns()[0] > 0)
        return chance

    legal = state.legal_actions()
    chances = {action: wins_at_once(action) for action in legal}
    choice = bot.act(state.observe(0), legal, random.Random(0))
    assert chances[choice] == max(chances.values()) > 0
    assert chances[OptimalBot().act(state.observe(0), legal, random.Random(0))] < chances[choice]


def test_where_solving_is_off_and_no_race_table_is_cached_it_plays_optimal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server sets RANCHHAND_SOLVE=never: a racer without a cached race table plays
    optimal's exchanges (and says so once) instead of tabling for 20 CPU seconds."""
    from ranchhand.games.super_farmer.solver import race, solve

    monkeypatch.setenv("RANCHHAND_CACHE", str(tmp_path))  # an empty cache
    monkeypatch.setenv(solve.SOLVE_ENV, "never")
    monkeypatch.setattr(race, "_LOADED", {})
    monkeypatch.setattr(race, "_RACES", {})
    state = table({"pig": 1, "cow": 1, "horse": 1, "rabbit": 3}, {"rabbit": 1, "cow": 3})
    legal = state.legal_actions()
    bot = RacerBot()
    choice = bot.act(state.observe(0), legal, random.Random(0))
    assert choice == OptimalBot().act(state.observe(0), legal, random.Random(0))
    assert bot.warned_race
