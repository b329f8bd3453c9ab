"""Compare the readings of an option: one simulation per (player count, option value).

A designer's question is rarely "who wins" but "what changes if we read the rule the other
way": this runs the same seeded games under each value of one option and puts the headline
figures side by side. A game's summary (``Game.summary().result()``) may hold an ``average``
mapping of headline numbers (score split, rounds per game); those become columns.

One SIGINT or SIGTERM stops the whole comparison: the row being simulated is kept as a
partial row (its report says so) and no further row starts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import canonical_name, game_class
from ranchhand.sim.simulate import Simulation, simulate
from ranchhand.sim.workers import StopControl


@dataclass(frozen=True)
class ComparisonRow:
    players: int
    value: Any
    report: dict[str, Any]
    exit_code: int = 0
    """Non-zero when this row's run was stopped (see ``Report.exit_code``)."""

    @property
    def partial(self) -> bool:
        return bool(self.report.get("partial"))

    @property
    def headline(self) -> dict[str, float]:
        average = self.report.get("summary", {}).get("average", {})
        return {k: float(v) for k, v in average.items() if isinstance(v, int | float)}


def option_values(game: str, option: str) -> tuple[Any, ...]:
    """Every allowed value of ``option`` (booleans and choices only)."""
    cls = game_class(game)
    spec = next((o for o in cls.option_specs() if o.name == option), None)
    if spec is None:
        names = ", ".join(o.name for o in cls.option_specs())
        raise OptionError(f"{canonical_name(game)} has no option {option!r}; options are: {names}")
    if spec.kind is bool:
        return (False, True)
    if not spec.choices:
        raise OptionError(f"option {option!r} has no fixed list of values to compare")
    return tuple(spec.choices)


def compare(
    game: str,
    option: str,
    players: Sequence[int],
    games: int,
    seed: int = 0,
    bot: str = "greedy",
    base_options: Sequence[tuple[str, Any]] = (),
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    control: StopControl | None = None,
) -> list[ComparisonRow]:
    """Simulate ``games`` games for every player count and value of ``option``.

    Every row is checked (player count, bot, option value) before the first game, so
    a typo fails at once, not after hours of rows. A stop ends with the rows so far;
    pass ``control`` to handle signals yourself (it is then not installed here).
    """
    values = option_values(game, option)
    sims = [
        Simulation(
            canonical_name(game),
            (bot,) * count,
            games,
            seed,
            tuple(sorted({**dict(base_options), option: value}.items())),
        )
        for count in players
        for value in values
    ]
    for sim in sims:
        sim.check()
    rows: list[ComparisonRow] = []
    own = control is None
    control = control or StopControl()
    with control.catching() if own else contextlib.nullcontext():
        for sim in sims:
            report = simulate(sim, jobs, progress, control)
            value = dict(sim.options)[option]
            rows.append(ComparisonRow(sim.players, value, report.to_json(), report.exit_code))
            if report.partial:
                break
    return rows
