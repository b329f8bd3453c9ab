"""The solitaire solver: its rules equal the reference engine's, and its values are what
its policy achieves (small boxes here; the full game's figures are a benchmark)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from ranchhand.games.super_farmer.actions import DiceRoll
from ranchhand.games.super_farmer.solver import kernel
from ranchhand.games.super_farmer.solver.solve import (
    ROLL_OPTIONS,
    Rules,
    Solution,
    rolls_to_win,
    solve,
)
from ranchhand.games.super_farmer.tables import KEYS
from tests.games.super_farmer.helpers import table

SMALL_BOX = (14, 6, 4, 3, 2, 1, 1)
"""A box small enough to solve in a second, with every species and both dogs."""
READINGS = [
    {},
    {"fox": "leave-one"},
    {"wolf": "takes-small-dog", "predators": "wolf-first"},
    {"dog": "if-needed", "wolf": "takes-small-dog"},
    {"trade": "one-kind"},
]


@pytest.mark.parametrize("options", READINGS, ids=lambda o: ",".join(o.values()) or "default")
def test_rolls_equal_the_reference_engine(options: dict[str, str]) -> None:
    """Every roll of 40 random farms lands where the reference engine lands."""
    rules = Rules.of(options)
    rng = random.Random(7)
    for _ in range(40):
        mine = [rng.randint(0, min(n, 8)) if rng.random() < 0.7 else 0 for n in rules.box]
        if all(mine[:5]):
            continue
        for f, (wolf, fox) in enumerate(rules.faces):
            state = table(dict(zip(KEYS, mine, strict=True)), **options)
            state.apply_text("roll")
            state.apply(DiceRoll(int(wolf), int(fox)))
            farm = np.array(mine, np.int64)
            kernel.roll(farm, rules.box, int(wolf), int(fox), rules.flags)
            assert list(farm) == state.animals[0], (mine, f)


def test_every_roll_option_has_a_flag() -> None:
    """The options that change a roll are exactly those the kernel reads."""
    assert set(ROLL_OPTIONS) == {"fox", "wolf", "dog", "predators"}


@pytest.mark.parametrize("options", READINGS[:3], ids=lambda o: ",".join(o.values()) or "default")
def test_small_box_value_is_what_the_policy_achieves(options: dict[str, str]) -> None:
    """The value of the empty farm equals the mean rolls of 20,000 games played by the
    policy, within 4 standard errors; and no choice beats the policy by a Bellman step."""
    solution = solve(options, box=SMALL_BOX)
    rules = Rules.of(options, box=SMALL_BOX)
    assert solution.info["residual"] and float(solution.info["residual"]) < 1e-9
    rolls = rolls_to_win(solution, rules, 3, 20_000)
    error = rolls.std() / np.sqrt(len(rolls))
    assert abs(rolls.mean() - solution.empty_value) < 4 * error


def test_small_box_policy_beats_rolling_only_and_values_are_ordered() -> None:
    """Any farm's value is at least 1 (a roll is needed) and the empty farm's is the
    largest a farm can have with nothing to trade; never trading is no better."""
    solution = solve({}, box=SMALL_BOX)
    assert (solution.value >= 1 - 1e-12).all()
    assert solution.empty_value == pytest.approx(solution.value[0])
    assert (solution.move >= -1).all() and (solution.move >= 0).any()
    # every farm in the table is live: not full, and no exchange completes it
    for farm in itertools.islice(solution.farms, 0, None, 97):
        assert not all(farm[:5])


def test_solve_command_refuses_what_it_does_not_solve(tmp_path: Path) -> None:
    """``ranchhand solve`` names the solvable game, and refuses exchanges=many saying why
    (both before any work)."""
    from typer.testing import CliRunner

    from ranchhand.cli.main import app

    runner = CliRunner()
    out = str(tmp_path / "p.npz")
    result = runner.invoke(app, ["solve", "rancho", "--out", out])
    assert result.exit_code == 2 and "solvable: super-farmer" in result.output
    result = runner.invoke(app, ["solve", "super-farmer", "-o", "exchanges=many", "--out", out])
    assert result.exit_code == 2 and "exchanges=one" in result.output
    assert not (tmp_path / "p.npz").exists()


def test_a_saved_policy_loads_equal(tmp_path: Path) -> None:
    """A policy file holds the farms, moves, values and exchanges it was written with."""
    solution = solve({"fox": "leave-one"}, box=SMALL_BOX)
    solution.save(tmp_path / "p.npz")
    again = Solution.load(tmp_path / "p.npz")
    assert again.options == {"fox": "leave-one"}
    assert (again.farms == solution.farms).all() and (again.move == solution.move).all()
    assert (again.value == solution.value).all() and again.trades == solution.trades


def test_the_default_policy_ships_and_solving_on_demand_can_be_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server sets RANCHHAND_SOLVE=never: options with no table made play greedy's
    exchanges instead of solving for minutes; the default rules' table comes with the
    package, so it needs no cache at all."""
    from ranchhand.games.super_farmer.optimal import OptimalBot
    from ranchhand.games.super_farmer.solver import solve as solver

    monkeypatch.setenv("RANCHHAND_CACHE", str(tmp_path))  # an empty cache
    monkeypatch.setenv(solver.SOLVE_ENV, "never")
    monkeypatch.setattr(solver, "_LOADED", {})
    assert (solver.SHIPPED / solver.cache_path(None).name).exists()
    assert solver.cached(None).lookup((0, 0, 0, 0, 0, 0, 0)) >= 0
    with pytest.raises(solver.NotSolved):
        solver.cached({"fox": "leave-one"})
    bot = OptimalBot()
    assert bot.policy({"fox": "leave-one"}) is None and bot.warned
