"""The search's compiled playout gives exactly the reference rollout's result.

Positions are taken along reference games (random and greedy seats, several rule sets,
the crowded ``hex-compact`` map among them) in every phase of a turn. At each, the kernel
table copied from the position must offer the same seat the same legal list, in order;
and ``FastPlayout`` must return what the search's reference rollout returns
(``bots.greedy_playout``: fresh ``GreedyBot`` seats, chance drawn by ``streams.sample``
from the same stream): the same steps, the same end, and the same values (``returns()``
at the end, else ``evaluate()``), for several streams and step limits.
"""

from __future__ import annotations

import random
import subprocess
import sys
from functools import cache

import pytest

from ranchhand.core import CHANCE
from ranchhand.core.registry import load
from ranchhand.core.streams import ChanceStream, point

pytest.importorskip("numba")

from ranchhand.games.rancho.actions import Deal
from ranchhand.games.rancho.bots import GreedyBot, greedy_playout
from ranchhand.games.rancho.fast import playout
from ranchhand.games.rancho.fast.engine import FastRancho
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import PHASES, RanchoState

RULES = [
    (2, {}),
    (3, {"dogs": "all"}),
    (4, {"dice": "farmer"}),
    (5, {"board": "hex-compact"}),
    (6, {}),
    (4, {"board": "hex-compact", "dogs": "none"}),
    (6, {"board": "hex-compact", "dogs": "none"}),
    (3, {"deals_per_turn": 2}),
]
MAX_STEPS = (0, 5, 10_000)
PER_PHASE = 4
MID_TURN = "expand after a deal"
"""A pseudo-phase: an expand step after the player's deals this turn (the bots that
played them remember them; the playout's bots must start afresh)."""
WALLED_IN = "expand, walled in"
"""A pseudo-phase: an expand step offering a purchase through others' pastures."""


@cache
def loaded(players: int, options: tuple[tuple[str, str], ...]) -> RanchoGame:
    """The game of a rule set, cut at 80 turns (so some playouts end by truncation)."""
    game: RanchoGame = load("rancho", players, max_turns=80, **dict(options))
    return game


@cache
def positions(players: int, options: tuple[tuple[str, str], ...]) -> list[tuple[str, RanchoState]]:
    """Positions along three reference games, each labelled with its phase: up to
    :data:`PER_PHASE` of each phase a game, spread along it, and its end.

    Dog decisions are rare in play (a strike on a player who holds the right dog), so
    at every strike each outcome that asks for a dog is taken as a position too.
    """
    game = loaded(players, options)
    found: list[tuple[str, RanchoState]] = []
    for seed in range(3):
        rng = random.Random(seed)
        mixed = seed < 2  # the last game all random: longer, so the board fills up
        greedy = [GreedyBot() if mixed and (seat + seed) % 2 else None for seat in range(players)]
        state: RanchoState = game.new_initial_state()
        seen: dict[str, list[RanchoState]] = {}
        dealt_in = -1
        while not state.is_terminal():
            label = PHASES[state.phase]
            if label == "expand" and dealt_in == state.turn:
                label = MID_TURN
            if label.startswith("expand") and any(
                isinstance(a, Deal) and a.via for a in state.legal_actions()
            ):
                label = WALLED_IN
            seen.setdefault(label, []).append(state.clone())
            player = state.current_player()
            if player == CHANCE:
                if label == "strike":
                    for outcome in state.chance_outcomes().actions:
                        struck = state.clone()
                        struck.apply(outcome)
                        if PHASES[struck.phase] == "dog":
                            seen.setdefault("dog", []).append(struck)
                state.apply(state.sample_chance(rng))
                continue
            bot = greedy[player]
            legal = state.legal_actions()
            action = bot.act(state.observe(player), legal, rng) if bot else rng.choice(legal)
            if isinstance(action, Deal):
                dealt_in = state.turn
            state.apply(action)
        for label, states in seen.items():
            stride = -(-len(states) // PER_PHASE)
            found.extend((label, s) for s in states[::stride])
        found.append(("end", state))
    return found


def rule_sets() -> list[tuple[int, tuple[tuple[str, str], ...]]]:
    return [(players, tuple(sorted(options.items()))) for players, options in RULES]


def test_positions_cover_every_phase() -> None:
    seen = {label for rules in rule_sets() for label, _state in positions(*rules)}
    assert seen >= {*PHASES, MID_TURN, WALLED_IN, "end"}


@pytest.mark.parametrize(("players", "options"), rule_sets())
def test_a_copied_table_offers_what_the_position_offers(
    players: int, options: tuple[tuple[str, str], ...]
) -> None:
    engine = FastRancho(loaded(players, options))
    for label, state in positions(players, options):
        table = engine.table(state)
        assert table.is_over() == state.is_terminal(), label
        if state.is_terminal():
            continue
        assert table.current_player() == state.current_player(), label
        if state.current_player() != CHANCE:
            assert table.legal_actions() == state.legal_actions(), label


def streams_at(state: RanchoState) -> list[ChanceStream]:
    """A search's streams as a playout may receive them: new; already two draws into
    this turn (the search drew the dice that led here); left at an earlier turn."""
    fresh = ChanceStream(0)
    into_turn = ChanceStream(7)
    into_turn.turn, into_turn.k = state.turn, 2
    earlier = ChanceStream(2**63 - 1)
    earlier.turn, earlier.k = state.turn - 1, 5
    return [fresh, into_turn, earlier]


@pytest.mark.parametrize(("players", "options"), rule_sets())
def test_the_playout_is_the_reference_rollout(
    players: int, options: tuple[tuple[str, str], ...]
) -> None:
    fast = loaded(players, options).compiled_playout("greedy")
    assert isinstance(fast, playout.FastPlayout)
    for label, state in positions(players, options):
        before = state.to_json()
        for stream in streams_at(state):
            where = (stream.turn, stream.k)
            for max_steps in MAX_STEPS:
                expected = greedy_playout(state, stream, max_steps)
                got = fast(state, stream, max_steps)
                assert got == expected, (label, stream.stream, where, max_steps)
            assert (stream.turn, stream.k) == where, "the stream was advanced"
        assert state.to_json() == before, label


def test_the_compiled_draw_is_the_streams_draw() -> None:
    rng = random.Random(5)
    edges = [0, 1, 2**31, 2**32 - 1, 2**62, 2**63 - 1]
    for _ in range(3000):
        stream, turn, k = (rng.choice([rng.randrange(2**63), rng.randrange(100), *edges])
                           for _ in range(3))  # fmt: skip
        total = rng.choice([rng.randrange(1, 2**63), rng.randrange(1, 300), 1, 6, 144])
        assert playout.point(stream, turn, k, total) == point(stream, turn, k, total)


def test_the_game_makes_the_greedy_playout_once() -> None:
    game = RanchoGame(2)
    fast = game.compiled_playout("greedy")
    assert fast is not None
    assert fast is game.compiled_playout("greedy")
    assert game.compiled_playout("random") is None
    with pytest.raises(ValueError, match="plays positions of"):
        fast(RanchoGame(2).new_initial_state(), ChanceStream(0), 5)


def test_loading_rancho_needs_no_numba() -> None:
    """Loading and playing Rancho imports no numba; without it there is no playout."""
    code = (
        "import sys\n"
        "from ranchhand.core.registry import load\n"
        "game = load('rancho', 2)\n"
        "game.new_initial_state().legal_actions()\n"
        "assert 'numba' not in sys.modules, 'numba imported'\n"
        "sys.modules['numba'] = None\n"
        "assert game.compiled_playout('greedy') is None\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
