"""Compare the readings of an option: one simulation per (player count, option value).

A designer's question is rarely "who wins" but "what changes if we read the rule the other
way": this runs the same seeded games under each value of one option and puts the headline
figures side by side. A game's ``summarize`` may return an ``average`` mapping of headline
numbers (score split, rounds per game); those become columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import canonical_name, game_class
from ranchhand.sim.simulate import Simulation, simulate


@dataclass(frozen=True)
class ComparisonRow:
    players: int
    value: Any
    report: dict[str, Any]

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
) -> list[ComparisonRow]:
    """Simulate ``games`` games for every player count and value of ``option``."""
    rows = []
    for count in players:
        for value in option_values(game, option):
            options = tuple(sorted({**dict(base_options), option: value}.items()))
            sim = Simulation(canonical_name(game), (bot,) * count, games, seed, options)
            rows.append(ComparisonRow(count, value, simulate(sim, jobs, progress).to_json()))
    return rows
