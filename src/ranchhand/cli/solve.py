"""``ranchhand solve``: compute a game's exact strategy where one is computable.

Imported at the end of :mod:`ranchhand.cli.main`, whose app this command joins. Today
that is solitaire Super Farmer (``games/super_farmer/solver``): the exchange policy that
minimises the expected number of rolls to a full farm, for the rules options given.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from ranchhand.cli.main import OptionList, _fail, app, console
from ranchhand.core.errors import RanchhandError
from ranchhand.core.options import parse_assignments
from ranchhand.core.registry import canonical_name

SOLVABLE = ("super-farmer",)


@app.command("solve")
def solve_command(
    game: Annotated[str, typer.Argument(help="super-farmer (its solitaire)")],
    out: Annotated[Path, typer.Option("--out", help="The policy file (.npz) to write.")],
    option: OptionList = None,
) -> None:
    """Solve a game exactly and write the policy and the value of every position."""
    try:
        name = canonical_name(game)
        if name not in SOLVABLE:
            raise RanchhandError(f"no solver for {name}; solvable: {', '.join(SOLVABLE)}")
        from ranchhand.games.super_farmer.solver.solve import solve

        options = parse_assignments(option or [])
        started = time.perf_counter()
        solution = solve(options, log=lambda text: console.print(text, highlight=False))
    except RanchhandError as error:
        _fail(str(error))
        return
    solution.save(out)
    rules = ", ".join(f"{k}={v}" for k, v in solution.options.items()) or "default rules"
    console.print(
        f"Super Farmer solitaire ({rules}): {solution.empty_value:.4f} expected rolls from "
        f"the empty farm; {len(solution.value):,} farms; "
        f"{time.perf_counter() - started:.0f} s; written to {out}",
        highlight=False,
    )
