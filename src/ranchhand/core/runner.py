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

from ranchhand.core.errors import ActionError, GameDefinitionError, RecordError
from ranchhand.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, Outcome, State
from ranchhand.core.records import Record, Step
from ranchhand.core.undo import effective


class Seat(Protocol):
    """Anything that chooses an action: a bot, or a human at a prompt.

    A seat with ``interactive = True`` (a person typing text) is called as
    ``seat.choose(state, player, undoable=n)`` instead, so it can parse what is
    typed; it may answer :data:`UNDO` to take back one of its last ``n`` actions.
    A seat with a ``bind(game)`` method (a search bot) is given the game first. A seat
    whose ``needs_observation(legal_actions)`` answers False is handed None for the
    observation, which then is not made (see :meth:`ranchhand.bots.base.Bot.needs_observation`).
    """

    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable: ...


class _Undo:
    def __repr__(self) -> str:
        return "UNDO"


UNDO: Hashable = _Undo()
"""What an interactive seat answers to take back its last action (see :func:`play`)."""

Listener = Callable[[State, int, Hashable], None]
"""Called before each action is applied, with the state, the actor and the action."""


@dataclass
class GameResult:
    outcome: Outcome
    turns: int
    details: dict[str, Any]
    record: Record | None = None
    state: State | None = None
    """The final state (after any undo, the object may differ from the one passed in)."""
    steps: int = 0
    """Actions applied, chance outcomes included (an undone action counts: it was played)."""


def derive_seed(seed: int, *labels: object) -> int:
    """A 64-bit seed for a sub-stream (a game index, 'chance', 'bots'), stable across runs."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class _Takebacks:
    """The positions an interactive player may go back to: their own last actions.

    Undo never crosses a chance event (the dice are rolled, the card is seen) nor an
    action of another player (they have seen it, or acted on it), nor a
    simultaneous choice. So the stack holds the states before each action of the
    player who has acted alone since the last such event, and is emptied by one.
    """

    def __init__(self) -> None:
        self.player: int | None = None
        self.states: list[State] = []

    def before(self, state: State, player: int, alone: bool) -> None:
        if player == CHANCE or not alone or player != self.player:
            self.states.clear()
        self.player = player if alone and player != CHANCE else None
        if self.player is not None:
            self.states.append(state.clone())

    def available(self, player: int) -> int:
        return len(self.states) if player == self.player else 0


def play(
    game: Game,
    seats: Sequence[Seat],
    seed: int = 0,
    *,
    record: bool = False,
    seat_names: Sequence[str] | None = None,
    listener: Listener | None = None,
    state: State | None = None,
    on_undo: Callable[[State], None] | None = None,
    resume: Sequence[Step] = (),
) -> GameResult:
    """Play ``game`` from its start (or from ``state``) to the end.

    ``resume`` holds the steps of a game stopped earlier (a record's steps): they
    are played again first, while the seed's generators are drawn exactly as in
    the first sitting (chance is sampled and bots are asked, each answer checked
    against the record), so the game continues as if it had never stopped.
    Interactive seats may answer :data:`UNDO`; ``on_undo`` is told the state
    that is restored, after the listener heard the action that is taken back.
    """
    if len(seats) != game.players:
        raise ValueError(
            f"{game.id} with {game.players} players needs {game.players} seats, got {len(seats)}"
        )
    for seat in seats:  # search bots need the game to imagine tables (see ``Bot.bind``)
        bind = getattr(seat, "bind", None)
        if bind is not None:
            bind(game)
    # Only a person may take an action back, so only a table with one keeps the positions
    # to go back to (a copy of the state before every action: bots' games skip it).
    undoable = any(getattr(seat, "interactive", False) for seat in seats)
    chance_rng = random.Random(derive_seed(seed, "chance"))
    bot_rng = random.Random(derive_seed(seed, "bots"))
    names = list(seat_names) if seat_names else [type(s).__name__ for s in seats]
    log = Record.start(game, names, seed) if record else None
    state = state or game.new_initial_state()
    takebacks = _Takebacks()
    # A record's undo steps (a server's table) are left out with what they took back:
    # what stays is the game as played, chance outcomes in the same order.
    pending = [
        Step(player, text) for player, text in effective((s.player, s.action) for s in resume)
    ]
    pending.reverse()
    steps = 0
    while (current := state.current_player()) != TERMINAL:
        moves: list[tuple[int, Hashable]] | None
        if current == CHANCE:
            moves = [(CHANCE, state.sample_chance(chance_rng))]
        else:
            moves = _choices(state, seats, bot_rng, takebacks, pending)
            if moves is None:  # an interactive seat took its last action back
                if not takebacks.states:
                    raise GameDefinitionError("a seat asked to undo when nothing can be undone")
                state = takebacks.states.pop()
                if log is not None:
                    log.steps.pop()
                if on_undo is not None:
                    on_undo(state)
                continue
        alone = len(moves) == 1 and current != SIMULTANEOUS
        steps += len(moves)
        for player, action in moves:
            if pending:
                action = _resumed(state, pending.pop(), player, action)
            if listener is not None:
                listener(state, player, action)
            if log is not None:
                log.add(player, action)
            if undoable:
                takebacks.before(state, player, alone)
            state.apply(action, player)
    if pending:
        raise RecordError(f"the record goes on for {len(pending)} steps after the game's end")
    outcome = state.outcome()
    assert outcome is not None
    if log is not None:
        log.finish(state)
    return GameResult(outcome, state.turn, state.details(), log, state, steps)


def _choices(
    state: State,
    seats: Sequence[Seat],
    bot_rng: random.Random,
    takebacks: _Takebacks,
    pending: list[Step],
) -> list[tuple[int, Hashable]] | None:
    """Each acting player's choice, or None if an interactive seat answered UNDO.

    While a stopped game is resumed, a person's choice is read from the record
    (``pending``, next step last) instead of asked for; bots are asked as always.
    """
    moves: list[tuple[int, Hashable]] = []
    for player in state.acting_players():
        seat = seats[player]
        action: Hashable
        if not getattr(seat, "interactive", False):
            legal = state.legal_actions(player)
            needs = getattr(seat, "needs_observation", None)
            seen = state.observe(player) if needs is None or needs(legal) else None
            action = seat.act(seen, legal, bot_rng)
        elif len(pending) > len(moves):
            action = pending[-1 - len(moves)].action
        else:
            action = seat.choose(  # type: ignore[attr-defined]
                state, player, undoable=takebacks.available(player)
            )
            if action is UNDO:
                return None
        moves.append((player, action))
    return moves


def _resumed(state: State, step: Step, player: int, chosen: Hashable) -> Hashable:
    """The recorded action, checked against what the seed and the bots give again."""
    if step.player != player:
        raise RecordError(f"the record has player {step.player} act, the game has {player}")
    try:
        action = state.parse_action(step.action, player)
    except ActionError as error:
        raise RecordError(f"cannot resume: {error}") from None
    if action != chosen and not isinstance(chosen, str):
        raise RecordError(
            f"cannot resume: the record says {step.action!r} where this seed and these bots "
            f"give {str(chosen)!r} (a record of another version, or edited)"
        )
    return action
