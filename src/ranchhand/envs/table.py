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
from rich.console import Console

from ranchhand.cli.view import SCREEN_WIDTH, GameView
from ranchhand.core.errors import InvalidAction, OptionError
from ranchhand.core.game import CHANCE, Game, State
from ranchhand.core.registry import game_module, load
from ranchhand.core.runner import derive_seed


def load_for_research(
    game_name: str, players: int | None, max_cycles: int | None, options: Mapping[str, Any]
) -> Game:
    """Load a game whose encoding exists, with ``max_cycles`` turned into ``max_turns``.

    A cycle is one round in which every player takes a turn, so ``max_cycles``
    rounds are ``max_cycles * players`` player turns: the engine's own cut-off,
    which ends the game as truncated.
    """
    chosen = dict(options)
    if max_cycles is not None:
        if "max_turns" in chosen:
            raise OptionError("give max_cycles or max_turns, not both")
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
            raise OptionError(f"max_cycles must be a whole number of 1 or more, got {max_cycles!r}")
        chosen["max_turns"] = max_cycles * (players or load(game_name).players)
    game = load(game_name, players, **chosen)
    game.encoding()  # a game without an encoding fails here, with the reason, not mid-game
    return game


class Table:
    """A game in progress under an adapter: its state, its chance generator, a forfeit.

    An index that names no legal action forfeits the game (the player who sent
    it loses and nobody else scores), as PettingZoo's classic games do with
    illegal moves: learning code that ignores the mask is told so by its returns.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
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
        self.state.apply(action, player)
        self.draw_chance()

    def over(self) -> bool:
        return self.forfeit is not None or self.state.is_terminal()

    def truncated(self) -> bool:
        """The game hit its ``max_turns`` cut-off (no winner) rather than ending by the rules."""
        outcome = self.state.outcome()
        return self.forfeit is None and outcome is not None and outcome.truncated

    def returns(self) -> list[float]:
        """+1 for a winner, -1 for a loser, 0 for all at a cut-off; a forfeit is -1, others 0."""
        if self.forfeit is not None:
            return [-1.0 if p == self.forfeit else 0.0 for p in range(self.game.players)]
        return self.state.returns()

    def tensor(self, player: int) -> np.ndarray:
        return self.state.observation_tensor(player)

    def mask(self, player: int) -> np.ndarray:
        """The legal indices of ``player`` now (all zero when it is not their turn)."""
        if self.over() or player not in self.state.acting_players():
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.state.legal_action_mask(player)

    def render(self, player: int) -> str:
        """The terminal view of ``player``'s observation, as ANSI text 80 columns wide."""
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
