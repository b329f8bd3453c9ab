"""OpenSpiel adapter: every ranchhand game with an encoding as a ``pyspiel`` game.

>>> from ranchhand.envs.openspiel import register      # doctest: +SKIP
>>> register()                                        # doctest: +SKIP
>>> game = pyspiel.load_game("ranchhand_rancho", {"players": 3})  # doctest: +SKIP

After :func:`register`, OpenSpiel's own tools (``random_sim_test``, MCTS,
IS-MCTS, CFR on small settings) run on our games. The adapter is a thin layer:
the engine keeps the rules, the game's :class:`~ranchhand.core.encoding.Encoding`
numbers actions, chance outcomes and observations, and this module only
translates between OpenSpiel's calls and the engine's.

How the games map onto OpenSpiel's game types:

* Chance is explicit: each chance node lists the engine's outcomes with their
  exact probabilities (``EXPLICIT_STOCHASTIC``), numbered by the encoding.
* Information is ``PERFECT_INFORMATION`` for games that hide nothing (Rancho,
  Super Farmer; ``information=imperfect`` declares them otherwise, for IS-MCTS)
  and ``IMPERFECT_INFORMATION`` otherwise; observations are built from
  ``state.observe(player)`` only, so a tensor or string never holds a secret.
  Information states (perfect recall, string and tensor) come from
  :mod:`ranchhand.core.recall`, read from the history on demand.
* A game with simultaneous nodes (Glory Ranch's rock-paper-scissors) asks the
  contest's players one after another by default (a ``SEQUENTIAL`` game; no
  observation shows a pending sign). With ``simultaneous=true`` it is
  ``SIMULTANEOUS``: OpenSpiel asks every player at once at such a node, so players
  not in the contest get one extra action, ``wait``, the last index.
* ``max_game_length`` is a true bound: a game is cut after ``max_decisions``
  decisions (by default the encoding's bound), every return 0.
* Rewards come at the end only (``TERMINAL``): +1 for each winner, -1 for the
  others, 0 for all in a truncated game. Ties share the win, so the games are
  ``GENERAL_SUM``.

OpenSpiel clones Python states by deep-copying their attributes; a state here
keeps one attribute whose deep copy is the engine's fast ``clone()``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Iterable
from typing import Any, ClassVar

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ranchhand.core.encoding import Encoding
from ranchhand.core.errors import GameDefinitionError, InvalidAction
from ranchhand.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from ranchhand.core.recall import Recall
from ranchhand.core.registry import GAME_MODULES, game_class

MAX_DECISIONS = "max_decisions"
"""The adapter's own parameter: decisions after which a game is cut (0: the encoding's
``max_game_length``), so ``max_game_length`` is a true bound by construction."""

RECALL = "recall"
"""The adapter's parameter: blocks of the information-state tensor (0: ``max_decisions +
1`` up to :data:`RECALL_BLOCKS`); the tensor is perfect recall while a record fits."""
RECALL_BLOCKS = 64
"""The default cap on ``recall``: a tensor of every block of a long game would be huge
(Rancho: 26,001 blocks of 662 numbers); small configurations fit whole."""
SIMULTANEOUS_PARAMETER = "simultaneous"
"""For games with contests: ask the contest's players at once (a SIMULTANEOUS node, with
``wait`` for the others) instead of one after another (the default)."""
INFORMATION = "information"
"""For perfect-information games: ``imperfect`` declares them so, for tools that accept only
imperfect-information games (OpenSpiel's IS-MCTS); every set is then a single state."""

PREFIX = "ranchhand_"
"""Every ranchhand game is registered as ``ranchhand_<id with underscores>``."""


def short_name(game_id: str) -> str:
    """OpenSpiel's name for a game: ``rocket-ranchers`` -> ``ranchhand_rocket_ranchers``."""
    return PREFIX + game_id.replace("-", "_")


def register(names: Iterable[str] | None = None) -> list[str]:
    """Register the named ranchhand games (default: every one) with OpenSpiel.

    Games without an encoding are left out. Registering twice is harmless.
    Returns the OpenSpiel short names of the games now available.
    """
    registered = []
    for name in GAME_MODULES if names is None else names:
        cls = game_class(name)
        try:
            cls(cls.min_players).encoding()
        except GameDefinitionError:
            continue
        registered.append(register_game(cls))
    return registered


def register_game(cls: type[Game]) -> str:
    """Register one game class with OpenSpiel (any class, test games too); return its name."""
    name = short_name(cls.id)
    if name not in pyspiel.registered_names():
        game_type = _game_type(cls, name)
        factory: Callable[[dict[str, Any]], OpenSpielGame] = type(
            f"OpenSpiel{cls.__name__}",
            (OpenSpielGame,),
            {"ranch_class": cls, "game_type": game_type},
        )
        pyspiel.register_game(game_type, factory)
    return name


def _game_type(
    cls: type[Game], name: str, *, simultaneous: bool | None = None, perfect: bool | None = None
) -> Any:
    """OpenSpiel's description of ``cls``: as registered (the game's defaults), or as
    loaded with ``simultaneous`` and ``information`` chosen by parameters."""
    dynamics = pyspiel.GameType.Dynamics
    information = pyspiel.GameType.Information
    parameters: dict[str, Any] = {"players": cls.min_players}
    parameters.update({option.name: option.default for option in cls.option_specs()})
    parameters.update(getattr(cls, "research_options", {}))
    parameters[MAX_DECISIONS] = 0
    parameters[RECALL] = 0
    if cls.simultaneous:
        parameters[SIMULTANEOUS_PARAMETER] = False
    if cls.information == "perfect":
        parameters[INFORMATION] = "perfect"
    at_once = False if simultaneous is None else simultaneous
    shown = cls.information == "perfect" if perfect is None else perfect
    return pyspiel.GameType(
        short_name=name,
        long_name=f"ranchhand {cls.name}",
        dynamics=dynamics.SIMULTANEOUS if at_once else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            information.PERFECT_INFORMATION if shown else information.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A loaded ranchhand game seen by OpenSpiel; :func:`register_game` makes one subclass
    per ranchhand game, which OpenSpiel calls with the parameters it was loaded with."""

    ranch_class: ClassVar[type[Game]]
    game_type: ClassVar[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cls = self.ranch_class
        given = dict(params or {})
        players = int(given.pop("players", cls.min_players))
        asked = _whole(given.pop(MAX_DECISIONS, 0), MAX_DECISIONS)
        blocks = _whole(given.pop(RECALL, 0), RECALL)
        at_once = given.pop(SIMULTANEOUS_PARAMETER, False) if cls.simultaneous else False
        if not isinstance(at_once, bool):
            raise ValueError(f"{SIMULTANEOUS_PARAMETER} must be true or false, got {at_once!r}")
        shown = given.pop(INFORMATION, "perfect") if cls.information == "perfect" else "imperfect"
        if shown not in ("perfect", "imperfect"):
            raise ValueError(f"{INFORMATION} must be 'perfect' or 'imperfect', got {shown!r}")
        options = {**getattr(cls, "research_options", {}), **given}
        self.ranch = cls(players, **options)
        encoding = self.ranch.encoding()
        self.max_decisions = min(asked, encoding.max_game_length) or encoding.max_game_length
        """Decisions after which a game is cut (truncated: every return 0)."""
        self.recall_blocks = blocks or min(self.max_decisions + 1, RECALL_BLOCKS)
        """Blocks of the information-state tensor (see ``ranchhand.core.recall``)."""
        self.simultaneous = at_once
        """Contests asked at once (a SIMULTANEOUS node), or one player after another."""
        self.wait = encoding.num_actions if at_once else None
        kind = _game_type(
            cls, self.game_type.short_name, simultaneous=at_once, perfect=shown == "perfect"
        )
        super().__init__(
            kind,
            pyspiel.GameInfo(
                num_distinct_actions=encoding.num_actions + (self.wait is not None),
                max_chance_outcomes=encoding.max_chance_outcomes,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=self.max_decisions,
            ),
            {
                "players": players,
                **self.ranch.options,
                MAX_DECISIONS: self.max_decisions,
                RECALL: self.recall_blocks,
                **({SIMULTANEOUS_PARAMETER: at_once} if cls.simultaneous else {}),
                **({INFORMATION: shown} if cls.information == "perfect" else {}),
            },
        )

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer | RecallObserver:
        """A player's observation now, or with ``perfect_recall`` the information state
        (everything the player saw and did: ``ranchhand.core.recall``)."""
        if params:
            raise ValueError(f"ranchhand observers take no parameters, got {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "ranchhand games offer a player's own view (now, or with perfect recall), "
                "not a public-only or all-players view"
            )
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return RecallObserver(self.ranch.encoding(), self.recall_blocks)
        return Observer(self.ranch.encoding())


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    return value


class _Engine:
    """The engine state and who acts in it, which OpenSpiel asks for several times a step.

    OpenSpiel clones a Python state by making a new initial state and deep-copying
    the original's attributes into it: this holder's deep copy is the engine's fast
    ``clone``, and a new game's engine state is only dealt when first used, so a
    clone never deals one to throw away. All changes go through :meth:`apply`,
    which keeps ``player`` up to date and counts decisions: once ``limit`` are made
    the game is over (``player`` is TERMINAL), cut with no winner.
    """

    __slots__ = ("_player", "_state", "at_once", "decisions", "game", "limit", "recall")

    def __init__(self, game: Game, limit: int, at_once: bool, state: State | None = None) -> None:
        self.game = game
        self.limit = limit
        self.at_once = at_once
        self._state = state
        self._player: int | None = None
        self.decisions = 0
        self.recall = Recall(game, None if state is None else state.clone())
        """The history since the start (or since ``state``), for information states."""

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = self.game.new_initial_state()
        return self._state

    @property
    def player(self) -> int:
        if self._player is None:
            state = self.state
            player = state.current_player()
            if player == SIMULTANEOUS and not self.at_once:
                player = state.acting_players()[0]  # a contest asked one player at a time
            self._player = TERMINAL if self.decisions >= self.limit else player
        return self._player

    @property
    def cut(self) -> bool:
        """Over by the decision limit rather than by the game's own end."""
        return self.decisions >= self.limit and not self.state.is_terminal()

    def apply(self, action: Hashable, player: int) -> None:
        self.state.apply(action, player)
        self._player = None

    def decided(self) -> None:
        """One decision made: a player's action, or a simultaneous node's choices."""
        self.decisions += 1
        self._player = None

    def acting(self) -> tuple[int, ...]:
        player = self.player
        if player == TERMINAL:
            return ()
        return (player,) if player >= 0 else self.state.acting_players()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        twin = _Engine.__new__(_Engine)
        twin.game, twin.limit, twin.at_once = self.game, self.limit, self.at_once
        twin._state, twin._player = self.state.clone(), None
        twin.decisions = self.decisions
        twin.recall = self.recall.copy()
        return twin


class OpenSpielState(pyspiel.State):  # type: ignore[misc]
    """An engine state behind OpenSpiel's State interface (actions as encoding indices).

    Made by the game, or around an engine state (a position set up by hand) with
    ``OpenSpielState(game, state)``; that engine state then belongs to this object.
    """

    def __init__(self, game: OpenSpielGame, state: State | None = None) -> None:
        super().__init__(game)
        self._engine = _Engine(game.ranch, game.max_decisions, game.simultaneous, state)

    @property
    def ranch(self) -> State:
        """The engine state, to read (the whole table, secrets included: not for players'
        eyes). Change it only through OpenSpiel's ``apply_action``."""
        return self._engine.state

    def _wait(self) -> int | None:
        engine = self._engine
        return engine.game.encoding().num_actions if engine.at_once else None

    def current_player(self) -> int:
        return self._engine.player

    def is_terminal(self) -> bool:
        return self._engine.player == TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._engine
        if player in engine.acting():
            state = engine.state
            return state.game.encoding().legal_indices(state, player)
        wait = self._wait()
        if wait is not None and engine.player == SIMULTANEOUS:
            return [wait]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        state = self._engine.state
        node = state.chance_outcomes()
        total = node.total
        encoding = state.game.encoding()
        if type(encoding).chance_to_index is Encoding.chance_to_index:  # numbered in order
            return [(index, weight / total) for index, weight in enumerate(node.weights)]
        indices = encoding.chance_indices(state, node.actions)
        return [
            (index, weight / total) for index, weight in zip(indices, node.weights, strict=True)
        ]

    def _apply_action(self, action: int) -> None:
        engine = self._engine
        state = engine.state
        encoding = state.game.encoding()
        player = engine.player
        if player == CHANCE:
            outcome = encoding.index_to_chance(state, action)
            engine.apply(outcome, CHANCE)
            engine.recall.add(((CHANCE, outcome),))
        else:
            chosen = encoding.index_to_action(state, action, player)
            engine.apply(chosen, player)
            engine.recall.add(((player, chosen),))
            engine.decided()

    def _apply_actions(self, actions: list[int]) -> None:
        engine = self._engine
        state = engine.state
        encoding = state.game.encoding()
        chosen = [
            (player, encoding.index_to_action(state, actions[player], player))
            for player in engine.acting()
        ]
        for player, action in chosen:
            engine.apply(action, player)
        engine.recall.add(tuple(chosen))
        engine.decided()

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (default: the player to act), flat, as pyspiel's.

        pyspiel's own version, for a Python game, deals a new game on every call to
        learn the tensor's size and so builds two tensors; this one builds one, from
        ``observe(player)`` like the observer.
        """
        engine = self._engine
        state = engine.state
        who = engine.player if player is None else player
        if not 0 <= who < state.game.players:
            raise pyspiel.SpielError(f"no observation tensor for player {who}")
        tensor = state.game.encoding().observation_tensor(state.observe(who), who)
        return _as_list(tensor.reshape(-1))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._engine.state
        encoding = state.game.encoding()
        try:
            if player == CHANCE:
                return str(encoding.index_to_chance(state, action))
            if action == self._wait():
                return "wait"
            return str(encoding.index_to_action(state, action, player))
        except InvalidAction:  # asked about another position's action: name the index
            return f"chance outcome {action}" if player == CHANCE else encoding.action_label(action)

    def returns(self) -> list[float]:
        engine = self._engine
        if engine.cut:
            return [0.0] * engine.game.players
        return engine.state.returns()

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> OpenSpielState:
        """A state ``player`` cannot tell from this one, hidden cards redrawn (for IS-MCTS).

        Built by the engine from ``observe(player)`` alone; ``sampler`` (OpenSpiel's
        uniform sampler) seeds the draw.
        """
        rng = random.Random(int(sampler() * 2**32))
        engine = self._engine
        twin = OpenSpielState(self.get_game(), engine.state.resample(player, rng))
        twin._engine.decisions = engine.decisions
        twin._engine.recall = engine.recall.after(player, twin._engine.state)
        return twin

    def __str__(self) -> str:
        return str(self._engine.state)


def _as_list(flat: np.ndarray) -> list[float]:
    """``flat.tolist()``, made faster for a mostly-zero tensor (Rocket Ranchers' 785
    numbers at two players are about 88% zeros in random games): a list of one shared zero
    with the rest written in, since a Python float for every entry costs more than a step."""
    places = np.flatnonzero(flat)
    if 4 * places.size > flat.size:
        return flat.tolist()  # type: ignore[no-any-return]
    out = [0.0] * flat.size
    for place, value in zip(places.tolist(), flat[places].tolist(), strict=True):
        out[place] = value
    return out


class RecallObserver:
    """OpenSpiel's perfect-recall observer: the information state of ``ranchhand.core.recall``
    as text (one line per moment) and as a tensor of ``blocks`` blocks."""

    def __init__(self, encoding: Encoding, blocks: int) -> None:
        self.blocks = blocks
        width = 1 + int(np.prod(encoding.observation_shape)) + encoding.num_actions
        self.tensor = np.zeros(blocks * width, dtype=np.float32)
        self.dict: dict[str, np.ndarray] = {"info_state": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        self.tensor[:] = state._engine.recall.tensor(player, self.blocks)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return state._engine.recall.string(player)


class Observer:
    """OpenSpiel's observer interface over an encoding: ``tensor`` and its named views
    (``dict``) filled from ``observe(player)``, and the observation as JSON text."""

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.tensor = np.zeros(int(np.prod(encoding.observation_shape)), dtype=np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, size in encoding.observation_layout():
            self.dict[name] = self.tensor[start : start + size]
            start += size

    def set_from(self, state: OpenSpielState, player: int) -> None:
        ranch = state.ranch
        tensor = self.encoding.observation_tensor(ranch.observe(player), player)
        self.tensor[:] = tensor.reshape(-1)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return json.dumps(state.ranch.observe(player).to_json(), sort_keys=True)
