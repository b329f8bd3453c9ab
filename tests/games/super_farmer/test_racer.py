"""The racing bot and the law of turns it reads (``solver.race``): the table's numbers
solve their equations exactly (a small box), the bot plays legal, seed-free moves, and
when another farmer is one exchange from winning it takes the choice the reference
engine says most often wins at once."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from ranchhand.core.registry import bot_factory, load
from ranchhand.core.runner import play
from ranchhand.games.super_farmer.actions import Roll, Trade
from ranchhand.games.super_farmer.bots import after
from ranchhand.games.super_farmer.optimal import OptimalBot
from ranchhand.games.super_farmer.racer import RacerBot
from ranchhand.games.super_farmer.solver import kernel
from ranchhand.games.super_farmer.solver.race import GAMMAS, compute
from ranchhand.games.super_farmer.solver.solve import Rules, solve
from ranchhand.games.super_farmer.state import SuperFarmerState
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


def test_two_rolls_ahead_plays_legal_seed_free_moves() -> None:
    """``rolls=2`` plays a whole game legally (the runner checks) against the one-roll
    racer, a position's choice does not depend on the generator, it takes a winning
    exchange at once, and where rolling is the only choice both depths roll."""
    game = load("super-farmer", 2)
    result = play(game, [RacerBot(rolls=2), RacerBot()], 5)
    assert result.outcome.reason == "full herd"
    state = table({"rabbit": 30, "sheep": 3, "small_dog": 1}, {"rabbit": 20, "pig": 2})
    observation, legal = state.observe(0), state.legal_actions()
    deep = RacerBot(rolls=2)
    choices = {deep.act(observation, legal, random.Random(seed)) for seed in range(4)}
    assert len(choices) == 1 and choices <= set(legal)
    state = table({"rabbit": 7, "sheep": 2, "pig": 1, "cow": 3}, {"rabbit": 2})
    legal = state.legal_actions()
    winning = [a for a in legal if isinstance(a, Trade) and a.take[HORSE]]  # 2 cows
    assert len(winning) == 1 and deep.act(state.observe(0), legal, random.Random(0)) in winning
    state = table({"rabbit": 1}, {"rabbit": 2})
    legal = state.legal_actions()
    assert legal == [Roll()]
    for bot in (RacerBot(), deep):
        assert bot.act(state.observe(0), legal, random.Random(0)) == Roll()
    with pytest.raises(ValueError, match="one or two rolls"):
        RacerBot(rolls=3)


def test_two_rolls_ahead_where_every_first_roll_wins_by_the_next_turn() -> None:
    """Two dogs guard a farm two cows make full: whatever the dice, an exchange wins at
    the next turn, so rolling is worth ``S(2)`` in two turns, with no second roll."""
    state = table(
        {"rabbit": 20, "sheep": 2, "pig": 2, "cow": 3, "small_dog": 1, "big_dog": 1},
        {"rabbit": 30, "sheep": 4, "pig": 2, "cow": 1},
    )
    bot = RacerBot(rolls=2)
    solution = bot.policy({})
    assert solution is not None
    from ranchhand.games.super_farmer.solver.race import race

    contest = race(solution)
    weights = contest.mixture(bot.deadline(state, 0, contest))
    chances, turns = bot.lookahead(state, 0, [Roll()], contest, weights)
    won_next = float(np.concatenate(([0.0], contest.table.gammas)) @ weights)
    assert chances[0] == pytest.approx(won_next, abs=1e-12) and turns[0] == pytest.approx(2.0)


def test_two_rolls_ahead_is_the_brute_force_of_its_sum() -> None:
    """Two rolls ahead (:meth:`RacerBot.two_rolls`), the racer's sum is the one worked
    out in plain Python over the reference engine: every choice, each of the 25 rolls, at
    our next turn every legal action of the position it leaves, each of the 25 rolls; a
    farm is full, winnable (an exchange the engine offers completes it) or scored by the
    table's row. The other farmer may win from its second turn on, and some second rolls
    leave winnable farms."""
    other = {"rabbit": 30, "sheep": 4, "pig": 2, "cow": 1}
    state = table({"rabbit": 2, "sheep": 1, "cow": 1}, other)
    bot = RacerBot(rolls=2)
    solution = bot.policy({})
    assert solution is not None
    from ranchhand.games.super_farmer.solver.race import race

    contest = race(solution)
    weights = contest.mixture(bot.deadline(state, 0, contest))
    legal = state.legal_actions()
    chances, turns = bot.lookahead(state, 0, legal, contest, weights)
    outcomes = state.game.roll_outcomes
    odds = [w / outcomes.total for w in outcomes.weights]
    gammas = [0.0, *map(float, contest.table.gammas)]
    deadline = [sum(a * g**t for a, g in zip(weights, gammas, strict=True)) for t in range(3)]
    assert deadline[2] < 0.5  # the other farmer is close: S(3) matters
    box = [m + h for m, h in zip(state.animals[0], state.herd, strict=True)]
    positions: dict[tuple[int, ...], SuperFarmerState] = {}
    counted = {"winnable second rolls": 0}

    def turn(farm: tuple[int, ...]) -> SuperFarmerState:
        """Our exchange step holding ``farm``, the other farmer's farm as now."""
        if farm not in positions:
            position = state.clone()
            position.animals[0] = list(farm)
            position.herd = [b - n for b, n in zip(box, farm, strict=True)]
            positions[farm] = position
        return positions[farm]

    def rolls(farm: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The farm each of the 25 rolls leaves ``farm``, in the engine."""
        before = turn(farm).clone()
        before.apply_text("roll")
        farms = []
        for roll in outcomes.actions:
            rolled = before.clone()
            rolled.apply(roll)
            farms.append(tuple(rolled.animals[0]))
        return farms

    def full(farm: tuple[int, ...]) -> bool:
        return all(farm[:5])

    def winnable(farm: tuple[int, ...]) -> bool:
        return any(
            isinstance(a, Trade) and full(after(farm, a)) for a in turn(farm).legal_actions()
        )

    def mean(scores: list[tuple[float, float]]) -> tuple[float, float]:
        """Over the 25 rolls: the chance, and the turns counting this one."""
        chance = sum(p * c for p, (c, _) in zip(odds, scores, strict=True))
        return chance, 1.0 + sum(p * t for p, (_, t) in zip(odds, scores, strict=True))

    @functools.cache
    def second(farm: tuple[int, ...]) -> tuple[float, float]:
        """A farm after the second roll: its chance and its turns from our third turn."""
        if full(farm):
            return deadline[1], 0.0
        if winnable(farm):
            counted["winnable second rolls"] += 1
            return deadline[2], 1.0
        row = int(contest.table.rows(np.array([farm]))[0])
        assert row >= 0  # the herd is not short enough to leave farms the solitaire lacks
        terms = zip(weights[1:], gammas[1:], contest.table.powers[row], strict=True)
        return sum(a * g * float(p) for a, g, p in terms), float(contest.table.turns[row])

    @functools.cache
    def then(point: tuple[int, ...]) -> tuple[float, float]:
        """A farm at our next turn, after its exchange: over the second roll."""
        return mean([second(f) for f in rolls(point)])

    def first(farm: tuple[int, ...]) -> tuple[float, float]:
        """A farm after the first roll: its chance and its turns from our next turn."""
        if full(farm):
            return deadline[0], 0.0
        if winnable(farm):
            return deadline[1], 1.0
        actions = turn(farm).legal_actions()
        scored = [then(after(farm, a) if isinstance(a, Trade) else farm) for a in actions]
        best = max(c for c, _ in scored)
        return best, min(t for c, t in scored if c >= best - 1e-9)

    assert len(legal) > 10
    for i, action in enumerate(legal):
        start = after(tuple(state.animals[0]), action) if isinstance(action, Trade) else None
        chance, expected = mean([first(f) for f in rolls(start or tuple(state.animals[0]))])
        assert chances[i] == pytest.approx(chance, abs=1e-9)
        assert turns[i] == pytest.approx(expected, abs=1e-9)
    assert counted["winnable second rolls"] > 10


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
