"""ranchhand's games as PettingZoo AEC environments (``pip install ranchhand[pettingzoo]``).

Agents are ``player_0`` .. ``player_{n-1}``. Each observation is a dict of the
game's observation tensor (``observation``, float32) and the legal-action mask
(``action_mask``, int8 over the game's fixed action space); actions are indices
in ``Discrete(game.num_distinct_actions())``.

**Chance** (dice, shuffles, draws) never reaches an agent: the environment draws
it from the seed given to ``reset(seed=...)``, the same way ``ranchhand play
--seed`` does, so equal seeds and equal actions give equal games.

**Rewards** come at the end: +1 to each winner and -1 to the others
(``Outcome.returns``), 0 to all when nobody wins.

**Every episode ends.** A game is cut, truncated with no winner, after ``max_cycles``
decisions (``max_decisions``, the same count under its own name: one agent's step, or
one simultaneous contest), by default after the encoding's ``max_game_length``; the
game's own ``max_turns`` option cuts it after so many player turns. Rancho's
``deals_per_turn`` is 8 here unless given (``0`` is the rulebook's unbounded trading).
An index outside the mask forfeits: the agent that sent it
gets -1, the others 0, and ``infos[agent]["illegal_action"]`` is True.

**Simultaneous choices** (Glory Ranch's rock-paper-scissors) are asked one
after another, in the order the game lists them (``State.acting_players``), as
``ranchhand play`` asks them; only ``agent_selection``'s mask is non-zero, as
PettingZoo's API says. ``ranchhand.envs.parallel`` asks them at once instead.
Each agent sees only its own observation, and the engine's observation of a player
never shows another player's pending sign, so choosing second tells nothing about the
first choice (the tests check that a seat's tensor and view do not change whichever
sign another seat chose).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

from ranchhand.envs.render import RENDER_MODES, check_mode, show
from ranchhand.envs.table import Table, decision_limit, load_for_research


class Agents:
    """What the AEC and the parallel environments share: agents named ``player_<seat>``,
    each with the same spaces, and the ``state()`` space (PettingZoo's attributes)."""

    possible_agents: list[str]
    agent_name_mapping: dict[str, int]
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]
    state_space: spaces.Box
    agents: list[str]

    def _name_agents(self, table: Table) -> None:
        self.possible_agents = [f"player_{p}" for p in range(table.game.players)]
        self.agent_name_mapping = {agent: p for p, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": table.observation_box(),
                "action_mask": spaces.Box(0, 1, (table.encoding.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        actions = spaces.Discrete(table.encoding.num_actions)
        self.action_spaces = dict.fromkeys(self.possible_agents, actions)
        self.state_space = table.state_space()
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]


class RanchEnv(Agents, AECEnv):  # type: ignore[misc]
    """``game_name`` for ``players`` (default: the fewest allowed) as agents taking turns.

    ``options`` are the game's own (``ranchhand games`` lists them, e.g.
    ``max_turns``); ``max_cycles`` (or ``max_decisions``) truncates the game after that
    many decisions.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it as a class attribute)
        "render_modes": list(RENDER_MODES),
        "name": "ranchhand_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_name: str,
        players: int | None = None,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        max_decisions: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        check_mode(render_mode)
        game = load_for_research(game_name, players, options)
        self.table = Table(game, decision_limit(game, max_cycles, max_decisions))
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"ranchhand_{game.id.replace('-', '_')}_v0"}
        self._name_agents(self.table)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; with ``seed`` its chance is reproducible (see the module docstring)."""
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._next_agent()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's tensor and mask; the mask is all zero unless the agent is
        ``agent_selection`` (at a contest, the others choose in their own steps)."""
        player = self.agent_name_mapping[agent]
        mask = (
            self.table.mask(player)
            if agent == self.agent_selection
            else np.zeros(self.table.encoding.num_actions, dtype=np.int8)
        )
        return {"observation": self.table.tensor(player), "action_mask": mask}

    def state(self) -> np.ndarray:
        """Every player's observation tensor, seats in order, one after another: all that
        anyone at the table knows (for a centralised critic; never give it to a policy).
        Chance to come (the deck's order) is in nobody's view, so not here either."""
        return self.table.state_tensor()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not self.table.play(self.agent_name_mapping[agent], action):
            self.infos[agent] = {"illegal_action": True}
        if self.table.over():
            self._finish()
        self._accumulate_rewards()
        self._next_agent()

    def render(self) -> str | np.ndarray | None:
        """The terminal view of the agent to act, from its own observation only: text
        (``ansi``), printed (``human``) or a picture (``rgb_array``, see ``envs.render``)."""
        if self.render_mode is None:
            return None
        text = self.table.render(self.agent_name_mapping[self.agent_selection])
        return show(text, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    def _finish(self) -> None:
        returns = self.table.returns()
        ended = self.truncations if self.table.truncated() else self.terminations
        for agent in self.agents:
            self.rewards[agent] = returns[self.agent_name_mapping[agent]]
            ended[agent] = True

    def _next_agent(self) -> None:
        """The first player who owes a choice; once the game is over, each agent in turn."""
        acting = self.table.acting()
        self.agent_selection = self.possible_agents[acting[0]] if acting else self.agents[0]


def env(game_name: str, players: int | None = None, **kwargs: Any) -> OrderEnforcingWrapper:
    """``env("rancho", players=4)``: the environment in PettingZoo's order-enforcing wrapper
    (PettingZoo's convention), which refuses ``step``, ``observe``, ``render`` and
    ``state`` before ``reset`` with a clear error. Attributes (``.table``) reach through."""
    return OrderEnforcingWrapper(RanchEnv(game_name, players, **kwargs))


raw_env = RanchEnv
"""The class itself, without the wrapper (PettingZoo's name for it)."""
