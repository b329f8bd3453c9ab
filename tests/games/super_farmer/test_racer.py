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
from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.levels import ExactRacerBot
from ranchhand.games.super_farmer.optimal import OptimalBot
from ranchhand.games.super_farmer.racer import RacerBot
from ranchhand.games.super_farmer.solver import kernel
from ranchhand.games.super_farmer.solver.race import (
    GAMMAS,
    HEAD,
    HORIZON,
    compute,
    compute_law,
    played_on,
)
from ranchhand.games.super_farmer.solver.solve import Rules, solve
from ranchhand.games.super_farmer.tables import HORSE
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


def test_the_hard_racer_plays_legal_seed_free_moves() -> None:
    """``exact=True`` (the ``hard`` level) plays a whole game legally (the runner checks)
    against the racer, a position's choice does not depend on the generator, it takes a
    winning exchange at once, and where rolling is the only choice it rolls."""
    game = load("super-farmer", 2)
    result = play(game, [ExactRacerBot(), RacerBot()], 5)
    assert result.outcome.reason == "full herd"
    assert isinstance(bot_factory(game, "hard")(), ExactRacerBot)
    state = table({"rabbit": 30, "sheep": 3, "small_dog": 1}, {"rabbit": 20, "pig": 2})
    observation, legal = state.observe(0), state.legal_actions()
    hard = ExactRacerBot()
    choices = {hard.act(observation, legal, random.Random(seed)) for seed in range(4)}
    assert len(choices) == 1 and choices <= set(legal)
    state = table({"rabbit": 7, "sheep": 2, "pig": 1, "cow": 3}, {"rabbit": 2})
    legal = state.legal_actions()
    winning = [a for a in legal if isinstance(a, Trade) and a.take[HORSE]]  # 2 cows
    assert len(winning) == 1 and hard.act(state.observe(0), legal, random.Random(0)) in winning
    state = table({"rabbit": 1}, {"rabbit": 2})
    legal = state.legal_actions()
    assert legal == [Roll()] and hard.act(state.observe(0), legal, random.Random(0)) == Roll()


def test_the_law_table_solves_its_equations() -> None:
    """On a small box, the chance to win in exactly ``t`` turns satisfies its recursion
    (a roll to a full farm wins in this turn, to a winnable one in the next, to a live
    one as that farm ``t - 1`` turns later), and agrees with the race table's ``E[g**T]``
    where the law's first turns hold nearly all of it."""
    solution = solve(None, box=SMALL_BOX)
    rules = Rules.of(None, box=SMALL_BOX)
    law = compute_law(solution, box=SMALL_BOX).astype(np.float64)
    successors = played_on(solution, rules)
    weights = rules.weights[None, :]
    live = successors >= 0
    rows = np.where(live, successors, 0)
    assert np.allclose(law[0], (weights * (successors == kernel.FULL_ROW)).sum(axis=1), atol=1e-6)
    won_next = (weights * (successors == kernel.WINNABLE_ROW)).sum(axis=1)
    for t in range(1, HEAD):
        stay = (weights * live * law[t - 1][rows]).sum(axis=1)
        assert np.allclose(law[t], stay + (won_next if t == 1 else 0.0), atol=1e-6)
    assert (law >= 0).all() and (law.sum(axis=0) <= 1 + 1e-5).all()
    table = compute(solution, box=SMALL_BOX)
    held = law.sum(axis=0) > 1 - 1e-6
    assert held.sum() > 50
    g = list(GAMMAS).index(0.7)
    summed = (law[:, held] * 0.7 ** np.arange(1, HEAD + 1)[:, None]).sum(axis=0)
    assert np.abs(summed - table.powers[held, g]).max() < 1e-5


def test_the_hard_racer_reads_a_steep_deadline_as_the_policy_plays() -> None:
    """The other farmer needs a few turns: its deadline falls like a step, which the
    exponentials follow badly. ``Race.split`` gives back the deadline exactly over the
    first ``HEAD`` turns, and the hard racer's chance to finish first from a farm,
    ``E[S(1 + T)]``, agrees with 40,000 solitaires played by the policy from that farm
    (within 4 standard errors), where ``normal``'s reading of the same deadline is off."""
    state = table(
        {"rabbit": 12, "sheep": 4, "pig": 2},
        {"rabbit": 36, "sheep": 9, "pig": 1},
    )
    bot = ExactRacerBot()
    solution = bot.policy({})
    assert solution is not None
    from ranchhand.games.super_farmer.solver.race import law_table, race

    contest = race(solution)
    deadline = bot.deadline(state, 0, contest)
    assert deadline[1] == 1.0 and deadline[6] < 0.5  # not before two turns, likely by seven
    tail, head = contest.split(deadline)
    t = np.arange(1, HEAD + 1)
    rebuilt = (contest.table.gammas[None, :] ** t[:, None]) @ tail + head
    assert np.abs(rebuilt - deadline[t]).max() < 1e-9
    farm = np.array([[12, 4, 2, 0, 0, 0, 0]], np.int64)
    row = contest.table.rows(farm)
    assert row[0] >= 0
    hard = bot.reading(deadline, contest).chances(contest.table, row)[0]
    normal = RacerBot().reading(deadline, contest).chances(contest.table, row)[0]
    games = 40_000
    won = kernel.turns_law(farm, games, HORIZON, 11, *contest.policy)[0] / games
    padded = np.append(deadline, deadline[-1])  # S(t), t = 1..HORIZON + 1, at [t - 1]
    truth = float(won[1:] @ padded[1:])  # P(T = t) S(1 + t), t = 1..HORIZON (and later)
    error = float(np.sqrt(truth * (1 - truth) / games))
    assert abs(hard - truth) < 4 * error
    assert abs(normal - truth) > abs(hard - truth)
    assert law_table(solution).shape == (HEAD, len(solution.keys))


def test_without_its_law_table_the_hard_racer_reads_as_normal_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where solving is off (the server) and no law table is cached, the hard racer
    chooses as ``normal`` does, and says so once."""
    from ranchhand.games.super_farmer.solver import race, solve

    monkeypatch.setattr(race, "law_path", lambda options: tmp_path / "law.npz")  # none
    monkeypatch.setattr(race, "_LAWS", {})
    monkeypatch.setenv(solve.SOLVE_ENV, "never")
    state = table({"rabbit": 12, "sheep": 4, "pig": 2}, {"rabbit": 36, "sheep": 9, "pig": 1})
    legal = state.legal_actions()
    hard = ExactRacerBot()
    choice = hard.act(state.observe(0), legal, random.Random(0))
    assert hard.warned_race
    assert choice == RacerBot().act(state.observe(0), legal, random.Random(0))


def test_the_nearest_live_farm_is_found_for_many_farms_at_once() -> None:
    """:meth:`RacerBot.nearest` steps every farm at once as one farm alone would: the most
    numerous kind (the first on a tie) loses one animal until a live farm is met."""
    solution = RacerBot().policy({})
    assert solution is not None
    from ranchhand.games.super_farmer.solver.race import race

    live = race(solution).table
    farms = np.random.default_rng(3).integers(0, 9, (400, 7)) * np.array([6, 2, 1, 1, 1, 0, 0])
    farms = farms[live.rows(farms) < 0][:100]
    assert len(farms) > 50

    def alone(farm: list[int]) -> int:
        for _ in range(sum(farm)):
            spare = [n if n > 1 else 0 for n in farm]
            if not any(spare):
                break
            farm[spare.index(max(spare))] -= 1
            row = int(live.rows(np.array([farm]))[0])
            if row >= 0:
                return row
        return 0

    assert RacerBot.nearest(farms, live).tolist() == [alone(list(f)) for f in farms]
