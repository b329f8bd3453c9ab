"""The fast engine plays Glory Ranch by the same rules, and its greedy bot the same cards.

Both engines are driven by one stream of choices: the same card drawn (a point in the
chance node's total weight, which both turn into a card the same way), the same sign
and, for a random seat, the same index into the legal list. A greedy seat is asked in
both engines and must choose the same action. At every step the seat to act (or the
contest's players), the whole legal list (as the reference's action objects, in order),
the chance node's cards and weights, and the whole table (deck, discard pile, hands,
ranches and shields, cards being passed, totals, signs, pending steps, counters) must
agree; at the end the winners. Every player count, every named option (each value beside
the defaults, and a deck file that uses every word of the card language) and positions
drawn from the middle of reference games are played. The compiled playout is the
reference rollout, step for step, from positions of every phase.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ranchhand.core import CHANCE, SIMULTANEOUS, OptionError
from ranchhand.core.streams import ChanceStream, playout

pytest.importorskip("numba")

from ranchhand.bots.random_bot import RandomBot
from ranchhand.cli.main import app
from ranchhand.games.glory_ranch.bots import GreedyBot
from ranchhand.games.glory_ranch.fast.engine import (
    BotChoices,
    FastGloryRanch,
    FastPlayout,
    FastTable,
)
from ranchhand.games.glory_ranch.game import GloryRanch
from ranchhand.games.glory_ranch.state import GloryState
from tests.games.glory_ranch.helpers import VOCABULARY_DECK

OPTION_VALUES = [
    {},
    {"tie": "share", "target": 12},
    {"rps_ties": 1},
    {"target": 8},
    {"deck": VOCABULARY_DECK},
    {"deck": VOCABULARY_DECK, "tie": "share", "rps_ties": 2, "target": 15},
    {"max_turns": 25},
]
"""Every value of every named option beside the defaults (a low target plays many game
ends, and shared wins where totals tie; a deck file with every action form and bonus)."""

ENGINES: dict[tuple[int, tuple[tuple[str, object], ...]], FastGloryRanch] = {}


def engine_for(players: int, options: dict[str, object]) -> FastGloryRanch:
    key = (players, tuple(sorted(options.items())))
    if key not in ENGINES:
        ENGINES[key] = FastGloryRanch(GloryRanch(players, **options))
    return ENGINES[key]


def step_both(
    reference: GloryState, fast: FastTable, seats: tuple[str, ...], rng: random.Random, step: int
) -> None:
    """One step of the same choice in both engines, then both tables compared."""
    player = reference.current_player()
    assert fast.current_player() == player, f"step {step}: who acts"
    if player == CHANCE:
        outcomes = reference.chance_outcomes()
        assert fast.chance_outcomes() == list(
            zip(outcomes.actions, outcomes.weights, strict=True)
        ), f"step {step}: the cards a draw may give"
        point = rng.randrange(outcomes.total)
        reference.apply(outcomes.actions[bisect_right(list(accumulate(outcomes.weights)), point)])
        fast.chance(point)
    elif player == SIMULTANEOUS:
        acting = reference.acting_players()
        assert fast.acting_players() == acting, f"step {step}: who shows a sign"
        for p in acting:
            legal = reference.legal_actions(p)
            assert fast.legal_actions(p) == legal, f"step {step}: signs of P{p}"
            index = rng.randrange(len(legal))
            reference.apply(legal[index], p)
            fast.apply(p, index)
    else:
        legal = reference.legal_actions(player)
        assert fast.legal_actions(player) == legal, f"step {step}: legal actions of P{player}"
        if seats[player] == "random":
            index = rng.randrange(len(legal))
            reference.apply(legal[index], player)
            fast.apply(player, index)
        else:
            chosen = GreedyBot().act(reference.observe(player), legal, rng)
            assert fast.greedy(player) == chosen, f"step {step}: greedy's choice for P{player}"
            reference.apply(chosen, player)
            fast.apply_greedy(player)
    assert fast.differs_from(reference) == [], f"step {step}: the tables after the step"


def play_both(
    engine: FastGloryRanch,
    seats: tuple[str, ...],
    seed: int,
    state: GloryState | None = None,
    limit: int = 100_000,
) -> GloryState:
    """A whole game (or ``limit`` steps) in both engines from ``state`` (default: the
    start), compared at every step; the reference state reached."""
    rng = random.Random(seed)
    reference = state.clone() if state is not None else engine.game.new_initial_state()
    fast = engine.table(reference if state is not None else None)
    assert fast.differs_from(reference) == []
    steps = 0
    while not reference.is_terminal() and steps < limit:
        step_both(reference, fast, seats, rng, steps)
        steps += 1
    if reference.is_terminal():
        assert fast.current_player() == -4
    return reference


@pytest.mark.parametrize("options", OPTION_VALUES, ids=lambda o: ",".join(map(str, o.items())))
def test_every_option_plays_the_same_game_step_by_step(options: dict[str, object]) -> None:
    for players in (2, 3, 4, 6):
        engine = engine_for(players, options)
        for seed in range(2):
            seats = tuple(("greedy", "random")[(seed + p) % 2] for p in range(players))
            play_both(engine, seats, 100 * players + seed)


def test_greedy_tables_match_over_many_games() -> None:
    for players in (2, 3, 4, 5, 6):
        engine = engine_for(players, {})
        for seed in range(3):
            final = play_both(engine, ("greedy",) * players, 1000 * players + seed)
            assert final.result is not None


@given(
    players=st.integers(2, 6),
    vocabulary=st.booleans(),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 400),
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_position_from_the_middle_of_a_game_plays_on_the_same(
    players: int, vocabulary: bool, seed: int, cut: int
) -> None:
    """A reference game is played to a random step, loaded into the kernel (including a
    table imagined from a player's observation, as the search imagines them) and both
    play on."""
    options: dict[str, object] = {"deck": VOCABULARY_DECK} if vocabulary else {}
    engine = engine_for(players, options)
    state = reach(engine.game, seed, cut)
    seats = ("greedy", "random") * 4
    play_both(engine, seats[:players], seed, state, limit=300)
    if not state.is_terminal():
        seen = state.game.sample_state(state.observe(seed % players), random.Random(seed))
        play_both(engine, seats[1 : players + 1], seed + 1, seen, limit=300)


def reach(game: GloryRanch, seed: int, steps: int) -> GloryState:
    """The position after ``steps`` steps of a reference game of greedy and random seats."""
    rng = random.Random(seed)
    state: GloryState = game.new_initial_state()
    bots = [GreedyBot() if p % 2 else RandomBot() for p in range(game.players)]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        for p in state.acting_players():
            state.apply(bots[p].act(state.observe(p), state.legal_actions(p), rng), p)
    return state


def phases(game: GloryRanch, count: int, seed: int) -> list[GloryState]:
    """Positions at every kind of node: a play, each card action's decision, a draw, a
    steal, a contest with no sign and with one, a round's start, a finished game."""
    found: dict[str, list[GloryState]] = {}
    rng = random.Random(seed)
    for game_seed in range(count):
        state = reach(game, game_seed, 0)
        bots = [GreedyBot() if p % 2 else RandomBot() for p in range(game.players)]
        while not state.is_terminal():
            top = state.stack[-1] if state.stack else ("turn",)
            key = str(top[0]) + (f"-{len(state.signs)}" if top[0] == "rps" else "")
            found.setdefault(key, []).append(state.clone())
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            acting = state.acting_players()
            for p in acting[:1] if len(acting) > 1 and rng.random() < 0.5 else acting:
                state.apply(bots[p].act(state.observe(p), state.legal_actions(p), rng), p)
        found.setdefault("over", []).append(state)
    picked = []
    for key in sorted(found):
        states = found[key]
        picked.extend(states[i] for i in sorted({rng.randrange(len(states)) for _ in range(3)}))
    return picked


@pytest.mark.parametrize("options", [{}, {"deck": VOCABULARY_DECK}], ids=["standard", "vocabulary"])
@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_the_compiled_playout_is_the_reference_rollout(
    options: dict[str, object], bot: str
) -> None:
    """From positions of every phase, at 2 and 4 players, with full and cut rollouts: the
    same returns (or evaluation), steps and end as ``streams.playout`` given the bots'
    choices the kernel draws."""
    kinds: set[str] = set()
    for players in (2, 4):
        game = GloryRanch(players, **options)
        compiled = game.compiled_playout(bot)
        assert isinstance(compiled, FastPlayout)
        positions = phases(game, 3, players)
        kinds |= {(s.stack[-1][0] if s.stack else "turn") for s in positions}
        for i, state in enumerate(positions):
            stream = ChanceStream(7 * i + players)
            stream.at(max(0, state.turn - i % 2))
            stream.k = i % 3
            for depth in (300, 7):
                before = state.to_json()
                got = compiled(state, stream, depth)
                assert state.to_json() == before, "the playout leaves the position as it was"
                mine = state.clone()
                choices = BotChoices(stream.stream, mine)
                maker = GreedyBot if bot == "greedy" else RandomBot
                expected = playout(mine, maker, stream.fork(), depth, choices)
                assert got == expected, f"position {i} ({state.stack[-1:]}), depth {depth}"
    assert {"turn", "draw", "rps", "target", "pick", "discard", "give"} <= kinds


def test_the_search_decides_the_same_with_the_compiled_playout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search whose reference rollouts give their bots the choices the kernel draws
    (:class:`BotChoices` in place of the search's generator, which the compiled playout
    is not handed) decides the same, with the same iterations, as one rolling out in the
    kernel: the position, the stream and the scoring of cut and finished rollouts are
    handed over exactly."""
    from ranchhand.bots import ismcts

    def reference(state, make, stream, max_steps, rng):  # type: ignore[no-untyped-def]
        return playout(state, make, stream, max_steps, BotChoices(stream.stream, state))

    for players, cut in ((2, 300), (4, 12)):
        game = GloryRanch(players)
        for seed in range(3):
            state = reach(game, seed, 30 + 17 * seed)
            while state.current_player() == CHANCE:
                state.apply(state.sample_chance(random.Random(seed)), CHANCE)
            player = state.acting_players()[0]
            observation = state.observe(player)
            legal = state.legal_actions(player)
            choices = []
            for compiled in (True, False):
                bot = ismcts.ISMCTSBot(
                    game,
                    iterations=30,
                    time_cap=None,
                    depth=1,
                    opponents="rollout",
                    rollout_depth=cut,
                )
                with monkeypatch.context() as patch:
                    if not compiled:
                        patch.setattr(game, "compiled_playout", lambda policy: None)
                        patch.setattr(ismcts, "playout", reference)
                    choices.append((bot.act(observation, legal, random.Random(seed)), bot.searched))
            assert choices[0] == choices[1], f"{players} players, seed {seed}"


def test_the_bulk_path_repeats_from_its_seeds_and_reports_sound_figures() -> None:
    engine = engine_for(3, {})
    seeds = np.arange(20, dtype=np.int64)
    rows = engine.play(seeds, ("greedy", "random", "greedy"))
    again = engine.play(seeds, ("greedy", "random", "greedy"))
    assert np.array_equal(rows, again)
    columns = engine.columns
    winner = rows[:, columns.index("winner")]
    assert (winner >= 0).all() and (rows[:, columns.index("rounds")] >= 1).all()
    totals = rows[:, columns.index("total_0") : columns.index("total_2") + 1]
    assert (totals[np.arange(len(rows)), winner] >= engine.game.target).all()
    assert (rows[:, columns.index("round_wins")] >= rows[:, columns.index("rounds")]).all()


def test_bots_the_fast_engine_lacks_are_refused_by_name() -> None:
    engine = engine_for(2, {})
    with pytest.raises(OptionError, match="random, greedy seats, not 'ismcts'"):
        engine.play(np.arange(2, dtype=np.int64), ("greedy", "ismcts"))
    assert GloryRanch(2).compiled_playout("ismcts") is None


def test_simulate_and_bench_run_the_fast_engine() -> None:
    runner = CliRunner()
    args = ["simulate", "glory-ranch", "--engine", "fast", "--games", "30", "--players", "3"]
    first = runner.invoke(app, [*args, "--seats", "greedy,random,greedy", "--json"])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, [*args, "--seats", "greedy,random,greedy", "--json"])
    assert first.output == again.output or '"seconds"' in first.output
    assert '"rounds_per_game"' in first.output and '"cards"' in first.output
    bench = runner.invoke(app, ["bench", "glory-ranch", "--engine", "fast", "--games", "20"])
    assert bench.exit_code == 0, bench.output
