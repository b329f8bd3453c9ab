"""Undo as a logged step: a seat takes back its own last action, and the log keeps both.

A table's move log is append-only, so an undo is written as a step of its own: the
player :data:`UNDO_PLAYER` (-2, beside :data:`~ranchhand.core.game.CHANCE` -1, never a
seat) with the text :data:`UNDO_TEXT`. No game's action can be mistaken for it: every
game action belongs to a seat (0 and up) or to chance (-1). The step names no seat: it
takes back the last action still in force, which is always the undoing seat's own.

What may be taken back is what the terminal allows (:class:`~ranchhand.core.runner._Takebacks`):
a seat's own consecutive actions since the last chance event, simultaneous choice or
other player's action. :class:`Trail` follows that from the log alone (who acted, at what
kind of node), so every replay of the same log (a server loading a table, a bot worker,
a record, the replay viewer) agrees on what each undo step takes back.

Chance draws from ``derive_seed(seed, "chance", step)``: an undo step uses up its step
index like any move, so no index is ever drawn twice, and an undo never crosses a chance
event, so no outcome once drawn can be drawn again by taking back and replaying.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ranchhand.core.errors import RecordError
from ranchhand.core.game import CHANCE, SIMULTANEOUS, State

UNDO_PLAYER = -2
"""The player of an undo step in a move log or a record (seats are 0 and up, chance -1)."""
UNDO_TEXT = "undo"
"""The action text of an undo step (the only text an undo step may have)."""
MAX_TAKEBACKS = 32
"""Actions in a row a seat may take back at most (the oldest beyond are kept for good)."""


def is_undo(player: int) -> bool:
    """Is a log step of ``player`` an undo step (not a game action)?"""
    return player == UNDO_PLAYER


class NothingToUndo(RecordError):
    """An undo step where the log has nothing the undoing seat may take back."""


@dataclass
class Trail:
    """The actions an undo may take back now: the acting seat's own run since the last
    chance event, simultaneous choice or other player's action (at most
    :data:`MAX_TAKEBACKS`), each with its step index and, where kept, a copy of the
    state before it.

    A copy is kept where ``before`` is asked to (a server keeps them for people's
    seats only: bots never undo); a missing one is rebuilt by replaying the log up to
    that step (:meth:`state_before`), so every reader agrees whatever it kept.
    """

    player: int | None = None
    run: list[tuple[int, State | None]] = field(default_factory=list)

    def copy(self) -> Trail:
        """A trail to go on from separately (the kept states are shared: never changed)."""
        return Trail(self.player, list(self.run))

    def before(
        self,
        state: State,
        player: int,
        step: int,
        *,
        keep: bool = True,
        final: bool = False,
        own: bool = True,
    ) -> None:
        """Note the action ``player`` is about to apply to ``state`` as step ``step``.

        ``final``: an action nobody may take back (a server's clock bot made it when the
        seat ran out of time); the seat's run starts after it. A replay that does not
        know it only holds a longer run, whose last actions are the same. ``own``: the
        trail keeps a copy of ``state`` (it is about to change); False where the caller
        will never change ``state`` again, which is then kept itself."""
        alone = player != CHANCE and state.current_player() != SIMULTANEOUS
        if not alone or player != self.player or final:
            self.run.clear()
        self.player = player if alone else None
        if self.player is not None and not final:
            self.run.append((step, (state.clone() if own else state) if keep else None))
            if len(self.run) > MAX_TAKEBACKS:
                del self.run[0]

    def available(self, state: State, player: int) -> int:
        """How many actions ``player`` may take back in ``state`` (only while it is to act
        and the game goes on, as at the terminal's prompt)."""
        if player != self.player or state.is_terminal():
            return 0
        return len(self.run) if player in state.acting_players() else 0

    def take(self) -> tuple[int, int, State | None]:
        """Take back the last action: its seat, its step and the kept state before it
        (None if not kept). NothingToUndo if there is none."""
        if not self.run or self.player is None:
            raise NothingToUndo(
                "nothing to undo: undo takes back only your own actions since the last "
                "dice roll, card drawn or another player's move"
            )
        step, kept = self.run.pop()
        return self.player, step, kept


def replay_log(
    start: State,
    moves: Iterable[tuple[int, str]],
    *,
    trail: Trail | None = None,
    first: int = 0,
) -> State:
    """``start`` (changed in place unless an undo replaces it) after the log ``moves``
    (steps numbered from ``first``), undo steps included; returns the final state.

    ``trail`` is followed (give the one that goes with ``start``, else a new one). An
    undo whose state was not kept in the given trail raises NothingToUndo, as does one
    with nothing to take back.
    """
    trail = trail if trail is not None else Trail()
    state = start
    for index, (player, text) in enumerate(moves, start=first):
        if is_undo(player):
            _seat, step, kept = trail.take()
            if kept is None:
                raise NothingToUndo(f"the state before step {step} was not kept")
            state = kept.clone()
            continue
        action = state.parse_action(text, player)
        trail.before(state, player, index)
        state.apply(action, player)
    return state


def effective(moves: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """The actions of ``moves`` still in force: each undo step and the action it took back
    left out (what a game without undo would have logged; chance is never taken back,
    so a game replayed from these draws the same outcomes in the same order)."""
    kept: list[tuple[int, str]] = []
    for player, text in moves:
        if is_undo(player):
            if not kept or kept[-1][0] == CHANCE:
                raise NothingToUndo("an undo step with nothing before it to take back")
            kept.pop()
        else:
            kept.append((player, text))
    return kept
