"""Fixed action spaces and observation tensors, for learning code and research adapters.

Players and bots speak in text actions and observation objects; training code
(PettingZoo, OpenSpiel, Gymnasium) wants a fixed set of action indices and a
numeric array of a fixed shape. An :class:`Encoding` is that translation for one
game at one player count, written once per game in ``games/<name>/encoding.py``
and reached through :meth:`ranchhand.core.game.Game.encoding`.

Two promises every encoding keeps, and the conformance tests check:

* **Indices.** Every index in ``range(num_actions)`` names at most one legal
  action in any state, and every legal action the encoding can express has
  exactly one index: ``index_to_action(state, action_to_index(state, a)) == a``.
  A game whose legal actions are open-ended (Rancho's deals) may leave some of
  them out; it says which in ``coverage_note`` and its docs page.
* **No secrets.** ``observation_tensor`` reads only the ``Observation`` a player
  was given (``state.observe(player)``), never the state, so a tensor cannot hold
  more than the player may know.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ranchhand.core.errors import GameDefinitionError, InvalidAction

if TYPE_CHECKING:
    from ranchhand.core.game import Game, Observation, State


class Encoding(ABC):
    """The fixed action space and observation tensor of one game at one player count."""

    #: What share of legal moves the index space can express and what it leaves out.
    coverage_note: ClassVar[str] = "Every legal action has an index."

    def __init__(self, game: Game) -> None:
        self.game = game
        self._moves_memo: tuple[list[Hashable], dict[int, Hashable]] | None = None

    # ---------------------------------------------------------------- actions
    @property
    @abstractmethod
    def num_actions(self) -> int:
        """The size of the action space (OpenSpiel's ``num_distinct_actions``)."""

    @abstractmethod
    def action_to_index(self, state: State, action: Hashable, player: int) -> int:
        """The index of a legal ``action`` of ``player`` in ``state``.

        Raises :class:`InvalidAction` for an action the encoding cannot express.
        """

    @abstractmethod
    def index_to_action(self, state: State, index: int, player: int) -> Hashable:
        """The engine action that ``index`` stands for in ``state``.

        Raises :class:`InvalidAction` if ``index`` names no legal action there.
        """

    def legal_moves(self, state: State, player: int) -> dict[int, Hashable]:
        """Each legal index of ``player`` with the engine action it stands for.

        Remembered for the last position asked about, because an adapter asks for
        the mask, then for the action of the chosen index, then applies it. The
        engine renews its cached list of legal actions whenever the state changes
        (``State._forget_cached``), so the memo is valid while that list is the
        very object it was built from; holding the list keeps its identity from
        being reused. The mapping returned is the memo: read it, do not change it.
        """
        if player < 0:
            return {}
        entry = state._legal_cache.get(player)
        if entry is None:
            if not state.legal_actions(player):
                return {}
            entry = state._legal_cache[player]
        listed = entry[0]
        memo = self._moves_memo
        if memo is not None and memo[0] is listed:
            return memo[1]
        moves = self._moves(state, player, listed)
        self._moves_memo = (listed, moves)
        return moves

    def _moves(self, state: State, player: int, actions: list[Hashable]) -> dict[int, Hashable]:
        """:meth:`legal_moves` worked out afresh. The default gives every legal action
        its index; an encoding that leaves some actions out overrides this."""
        return {self.action_to_index(state, action, player): action for action in actions}

    def legal_indices(self, state: State, player: int) -> list[int]:
        """The indices of ``player``'s legal actions, ascending, each once."""
        return sorted(self.legal_moves(state, player))

    def legal_mask(self, state: State, player: int) -> np.ndarray:
        """A 0/1 ``int8`` vector over the action space: 1 where the index is legal.

        Written into a ``bytearray`` and viewed as numpy: a handful of Python writes
        cost less than numpy's indexing with a list.
        """
        mask = bytearray(self.num_actions)
        for index in self.legal_moves(state, player):
            mask[index] = 1
        return np.frombuffer(mask, dtype=np.int8)

    def offered(self, state: State, index: int, player: int) -> Hashable | None:
        """The legal action ``index`` names by :meth:`legal_moves`, or None: the quick
        answer of :meth:`index_to_action`, which games check before working it out."""
        return self.legal_moves(state, player).get(index)

    def action_label(self, index: int) -> str:
        """A short human name for ``index``, for docs and debugging."""
        return f"action {index}"

    # ------------------------------------------------------------------ chance
    @property
    def max_chance_outcomes(self) -> int:
        """An upper bound on the outcomes of any chance node (OpenSpiel asks for it).

        Each game gives its own bound; the base raises :class:`GameDefinitionError`, as
        :meth:`Game.encoding` does for a game without an encoding.
        """
        raise GameDefinitionError(f"{self.game.id} gives no bound on chance outcomes")

    def chance_to_index(self, state: State, outcome: Hashable) -> int:
        """A number for a chance outcome: by default its place in the outcome list."""
        return list(state.chance_outcomes().actions).index(outcome)

    def chance_indices(self, state: State, outcomes: Sequence[Hashable]) -> list[int]:
        """:meth:`chance_to_index` of each outcome of a chance node, in order: OpenSpiel
        asks for a whole node at once, and a game may answer faster than one by one."""
        return [self.chance_to_index(state, outcome) for outcome in outcomes]

    def index_to_chance(self, state: State, index: int) -> Hashable:
        """The chance outcome numbered ``index`` at this chance node."""
        actions = list(state.chance_outcomes().actions)
        if isinstance(index, bool) or not 0 <= index < len(actions):
            raise InvalidAction(
                f"chance outcome {index} is out of range; allowed: 0 to {len(actions) - 1}"
            )
        return actions[index]

    @property
    def max_game_length(self) -> int:
        """An upper bound on the decisions (player actions) in one game, for OpenSpiel.

        The base raises :class:`GameDefinitionError`: each game gives its own bound.
        """
        raise GameDefinitionError(f"{self.game.id} gives no bound on game length")

    # ----------------------------------------------------------- observations
    @property
    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor`."""

    @abstractmethod
    def observation_tensor(self, observation: Observation, player: int) -> np.ndarray:
        """``player``'s observation as a ``float32`` array of ``observation_shape``.

        Built from ``observation`` alone (see the module docstring).
        """

    def observation_layout(self) -> list[tuple[str, int]]:
        """(name, length) for each consecutive slice of the flattened tensor, for docs."""
        return [("observation", int(np.prod(self.observation_shape)))]

    def observation_bounds(self) -> tuple[float | np.ndarray, float | np.ndarray]:
        """The least and the greatest value any entry of any tensor can take, by
        construction (not as measured): the adapters' observation Box. Either one
        number each for every entry, or an array each of the tensor's shape (entry by
        entry). The base claims none (``-inf``, ``inf``); an encoding whose every entry
        is a share, a flag or a capped count says so."""
        return (-np.inf, np.inf)

    # ---------------------------------------------------------------- helpers
    def _check_index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise InvalidAction(f"an action index must be an integer, got {type(index).__name__}")
        if not 0 <= index < self.num_actions:
            raise InvalidAction(
                f"action index {index} is out of range; allowed: 0 to {self.num_actions - 1}"
            )
