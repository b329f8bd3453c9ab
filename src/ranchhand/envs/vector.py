"""Many games stepped in lockstep, as Gymnasium's vector API (``gymnasium.vector.VectorEnv``).

``vector_env(game, num_envs, ...)`` gives ``num_envs`` copies of the single-seat
environment (``ranchhand.envs.gymnasium``: the learner in one seat, bots in the others,
reward +1 / -1 / 0 at the end, an illegal index forfeits) with numpy arrays for the
observations ``(num_envs, *shape)``, the action masks ``info["action_mask"]``
``(num_envs, num_actions)``, rewards, ``terminated`` and ``truncated``; a game that ended
starts afresh at the next step, its action unread (Gymnasium's next-step autoreset).

Where a game has a compiled engine that can step it, the whole batch is stepped in one
compiled call (:class:`CompiledVectorEnv`), whose kernel writes the same tensors and
masks as the game's encoding: Super Farmer (other seats ``random``, ``greedy`` or
``daring``) and Rancho (``random`` or ``greedy``); elsewhere it is Gymnasium's
``SyncVectorEnv`` over the Python environment, the same API at the reference engine's
speed. ``docs/research.md`` has the figures.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space

from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import OptionError
from ranchhand.core.registry import canonical_name
from ranchhand.envs.table import decision_limit, load_for_research

COMPILED = ("rancho", "super-farmer")
"""Games whose batches step in a compiled engine."""


def vector_env(
    game_name: str,
    num_envs: int,
    players: int = 2,
    opponents: str = "greedy",
    seat: int = 0,
    *,
    compiled: bool | None = None,
    max_cycles: int | None = None,
    max_decisions: int | None = None,
    **options: Any,
) -> gymnasium.vector.VectorEnv:
    """``num_envs`` games of ``game_name`` in lockstep, the learner in ``seat``.

    ``compiled`` None takes the compiled batch where the game has one (True insists on
    it, False asks for the Python environments); the other arguments are the single
    environment's (``opponents`` one bot name for every other seat).
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise OptionError(f"num_envs must be a whole number of 1 or more, got {num_envs!r}")
    name = canonical_name(game_name)
    if compiled is None:
        compiled = name in COMPILED and _numba_installed()
    if compiled:
        if name not in COMPILED:
            raise OptionError(
                f"{name} has no compiled batch (games with one: {', '.join(COMPILED)}); "
                "compiled=False steps the Python environments"
            )
        batch = RanchoVectorEnv if name == "rancho" else SuperFarmerVectorEnv
        return batch(
            num_envs,
            players,
            opponents,
            seat,
            max_cycles=max_cycles,
            max_decisions=max_decisions,
            **options,
        )
    from ranchhand.envs.gymnasium import RanchGymEnv

    def make() -> gymnasium.Env[Any, Any]:
        return RanchGymEnv(
            name,
            players,
            opponents,
            seat,
            max_cycles=max_cycles,
            max_decisions=max_decisions,
            **options,
        )

    return SyncVectorEnv([make] * num_envs, autoreset_mode=AutoresetMode.NEXT_STEP)


def _numba_installed() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


class CompiledVectorEnv(gymnasium.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray], ABC):
    """A batch stepped in a game's kernel: what every compiled batch shares.

    The observations and masks are those of the game's encoding for the learner's seat
    (tested entry for entry), the other seats play the kernel's bots, chance and their
    choices come from numba's generator, seeded by ``reset(seed=...)``: the same seed and
    the same actions give the same batch. A subclass names its game (``GAME``), loads its
    kernel (``_prepare``) and says how one step runs (``_seed``, ``_step``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium's name)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }
    GAME = ""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        opponents: str = "greedy",
        seat: int = 0,
        *,
        max_cycles: int | None = None,
        max_decisions: int | None = None,
        **options: Any,
    ) -> None:
        game = load_for_research(self.GAME, players, options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            raise OptionError(f"seat must be 0 to {game.players - 1}, got {seat!r}")
        self.game = game
        self.seat = seat
        self.num_envs = num_envs
        self.limit = decision_limit(game, max_cycles, max_decisions)
        encoding = game.encoding()
        low, high = encoding.observation_bounds()
        self.single_observation_space = spaces.Box(
            low, high, encoding.observation_shape, dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(encoding.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._done = np.ones(n, dtype=np.bool_)
        self._decisions = np.zeros(n, dtype=np.int64)
        self._obs = np.zeros((n, *encoding.observation_shape), dtype=np.float32)
        self._masks = np.zeros((n, encoding.num_actions), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._prepare(encoding, opponents)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Every game afresh; ``seed`` (one number; a list takes its first) seeds the batch."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._seed(int(seed) & 0xFFFFFFFF)
        self._done[:] = True
        self._step(np.zeros(self.num_envs, dtype=np.int64))
        return self._obs.copy(), self._infos()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The learner's action index in each game (ignored where a game starts afresh)."""
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        self._step(actions)
        return (
            self._obs.copy(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            self._infos(),
        )

    def action_masks(self) -> np.ndarray:
        """The legal indices of every game now (what sb3-contrib's maskable code asks)."""
        return self._masks.astype(bool)

    @abstractmethod
    def _prepare(self, encoding: Encoding, opponents: str) -> None:
        """Each game's batch does this in its own kernel."""

    @abstractmethod
    def _seed(self, value: int) -> None:
        """Each game's batch does this in its own kernel."""

    @abstractmethod
    def _step(self, actions: np.ndarray) -> None:
        """Each game's batch does this in its own kernel."""

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._masks.copy(),
            "illegal_action": self._illegal.copy(),
            "_illegal_action": self._illegal.copy(),
        }


class SuperFarmerVectorEnv(CompiledVectorEnv):
    """Super Farmer's batch in its kernel (``games/super_farmer/fast/kernel.py``): the
    other seats ``random``, ``greedy`` or ``daring``."""

    GAME = "super-farmer"

    def _prepare(self, encoding: Encoding, opponents: str) -> None:
        from ranchhand.games.super_farmer.fast import kernel
        from ranchhand.games.super_farmer.fast.engine import FastSuperFarmer, policy_of

        self._kernel = kernel
        self.engine = FastSuperFarmer(self.game)
        self.policies = np.array([policy_of(opponents)] * self.game.players, dtype=np.int64)
        index = encoding.index  # type: ignore[attr-defined]
        self.row_index = np.array([index[t] for t in self.engine.trades], dtype=np.int64)
        self.index_row = np.full(encoding.num_actions, -2, dtype=np.int64)
        self.index_row[0] = -1  # roll
        self.index_row[self.row_index] = np.arange(len(self.row_index))
        n = self.num_envs
        self._s = np.zeros((n, kernel.SCALARS), dtype=np.int64)
        self._herd = np.zeros((n, kernel.KINDS), dtype=np.int64)
        self._animals = np.zeros((n, self.game.players, kernel.KINDS), dtype=np.int64)
        self._rows = np.zeros(1 + len(self.engine.rules.give), dtype=np.int64)

    def _seed(self, value: int) -> None:
        self._kernel.seed(value)

    def _step(self, actions: np.ndarray) -> None:
        self._kernel.batch_step(
            self.engine.rules,
            self._s,
            self._herd,
            self._animals,
            self._done,
            self._decisions,
            actions,
            self.index_row,
            self.row_index,
            self.seat,
            self.policies,
            self.limit,
            self._obs,
            self._masks,
            self._rewards,
            self._terminated,
            self._truncated,
            self._illegal,
            self._rows,
        )


class RanchoVectorEnv(CompiledVectorEnv):
    """Rancho's batch in its kernel (``games/rancho/fast/batch.py``): the other seats
    ``random`` or ``greedy``, under any options the kernel plays (``deals_per_turn`` on by
    default, as in every research adapter)."""

    GAME = "rancho"

    def _prepare(self, encoding: Encoding, opponents: str) -> None:
        from ranchhand.games.rancho.fast import batch
        from ranchhand.games.rancho.fast.engine import FastRancho, policy_of

        self._batch = batch
        self.engine = FastRancho(self.game)
        self.layout = batch.layout_of(self.engine)
        self.policies = np.array([policy_of(opponents)] * self.game.players, dtype=np.int64)
        self.tables = batch.new_tables(self.engine.geometry, self.num_envs)
        """Every game's kernel table, each array with the game first."""
        self._which = np.zeros((self.num_envs, encoding.num_actions), dtype=np.int64)
        """What each index stands for in each game now (``batch.moves``), kept from the
        mask to the next step."""

    def _seed(self, value: int) -> None:
        self._batch.seed(value)

    def _step(self, actions: np.ndarray) -> None:
        self._batch.batch_step(
            self.engine.geometry,
            self.engine.memo,
            self.tables,
            self.layout,
            self._done,
            self._decisions,
            actions,
            self.seat,
            self.policies,
            self.limit,
            self._obs,
            self._masks,
            self._rewards,
            self._terminated,
            self._truncated,
            self._illegal,
            self._which,
        )
