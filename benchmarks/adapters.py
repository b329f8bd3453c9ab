"""How much the research adapters cost: uniform random play through each, beside the engine.

For each game with an encoding, one process measures in turn, each for ``--seconds`` of
CPU time:

* ``engine``: the engine by itself, ``legal_actions`` + a random pick + ``apply``;
* ``engine+indices``: the same driven by action index, the work any index-based adapter
  needs (the encoding's legal indices, the index chosen turned back into an action);
* ``engine+indices+tensor``: also the legal mask and the player's observation tensor,
  the work an adapter that shows observations needs;
* ``pettingzoo``: the AEC environment, ``agent_iter`` / ``last`` / ``step``, choosing
  from the observation's ``action_mask``;
* ``gymnasium``: one learning seat choosing from ``info["action_mask"]``, the other
  seats played by the ``random`` bot inside the environment;
* ``openspiel``: the registered pyspiel game, ``legal_actions`` + ``apply_action``
  (chance drawn from ``chance_outcomes``), as MCTS drives it;
* ``openspiel+obs``: the same plus ``observation_tensor`` of each player to act, as
  learning code drives it;

and, for scale, PettingZoo's classic ``tictactoe_v3`` and ``connect_four_v3`` (they
need ``pygame``; the table says when they could not be loaded), OpenSpiel's C++
``tic_tac_toe`` and ``pig`` and its Python ``python_tic_tac_toe`` and
``python_kuhn_poker``, through the same loops.

A step is one player decision (chance is not counted, simultaneous choices count
one per player who chooses). ``slowdown vs engine`` is the engine's steps/s over the
row's: 2.0 means the row runs at half the engine's rate. ``vs same encoding work``
divides by the engine row doing the encoding work that adapter must do (indices for
``openspiel``, indices and tensor for the others): what the adapter itself adds. The
Gymnasium row counts the learner's steps only, so its slowdowns compare games per
second. ::

    nice .venv/bin/python benchmarks/adapters.py                   # every game, 2 players
    nice .venv/bin/python benchmarks/adapters.py rancho --players 4 --seconds 5
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from ranchhand.core.errors import GameDefinitionError
from ranchhand.core.game import CHANCE, Game, State
from ranchhand.core.registry import GAME_MODULES, canonical_name, load


@dataclass(frozen=True)
class Rate:
    """What one loop did in its time: games finished and decisions made."""

    games: int
    steps: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


Loop = Callable[[np.random.Generator], int]
"""Plays one game with the generator's choices; returns the decisions it made."""


def measure(play_one: Loop, seconds: float, seed: int) -> Rate:
    """Whole games until ``seconds`` of this process's CPU time have passed, after one
    untimed game; CPU time, so other work on a shared machine counts far less."""
    rng = np.random.default_rng(seed)
    play_one(rng)
    games = steps = 0
    start = time.process_time()
    while True:
        steps += play_one(rng)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return Rate(games, steps, elapsed)


def pick(legal: Sequence[int] | np.ndarray, rng: np.random.Generator) -> int:
    """One of ``legal``, uniformly: the same cheap draw in every loop (``Generator.choice``
    costs more than some adapters' whole step)."""
    return int(legal[int(rng.integers(len(legal)))])


# ------------------------------------------------------------------ our game
def engine_loop(game: Game, work: str = "") -> Loop:
    """The engine by itself (``work`` empty), or driven by index as an adapter drives it:
    ``"indices"`` lists the legal indices and maps the one chosen back to an action,
    ``"tensor"`` also builds the legal mask and the player's observation tensor."""
    encoding = game.encoding()

    def choose(state: State, player: int, rng: np.random.Generator) -> Hashable:
        if work == "tensor":
            state.observation_tensor(player)
            legal = np.flatnonzero(state.legal_action_mask(player))
        elif work == "indices":
            legal = np.asarray(encoding.legal_indices(state, player))
        else:
            actions = state.legal_actions(player)
            return actions[int(rng.integers(len(actions)))]
        return state.index_to_action(pick(legal, rng), player)

    def play_one(rng: np.random.Generator) -> int:
        chance = random.Random(int(rng.integers(2**32)))
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.chance_outcomes().sample(chance), CHANCE)
                continue
            for player in state.acting_players():
                state.apply(choose(state, player, rng), player)
                steps += 1
        return steps

    return play_one


def pettingzoo_loop(make: Callable[[], Any]) -> Loop:
    """The AEC loop every PettingZoo tutorial writes, choosing from the action mask."""
    env = make()

    def play_one(rng: np.random.Generator) -> int:
        env.reset(seed=int(rng.integers(2**31)))
        steps = 0
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            env.step(pick(np.flatnonzero(mask), rng))
            steps += 1
            del agent
        return steps

    return play_one


def gymnasium_loop(game: Game) -> Loop:
    from ranchhand.envs.gymnasium import env as gym_env

    env = gym_env(game.id, game.players, opponents="random", **_changed_options(game))

    def play_one(rng: np.random.Generator) -> int:
        _, info = env.reset(seed=int(rng.integers(2**31)))
        steps = 0
        over = False
        while not over:
            action = pick(np.flatnonzero(info["action_mask"]), rng)
            _, _, terminated, truncated, info = env.step(action)
            over = terminated or truncated
            steps += 1
        return steps

    return play_one


def openspiel_loop(game: Any, observe: bool) -> Loop:
    """Random play through a pyspiel game; ``observe`` also reads the acting player's tensor."""
    import pyspiel  # type: ignore[import-not-found]

    simultaneous = pyspiel.PlayerId.SIMULTANEOUS

    def play_one(rng: np.random.Generator) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_draw(state.chance_outcomes(), rng.random()))
            elif state.current_player() == simultaneous:
                chosen = []
                for player in range(game.num_players()):
                    if observe:
                        state.observation_tensor(player)
                    legal = state.legal_actions(player)
                    chosen.append(pick(legal, rng))
                # players outside the contest only wait: count the engine's deciders
                ranch = getattr(state, "ranch", None)
                steps += game.num_players() if ranch is None else len(ranch.acting_players())
                state.apply_actions(chosen)
            else:
                if observe:
                    state.observation_tensor()
                legal = state.legal_actions()
                state.apply_action(pick(legal, rng))
                steps += 1
        return steps

    return play_one


def _draw(outcomes: list[tuple[int, float]], point: float) -> int:
    """The outcome at ``point`` (uniform in [0, 1)) of the cumulative probabilities."""
    for outcome, probability in outcomes:
        point -= probability
        if point < 0:
            return outcome
    return outcomes[-1][0]


def _changed_options(game: Game) -> dict[str, Any]:
    return {k: v for k, v in game.options.items() if v != _defaults(game)[k]}


def _defaults(game: Game) -> dict[str, Any]:
    return {option.name: option.default for option in game.option_specs()}


# ------------------------------------------------------------------- tables
@dataclass(frozen=True)
class Row:
    game: str
    through: str
    rate: Rate | None
    baseline: Rate | None = None
    by_games: bool = False
    note: str = ""
    own: Rate | None = None
    """The engine loop doing the same encoding work: what the adapter adds beyond it."""

    def slowdown(self, baseline: Rate | None) -> str:
        if self.rate is None or baseline is None:
            return ""
        if self.by_games:
            return f"{baseline.games_per_second / self.rate.games_per_second:.2f} (games)"
        return f"{baseline.steps_per_second / self.rate.steps_per_second:.2f}"


def our_rows(name: str, players: int, seconds: float, seed: int) -> list[Row]:
    game = load(name, players)
    try:
        game.encoding()
    except GameDefinitionError as error:
        return [Row(game.id, "(no encoding yet)", None, note=str(error))]
    import pyspiel  # type: ignore[import-not-found]

    from ranchhand.envs import openspiel
    from ranchhand.envs.pettingzoo import env as pz_env

    openspiel.register([game.id])
    spiel = pyspiel.load_game(openspiel.short_name(game.id), {"players": players})
    engine = measure(engine_loop(game), seconds, seed)
    indices = measure(engine_loop(game, "indices"), seconds, seed)
    encoded = measure(engine_loop(game, "tensor"), seconds, seed)
    rows = [
        Row(game.id, "engine", engine),
        Row(game.id, "engine+indices", indices, engine),
        Row(game.id, "engine+indices+tensor", encoded, engine),
    ]
    adapters: list[tuple[str, Loop, Rate, bool]] = [
        ("pettingzoo", pettingzoo_loop(lambda: pz_env(game.id, players)), encoded, False),
        ("gymnasium", gymnasium_loop(game), encoded, True),
        ("openspiel", openspiel_loop(spiel, observe=False), indices, False),
        ("openspiel+obs", openspiel_loop(spiel, observe=True), encoded, False),
    ]
    for through, loop, own, by_games in adapters:
        rate = measure(loop, seconds, seed)
        rows.append(Row(game.id, through, rate, engine, by_games, own=own))
    return rows


def reference_rows(seconds: float, seed: int) -> list[Row]:
    """PettingZoo's and OpenSpiel's own games through the same loops, for scale."""
    rows = []
    for module in ("tictactoe_v3", "connect_four_v3"):
        try:
            classic = importlib.import_module(f"pettingzoo.classic.{module}")
        except ImportError as error:
            rows.append(Row(module, "pettingzoo", None, note=f"not available: {error}"))
            continue
        loop = pettingzoo_loop(classic.env)
        rows.append(Row(module, "pettingzoo", measure(loop, seconds, seed)))
    import pyspiel  # type: ignore[import-not-found]

    importlib.import_module("open_spiel.python.games")
    for name, kind in (
        ("tic_tac_toe", "openspiel C++"),
        ("pig", "openspiel C++"),
        ("python_tic_tac_toe", "openspiel Python"),
        ("python_kuhn_poker", "openspiel Python"),
    ):
        loop = openspiel_loop(pyspiel.load_game(name), observe=False)
        rows.append(Row(name, kind, measure(loop, seconds, seed)))
        loop = openspiel_loop(pyspiel.load_game(name), observe=True)
        rows.append(Row(name, f"{kind}+obs", measure(loop, seconds, seed)))
    return rows


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| game | through | games/s | steps/s | slowdown vs engine | vs same encoding work |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        if row.rate is None:
            lines.append(f"| {row.game} | {row.through} | | | {row.note} | |")
            continue
        lines.append(
            f"| {row.game} | {row.through} | {row.rate.games_per_second:,.1f} "
            f"| {row.rate.steps_per_second:,.0f} | {row.slowdown(row.baseline)} "
            f"| {row.slowdown(row.own)} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: every game)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = [canonical_name(n) for n in args.games] or list(GAME_MODULES)
    started = datetime.now(UTC)
    rows = []
    for name in names:
        ours = our_rows(name, args.players, args.seconds, args.seed)
        print(table(ours), flush=True)
        rows.extend(ours)
    rows.extend(reference_rows(args.seconds, args.seed))
    print()
    print(
        f"{started:%Y-%m-%d %H:%M} UTC, {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}, {args.players} players, {args.seconds:g} s per row"
    )
    print(table(rows))


if __name__ == "__main__":
    main()
