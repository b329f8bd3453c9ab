"""One seat of a ranchhand game as a Gymnasium environment (``pip install ranchhand[gymnasium]``).

The learner plays one seat; our bots play the others, each from its own
observation, with the generator ``ranchhand play`` would give them for the same
seed. Chance is drawn inside the environment from the seed given to ``reset``.
Importing the module names each game for ``gymnasium.make``:
``gymnasium.make("ranchhand/rocket-ranchers-v0", opponents="random")``.
An episode is one game: the reward is 0 until the end, then +1 for a win, -1
for a loss and 0 when the game is cut off (``truncated``): by the game's ``max_turns``
option, or after ``max_cycles`` decisions of all players (``max_decisions``, by default
the encoding's ``max_game_length``), so every episode ends whatever the policies do.

Actions are indices in ``Discrete(game.num_distinct_actions())``. The legal ones
are in ``info["action_mask"]`` (int8) and :meth:`RanchGymEnv.action_masks`, the
method sb3-contrib's ``MaskablePPO`` calls. An index outside the mask forfeits
the game: reward -1, ``terminated``, ``info["illegal_action"]``; so code that
samples without the mask (``check_env`` does) still gets valid transitions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ranchhand.core.errors import OptionError
from ranchhand.core.registry import GAME_MODULES, bot_factory
from ranchhand.core.runner import derive_seed
from ranchhand.envs.league import League, Policy, choose, is_policy
from ranchhand.envs.render import RENDER_MODES, check_mode, show
from ranchhand.envs.table import Table, decision_limit, load_for_research


class RanchGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """``game_name`` with the learner in ``seat`` (a number, or ``"random"`` for a new seat
    each episode) and ``opponents`` in the others: one for all, or one per other seat in
    seat order, each a bot name, a policy (a callable on the seat's tensor and mask, or an
    SB3 model; see ``ranchhand.envs.league``) or a :class:`League` drawn from each
    episode; ``options`` are the game's own, ``max_cycles`` (``max_decisions``)
    as in the PettingZoo environment.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium's name)
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
    }

    def __init__(
        self,
        game_name: str,
        players: int = 2,
        opponents: str | League | Policy | Sequence[str | Policy] = "greedy",
        seat: int | str = 0,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        max_decisions: int | None = None,
        **options: Any,
    ) -> None:
        check_mode(render_mode)
        game = load_for_research(game_name, players, options)
        if seat != "random" and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players
        ):
            raise OptionError(f"seat must be 0 to {game.players - 1} or 'random', got {seat!r}")
        single = isinstance(opponents, str | League) or is_policy(opponents)
        names = [opponents] * game.players if single else list(opponents)  # type: ignore[arg-type]
        if not single and len(names) != game.players - 1:
            raise OptionError(
                f"give one opponent for all seats or {game.players - 1} (one per other seat), "
                f"got {len(names)}"
            )
        self.table = Table(game, decision_limit(game, max_cycles, max_decisions))
        self.render_mode = render_mode
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self._opponent_names = names
        self._bots: dict[int, Any] = {}
        self._bot_rng = random.Random()
        actions = game.num_distinct_actions()
        self.action_space = spaces.Discrete(actions)
        self.observation_space = self.table.observation_box()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game; the learner's seat is drawn here when ``seat="random"``."""
        super().reset(seed=seed)
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(self.table.game.players))
        self._seat_bots()
        self.table.reset(seed)
        self._bot_rng = random.Random(derive_seed(self.table.seed, "bots"))
        self._play_others()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.table.over():
            raise RuntimeError("the game is over; call reset() to start another")
        legal = self.table.play(self.seat, action)
        if legal:
            self._play_others()
        info = self._info()
        if not legal:
            info["illegal_action"] = True
        over = self.table.over()
        reward = self.table.returns()[self.seat] if over else 0.0
        truncated = self.table.truncated()
        return self._observation(), reward, over and not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal indices as booleans (sb3-contrib's ``MaskablePPO`` asks for them)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | np.ndarray | None:  # type: ignore[override]
        """The terminal view of the learner's own observation: text (``ansi``), printed
        (``human``) or a picture (``rgb_array``, see ``ranchhand.envs.render``)."""
        if self.render_mode is None:
            return None
        return show(self.table.render(self.seat), self.render_mode)

    def _seat_bots(self) -> None:
        """One bot per other seat, made once per seat assignment (search bots bind the game);
        a policy sits as it is, and a league seat draws a policy every episode."""
        others = [p for p in range(self.table.game.players) if p != self.seat]
        for player, name in zip(others, self._opponent_names, strict=False):
            if isinstance(name, League):
                self._bots[player] = name.sample(self.np_random)
        if sorted(self._bots) == others:
            return
        self._bots = {}
        for player, name in zip(others, self._opponent_names, strict=False):
            if isinstance(name, League):
                self._bots[player] = name.sample(self.np_random)
                continue
            if not isinstance(name, str):
                self._bots[player] = name
                continue
            bot = bot_factory(self.table.game, name)()
            bind = getattr(bot, "bind", None)
            if bind is not None:
                bind(self.table.game)
            self._bots[player] = bot

    def _play_others(self) -> None:
        """Let the bots act until the learner must choose or the game is over.

        Players who choose at once are asked one after another in the order the
        game lists them, as ``ranchhand play`` asks them, so a seed replays alike.
        """
        table = self.table
        while True:
            acting = table.acting()
            if not acting or acting[0] == self.seat:
                return
            player = acting[0]
            state = table.state
            bot = self._bots[player]
            if not callable(getattr(bot, "act", None)):  # a policy on tensors and masks
                mask = table.mask(player)
                index = choose(bot, table.tensor(player), mask, self._deterministic(player))
                if not 0 <= index < mask.size or not mask[index]:
                    raise ValueError(
                        f"the opponent policy in seat {player} chose index {index}, "
                        "which its legal mask does not allow"
                    )
                table.play(player, index)
                continue
            action = bot.act(state.observe(player), state.legal_actions(player), self._bot_rng)
            table.apply(player, action)

    def _deterministic(self, player: int) -> bool:
        """A league seat plays as its league says; any other policy its most likely move."""
        others = [p for p in range(self.table.game.players) if p != self.seat]
        name = self._opponent_names[others.index(player)]
        return name.deterministic if isinstance(name, League) else True

    def _observation(self) -> np.ndarray:
        return self.table.tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.table.mask(self.seat), "seat": self.seat}


env = RanchGymEnv
"""``env("rocket-ranchers", players=2, opponents="greedy")``: the short name for the class."""


def register_games() -> None:
    """Name every registered game ``ranchhand/<id>-v0`` for ``gymnasium.make`` (and so for
    Gymnasium's vector environments); importing this module does it, and a game
    registered later (``ranchhand.core.registry.register``) is named by calling it again."""
    for name in GAME_MODULES:
        env_id = f"ranchhand/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id, entry_point=f"{__name__}:RanchGymEnv", kwargs={"game_name": name}
            )


register_games()
