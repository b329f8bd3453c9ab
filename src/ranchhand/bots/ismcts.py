"""Information-set Monte Carlo tree search (ISMCTS): a search bot for every game.

The bot sees what its player sees, like every bot. Each iteration imagines one full
table consistent with that observation (``game.sample_state``: hidden cards redrawn
from what could be there), then walks one tree shared by all those tables, the
single-observer tree of Cowling, Powley and Whitehouse (2012): a node is what the
searching player has seen happen since the decision (each player's actions and
each chance outcome, as that player is shown them), so tables that player cannot
tell apart share their statistics and the search never acts on a card it cannot
see. At each node every acting player picks by UCT among the actions legal in this
table, with its own reward; an action's exploration term counts the iterations in
which it was available, not the visits of its parent. A simultaneous node is one
node where each acting player picks from its own statistics, blind to the others'
picks. Chance outcomes are sampled with their probabilities.

A new node is followed by a rollout with the game's ``greedy`` bot (or ``random``),
cut after ``rollout_depth`` steps and scored by ``state.evaluate()`` where a game
offers it. The budget is a number of iterations, so a decision is reproducible from
the generator it is given; ``time_cap`` stops a search early on a slow machine (then
it is not reproducible). The cap counts the CPU seconds of the searching thread, not the
clock: a machine busy with other work makes a search take longer, but does not cut it
short and change the move (the arena's and the lab's ladders stay the same under load).

Rollouts are paired (common random numbers, ``core.streams``): the ``j``-th iteration that
tries a move at the root imagines its table and draws every card and die from stream ``j``,
the same for every move, keyed by turn and draw so the dice stay paired when the moves
change what comes first. Two moves are then compared on the same luck, and the noise
between them shrinks several times (measured in Rancho: a paired difference's standard
deviation of 0.26 to 0.47 a rollout, against 0.57 to 0.7 for independent ones).

The move chosen is the most visited, but the greedy rollout bot's move stays unless the other
beat it, rollout against paired rollout, by more than twice the standard error of their
mean difference: in a dice game the moves are a few hundredths of a win apart. So that the
test has pairs to go on, the greedy move is rolled out at least as often as any other move.

A game with a compiled engine (``Game.compiled_playout``, Rancho's ``fast``) plays the
rollouts there, with the same draws and so the same results: the search decides the same
with or without it, only sooner.

Two settings shape the tree. ``opponents="rollout"`` has the other players choose inside
the tree as the rollout bot would (a model of them), so the tree branches only on the
searcher's moves and chance. ``depth`` caps the moves the tree holds below the root;
``depth=1`` is flat Monte Carlo over the searcher's information set: every iteration is
one root move and a rollout. Against ``greedy`` at the 0.25 s budget the flat, modelled
search won far more often than the full tree (Rancho 65% against 50% of 40 games at two
players, Rocket Ranchers 70% against 40%): at a few hundred iterations a tree spreads them
over replies it can never tell apart, while the root's moves, compared pair by pair, can
be. The ``normal`` levels (:data:`NORMAL`) are flat; the bare ``ISMCTSBot`` is the full tree.

A wide choice spreads the budget thin: a Rocket Ranchers beam decision offers about 70
placements, so 450 iterations give each about 6 rollouts, too few to tell any of them apart
from greedy's. With ``width`` the root weighs only the rollout bot's ``width`` best actions by
its own ranking (its ``shortlist``), and always its own choice: a prior from greedy's values
that puts tens of paired rollouts on each of the few moves greedy rates close.

Back in a position it has left (a trade and its reverse), the bot plays greedy's move if
it has not played it there yet, else something it has not chosen there before, so a turn
made of free moves always ends, and soon.
"""

from __future__ import annotations

import functools
import json
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ranchhand.bots.base import Bot
from ranchhand.bots.random_bot import RandomBot
from ranchhand.core.errors import GameDefinitionError
from ranchhand.core.game import CHANCE, Game, Playout, State
from ranchhand.core.streams import ChanceStream, playout
from ranchhand.core.streams import sample as sample_chance

ROLLOUTS = ("greedy", "random")
OPPONENTS = ("search", "rollout")
"""How the other players choose inside the tree: by their own UCT statistics (``search``,
each assumed to play its best) or as the rollout bot would (``rollout``: the tree then
branches only on the searching player's moves and chance, a model of the opponents that
spends the whole budget on the searcher's own choices)."""

NORMAL: dict[str, dict[str, Any]] = {
    "rancho": {"iterations": 1000, "depth": 1, "opponents": "rollout", "per_two_players": True},
    "rocket-ranchers": {
        "iterations": 900,
        "depth": 1,
        "opponents": "rollout",
        "width": 4,
        "iterations_at": {3: 750, 4: 700, 5: 600},
    },
    "glory-ranch": {"iterations": 600, "depth": 1, "opponents": "rollout", "per_two_players": True},
}
"""The ``normal`` level per game: what averages at most 0.25 s a decision on this project's
2-core machine (benchmarks/strength.py measures it); others get 100 iterations.

Rancho is flat Monte Carlo: 1,000 paired greedy playouts a decision at two players (fewer
at more, as each playout is longer), in the compiled engine when it is installed. Its
moves differ by a few hundredths of a win, so the budget goes to telling the choice at
hand apart, not to a tree (docs/games/rancho.md has the figures). Rocket Ranchers is flat
too: 900 full greedy rollouts in its compiled engine at two players (700 at four, whose
rollouts are longer), and at a beam decision only greedy's 4 best placements, the reboot
and greedy's own choice are weighed (``width``) instead of about 70 placements. Rollouts
cut after 12 steps and scored by ``evaluate()`` (the points if the game ended then, which
miss what greedy builds toward) lost to greedy with that width: more rollouts a move only
made the search surer of a biased estimate (docs/games/rocket-ranchers.md). Glory Ranch is
flat with full greedy rollouts in its compiled engine, 600 at two players and fewer at
more (300 at four: it won 55 of 100 four-player games as one seat against three greedy,
docs/games/glory-ranch.md), about 0.1-0.2 s of CPU a decision at every size."""
HARD = 6
"""The ``hard`` level searches this many times longer than ``normal``."""
HARD_ALSO: dict[str, dict[str, Any]] = {
    "rancho": {"depth": 3},
    "rocket-ranchers": {"width": 12},
}
"""What ``hard`` changes beyond :data:`HARD` times the iterations, per game. Rocket
Ranchers' ``hard`` weighs greedy's 12 best placements at a beam decision, not 4: six times
the rollouts over the same few moves only sharpened the greedy model's estimates (4 of 10
games against ``normal``), while spread over the moves greedy ranks lower they find better
ones (docs/games/rocket-ranchers.md has the head-to-head). Rancho's ``hard`` grows a tree
three moves deep (the others modelled by greedy, so it branches on its own moves and the
dice): a turn is several deals before the roll, and the flat search judged the first deal
as if greedy made the rest; six times the flat playouts won about half the games against
``normal``, the tree clearly more (docs/games/rancho.md)."""


def at_level(game: Game | None, name: str, strength: str) -> Callable[[], ISMCTSBot]:
    """The constructor of the search at level ``strength`` (``ismcts`` is ``normal``) of
    game ``name``, made with ``game`` when it is loaded (``core.registry.bot_factory``)."""
    return functools.partial(ISMCTSBot, game, **level(name, strength))


def level(game: str, name: str) -> dict[str, Any]:
    """The ISMCTSBot settings of level ``name`` (``ismcts`` is ``normal``) in ``game``."""
    settings = dict(NORMAL.get(game, {"iterations": 100}))
    if name == "hard":
        settings["iterations"] *= HARD
        if "iterations_at" in settings:
            settings["iterations_at"] = {p: n * HARD for p, n in settings["iterations_at"].items()}
        return {**settings, **HARD_ALSO.get(game, {}), "time_cap": 3.0}
    return {**settings, "time_cap": 0.5}


MEMORY = 10_000
"""Positions remembered (then forgotten at once): enough for any game's loops."""
DISCOUNT = 0.999
"""A result ``n`` steps away counts ``DISCOUNT**n`` of its value: the search prefers the
shorter way to the same win."""

_Stats = list[float]  # [reward total, visits, times available]


class _Node:
    """What the searching player has seen happen: per (player, action key) statistics
    and the children reached by each joint move."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.stats: dict[tuple[int, str], _Stats] = {}
        self.children: dict[tuple[str, ...], _Node] = {}

    def child(self, key: tuple[str, ...]) -> _Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = _Node()
        return node


PAIRS = 8
"""Paired rollouts a move needs before it may replace the greedy move."""


def _clearly_better(results: dict[str, list[float]], best: str, hint: str) -> bool:
    """Whether ``best`` beat ``hint`` by more than twice the standard error of their mean
    paired difference (rollout ``j`` of each played with the same draws); with fewer than
    :data:`PAIRS` pairs, of the difference of their means (each result in [0, 1] has a
    variance of at most 1/4)."""
    one, other = results.get(best, []), results.get(hint, [])
    if not other or not one:
        return not other
    pairs = min(len(one), len(other))
    if pairs < PAIRS:
        gap = sum(one) / len(one) - sum(other) / len(other)
        return gap > 2 * math.sqrt(0.25 / len(one) + 0.25 / len(other))
    gaps = [a - b for a, b in zip(one, other, strict=False)]
    mean = sum(gaps) / pairs
    spread = sum((g - mean) ** 2 for g in gaps) / (pairs - 1)
    return mean > 2 * math.sqrt(spread / pairs)


class _Search:
    """One decision's search: the root, the moves offered, the greedy move, the streams'
    base number, each root move's results in stream order (for paired comparisons), the
    rollout bot's maker and the game's compiled playout if it has one (both looked up once
    a decision, not once an iteration)."""

    __slots__ = ("base", "choices", "hint", "make", "me", "offered", "playout", "results", "root")

    def __init__(
        self,
        me: int,
        offered: dict[str, Hashable],
        hint: str,
        base: int,
        make: Callable[[], Bot],
        playout: Playout | None,
    ) -> None:
        self.me, self.offered, self.base, self.playout = me, offered, base, playout
        self.make = make
        self.hint = hint if hint in offered else ""
        self.choices: dict[str, list[Hashable]] = {k: [a] for k, a in offered.items()}
        self.root = _Node()
        self.results: dict[str, list[float]] = {}


class ISMCTSBot(Bot):
    """Searches the observing player's information sets; see the module docstring.

    ``game`` is the loaded game the bot plays (the registry and ``play`` give it,
    through the constructor or :meth:`bind`).
    """

    name = "ismcts"
    thinks = True

    def __init__(
        self,
        game: Game | None = None,
        *,
        iterations: int = 100,
        time_cap: float | None = 0.5,
        rollout: str = "greedy",
        rollout_depth: int = 300,
        exploration: float = 0.7,
        bias: float = 1.0,
        opponents: str = "search",
        depth: int = 1000,
        per_two_players: bool = False,
        width: int | None = None,
        iterations_at: dict[int, int] | None = None,
    ) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENTS)}, got {opponents!r}")
        if iterations < 1 or any(n < 1 for n in (iterations_at or {}).values()):
            raise ValueError(f"iterations must be at least 1, got {iterations} {iterations_at}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        if width is not None and width < 1:
            raise ValueError(f"width must be at least 1, got {width}")
        self.game = game
        self.iterations = iterations
        self.time_cap = time_cap
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.bias = bias
        self.opponents = opponents
        self.depth = depth
        """Moves the tree holds at most below the root (1: each root move is followed by
        a rollout at once, flat Monte Carlo, all of the budget on the choice at hand)."""
        self.per_two_players = per_two_players
        """``iterations`` is the budget at two players; at ``P`` players a rollout is about
        ``P / 2`` times longer, so the search runs ``iterations * 2 / P`` (same time a decision)."""
        self.iterations_at = {int(p): n for p, n in (iterations_at or {}).items()}
        """The budget at these table sizes (players: iterations), over ``iterations`` and
        ``per_two_players``: a game whose rollouts cost differently by table size."""
        self.width = width
        """With a greedy rollout bot that offers ``shortlist``, the root weighs only its
        ``width`` best actions by its own ranking, and its own choice (None: every action)."""
        self.searched = 0
        """Iterations run by the last decision (for benchmarks)."""
        self._hinter: Bot | None = None
        """The rollout bot whose move the search keeps unless it finds a clearly better one."""
        self._tried: dict[str, set[str]] = {}
        """What it chose before in each position it saw (by observation JSON)."""

    def bind(self, game: Game) -> None:
        """Play ``game`` (called by ``play`` before the first move)."""
        self.game = game
        self._hinter = None

    def __repr__(self) -> str:
        return f"<ISMCTSBot iterations={self.iterations} rollout={self.rollout}>"

    # ------------------------------------------------------------- choosing
    def act(
        self, observation: Any, legal_actions: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        if len(legal_actions) == 1:
            self.searched = 0
            return legal_actions[0]
        game = self.game
        if game is None:
            raise GameDefinitionError(
                "the ismcts bot needs its game: ISMCTSBot(game), or bot.bind(game) before acting"
            )
        me = observation.player
        offered = {str(a): a for a in legal_actions}
        hint = ""
        if self.rollout == "greedy":
            hinted = self._hint(game, observation, legal_actions, rng)
            hint = str(hinted)
            # A legal move the list leaves out (Rancho's many-animal deal that completes
            # the herd) is a move the search may make too.
            offered.setdefault(hint, hinted)
        seen = json.dumps(observation.to_json(), sort_keys=True, default=str)
        if len(self._tried) > MEMORY:
            self._tried.clear()
        tried = self._tried.setdefault(seen, set())
        fresh = {text: a for text, a in offered.items() if text not in tried}
        if tried and hint in fresh:
            # Back in a position it left (a trade and its reverse): greedy's move, which
            # never undoes a step of its turn, so the walk ends instead of touring every trade.
            tried.add(hint)
            self.searched = 0
            return fresh[hint]
        if fresh:  # otherwise something it has not chosen here (no endless loop)
            offered = fresh
        if self.width is not None and len(offered) > self.width + 1:
            offered = self._shortlist(observation, offered, hint)
        if len(offered) == 1:
            (text,) = offered
            tried.add(text)
            self.searched = 0
            return offered[text]
        search = _Search(
            me,
            offered,
            hint,
            rng.getrandbits(62),
            self._rollout_bot(game),
            game.compiled_playout(self.rollout),
        )
        started = time.thread_time()
        done = 0
        budget = self.iterations
        if self.per_two_players:
            budget = max(1, round(budget * 2 / game.players))
        budget = self.iterations_at.get(game.players, budget)
        while done < budget:
            self._iterate(game, observation, search, rng)
            done += 1
            if self.time_cap is not None and time.thread_time() - started > self.time_cap:
                break
        self.searched = done
        root = search.root

        def rank(text: str) -> tuple[float, float]:
            stats = root.stats.get((me, text))
            if stats is None or not stats[1]:
                return (0.0, 0.0)
            return (stats[1], stats[0] / stats[1])

        best = max(offered, key=rank)
        if hint in offered and hint != best and not _clearly_better(search.results, best, hint):
            best = hint  # dice make results noisy: keep the sound move unless beaten clearly
        tried.add(best)
        return offered[best]

    def _hint(
        self, game: Game, observation: Any, legal: Sequence[Hashable], rng: random.Random
    ) -> Hashable:
        """The rollout bot's choice here: one bot for the whole game, shown every decision,
        so it keeps what a greedy player remembers (Rancho's never undoes a step of its
        turn; a fresh one would, and the search followed it back and forth)."""
        if self._hinter is None:
            self._hinter = self._rollout_bot(game)()
        return self._hinter.act(observation, legal, rng)

    def _shortlist(
        self, observation: Any, offered: dict[str, Hashable], hint: str
    ) -> dict[str, Hashable]:
        """The actions the search weighs: the rollout bot's ``width`` best by its own ranking
        (its ``shortlist``, if it has one) and its own choice ``hint``. A wide choice (a
        Rocket Ranchers beam: about 70 placements) spreads a few hundred rollouts so thin
        that no action gets enough to be told apart from greedy's; the few greedy ranks
        best get tens each."""
        shortlist = getattr(self._hinter, "shortlist", None)
        if shortlist is None:
            return offered
        kept = {str(a) for a in shortlist(observation, list(offered.values()), self.width)}
        kept.add(hint)
        narrowed = {text: a for text, a in offered.items() if text in kept}
        return narrowed or offered

    # ------------------------------------------------------------ the search
    def _iterate(self, game: Game, observation: Any, search: _Search, rng: random.Random) -> None:
        """One iteration: the searching player's move at the root, a table imagined and
        dice drawn from that move's next stream, the tree walked, a rollout, the results
        backed up."""
        me, root = search.me, search.root
        first, expanded = self._select(root, me, search.choices, search.hint, rng)
        champion = search.results.get(search.hint)
        if champion is not None and len(champion) < len(search.results.get(first, ())):
            first, expanded = search.hint, False  # as many rollouts as any challenger
        paired = search.results.setdefault(first, [])
        stream = ChanceStream(search.base + len(paired))
        state = game.sample_state(observation, stream)
        perfect = game.information == "perfect"
        make = search.make
        bots = [make() for _ in range(game.players)]
        node = root
        path: list[tuple[_Node, int, str]] = []
        depth = self.depth
        while not (expanded and node is not root) and len(path) < depth and not state.is_terminal():
            if state.current_player() == CHANCE:
                outcome = sample_chance(state, stream)
                seen = str(outcome) if perfect else state.describe_for(me, outcome, CHANCE)
                state.apply(outcome, CHANCE)
                node = node.child((seen,))
                continue
            picks: list[tuple[int, Hashable, str]] = []
            for player in state.acting_players():
                if node is root and player == me:
                    picks.append((me, search.offered[first], first))
                    continue
                hint = bots[player].act(state.observe(player), state.legal_actions(player), rng)
                if player != me and self.opponents == "rollout":
                    seen = str(hint) if perfect else state.describe_for(me, hint, player)
                    picks.append((player, hint, seen))
                    continue
                groups, hinted = self._groups(state, player, me, perfect, hint)
                key, fresh = self._select(node, player, groups, hinted, rng)
                expanded = expanded or fresh
                picks.append((player, rng.choice(groups[key]), key))
            for player, action, key in picks:
                state.apply(action, player)
                path.append((node, player, key))
            node = node.child(tuple(key for _, _, key in picks))
        values = self._playout(state, len(path), stream, rng, search)
        for visited, player, key in path:
            stats = visited.stats.get((player, key))
            if stats is not None:  # None: an opponent who played as the rollout bot
                stats[0] += values[player]
                stats[1] += 1
        paired.append(values[me])

    def _groups(
        self, state: State, player: int, me: int, perfect: bool, hint: Hashable
    ) -> tuple[dict[str, list[Hashable]], str]:
        """The legal actions of ``player`` by what the searching player would see of them,
        and the key of the rollout bot's choice ``hint``. A legal move the list leaves out
        (Rancho's deal that completes the herd) is a choice here too, as at the root."""
        seen = perfect or player == me
        groups: dict[str, list[Hashable]] = {}
        hinted = None
        for action in state.legal_actions(player):
            key = str(action) if seen else state.describe_for(me, action, player)
            groups.setdefault(key, []).append(action)
            if hinted is None and action == hint:
                hinted = key
        if hinted is None:
            hinted = str(hint) if seen else state.describe_for(me, hint, player)
            groups.setdefault(hinted, []).append(hint)
        return groups, hinted

    def _select(
        self,
        node: _Node,
        player: int,
        groups: dict[str, list[Hashable]],
        hint: str,
        rng: random.Random,
    ) -> tuple[str, bool]:
        """UCT with availability counts: (the chosen key, whether it was never tried).

        The rollout bot's choice ``hint`` is tried first and keeps a bonus that fades
        with its visits (progressive bias), so the search starts from a good move."""
        untried = []
        best_key = ""
        best = -math.inf
        c = self.exploration
        for key in groups:
            stats = node.stats.get((player, key))
            if stats is None:
                stats = node.stats[(player, key)] = [0.0, 0, 0]
            stats[2] += 1
            if not stats[1]:
                untried.append(key)
                continue
            score = stats[0] / stats[1] + c * math.sqrt(math.log(stats[2]) / stats[1])
            if key == hint:
                score += self.bias / (stats[1] + 1)
            if score > best:
                best, best_key = score, key
        if untried:
            return (hint if hint in untried else rng.choice(untried)), True
        return best_key, False

    def _playout(
        self,
        state: State,
        steps: int,
        stream: ChanceStream,
        rng: random.Random,
        search: _Search,
    ) -> list[float]:
        """Play on with fresh rollout bots, chance from ``stream``; each player's value in
        [0, 1] (``steps``: those already played since the root).

        A result reached sooner counts a little more (a win now beats a win later),
        and a rollout cut short is scored by ``state.evaluate()`` squeezed into
        [0.1, 0.9], so a guess never ties a result.
        """
        if search.playout is not None:
            values, played, ended = search.playout(state, stream, self.rollout_depth)
            estimate: list[float] | None = values
        else:
            estimate, played, ended = playout(state, search.make, stream, self.rollout_depth, rng)
        if ended:
            fade = DISCOUNT ** (steps + played)
            return [0.5 + 0.5 * r * fade for r in estimate or ()]
        if estimate is None:
            return [0.5] * state.game.players
        return [0.1 + 0.8 * e for e in estimate]

    def _rollout_bot(self, game: Game) -> Callable[[], Bot]:
        if self.rollout == "random":
            return RandomBot
        from ranchhand.core.registry import game_module

        made: Callable[[], Bot] = game_module(game.id).BOTS.get("greedy", RandomBot)
        return made
