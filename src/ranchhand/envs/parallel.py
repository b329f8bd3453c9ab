"""ranchhand's games as PettingZoo parallel environments (``pip install ranchhand[pettingzoo]``).

>>> from ranchhand.envs.parallel import parallel_env          # doctest: +SKIP
>>> table = parallel_env("glory-ranch", players=3)           # doctest: +SKIP
>>> observations, infos = table.reset(seed=0)                # doctest: +SKIP

Every live agent sends an action at every step, as PettingZoo's parallel API asks; one
step is one *decision* of the game: the action of the player to act at an ordinary node,
or the signs of all the contest's players at once at a simultaneous node (Glory Ranch's
rock-paper-scissors, asked together here, one by one in the AEC environment). An agent
whose ``action_mask`` is all zero is not deciding now: its action is read by nobody, and
may be anything of its space (``None`` too). Chance is drawn inside, from the seed.

Observations, rewards, the decision limit (``max_cycles`` = ``max_decisions``, one per
step, so ``max_cycles=k`` ends the game after exactly ``k`` steps unless it ends sooner)
and the render modes are those of the AEC environment (``ranchhand.envs.pettingzoo``).

An index outside a deciding agent's mask forfeits the game, as in the AEC environment,
unless ``illegal="random"``: then a legal action drawn uniformly from the environment's
own seeded generator is played instead and ``infos[agent]["illegal_action"]`` is True.
PettingZoo's ``max_cycles_test`` sends unmasked random actions and needs the game to go
on, so it runs with ``illegal="random"``.

:func:`env` is the same environment in AEC form (PettingZoo's ``parallel_to_aec``: every
agent steps once a cycle), the pair PettingZoo's parallel-native environments offer;
:func:`module` makes the ``mod`` that ``max_cycles_test(mod)`` calls for one game.
"""

from __future__ import annotations

import random
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import parallel_to_aec  # type: ignore[import-untyped]

from ranchhand.core.runner import derive_seed
from ranchhand.envs.pettingzoo import Agents
from ranchhand.envs.render import RENDER_MODES, check_mode, show
from ranchhand.envs.table import Table, decision_limit, load_for_research

ILLEGAL = ("forfeit", "random")
"""What an index outside the mask does: forfeit the game, or play a random legal action."""


class RanchParallelEnv(Agents, ParallelEnv):  # type: ignore[misc]
    """``game_name`` for ``players`` as agents who all send an action at every step."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it as a class attribute)
        "render_modes": list(RENDER_MODES),
        "name": "ranchhand_parallel_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game_name: str,
        players: int | None = None,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        max_decisions: int | None = None,
        illegal: str = "forfeit",
        **options: Any,
    ) -> None:
        check_mode(render_mode)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'forfeit' or 'random', got {illegal!r}")
        game = load_for_research(game_name, players, options)
        self.table = Table(game, decision_limit(game, max_cycles, max_decisions))
        self.render_mode = render_mode
        self.illegal = illegal
        self.metadata = {
            **self.metadata,
            "name": f"ranchhand_{game.id.replace('-', '_')}_parallel_v0",
        }
        self._name_agents(self.table)
        self._substitute = random.Random()

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Deal a new game; with ``seed`` its chance (and any substituted action) repeats."""
        self.table.reset(seed)
        self._substitute = random.Random(derive_seed(self.table.seed, "substitute"))
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Apply the deciding agents' actions (one, or a whole contest), then chance."""
        if not self.agents:
            raise RuntimeError("the game is over; call reset() to start another")
        table = self.table
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        for player in table.acting():
            agent = self.possible_agents[player]
            index = actions.get(agent)
            mask = table.mask(player)
            if not _legal(index, mask):
                infos[agent]["illegal_action"] = True
                if self.illegal == "forfeit":
                    table.play(player, -1)  # no index: the table records the forfeit
                    break
                index = self._substitute.choice(np.flatnonzero(mask).tolist())
            table.play(player, index)
        over = table.over()
        returns = table.returns() if over else [0.0] * table.game.players
        rewards = {agent: returns[self.agent_name_mapping[agent]] for agent in self.agents}
        cut = over and table.truncated()
        terminations = dict.fromkeys(self.agents, over and not cut)
        truncations = dict.fromkeys(self.agents, cut)
        observations = self._observations()
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        """Every player's observation tensor, seats in order (see the AEC environment)."""
        return self.table.state_tensor()

    def render(self) -> str | np.ndarray | None:
        """The spectator's view (``observe(None)``: no hand, no pending sign)."""
        if self.render_mode is None:
            return None
        return show(self.table.render(None), self.render_mode)

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    def _observations(self) -> dict[str, Any]:
        table = self.table
        return {
            agent: {
                "observation": table.tensor(player),
                "action_mask": table.mask(player),
            }
            for agent, player in self.agent_name_mapping.items()
            if agent in self.agents
        }


def _legal(index: Any, mask: np.ndarray) -> bool:
    if isinstance(index, np.ndarray) and index.shape == ():
        index = index.item()
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        return False
    return bool(0 <= index < mask.size and mask[index])


parallel_env = RanchParallelEnv
"""``parallel_env("rancho", players=4)``: the short name for the class."""


def env(game_name: str, players: int | None = None, **kwargs: Any) -> Any:
    """The parallel environment in AEC form: each live agent steps once a cycle."""
    return parallel_to_aec(RanchParallelEnv(game_name, players, **kwargs))


def module(game_name: str, players: int | None = None, **kwargs: Any) -> SimpleNamespace:
    """``env`` and ``parallel_env`` for one game, as a PettingZoo environment module has
    them (``max_cycles_test(module("rancho", 2, illegal="random"))``)."""
    return SimpleNamespace(
        env=partial(env, game_name, players, **kwargs),
        parallel_env=partial(RanchParallelEnv, game_name, players, **kwargs),
    )
