"""Play one game of a simulation and keep what the lab's metrics need.

The game is played exactly as ``simulate`` plays it (same derived seed, same bots), with
a listener that, before each move (an action a player chooses), counts the legal actions
and reads every player's evaluation (``State.evaluate``, for Ludii's metrics), names the
action (:func:`~ranchhand.lab.impact.labels`, for impact per card and action), and reads
every player's standing at the start, after each turn and at the end (the lab's own flow
measures). Listening draws nothing from the game's generators, so the winner, length and
details equal ``simulate``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from ranchhand.core.game import CHANCE, GameSummary, State
from ranchhand.core.runner import derive_seed, play
from ranchhand.lab.evaluation import GAME, Evaluation, searcher
from ranchhand.lab.flow import Flow, flow
from ranchhand.lab.impact import labels
from ranchhand.lab.ludii import MoveFacts, move_facts
from ranchhand.sim.simulate import Simulation, _worker_setup


@dataclass(frozen=True)
class LabGame(GameSummary):
    """A finished game as ``simulate`` counts it, plus the lab's metric inputs."""

    seed: int
    decisions: int
    choices: int
    """The legal actions offered, summed over the game's decisions (branching factor)."""
    flow: Flow
    moves: MoveFacts = field(default_factory=lambda: MoveFacts(0, 0))
    actions: tuple[dict[str, int], ...] = ()
    """Per seat: how many times each kind of action or card was chosen."""


class _Listener:
    """Counts decisions and choices, reads the evaluations before each move and the
    standings whenever a turn has ended, and counts each seat's kinds of action."""

    def __init__(
        self,
        game: str,
        players: int,
        search: Callable[[State, int], list[float]] | None = None,
        every: int = 1,
    ) -> None:
        self.game = game
        self.search = search
        self.every = every
        self.decisions = 0
        self.choices = 0
        self.legal: list[int] = []
        self.evaluations: list[list[float]] | None = []
        self.actions: list[dict[str, int]] = [{} for _ in range(players)]
        self.timeline: list[list[float]] = []
        self.turn = -1
        self.readable = True

    def __call__(self, state: State, player: int, action: Hashable) -> None:
        if player != CHANCE:
            self.decisions += 1
            offered = len(state.legal_actions(player))
            self.choices += offered
            self.legal.append(offered)
            if self.search is not None:
                if (self.decisions - 1) % self.every == 0:
                    assert self.evaluations is not None
                    self.evaluations.append(self.search(state, self.decisions - 1))
            elif self.evaluations is not None:
                evaluation = state.evaluate()
                if evaluation is None:
                    self.evaluations = None
                else:
                    self.evaluations.append([float(x) for x in evaluation])
            if 0 <= player < len(self.actions):
                counts = self.actions[player]
                for label in labels(self.game, action):
                    counts[label] = counts.get(label, 0) + 1
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


def play_traced(sim: Simulation, index: int, evaluation: Evaluation = GAME) -> LabGame:
    """Play game ``index`` of ``sim`` with its derived seed and keep the metric inputs
    (Ludii's read from ``evaluation``: the game's own, or a search at sampled moves)."""
    game, factories = _worker_setup(sim)
    seed = derive_seed(sim.seed, index)
    search = None
    if evaluation.kind == "search":
        search = searcher(game.new_initial_state(), evaluation, seed)
    listener = _Listener(game.id, sim.players, search, evaluation.every)
    result = play(game, [make() for make in factories], seed, listener=listener)
    assert result.state is not None
    listener.read(result.state)  # the end: the listener hears no action after the last
    outcome = result.outcome
    winners = () if outcome.truncated else outcome.winners
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
        flow(listener.timeline, winners),
        move_facts(listener.legal, listener.evaluations, winners, sim.players),
        tuple(listener.actions),
    )
