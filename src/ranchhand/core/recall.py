"""Perfect-recall information states: what one player has seen and done since the start.

An observation (``state.observe(player)``) is the table *now*; algorithms built on
information sets (CFR and its family, NFSP, Deep CFR, OpenSpiel's IS-MCTS) need a
player's whole past: every observation they were shown and every action they took.
:class:`Recall` keeps a game's history as *nodes* (a chance outcome, one player's
action, or a simultaneous node's choices) and reads each player's record from it on
demand, by replaying the nodes from the start:

* before each node (a decision or chance) the player's observation (as its JSON text)
  is noted, with the player's own action there if the player acted;
* an observation equal to the one noted last, with no action of the player's between
  them, is not noted again: a player cannot count what they did not see. So two
  histories give one information state exactly when the player was shown the same
  observations in the same order and took the same actions;
* the state now is noted last (its observation), so every observation is a function of
  the information state: it is the record's last observation.

The record is kept lazily, because building observations at every step for every player
would cost each step what the slowest adapter costs now: it is read only when asked for,
and remembered per player until the history grows.

A position that did not start at the game's start (a resampled state, a position set up
by hand) starts from a *prefix*: the records the player had before it. A resampled state
(:meth:`State.resample`) keeps the resampling player's record as the prefix of every
player's: its own information state is unchanged, and no other player's past (which the
resampling player does not know) is made up.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ranchhand.core.game import Game, State

Node = tuple[tuple[int, Hashable], ...]
"""One node of a history: ``((CHANCE, outcome),)``, ``((player, action),)``, or each
choice of a simultaneous node in the order applied."""


class Entry:
    """One noted moment of a player's record: the observation (JSON text and tensor), and
    the player's own action taken there with its index (None if the player did not act at
    that node, or not yet)."""

    __slots__ = ("action", "index", "observation", "text")

    def __init__(
        self,
        text: str,
        observation: np.ndarray,
        action: Hashable | None = None,
        index: int | None = None,
    ) -> None:
        self.text = text
        self.observation = observation
        self.action = action
        self.index = index


class _Cursor:
    """One player's replay: the nodes read so far, the position they lead to, the entries.
    A copied history shares its cursors until one moves on (then the mover clones)."""

    __slots__ = ("count", "entries", "owned", "state")

    def __init__(self, count: int, state: State, entries: list[Entry], owned: bool) -> None:
        self.count = count
        self.state = state
        self.entries = entries
        self.owned = owned


class Recall:
    """A history from ``base`` (None: the game's start) and every player's record of it."""

    __slots__ = ("_cursors", "base", "game", "nodes", "prefix")

    def __init__(
        self,
        game: Game,
        base: State | None = None,
        prefix: Sequence[Entry] = (),
    ) -> None:
        self.game = game
        self.base = base
        self.prefix = tuple(prefix)
        self.nodes: list[Node] = []
        self._cursors: dict[int, _Cursor] = {}

    def add(self, node: Node) -> None:
        """Note one node applied to the position (after the base and earlier nodes)."""
        self.nodes.append(node)

    def copy(self) -> Recall:
        """An independent history with the same past; the records read so far are shared
        until either side reads further (copy on write), as search clones a lot."""
        twin = Recall(self.game, self.base, self.prefix)
        twin.nodes = list(self.nodes)
        for player, cursor in self._cursors.items():
            cursor.owned = False
            twin._cursors[player] = _Cursor(cursor.count, cursor.state, cursor.entries, False)
        return twin

    def after(self, player: int, base: State) -> Recall:
        """A history that starts at ``base`` (a state ``player`` cannot tell from this one)
        with ``player``'s record so far as every player's prefix (see the module docstring)."""
        return Recall(self.game, base.clone(), self.record(player))

    # ----------------------------------------------------------------- reading
    def record(self, player: int) -> list[Entry]:
        """``player``'s entries, oldest first: the prefix, then one per noted moment, the
        last for the position now. Read it, do not change it."""
        cursor = self._cursors.get(player)
        if cursor is None:
            start = self.game.new_initial_state() if self.base is None else self.base.clone()
            cursor = self._cursors[player] = _Cursor(0, start, list(self.prefix), True)
        elif cursor.count == len(self.nodes):
            return cursor.entries
        if not cursor.owned:
            cursor = self._cursors[player] = _Cursor(
                cursor.count, cursor.state.clone(), list(cursor.entries), True
            )
        state, entries = cursor.state, cursor.entries
        for node in self.nodes[cursor.count :]:
            mine = [action for who, action in node if who == player]
            _note(state, player, entries, mine[0] if mine else None)
            for who, action in node:
                state.apply(action, who)
        _note(state, player, entries, None)
        cursor.count = len(self.nodes)
        return entries

    def tensor(self, player: int, blocks: int) -> np.ndarray:
        """The record as a fixed-size float32 vector: ``blocks`` blocks of [1, the
        observation tensor, one-hot of the player's action there], the oldest entry
        first, zeros after the last. Perfect recall while the record has at most
        ``blocks`` entries; a longer one keeps its first entry and the latest ones."""
        encoding = self.game.encoding()
        size = int(np.prod(encoding.observation_shape))
        width = 1 + size + encoding.num_actions
        out = np.zeros(blocks * width, dtype=np.float32)
        entries = self.record(player)
        if len(entries) > blocks:
            entries = [entries[0], *entries[len(entries) - blocks + 1 :]]
        for block, entry in enumerate(entries):
            at = block * width
            out[at] = 1.0
            out[at + 1 : at + 1 + size] = entry.observation
            if entry.index is not None:
                out[at + 1 + size + entry.index] = 1.0
        return out

    def string(self, player: int) -> str:
        """The record as text: one line per entry, the observation's JSON and the action."""
        lines = []
        for entry in self.record(player):
            text = entry.text
            lines.append(text if entry.action is None else f"{text} -> {entry.action}")
        return "\n".join(lines)


def _note(state: State, player: int, entries: list[Entry], action: Hashable | None) -> None:
    """Note ``player``'s moment at ``state`` (with their ``action`` there, if any), unless
    it repeats the last entry unchanged (see the module docstring). Entries are replaced,
    never changed, so a copied history may share them."""
    encoding = state.game.encoding()
    seen = state.observe(player)
    text = json.dumps(seen.to_json(), sort_keys=True)
    index = None if action is None else encoding.action_to_index(state, action, player)
    last = entries[-1] if entries else None
    if last is not None and last.action is None and last.text == text:
        if action is not None:  # the same moment, now with the player's choice
            entries[-1] = Entry(text, last.observation, action, index)
        return
    tensor = encoding.observation_tensor(seen, player).reshape(-1)
    entries.append(Entry(text, tensor, action, index))
