"""One game at a table, as the research adapters drive it: seeded chance, indexed actions.

PettingZoo and Gymnasium environments differ in who they ask for actions, but
under both a game is played the same way: chance is drawn by the table from
its own seed (a learner never sees a chance node), players act by action index,
and what a player is shown (tensor, legal mask, terminal view) is built from
that player's observation alone, never from the full state.
"""

from __future__ import annotations

import io
import operator
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from rich.console import Console

from ranchhand.core.errors import InvalidAction, OptionError
from ranchhand.core.game import CHANCE, Game, State
from ranchhand.core.registry import game_class, game_module, load
from ranchhand.core.runner import derive_seed
from ranchhand.core.view import SCREEN_WIDTH, GameView


def load_for_research(game_name: str, players: int | None, options: Mapping[str, Any]) -> Game:
    """Load a game whose encoding exists, with the adapters' defaults for its options.

    A game class may name options whose rulebook default lets an episode run for ever
    (``research_options``: Rancho's ``deals_per_turn``); the adapters set them unless the
    caller gives a value, ``0`` included, which restores the rulebook.
    """
    chosen = {**getattr(game_class(game_name), "research_options", {}), **options}
    game = load(game_name, players, **chosen)
    game.encoding()  # a game without an encoding fails here, with the reason, not mid-game
    return game


def decision_limit(game: Game, max_cycles: int | None, max_decisions: int | None) -> int:
    """The decisions after which an adapter cuts a game (truncated, no winner).

    ``max_cycles`` (PettingZoo's name) and ``max_decisions`` are the same count, given
    once; without either, the encoding's :attr:`~ranchhand.core.encoding.Encoding.max_game_length`,
    so every episode ends by construction and that bound holds whatever the policy does.
    """
    if max_cycles is not None and max_decisions is not None:
        raise OptionError("give max_cycles or max_decisions, not both (they are one count)")
    given = max_cycles if max_cycles is not None else max_decisions
    name = "max_cycles" if max_cycles is not None else "max_decisions"
    if given is None:
        return game.encoding().max_game_length
    if isinstance(given, bool) or not isinstance(given, int) or given < 1:
        raise OptionError(f"{name} must be a whole number of 1 or more, got {given!r}")
    return min(given, game.encoding().max_game_length)


def observation_slices(game: Game) -> dict[str, slice]:
    """Each named block of ``game``'s flat tensor as a slice (``encoding.observation_layout``):
    ``tensor[observation_slices(game)["herd: rabbit, ..."]]``. The names are the layout's
    own descriptions, as each game's docs page lists them."""
    slices, start = {}, 0
    for name, size in game.encoding().observation_layout():
        slices[name] = slice(start, start + size)
        start += size
    return slices


class Table:
    """A game in progress under an adapter: its state, its chance generator, a forfeit,
    and the count of decisions that cuts it.

    An index that names no legal action forfeits the game (the player who sent
    it loses and nobody else scores), as PettingZoo's classic games do with
    illegal moves: learning code that ignores the mask is told so by its returns.

    A *decision* is one node where players choose: one player's action at an ordinary
    node, all the choices at a simultaneous node (counted when its last player chooses),
    as OpenSpiel counts ``max_game_length``. After ``max_decisions`` of them the game is
    over, truncated, with no winner.
    """

    def __init__(self, game: Game, max_decisions: int | None = None) -> None:
        self.game = game
        self.max_decisions = max_decisions or game.encoding().max_game_length
        self.decisions = 0
        self.encoding = game.encoding()
        self.view: GameView = getattr(game_module(game.id), "VIEW", GameView())
        self._seeder = random.Random()
        self.seed = 0
        self.state: State = game.new_initial_state()
        self.forfeit: int | None = None
        self._chance = random.Random()

    def reset(self, seed: int | None) -> None:
        """Start a new game. With a seed, its chance draws follow ``ranchhand play --seed``;
        without, the seed is the next one drawn after the last seeded reset."""
        if seed is not None:
            self.seed = operator.index(seed)  # numpy integers too, never a float
            self._seeder = random.Random(self.seed)
        else:
            self.seed = self._seeder.getrandbits(63)
        self._chance = random.Random(derive_seed(self.seed, "chance"))
        self.state = self.game.new_initial_state()
        self.forfeit = None
        self.decisions = 0
        self.draw_chance()

    def acting(self) -> tuple[int, ...]:
        """Who must choose now, in order; empty once the game is over."""
        return () if self.over() else self.state.acting_players()

    def play(self, player: int, index: Any) -> bool:
        """Apply ``player``'s action ``index`` and then any chance; False if it forfeited."""
        if isinstance(index, np.ndarray) and index.shape == ():
            index = index.item()
        try:
            action = self.state.index_to_action(index, player)
        except InvalidAction:
            self.forfeit = player
            return False
        self.apply(player, action)
        return True

    def apply(self, player: int, action: Any) -> None:
        """Apply an engine action (a bot's choice) and then any chance that follows."""
        state = self.state
        if state.current_player() >= 0 or len(state.acting_players()) == 1:
            self.decisions += 1  # the node's last choice: one decision
        state.apply(action, player)
        self.draw_chance()

    def over(self) -> bool:
        return self.forfeit is not None or self.state.is_terminal() or self.cut()

    def cut(self) -> bool:
        """The game reached ``max_decisions`` without ending (nor forfeit) first."""
        return self.decisions >= self.max_decisions and not self.state.is_terminal()

    def truncated(self) -> bool:
        """The game was cut (``max_turns`` or ``max_decisions``, no winner) rather than
        ending by the rules or a forfeit."""
        if self.forfeit is not None:
            return False
        outcome = self.state.outcome()
        return self.cut() or (outcome is not None and outcome.truncated)

    def returns(self) -> list[float]:
        """+1 for a winner, -1 for a loser, 0 for all at a cut-off; a forfeit is -1, others 0."""
        if self.forfeit is not None:
            return [-1.0 if p == self.forfeit else 0.0 for p in range(self.game.players)]
        if self.cut():
            return [0.0] * self.game.players
        return self.state.returns()

    def tensor(self, player: int) -> np.ndarray:
        return self.state.observation_tensor(player)

    def state_tensor(self) -> np.ndarray:
        """Every player's observation tensor, flat, seats in order, one after another."""
        players = range(self.game.players)
        return np.concatenate([self.tensor(p).reshape(-1) for p in players])

    def observation_box(self) -> spaces.Box:
        """The Box one player's tensor lies in: the encoding's bounds by construction
        (``Encoding.observation_bounds``; unbounded where a game claims none)."""
        low, high = self.encoding.observation_bounds()
        shape = self.encoding.observation_shape
        if isinstance(low, np.ndarray) or isinstance(high, np.ndarray):  # entry by entry
            low, high = np.broadcast_to(low, shape), np.broadcast_to(high, shape)
            return spaces.Box(low.copy(), high.copy(), dtype=np.float32)
        return spaces.Box(low, high, shape, dtype=np.float32)

    def state_space(self) -> spaces.Box:
        """The Box :meth:`state_tensor` lies in (PettingZoo's ``state_space``)."""
        players = self.game.players
        size = players * int(np.prod(self.encoding.observation_shape))
        low, high = self.encoding.observation_bounds()
        if isinstance(low, np.ndarray) or isinstance(high, np.ndarray):  # entry by entry
            shape = self.encoding.observation_shape
            low = np.tile(np.broadcast_to(low, shape).reshape(-1), players)
            high = np.tile(np.broadcast_to(high, shape).reshape(-1), players)
            return spaces.Box(low, high, dtype=np.float32)
        return spaces.Box(low, high, (size,), dtype=np.float32)

    def mask(self, player: int) -> np.ndarray:
        """The legal indices of ``player`` now (all zero when it is not their turn)."""
        if self.over() or player not in self.state.acting_players():
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.state.legal_action_mask(player)

    def render(self, player: int | None) -> str:
        """The terminal view of ``player``'s observation (None: a spectator's), as ANSI
        text 80 columns wide."""
        screen = io.StringIO()
        console = Console(
            file=screen, width=SCREEN_WIDTH, force_terminal=True, color_system="standard"
        )
        console.print(self.view.render(self.state.observe(player)))
        return screen.getvalue()

    def draw_chance(self) -> None:
        """Apply chance outcomes, drawn from the seeded generator, until a player must act."""
        state = self.state
        while not state.is_terminal() and state.current_player() == CHANCE:
            state.apply(state.sample_chance(self._chance), CHANCE)
