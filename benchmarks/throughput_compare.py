"""Decisions per CPU second: ranchhand's environments beside pgx's and PettingZoo's classic games.

One process measures, each row for ``--seconds`` of CPU time (``time.process_time``, which
counts every thread of the process, so JAX's and numba's worker threads are in it):

* **PettingZoo classic** (``tictactoe_v3``, ``connect_four_v3``, ``leduc_holdem_v4``,
  ``texas_holdem_v4``, ``go_v5`` on a 9x9 board, ``chess_v6``) and **ranchhand's
  PettingZoo AEC environment** of each of its four games at two players: the loop every
  PettingZoo tutorial writes, each library's ``env()`` as it ships (its wrappers included).
  The timed part is ``last()`` (which builds the observation) and ``step``, and ``reset``
  when a game ends; a step is one agent's decision (the ``step(None)`` calls that retire a
  finished agent are timed but not counted).
* **pgx** on the CPU (``tic_tac_toe``, ``connect_four``, ``leduc_holdem``, ``go_9x9``,
  ``backgammon``): ``jax.jit(jax.vmap(auto_reset(env.step, env.init)))`` at 1, 64 and
  1,024 games, as pgx's README drives it. The timed part is the step call and
  ``jax.block_until_ready`` of the new state; a call counts one decision per game (pgx
  plays chance inside ``step``, and a finished game starts afresh inside it). Tracing and
  compiling (the first ``init`` and ``step`` at that batch size) are timed apart and shown
  in their own column, not in the rate.
* **ranchhand's compiled batches** (``ranchhand.envs.vector.vector_env``, Super Farmer and
  Rancho, two players) at 1, 64 and 1,024 games, the other seat played by the ``random``
  bot inside the batch: the timed part is ``step``; a call counts one decision of the
  learner per game, though it also plays the opponent's turn and the chance that follows
  (about as many decisions again at two players: the row says how many, counted in 150
  games of the Python environment the batch matches). The column of load time is
  building the batch, ``reset`` and five steps (numba's compiled code loaded from its
  on-disk cache, or compiled when there is none).

Every row plays uniformly random legal actions, drawn **outside** the timed part: from the
observation's mask with numpy (PettingZoo, ranchhand) or with a separate jitted
``jax.random.categorical`` over the masks, waited for before the clock starts (pgx). So a
figure is the environment's own cost, not a policy's.

Rows whose library is missing are printed with the reason (pgx needs ``jax``; PettingZoo's
classic games need ``pygame``, leduc and texas hold'em ``rlcard``, chess ``chess``); none of
these is a ranchhand dependency. ::

    nice -n 5 .venv/bin/python benchmarks/throughput_compare.py [--seconds 3]
        [--only pettingzoo,pgx,ranchhand-vector,ranchhand-aec]
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import numpy as np
from vector_env import learner_rate  # benchmarks/vector_env.py, beside this file

BATCHES = (1, 64, 1024)
PETTINGZOO_CLASSIC: tuple[tuple[str, dict[str, Any]], ...] = (
    ("tictactoe_v3", {}),
    ("connect_four_v3", {}),
    ("leduc_holdem_v4", {}),
    ("texas_holdem_v4", {}),
    ("go_v5", {"board_size": 9}),
    ("chess_v6", {}),
)
PGX_GAMES = ("tic_tac_toe", "connect_four", "leduc_holdem", "go_9x9", "backgammon")
RANCHHAND_GAMES = ("super-farmer", "rancho", "rocket-ranchers", "glory-ranch")
VECTOR_GAMES = ("super-farmer", "rancho")


@dataclass(frozen=True)
class Row:
    """One measured configuration, or the reason it could not be measured."""

    library: str
    game: str
    batch: int
    rate: float | None = None
    counted: str = ""
    load_seconds: float | None = None
    note: str = ""

    def markdown(self) -> str:
        rate = f"{self.rate:,.0f}" if self.rate is not None else "-"
        load = f"{self.load_seconds:.1f}" if self.load_seconds is not None else ""
        batch = f"{self.batch:,}" if self.batch else ""
        counted = self.note or self.counted
        return f"| {self.library} | {self.game} | {batch} | {rate} | {load} | {counted} |"


def aec_rate(make: Callable[[], Any], seconds: float, seed: int) -> float:
    """Agent decisions per CPU second of a PettingZoo AEC environment under random play."""
    env = make()
    rng = np.random.default_rng(seed)
    steps, spent = 0, 0.0
    while spent < seconds:
        start = time.process_time()
        env.reset(seed=int(rng.integers(2**31)))
        spent += time.process_time() - start
        for _agent in env.agent_iter():
            start = time.process_time()
            observation, _, terminated, truncated, _ = env.last()
            spent += time.process_time() - start
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            start = time.process_time()
            env.step(action)
            spent += time.process_time() - start
    return steps / spent


def pettingzoo_rows(seconds: float, seed: int) -> list[Row]:
    rows = []
    for module, kwargs in PETTINGZOO_CLASSIC:
        label = module + (" 9x9" if kwargs.get("board_size") == 9 else "")
        try:
            classic = importlib.import_module(f"pettingzoo.classic.{module}")
        except ImportError as error:
            rows.append(Row("PettingZoo classic", label, 1, note=f"not run: {error}"))
            continue
        rate = aec_rate(partial(classic.env, **kwargs), seconds, seed)
        rows.append(Row("PettingZoo classic", label, 1, rate, "agent decisions"))
    return rows


def ranchhand_aec_rows(seconds: float, seed: int) -> list[Row]:
    from ranchhand.envs.pettingzoo import env

    rows = []
    for game in RANCHHAND_GAMES:
        rate = aec_rate(partial(env, game, 2), seconds, seed)
        rows.append(Row("ranchhand PettingZoo AEC", game, 1, rate, "agent decisions"))
    return rows


def vector_rate(game: str, num_envs: int, seconds: float, seed: int) -> tuple[float, float]:
    """Learner decisions per CPU second of the compiled batch, and its load time."""
    from ranchhand.envs.vector import vector_env

    rng = np.random.default_rng(seed)
    start = time.process_time()
    env = vector_env(game, num_envs, 2, "random", compiled=True)
    _, info = env.reset(seed=seed)
    for _ in range(5):
        masks = info["action_mask"]
        _, *_, info = env.step(np.argmax(masks * rng.random(masks.shape), axis=1))
    load = time.process_time() - start
    return learner_rate(env, info, rng, seconds), load


def decisions_per_learner_step(game: str, games: int, seed: int) -> float:
    """Both seats' decisions per learner step, counted by the adapters' table (chance not
    counted) over ``games`` games of the Python environment the compiled batch matches, the
    learner random as in the timed rows: what turns a learner rate into an agent rate."""
    from ranchhand.envs.gymnasium import RanchGymEnv

    env = RanchGymEnv(game, 2, "random", 0)
    rng = np.random.default_rng(seed)
    learner = total = 0
    for episode in range(games):
        _, info = env.reset(seed=seed + episode)
        over = False
        while not over:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            learner += 1
            over = terminated or truncated
        total += env.table.decisions
    return total / learner


def vector_rows(seconds: float, seed: int) -> list[Row]:
    rows = []
    for game in VECTOR_GAMES:
        ratio = decisions_per_learner_step(game, 150, seed)
        counted = (
            f"learner decisions; the random opponent's turn is played inside, "
            f"{ratio:.2f} decisions of both seats a learner step (150 games, Python env)"
        )
        for num_envs in BATCHES:
            rate, load = vector_rate(game, num_envs, seconds, seed)
            rows.append(Row("ranchhand vector_env (numba)", game, num_envs, rate, counted, load))
    return rows


def pgx_rate(name: str, batch: int, seconds: float, seed: int) -> tuple[float, float]:
    """Decisions per CPU second of a jitted, vmapped pgx environment, and its compile time."""
    import jax
    import jax.numpy as jnp
    import pgx  # type: ignore[import-not-found,import-untyped]
    from pgx.experimental import auto_reset  # type: ignore[import-not-found,import-untyped]

    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def choose(key: Any, mask: Any) -> tuple[Any, Any, Any]:
        key, pick, stream = jax.random.split(key, 3)
        logits = jnp.where(mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(pick, logits, axis=-1)
        return key, actions, jax.random.split(stream, batch)

    key = jax.random.PRNGKey(seed)
    start = time.process_time()
    state = init(jax.random.split(key, batch))
    key, actions, keys = choose(key, state.legal_action_mask)
    state = jax.block_until_ready(step(state, actions, keys))
    compile_seconds = time.process_time() - start
    steps, spent = 0, 0.0
    while spent < seconds:
        key, actions, keys = jax.block_until_ready(choose(key, state.legal_action_mask))
        start = time.process_time()
        state = jax.block_until_ready(step(state, actions, keys))
        spent += time.process_time() - start
        steps += batch
    return steps / spent, compile_seconds


def pgx_rows(seconds: float, seed: int) -> list[Row]:
    try:
        import jax
        import pgx  # type: ignore[import-not-found,import-untyped]
    except ImportError as error:
        return [Row("pgx (JAX, CPU)", "all", 0, note=f"not run: {error}")]
    library = f"pgx {pgx.__version__} (JAX {jax.__version__}, CPU)"
    rows = []
    for name in PGX_GAMES:
        for batch in BATCHES:
            rate, compile_seconds = pgx_rate(name, batch, seconds, seed)
            rows.append(Row(library, name, batch, rate, "agent decisions", compile_seconds))
    return rows


PARTS: dict[str, Callable[[float, int], list[Row]]] = {
    "pettingzoo": pettingzoo_rows,
    "pgx": pgx_rows,
    "ranchhand-vector": vector_rows,
    "ranchhand-aec": ranchhand_aec_rows,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=",".join(PARTS), help="comma-separated parts to run")
    args = parser.parse_args()
    began = datetime.now(UTC)
    print(
        f"{began:%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, "
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"{args.seconds:g} s of CPU a row",
        flush=True,
    )
    print("| library | game | batch | decisions / CPU s | load or compile (CPU s) | counted |")
    print("| --- | --- | ---: | ---: | ---: | --- |", flush=True)
    for part in args.only.split(","):
        for row in PARTS[part](args.seconds, args.seed):
            print(row.markdown(), flush=True)
    ended = datetime.now(UTC)
    print(
        f"ended {ended:%H:%M} UTC ({(ended - began).total_seconds():.0f} s wall), "
        f"load average {os.getloadavg()[0]:.1f}, {time.process_time():.0f} s of CPU in all",
        flush=True,
    )


if __name__ == "__main__":
    main()
