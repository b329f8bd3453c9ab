"""Constructed lab games and stores for the report and export tests (no play but one real
game per setting, whose details feed the game's own summary)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ranchhand.lab.flow import Flow
from ranchhand.lab.ludii import MoveFacts
from ranchhand.lab.store import Store
from ranchhand.lab.trace import LabGame, play_traced
from ranchhand.sim.simulate import Simulation

DETAILS: dict[tuple[str, int], dict[str, Any]] = {}


def details(game: str, players: int) -> dict[str, Any]:
    """A real game's details, for the game's own summary (played once per setting)."""
    if (game, players) not in DETAILS:
        sim = Simulation(game, ("greedy",) * players, 1, 3, (("max_turns", "300"),))
        DETAILS[game, players] = play_traced(sim, 0).details
    return DETAILS[game, players]


def made(
    index: int, winners: tuple[int, ...], players: int, truncated: bool = False, game: str = ""
) -> LabGame:
    """A constructed game: ``winners`` won after 10 turns (a flat evaluation)."""
    evaluation = MoveFacts(6, 5, 1, 0.0, 0.0, 0.0, 0 if len(winners) < players else None,
                           6.0 if players > 1 else None)  # fmt: skip
    counts = tuple({"deal for sheep": 1} if p % 2 else {} for p in range(players))
    facts = details(game, players) if game else {}
    return LabGame(index, winners, truncated, 10 + index % 7, None, facts, index, 6, 18,
                   Flow(11, 1, False, 1.0, 5.0, 3), evaluation, counts)  # fmt: skip


def stored(path: Path, game: str, players: int, games: list[LabGame]) -> tuple[Store, int]:
    store = Store(path)
    cell = store.cell(game, "test", ("greedy",) * players, {}, 1)
    store.add_games(cell, games)
    run = store.start_run("sweep", game, len(games), "local", f"ranchhand sweep {game}")
    store.add_run_cell(run, cell, 0, {})
    store.finish_run(run, "done", len(games), 0, 0.1)
    return store, run
