"""Solve solitaire Super Farmer exactly, and keep the answer in a policy file.

The MDP: the state is the farm (the herd is the rest of the box), the choice is the
exchange before the roll (or none), the roll is chance (25 outcomes out of 144). A farm
is *full* when it holds the five species (the game is won: 0 rolls to go) and *winnable*
when one exchange makes it full (0 rolls as well: nothing beats winning now). Only the
other, *live*, farms need a value; they are found by a breadth-first walk from the empty
farm over every exchange and every roll, so every farm any strategy can meet is there,
and nothing else.

The values solve ``V(s) = min over choices c of 1 + sum_roll p(roll) V(roll(after(s, c)))``
(a value-0 farm counts 0). Modified policy iteration: a Bellman step over every choice
picks the best one, then Gauss-Seidel sweeps evaluate that policy, until no choice
changes and a Bellman step moves no value by more than ``TOLERANCE``.

``exchanges=many`` is not solved here: a turn's exchanges there range over a whole
class of farms of equal value (see the docs page). ``predators=wolf-first`` alone plays
exactly as the default (it matters only with ``dog=if-needed`` or ``wolf=takes-small-dog``);
it is solved like any other reading.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ranchhand.core.errors import OptionError
from ranchhand.games.super_farmer.actions import DiceRoll, Trade
from ranchhand.games.super_farmer.exchanges import unit
from ranchhand.games.super_farmer.game import SuperFarmerGame
from ranchhand.games.super_farmer.solver import kernel

TOLERANCE = 1e-9
"""The largest change of a value, in rolls, by the last Bellman step of a solution."""
SWEEPS = 300
"""Most Gauss-Seidel sweeps of the current policy between two Bellman steps; they stop
sooner once no value moves by ``TOLERANCE / 10``. Bounded, since an early policy may
never win (one that never exchanges never gets a cow): its values would grow forever."""
ROLL_OPTIONS = {
    "fox": ("leave-one", kernel.FOX_LEAVES_ONE),
    "wolf": ("takes-small-dog", kernel.WOLF_TAKES_SMALL_DOG),
    "dog": ("if-needed", kernel.DOG_IF_NEEDED),
    "predators": ("wolf-first", kernel.WOLF_FIRST),
}
"""The options that change a roll: (the non-default value, its flag in ``kernel``)."""
FORMAT = 1
STRIDES = tuple(int(s) for s in np.cumprod((1, *(n + 1 for n in SuperFarmerGame(1).box[:-1]))))
"""The weight of each count in a farm's key (the box is the same under every option)."""


@dataclass
class Rules:
    """The solitaire's arrays for one rules configuration."""

    game: SuperFarmerGame
    box: np.ndarray
    dims: np.ndarray
    strides: np.ndarray
    give: np.ndarray
    take: np.ndarray
    trades: tuple[Trade, ...]
    faces: np.ndarray
    weights: np.ndarray
    flags: int

    @classmethod
    def of(cls, options: dict[str, str] | None = None, box: Any = None) -> Rules:
        """The arrays of Super Farmer for one farmer under ``options``; ``box``, a smaller
        box than the game's (7 counts), gives a small MDP of the same rules for tests."""
        options = dict(options or {})
        options.pop("max_turns", None)
        game = SuperFarmerGame(1, **options)
        if game.options["exchanges"] != "one":
            raise OptionError(
                "the solver solves exchanges=one (one exchange a turn); with exchanges=many "
                "a turn may reach any farm of equal value, a different MDP it does not solve"
            )
        flags = 0
        for name, (reading, flag) in ROLL_OPTIONS.items():
            if game.options[name] == reading:
                flags |= flag
        trades = [
            Trade(mix, unit(kind)) for kind, mixes in enumerate(game.bundles) for mix in mixes
        ]
        trades += [Trade(t.take, t.give) for t in trades]
        trades += [Trade(unit(a), unit(b)) for a, b in sorted(game.swaps)]
        box = np.array(game.box if box is None else box, np.int64)
        dims = box + 1
        strides = np.cumprod(np.concatenate(([1], dims[:-1]))).astype(np.int64)
        outcomes = game.roll_outcomes
        faces = np.array(
            [(o.wolf, o.fox) for o in outcomes.actions if isinstance(o, DiceRoll)], np.int64
        )
        weights = np.array(outcomes.weights, np.float64) / outcomes.total
        return cls(
            game=game,
            box=box,
            dims=dims,
            strides=strides,
            give=np.array([t.give for t in trades], np.int64),
            take=np.array([t.take for t in trades], np.int64),
            trades=tuple(trades),
            faces=faces,
            weights=weights,
            flags=flags,
        )

    def key(self, farm: Any) -> int:
        return int(np.dot(np.asarray(farm, np.int64), self.strides))

    @property
    def cumulative(self) -> np.ndarray:
        """The rolls' cumulative chances, the last exactly 1, which the kernels' draws
        (uniform in [0, 1)) never reach whatever the rounding of the sum."""
        cumulative = np.cumsum(self.weights)
        cumulative[-1] = 1.0
        return cumulative


@dataclass
class Solution:
    """The optimal policy: for each live farm (sorted keys) its exchange (-1: roll) and its
    expected rolls to win; how it was computed."""

    options: dict[str, str]
    farms: np.ndarray  # (n, 7) int8, sorted by key
    keys: np.ndarray  # (n,) int64, ascending
    move: np.ndarray  # (n,) int16: index into trades, -1 to roll
    value: np.ndarray  # (n,) float64
    trades: tuple[Trade, ...]
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def empty_value(self) -> float:
        """Expected rolls to win from the empty farm (the start of a game)."""
        return float(self.value[0])

    def lookup(self, farm: Any) -> int:
        """The row of ``farm`` (7 counts), or -1 for a farm that is not live."""
        key = sum(n * s for n, s in zip(farm, STRIDES, strict=True))
        i = int(np.searchsorted(self.keys, key))
        return i if i < len(self.keys) and int(self.keys[i]) == key else -1

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                format=np.array(FORMAT),
                options=np.array([f"{k}={v}" for k, v in sorted(self.options.items())]),
                farms=self.farms,
                move=self.move,
                value=self.value,
                give=np.array([t.give for t in self.trades], np.int8),
                take=np.array([t.take for t in self.trades], np.int8),
                info=np.array([f"{k}={v}" for k, v in self.info.items()]),
            )

    @classmethod
    def load(cls, path: Path) -> Solution:
        with np.load(path) as data:
            if int(data["format"]) != FORMAT:
                raise OptionError(f"{path}: a policy file of another format; solve again")
            options = dict(str(o).split("=", 1) for o in data["options"])
            farms = data["farms"]
            trades = tuple(
                Trade(tuple(int(x) for x in g), tuple(int(x) for x in t))  # type: ignore[arg-type]
                for g, t in zip(data["give"], data["take"], strict=True)
            )
            info = dict(str(o).split("=", 1) for o in data["info"])
            solution = cls(
                options, farms, np.empty(0, np.int64), data["move"], data["value"], trades, info
            )
        solution.keys = farms.astype(np.int64) @ np.array(STRIDES, np.int64)
        return solution


def policy_arrays(solution: Solution, rules: Rules) -> tuple[Any, ...]:
    """What the compiled simulations of the policy (``kernel.play``, ``kernel.turns_law``)
    take after their own arguments, in their order: the live farms, their moves, the box,
    the strides, the trades, the dice faces, their cumulative chances and the rules' flags.
    The moves are copied to int64 here, so a caller that simulates often makes them once."""
    return (
        solution.keys,
        solution.move.astype(np.int64),
        rules.box,
        rules.strides,
        rules.give,
        rules.take,
        rules.faces,
        rules.cumulative,
        rules.flags,
    )


def rolls_to_win(
    solution: Solution, rules: Rules, seed: int, games: int, max_rolls: int = 100_000
) -> np.ndarray:
    """The rolls ``games`` solitaires played by ``solution``'s policy needed to win
    (``kernel.play``, seeded by ``seed``): the solver checked on its own arithmetic."""
    arguments = (seed, games, *policy_arrays(solution, rules), max_rolls)
    rolls: np.ndarray = kernel.play(*arguments)
    return rolls


def canonical(options: dict[str, str] | None) -> dict[str, str]:
    """The options that differ from the defaults (``max_turns`` aside), as solved."""
    game = SuperFarmerGame(1, **{k: v for k, v in (options or {}).items() if k != "max_turns"})
    defaults = SuperFarmerGame(1).options
    return {k: str(v) for k, v in game.options.items() if k != "max_turns" and v != defaults[k]}


def solve(options: dict[str, str] | None = None, log: Any = None, box: Any = None) -> Solution:
    """Build and solve the solitaire MDP of ``options`` (see the module docstring);
    ``box`` as in :meth:`Rules.of` (the solution's keys then use that box's digits)."""
    say = log or (lambda text: None)
    options = canonical(options)
    rules = Rules.of(options, box)
    started, cpu = time.perf_counter(), time.process_time()
    total = int(np.prod(rules.dims))
    status = np.zeros(total, np.uint8)
    delta = rules.take @ rules.strides - rules.give @ rules.strides
    live, points = kernel.explore(
        rules.box,
        rules.dims,
        rules.strides,
        rules.give,
        rules.take,
        rules.faces,
        rules.flags,
        delta,
        status,
    )
    del status
    say(
        f"{len(live):,} live farms, {len(points):,} farms rolled from "
        f"({time.perf_counter() - started:.1f} s)"
    )
    live.sort()
    index = np.full(total, -1, np.int32)
    index[live] = np.arange(len(live), dtype=np.int32)
    starts, targets, trade_of = kernel.choices_of(
        live, rules.box, rules.dims, rules.give, rules.take, delta
    )
    say(f"{len(targets):,} choices ({time.perf_counter() - started:.1f} s)")
    value = np.zeros(len(live), np.float64)
    policy = np.full(len(live), -1, np.int64)
    w = np.zeros(total, np.float64)
    chosen = np.empty((len(live), len(rules.faces)), np.int32)
    roll_args = (rules.box, rules.dims, rules.strides, rules.faces)
    steps = 0
    while True:
        kernel.point_values(points, *roll_args, rules.weights, rules.flags, index, value, w)
        changed, residual = kernel.improve(starts, targets, w, value, policy)
        steps += 1
        say(
            f"Bellman step {steps}: {changed:,} choices changed, largest change "
            f"{residual:.2e} ({time.perf_counter() - started:.1f} s)"
        )
        if changed == 0 and residual < TOLERANCE:
            break
        if changed:
            kernel.successors_of(
                targets[policy].astype(np.int64), *roll_args, rules.flags, index, chosen
            )
        kernel.evaluate(chosen, rules.weights, value, SWEEPS, TOLERANCE / 10)
    memory = index.nbytes + w.nbytes + chosen.nbytes + targets.nbytes + trade_of.nbytes
    info = {
        "live_farms": len(live),
        "roll_points": len(points),
        "choices": len(targets),
        "bellman_steps": steps,
        "residual": f"{residual:.1e}",
        "seconds": f"{time.perf_counter() - started:.1f}",
        "cpu_seconds": f"{time.process_time() - cpu:.1f}",
        "arrays_mb": f"{memory / 1e6:.0f}",
    }
    farms = np.empty((len(live), 7), np.int8)
    digits = live.copy()
    for k in range(7):
        farms[:, k] = digits % rules.dims[k]
        digits //= rules.dims[k]
    return Solution(
        options=options,
        farms=farms,
        keys=live,
        move=trade_of[policy],
        value=value,
        trades=rules.trades,
        info=info,
    )


def cache_path(options: dict[str, str] | None) -> Path:
    """Where the policy of ``options`` is cached: ``$RANCHHAND_CACHE`` or the user's
    cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``), under ``ranchhand/``."""
    root = os.environ.get("RANCHHAND_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ranchhand"
    )
    named = "-".join(f"{k}={v}" for k, v in sorted(canonical(options).items())) or "default"
    return Path(root) / f"super-farmer-solitaire-{named}.npz"


_LOADED: dict[Path, Solution] = {}

SHIPPED = Path(__file__).parent / "tables"
"""Policies that come with the package (the default rules'), so nobody has to solve them."""

SOLVE_ENV = "RANCHHAND_SOLVE"
"""``never`` forbids solving on demand (the server sets it: a stranger's table must not
start minutes of CPU and gigabytes of memory); then a missing policy is :class:`NotSolved`."""


class NotSolved(LookupError):
    """No policy for these options is shipped or cached, and solving on demand is off."""


def cached(options: dict[str, str] | None) -> Solution:
    """The solution of ``options``: shipped with the package, else loaded from the cache,
    else solved once and cached (a message on stderr says so, since that takes minutes),
    unless ``$RANCHHAND_SOLVE`` is ``never`` (then :class:`NotSolved`)."""
    path = cache_path(options)
    if path in _LOADED:
        return _LOADED[path]
    shipped = SHIPPED / path.name
    if shipped.exists():
        solution = Solution.load(shipped)
    elif path.exists():
        solution = Solution.load(path)
    elif os.environ.get(SOLVE_ENV, "").strip().lower() == "never":
        raise NotSolved(f"no solitaire policy for {path.name}; run: ranchhand solve super-farmer")
    else:
        print(
            f"ranchhand: solving solitaire Super Farmer once (a few CPU minutes, about 2 GB); "
            f"the policy is cached in {path}",
            file=sys.stderr,
        )
        solution = solve(options)
        solution.save(path)
    _LOADED[path] = solution
    return solution
