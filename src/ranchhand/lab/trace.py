"""Play one game of a simulation and keep what the lab's metrics need.

The game is played exactly as ``simulate`` plays it (same derived seed, same bots), with
a listener that counts decisions and the legal actions offered at each, and reads every
player's standing at the start, after each turn and at the end. Listening draws nothing from the
game's generators, so the winner, length and details equal ``simulate``'s.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ranchhand.core.game import CHANCE, State
from ranchhand.core.runner import derive_seed, play
from ranchhand.lab.flow import Flow, flow
from ranchhand.sim.simulate import Simulation, _worker_setup
from ranchhand.sim.tally import GameSummary


@dataclass(frozen=True)
class LabGame(GameSummary):
    """A finished game as ``simulate`` counts it, plus the lab's metric inputs."""

    seed: int
    decisions: int
    choices: int
    """The legal actions offered, summed over the game's decisions (branching factor)."""
    flow: Flow


class _Listener:
    """Counts decisions and choices, and reads the standings whenever a turn has ended."""

    def __init__(self) -> None:
        self.decisions = 0
        self.choices = 0
        self.timeline: list[list[float]] = []
        self.turn = -1
        self.readable = True

    def __call__(self, state: State, player: int, action: Hashable) -> None:
        if player != CHANCE:
            self.decisions += 1
            self.choices += len(state.legal_actions(player))
        if state.turn != self.turn:
            self.turn = state.turn
            self.read(state)

    def read(self, state: State) -> None:
        if not self.readable:
            return
        standing = state.standing()
        if standing is None:
            self.readable = False
            self.timeline.clear()
        else:
            self.timeline.append([float(x) for x in standing])


def play_traced(sim: Simulation, index: int) -> LabGame:
    """Play game ``index`` of ``sim`` with its derived seed and keep the metric inputs."""
    game, factories = _worker_setup(sim)
    seed = derive_seed(sim.seed, index)
    listener = _Listener()
    result = play(game, [make() for make in factories], seed, listener=listener)
    assert result.state is not None
    listener.read(result.state)  # the end: the listener hears no action after the last
    outcome = result.outcome
    return LabGame(
        index,
        outcome.winners,
        outcome.truncated,
        result.turns,
        outcome.scores,
        result.details,
        seed,
        listener.decisions,
        listener.choices,
        flow(listener.timeline, () if outcome.truncated else outcome.winners),
    )
