"""The game protocol every ranchhand game implements.

Modelled on OpenSpiel: a :class:`Game` is loaded with a player count and options
and makes :class:`State` objects. A state says who acts next: a player, several
players at once (a simultaneous node), :data:`CHANCE` or nobody (terminal).
Chance nodes list their outcomes with exact probabilities and are applied like
any action, so a state never holds a hidden dice result or deck order.

The base class does the bookkeeping once for every game: whose turn it is,
acting after the end, the legality check shared by ``legal_actions`` and
``apply``, the ``max_turns`` cut-off and JSON framing. A game writes only its
rules, in the ``_underscore`` hooks.
"""

from __future__ import annotations

import copy
import difflib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from ranchhand.core.chance import ChanceOutcomes
from ranchhand.core.errors import (
    AmbiguousAction,
    DataError,
    GameDefinitionError,
    IllegalAction,
    InvalidAction,
    OptionError,
    RanchhandError,
    StateError,
    plural,
    shorten,
)
from ranchhand.core.notation import MAX_ACTION_TEXT
from ranchhand.core.options import MAX_TURNS, Option, resolve_options

if TYPE_CHECKING:
    import numpy as np

    from ranchhand.core.encoding import Encoding
    from ranchhand.core.streams import ChanceStream

_T = TypeVar("_T")

CHANCE = -1
"""``current_player()`` at a chance node."""
SIMULTANEOUS = -2
"""``current_player()`` when several players choose at once (see ``acting_players``)."""
TERMINAL = -4
"""``current_player()`` once the game is over."""


@runtime_checkable
class Action(Hashable, Protocol):
    """An action is any hashable value whose ``str()`` is its canonical text."""


@runtime_checkable
class Observation(Protocol):
    """What one player may see; ``to_json()`` gives it as JSON-ready data."""

    def to_json(self) -> dict[str, Any]: ...


class Playout(Protocol):
    """A compiled rollout (see :meth:`Game.compiled_playout`)."""

    def __call__(
        self, state: State, stream: ChanceStream, max_steps: int
    ) -> tuple[list[float], int, bool]:
        """Play on from ``state`` (left unchanged) for at most ``max_steps`` steps, chance
        drawn as :func:`ranchhand.core.streams.sample` draws from ``stream`` (its number,
        and the turn and count of draws it has reached, which the playout does not
        advance): (each player's ``returns()`` if the game ended, else ``evaluate()``
        where it stopped; the steps played; whether the game ended)."""
        ...


@dataclass(frozen=True)
class Outcome:
    """How a game ended: who won, the final scores if the game keeps any, and why."""

    winners: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    reason: str = ""

    @property
    def truncated(self) -> bool:
        return self.reason == "truncated"

    def returns(self, players: int) -> list[float]:
        """+1 for each winner and -1 for the others; 0 for all when nobody won."""
        if not self.winners:
            return [0.0] * players
        return [1.0 if p in self.winners else -1.0 for p in range(players)]

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": None if self.scores is None else list(self.scores),
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        scores = data.get("scores")
        return cls(
            tuple(int(w) for w in data["winners"]),
            None if scores is None else tuple(scores),
            str(data.get("reason", "")),
        )


TRUNCATED = Outcome((), None, "truncated")


@dataclass(frozen=True)
class GameInfo:
    """What a loaded game declares about itself, computed from its options."""

    id: str
    name: str
    version: str
    players: int
    min_players: int
    max_players: int
    information: str
    simultaneous: bool
    options: dict[str, Any] = field(default_factory=dict)
    option_specs: tuple[Option, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "players": self.players,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "chance": "explicit",
            "information": self.information,
            "simultaneous": self.simultaneous,
            "options": dict(self.options),
        }


@dataclass(frozen=True)
class GameSummary:
    """One finished game, as much as a report needs (sent by workers, then dropped): what
    the simulator's tally and a game's compiled engine both speak, so it lives here."""

    index: int
    winners: tuple[int, ...]
    truncated: bool
    turns: int
    scores: tuple[float, ...] | None
    details: dict[str, Any]


class Summary:
    """Reduces finished games' :meth:`State.details`, one game at a time, to a report.

    A simulation feeds ``add`` each finished game in game-index order and keeps one
    Summary however many games run, so ``add`` keeps running totals, never the
    details themselves (a million Glory Ranch games' details are gigabytes).
    ``result`` may be called at any time (a stopped run reports what it has) and
    returns a JSON-ready mapping whose ``average`` mapping, if any, holds the
    headline numbers ``ranchhand compare`` puts side by side. This base counts
    nothing and reports ``{}``.
    """

    def add(self, details: Mapping[str, Any]) -> None:
        """Count one finished game's details."""

    def result(self) -> dict[str, Any]:
        """The summary of the games added so far."""
        return {}


class Game(ABC):
    """A game loaded with a player count and options; it makes states.

    Subclasses declare the class attributes below and ``OPTIONS``; the common
    ``max_turns`` option is added for every game.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    information: ClassVar[str] = "perfect"
    simultaneous: ClassVar[bool] = False
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, players: int | None = None, **options: Any) -> None:
        if players is None:
            players = self.min_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"{self.id}: players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.id}: a game of {plural(players, 'player')} is not allowed; "
                f"allowed: {self.min_players} to {self.max_players}"
            )
        self.players = players
        self.options = resolve_options(self.id, self.option_specs(), options)
        self.max_turns: int = self.options["max_turns"]

    @classmethod
    def option_specs(cls) -> tuple[Option, ...]:
        return (*cls.OPTIONS, MAX_TURNS)

    @property
    def info(self) -> GameInfo:
        return GameInfo(
            self.id,
            self.name,
            self.version,
            self.players,
            self.min_players,
            self.max_players,
            self.information,
            self.simultaneous,
            dict(self.options),
            self.option_specs(),
        )

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first action (often a chance node: deal, roll)."""

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state written by :meth:`State.to_json` for this game.

        The JSON is not trusted: a state that could not arise in this game (an
        animal too many, a card in two places, a negative count) is refused with a
        :class:`StateError` naming the field, never loaded.
        """
        from ranchhand.core.serial import check_state_header

        check_state_header(self, data)
        turn = data["turn"]
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= 10**9:
            raise StateError("turn", f"expected a whole number 0..{10**9}, got {turn!r}")
        payload = data["data"]
        if not isinstance(payload, Mapping):
            raise StateError("data", f"expected an object, got {type(payload).__name__}")
        state = _guarded(lambda: self._state_from_json(payload), "data")
        state.turn = turn
        state._forget_cached()
        _guarded(state._validate, "data")
        return state

    @abstractmethod
    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild the game-specific part of a state (raise StateError naming the field)."""

    def setup(self, spec: Mapping[str, Any] | str) -> State:
        """A position built from a short description: for study, puzzles and tests.

        ``spec`` is a mapping, or the same as TOML text; each game documents its
        keys on its docs page (who is to act, what each player holds...). Anything
        not given takes its value at the start of a game. The position is checked
        like loaded JSON (:meth:`State._validate`) and round-trips through JSON.
        """
        if isinstance(spec, str):
            from ranchhand.core.data import parse_data

            try:
                spec = parse_data(spec, "setup")
            except DataError as error:
                raise StateError("setup", error.problem) from None
        if not isinstance(spec, Mapping):
            raise StateError("setup", f"expected a table, got {type(spec).__name__}")
        chosen = spec
        try:
            state = _guarded(lambda: self._setup(chosen), "setup")
            state._forget_cached()
            _guarded(state._validate, "setup")
        except StateError as error:  # name the setup, not JSON, as what was wrong
            raise StateError(error.where, error.problem, source="setup") from None
        return state

    def _setup(self, spec: Mapping[str, Any]) -> State:
        """Build the position ``spec`` describes (see :meth:`setup`)."""
        raise StateError("setup", f"{self.id} has no setup description")

    def sample_state(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with everything ``observation`` shows (determinization).

        Search bots call this to imagine the hidden part of the table: cards a
        player cannot see are redrawn from what could be there, weighted by their
        counts, and everything the observation shows is kept. It is built from the
        observation alone, so the state it returns can never tell its caller more
        than the observing player knows; all randomness comes from ``rng``. A game
        of perfect information returns a copy of the table. The base raises
        :class:`GameDefinitionError`: a game without it cannot be searched.
        """
        raise GameDefinitionError(f"{self.id} cannot sample states from an observation")

    def compiled_playout(self, policy: str) -> Playout | None:
        """A compiled engine's playout with ``policy`` (a bot name), or None (the base).

        A search plays thousands of rollouts a decision; a game with a compiled engine
        (Rancho's ``fast``) may play them there. The playout must give exactly what the
        reference engine gives when ``policy``'s bots, made fresh, play on from the state
        with chance drawn by :mod:`ranchhand.core.streams` from the same stream: a search
        then decides the same with or without the compiled engine installed.
        """
        return None

    def encoding(self) -> Encoding:
        """This game's fixed action space and observation tensor (see ``core.encoding``).

        Made once per game object by :meth:`_encoding`; the research adapters and
        learning code use it. The base raises :class:`GameDefinitionError`.
        """
        cached: Encoding | None = self.__dict__.get("_encoding_cache")
        if cached is None:
            cached = self._encoding()
            self.__dict__["_encoding_cache"] = cached
        return cached

    def _encoding(self) -> Encoding:
        raise GameDefinitionError(f"{self.id} has no fixed action encoding")

    def num_distinct_actions(self) -> int:
        """The size of the fixed action space (OpenSpiel's name for it)."""
        return self.encoding().num_actions

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`State.observation_tensor`."""
        return self.encoding().observation_shape

    def summary(self) -> Summary:
        """A fresh accumulator for the :meth:`State.details` of finished games.

        Games override this to count what their designers ask about; simulations
        add games to it as they finish, so memory stays flat however many run.
        """
        return Summary()

    def summarize(self, details: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        """The :meth:`summary` of ``details``, folded in order (for tests and scripts)."""
        summary = self.summary()
        for one in details:
            summary.add(one)
        return summary.result()

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != _default(self, k)}
        shown = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"<{type(self).__name__} {self.id} players={self.players}{shown}>"


def _guarded(build: Callable[[], _T], where: str) -> _T:
    """Run ``build``; a Python error from malformed input becomes a StateError.

    Games name the field themselves where they check; this is the net under them,
    so no input, however malformed, ends in a traceback.
    """
    try:
        return build()
    except RanchhandError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as error:
        problem = f"malformed ({type(error).__name__}: {shorten(str(error))})"
        raise StateError(where, problem) from None


def _default(game: Game, name: str) -> Any:
    return next(o.default for o in game.option_specs() if o.name == name)


class State(ABC):
    """A position of a game, owned and mutated by ``apply``; ``clone`` copies it.

    ``turn`` counts the player turns that have ended; games call
    :meth:`_end_turn` when a player's turn is over.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.turn = 0
        self._legal_cache: dict[int, tuple[list[Hashable], set[Hashable] | None]] = {}
        self._chance_cache: ChanceOutcomes | None = None
        self._current_cache: int | None = None
        self._at_rest = False
        """Set by ``apply`` once the game's own code is done with the position, so that
        who acts may be remembered (the runner asks several times a step); cleared with the
        caches, so a state being built or edited by hand is always asked afresh."""

    # ----------------------------------------------------------------- hooks
    @abstractmethod
    def _current_player(self) -> int:
        """The player to act, CHANCE or SIMULTANEOUS (never called once over)."""

    def _acting_players(self) -> tuple[int, ...]:
        """At a simultaneous node: the players who still owe a choice."""
        raise GameDefinitionError(
            f"{self.game.id} reported a simultaneous node but does not list who acts"
        )

    @abstractmethod
    def _legal_actions(self, player: int) -> list[Hashable]:
        """The finite list of actions offered to ``player`` now."""

    def _chance_outcomes(self) -> ChanceOutcomes:
        raise GameDefinitionError(
            f"{self.game.id} reported a chance node but does not list its outcomes"
        )

    def _sample_chance(self, rng: random.Random) -> Hashable:
        """:meth:`sample_chance`'s draw; an override must consume ``rng`` as
        :meth:`ChanceOutcomes.sample` does (one ``randrange`` of the total weight, the
        outcomes in ``_chance_outcomes`` order) and pair with :meth:`_is_chance_outcome`."""
        return self._chance_node().sample(rng)

    def _is_chance_outcome(self, action: Hashable) -> bool:
        """Whether ``action`` is an outcome of this chance node (the legality check of a
        chance action); a game that samples from counts answers from the counts too."""
        return action in self._chance_node()

    @abstractmethod
    def _why_illegal(self, action: Hashable, player: int) -> str | None:
        """Why ``action`` is not allowed for ``player`` now, or None if it is.

        Called only for actions outside the ``legal_actions`` list, so a game
        whose list is complete may simply return a reason.
        """

    @abstractmethod
    def _apply(self, action: Hashable, player: int) -> None:
        """Carry out a legal action (chance outcomes with player CHANCE)."""

    @abstractmethod
    def _parse(self, text: str, player: int) -> Hashable:
        """Parse the text form of an action; raise InvalidAction if malformed."""

    @abstractmethod
    def _outcome(self) -> Outcome | None:
        """The outcome once the rules end the game, None while it goes on."""

    @abstractmethod
    def observe(self, player: int | None) -> Observation:
        """What ``player`` may see now, with other players' secrets removed.

        ``None`` is nobody in particular: a spectator, a shared screen, the end of a
        game drawn for everyone. It shows no hand, no face-down card, no pending choice.
        """

    @abstractmethod
    def _to_json(self) -> dict[str, Any]:
        """The game-specific part of the state as JSON-ready data."""

    def describe_for(self, viewer: int | None, action: Hashable, player: int) -> str:
        """The text of ``action`` (about to be applied by ``player``) as ``viewer`` may see it.

        ``viewer`` None means everyone at a shared screen. Player actions are
        public; chance outcomes are public in perfect-information games and
        hidden otherwise. Games whose draws are partly public (a card turned
        face up) override this.
        """
        if player != CHANCE or self.game.information == "perfect" or viewer == CHANCE:
            return str(action)
        return "(a hidden chance outcome)"

    def describe_words(
        self, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
    ) -> str:
        """``action`` (about to be applied by ``player``) told in plain words to ``viewer``.

        Where :meth:`describe_for` speaks the notation a player types ("pick 1:1
        wyvern"), this is the sentence a table log shows ("Ann picks the Wyvern in
        row 1"): whole sentences, players by name (``names[seat]``; the viewer's own
        seat is "you"), nothing the viewer could not see, exactly as ``describe_for``
        hides it. Games override it; this fallback names the player before the notation.
        """
        who = "chance" if player == CHANCE else names[player]
        if player == viewer:
            who = "you"
        text = self.describe_for(viewer, action, player)
        return f"{who[:1].upper()}{who[1:]}: {text}"

    def worked_out(self, action: Hashable, player: int) -> State | None:
        """This state after ``action`` by ``player``, where telling the action
        (``describe_for``, ``describe_words``) already played it on a copy to find out
        what it does; None where it did not (this default). The copy is handed over once:
        a caller about to apply the action may take it instead (one application, not
        two), and this state is left as it was."""
        return None

    def details(self) -> dict[str, Any]:
        """Game-specific facts of a finished game for simulation reports."""
        return {}

    @abstractmethod
    def _validate(self) -> None:
        """Raise StateError, naming the field, if this position could not arise in the game.

        Called on every state loaded from JSON or set up by hand: animals and cards
        conserved against the box, no count negative, every piece in one place.
        """

    # ------------------------------------------------------------ public API
    def outcome(self) -> Outcome | None:
        result = self._outcome()
        if result is None and self.game.max_turns and self.turn >= self.game.max_turns:
            return TRUNCATED
        return result

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def current_player(self) -> int:
        current = self._current_cache
        if current is None:
            current = TERMINAL if self.outcome() is not None else self._current_player()
            if self._at_rest:
                self._current_cache = current
        return current

    def acting_players(self) -> tuple[int, ...]:
        """The players who must choose now: one, several (simultaneous), or none."""
        return self._acting(self.current_player())

    def legal_actions(self, player: int | None = None) -> list[Hashable]:
        """The actions offered now (chance outcomes at a chance node)."""
        actors = self._actors(self.current_player())
        if player is None:
            player = actors[0] if actors else None
        if player not in actors:
            return []
        return list(self._legal_entry(player)[0])

    def chance_outcomes(self) -> ChanceOutcomes:
        if self.current_player() != CHANCE:
            raise IllegalAction("this is not a chance node", **self._context(None))
        return self._chance_node()

    def sample_chance(self, rng: random.Random) -> Hashable:
        """An outcome of this chance node drawn from ``rng``: the one that
        ``chance_outcomes().sample(rng)`` would give, from the same numbers drawn.

        So a seeded game plays out the same either way; a game whose outcomes are counts
        (cards left in a deck) overrides :meth:`_sample_chance` to draw from the counts
        without listing a hundred outcomes at every card a simulation draws.
        """
        if self.current_player() != CHANCE:
            raise IllegalAction("this is not a chance node", **self._context(None))
        return self._sample_chance(rng)

    def why_illegal(self, action: Hashable, player: int | None = None) -> str | None:
        """Why ``action`` may not be applied now, or None if it may."""
        return self._check(action, player)[0]

    def is_legal(self, action: Hashable, player: int | None = None) -> bool:
        return self.why_illegal(action, player) is None

    def apply(self, action: Hashable, player: int | None = None) -> None:
        """Apply ``action``; raise IllegalAction with the reason and change nothing."""
        reason, player = self._check(action, player)
        if reason is not None:
            raise IllegalAction(reason, text=str(action), **self._context(player))
        self._forget_cached()
        self._apply(action, player)  # type: ignore[arg-type]
        self._at_rest = True

    def parse_action(self, text: str, player: int | None = None) -> Hashable:
        """Parse ``text`` into a legal action for ``player`` (default: who acts).

        Raises InvalidAction for text that is no action, IllegalAction (with the
        rules' reason) for an action not allowed now; both suggest close legal texts.
        """
        player = self._resolve_player(player)
        if player is None:
            raise IllegalAction("the game is over", text=text, **self._context(None))
        if len(text) > MAX_ACTION_TEXT:
            raise InvalidAction(
                f"an action is at most {MAX_ACTION_TEXT} characters, this text has {len(text):,}",
                text=text,
                **self._context(player),
            )
        try:
            action = self._parse(text.strip(), player)
        except (InvalidAction, AmbiguousAction) as error:
            raise type(error)(
                error.reason,
                text=text,
                suggestions=error.suggestions or self.closest_texts(text, player),
                **self._context(player),
            ) from None
        except (ValueError, LookupError, TypeError, ArithmeticError) as error:
            # A parser that trips over odd text is a bug to fix, but never a lost game:
            # the person at the prompt is told the text was not understood.
            raise InvalidAction(
                f"this text could not be read as an action ({type(error).__name__})",
                text=text,
                suggestions=self.closest_texts(text, player),
                **self._context(player),
            ) from None
        reason = self.why_illegal(action, player)
        if reason is not None:
            raise IllegalAction(
                reason,
                text=text,
                suggestions=self.closest_texts(text, player),
                **self._context(player),
            )
        return action

    def apply_text(self, text: str, player: int | None = None) -> Hashable:
        """Parse and apply one action text; return the action applied."""
        action = self.parse_action(text, player)
        self.apply(action, player)
        return action

    def closest_texts(self, text: str, player: int | None = None, n: int = 3) -> list[str]:
        """The legal action texts closest to ``text``, for "did you mean" hints."""
        texts = [str(a) for a in self.legal_actions(player)]
        close = difflib.get_close_matches(text.strip(), texts, n=n, cutoff=0.4)
        if close:
            return close
        # Nothing close: the same verb's actions, else one of each verb on offer.
        verb = text.strip().split(" ", 1)[0].lower()
        same = [t for t in texts if t.split(" ", 1)[0] == verb]
        return (same or list({t.split(" ", 1)[0]: t for t in reversed(texts)}.values())[::-1])[:n]

    def resample(self, player: int, rng: random.Random) -> State:
        """A state ``player`` cannot tell apart from this one, hidden cards redrawn.

        Made from ``observe(player)`` only (see :meth:`Game.sample_state`), so it
        never uses more than ``player`` sees.
        """
        return self.game.sample_state(self.observe(player), rng)

    def action_to_index(self, action: Hashable, player: int | None = None) -> int:
        """The index of a legal action in the game's fixed action space."""
        who = self._resolve_player(player)
        return self.game.encoding().action_to_index(self, action, self._encoding_player(who))

    def index_to_action(self, index: int, player: int | None = None) -> Hashable:
        """The legal action that ``index`` stands for here."""
        who = self._resolve_player(player)
        return self.game.encoding().index_to_action(self, index, self._encoding_player(who))

    def legal_action_mask(self, player: int | None = None) -> np.ndarray:
        """0/1 over the fixed action space: which indices ``player`` may take now."""
        who = self._resolve_player(player)
        return self.game.encoding().legal_mask(self, self._encoding_player(who))

    def observation_tensor(self, player: int) -> np.ndarray:
        """``player``'s observation as a float32 array, built from ``observe(player)`` only."""
        return self.game.encoding().observation_tensor(self.observe(player), player)

    def _encoding_player(self, player: int | None) -> int:
        if player is None:
            raise InvalidAction("chance outcomes have no index in the action space")
        return player

    def returns(self) -> list[float]:
        outcome = self.outcome()
        return [0.0] * self.game.players if outcome is None else outcome.returns(self.game.players)

    def evaluate(self) -> list[float] | None:
        """Each player's estimated chance of winning from here, in [0, 1], or None.

        Search bots score a rollout cut short with it; a game offers a cheap
        heuristic (herd value, points so far) by overriding this. The base gives None.
        """
        return None

    def standing(self) -> list[float] | None:
        """Each player's standing in the game's own units (higher is ahead), or None.

        The designer's lab reads "who is ahead" from it after every turn to count lead
        changes, drama and decisiveness (``docs/lab.md``). Games give a natural measure
        (herd value, points if the game ended now, running total); the base falls back
        on :meth:`evaluate`, and None means the game offers no reading.
        """
        return self.evaluate()

    def _twin(self) -> Self:
        """A shallow copy with the caches reset: a game's fast ``clone`` starts here and then
        copies the containers its ``_apply`` mutates."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._forget_cached()
        return twin

    def clone(self) -> State:
        """An independent copy; games override this for speed (see ``_twin``)."""
        twin = copy.copy(self)
        twin.__dict__.update(copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "game"}))
        twin._forget_cached()
        return twin

    def to_json(self) -> dict[str, Any]:
        from ranchhand.core.serial import state_header

        return {**state_header(self), "data": self._to_json()}

    def __str__(self) -> str:
        import json

        return json.dumps(self._to_json(), sort_keys=True)

    # --------------------------------------------------------------- helpers
    def _end_turn(self) -> None:
        """Count one finished player turn (used by ``max_turns`` and statistics)."""
        self.turn += 1

    def _forget_cached(self) -> None:
        """Drop cached legal actions, chance outcomes and who acts; call after editing a
        state by hand."""
        self._legal_cache = {}
        self._chance_cache = None
        self._current_cache = None
        self._at_rest = False

    def _check(self, action: Hashable, player: int | None) -> tuple[str | None, int | None]:
        """The one legality check: (reason or None, the player who acts)."""
        current = self.current_player()
        if current == TERMINAL:
            return "the game is over", player
        acting = self._actors(current)
        if player is None:
            if len(acting) != 1:
                return f"several players choose at once ({_players(acting)}); say which", None
            player = acting[0]
        if player not in acting:
            return f"it is not {_who(player)}'s turn to act; waiting for {_players(acting)}", player
        if player == CHANCE:
            if self._is_chance_outcome(action):
                return None, player
            return f"{action} is not an outcome of this chance node", player
        if self._in_legal_list(action, player):
            return None, player
        return self._why_illegal(action, player) or None, player

    def _acting(self, current: int) -> tuple[int, ...]:
        if current >= 0:
            return (current,)
        if current == SIMULTANEOUS:
            return self._acting_players()
        return ()

    def _actors(self, current: int) -> tuple[int, ...]:
        """Who may apply an action now: the acting players, or CHANCE at a chance node."""
        return (CHANCE,) if current == CHANCE else self._acting(current)

    def _chance_node(self) -> ChanceOutcomes:
        """The chance outcomes of this position, computed once per position."""
        cached = self._chance_cache
        if cached is None:
            cached = self._chance_cache = self._chance_outcomes()
        return cached

    def _legal_entry(self, player: int) -> tuple[list[Hashable], set[Hashable] | None]:
        entry = self._legal_cache.get(player)
        if entry is None:
            if player == CHANCE:
                actions: list[Hashable] = list(self._chance_node().actions)
            else:
                actions = self._legal_actions(player)
            entry = self._legal_cache[player] = (actions, None)
        return entry

    def _in_legal_list(self, action: Hashable, player: int) -> bool:
        actions, lookup = self._legal_entry(player)
        for offered in actions:  # bots hand back an offered object: no hashing needed
            if offered is action:
                return True
        if lookup is None:
            lookup = set(actions)
            self._legal_cache[player] = (actions, lookup)
        return action in lookup

    def _resolve_player(self, player: int | None) -> int | None:
        current = self.current_player()
        if current == TERMINAL:
            return None
        if player is not None:
            return player
        actors = self._actors(current)
        return actors[0] if actors else None

    def _context(self, player: int | None) -> dict[str, Any]:
        return {"game": self.game.id, "turn": self.turn, "player": player}


def _who(player: int | None) -> str:
    return "chance" if player == CHANCE else f"player {player}"


def _players(players: Sequence[int]) -> str:
    return ", ".join(_who(p) for p in players) or "nobody"
