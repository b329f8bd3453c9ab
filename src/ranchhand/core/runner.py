"""Play one game to the end with a seat (bot or human) per player.

All randomness comes from ``seed``: chance outcomes from one generator, bot
choices from another, so a game is reproducible from its seed and its record.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ranchhand.core.game import CHANCE, Game, Outcome, State
from ranchhand.core.records import Record


class Seat(Protocol):
    """Anything that chooses an action: a bot, or a human at a prompt.

    A seat with ``interactive = True`` (a person typing text) is called as
    ``seat.choose(state, player)`` instead, so it can parse what is typed.
    """

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable: ...


Listener = Callable[[State, int, Hashable], None]
"""Called before each action is applied, with the state, the actor and the action."""


@dataclass
class GameResult:
    outcome: Outcome
    turns: int
    details: dict[str, Any]
    record: Record | None = None


def derive_seed(seed: int, *labels: object) -> int:
    """A 64-bit seed for a sub-stream (a game index, 'chance', 'bots'), stable across runs."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def play(
    game: Game,
    seats: Sequence[Seat],
    seed: int = 0,
    *,
    record: bool = False,
    seat_names: Sequence[str] | None = None,
    listener: Listener | None = None,
    state: State | None = None,
) -> GameResult:
    """Play ``game`` from its start (or from ``state``) to the end."""
    if len(seats) != game.players:
        raise ValueError(
            f"{game.id} with {game.players} players needs {game.players} seats, got {len(seats)}"
        )
    chance_rng = random.Random(derive_seed(seed, "chance"))
    bot_rng = random.Random(derive_seed(seed, "bots"))
    names = list(seat_names) if seat_names else [type(s).__name__ for s in seats]
    log = Record.start(game, names, seed) if record else None
    state = state or game.new_initial_state()
    while not state.is_terminal():
        current = state.current_player()
        if current == CHANCE:
            moves = [(CHANCE, state.chance_outcomes().sample(chance_rng))]
        else:
            moves = []
            for player in state.acting_players():
                seat = seats[player]
                if getattr(seat, "interactive", False):
                    action = seat.choose(state, player)  # type: ignore[attr-defined]
                else:
                    action = seat.act(state.observe(player), state.legal_actions(player), bot_rng)
                moves.append((player, action))
        for player, action in moves:
            if listener is not None:
                listener(state, player, action)
            if log is not None:
                log.add(player, action)
            state.apply(action, player)
    outcome = state.outcome()
    assert outcome is not None
    if log is not None:
        log.finish(state)
    return GameResult(outcome, state.turn, state.details(), log)
