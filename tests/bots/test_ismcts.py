"""The ismcts search bot: finds a forced win, is reproducible, sees only the observation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ranchhand.bots.ismcts import HARD, NORMAL, ISMCTSBot, _Search, level
from ranchhand.core import CHANCE, GameDefinitionError, play
from ranchhand.core.registry import bot_factory, bot_names, load

WIN_IN_ONE = {
    "players": [
        {
            "animals": {"rabbit": 1, "sheep": 1, "cow": 3},
            "pastures": ["4.1", "4.2", "4.3", "4.4", "4.5", "4.6"],
        }
    ]
}
"""Rancho: player 0 holds a rabbit, a sheep and 3 cows; '2 cow > horse' completes the herd."""


@pytest.mark.parametrize("rollout", ["random", "greedy"])
def test_finds_a_forced_win_one_move_deep(rollout: str) -> None:
    game = load("rancho", 2)
    state = game.setup(WIN_IN_ONE)
    bot = ISMCTSBot(game, iterations=60, rollout=rollout, bias=0.0, time_cap=None)
    action = bot.act(state.observe(0), state.legal_actions(0), random.Random(3))
    assert str(action) == "trade 2 cow > horse"


def _choices(seed: int) -> list[str]:
    game = load("rancho", 2)
    state = game.new_initial_state()
    rng = random.Random(seed)
    bot = ISMCTSBot(game, iterations=20, time_cap=None)
    chosen = []
    while len(chosen) < 6 and not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes().sample(rng), CHANCE)
            continue
        player = state.current_player()
        action = bot.act(state.observe(player), state.legal_actions(player), rng)
        chosen.append(str(action))
        state.apply(action, player)
    return chosen


def test_reproducible_from_the_seed() -> None:
    assert _choices(5) == _choices(5)


class _Spy:
    """An observation wrapper that records which attributes the bot reads."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self.inner, name)


def test_the_bot_sees_only_the_observation() -> None:
    """It gets no state; it imagines tables only through game.sample_state(observation)."""
    game = load("rancho", 2)
    state = game.setup(WIN_IN_ONE)
    seen: list[Any] = []

    class Watching(type(game)):  # type: ignore[misc]
        def sample_state(self, observation: Any, rng: random.Random) -> Any:
            seen.append(observation)
            return super().sample_state(observation.inner, rng)

    watched = Watching(2)
    position = watched.setup(WIN_IN_ONE)
    spy = _Spy(position.observe(0))
    bot = ISMCTSBot(watched, iterations=10, time_cap=None, rollout="random")
    bot.act(spy, position.legal_actions(0), random.Random(1))
    assert seen and all(o is spy for o in seen)
    assert spy.read <= {"player", "to_json"}  # the rest goes to sample_state untouched
    assert state.to_json()["data"] == game.setup(WIN_IN_ONE).to_json()["data"]


def test_every_game_lists_the_search_bot_and_the_levels() -> None:
    for game in ("rancho", "rocket-ranchers", "glory-ranch"):
        names = bot_names(game)
        assert {"random", "ismcts", "easy", "normal", "hard"} <= set(names)
        assert type(bot_factory(game, "easy")()).__name__ != "ISMCTSBot"
        assert isinstance(bot_factory(game, "hard")(), ISMCTSBot)


def test_super_farmer_names_its_own_levels_and_keeps_the_search_by_name() -> None:
    from ranchhand.games.super_farmer import LEVELS
    from ranchhand.games.super_farmer.racer import RacerBot

    normal = bot_factory("super-farmer", "normal")()
    assert isinstance(normal, RacerBot) and not normal.exact
    hard = bot_factory("super-farmer", "hard")()
    assert isinstance(hard, RacerBot) and hard.exact
    assert set(LEVELS) == {"normal", "hard"}
    for name, made in LEVELS.items():
        assert bot_factory("super-farmer", name) is made
    assert isinstance(bot_factory("super-farmer", "ismcts")(), ISMCTSBot)
    assert {"ismcts", "racer", "normal", "hard"} <= set(bot_names("super-farmer"))


def test_play_gives_the_bot_its_game() -> None:
    game = load("rancho", 2, max_turns=6)
    seats = [bot_factory("rancho", "ismcts")(), bot_factory("rancho", "random")()]
    seats[0].iterations = 5
    result = play(game, seats, seed=2)
    assert result.outcome is not None


def test_an_unbound_bot_says_what_it_needs() -> None:
    game = load("rancho", 2)
    state = game.setup(WIN_IN_ONE)
    with pytest.raises(GameDefinitionError, match="needs its game"):
        ISMCTSBot().act(state.observe(0), state.legal_actions(0), random.Random(0))


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="rollout"):
        ISMCTSBot(rollout="smart")
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSBot(iterations=0)
    with pytest.raises(ValueError, match="opponents must be one of search, rollout"):
        ISMCTSBot(opponents="paranoid")
    with pytest.raises(ValueError, match="depth must be at least 1"):
        ISMCTSBot(depth=0)


def test_a_flat_search_rolls_out_right_after_the_root_move() -> None:
    """``depth=1``: statistics at the root only, and the forced win is still found."""
    game = load("rancho", 2)
    state = game.setup(WIN_IN_ONE)
    bot = ISMCTSBot(game, iterations=60, depth=1, time_cap=None)
    roots: list[Any] = []
    original = ISMCTSBot._iterate

    def spying(self: ISMCTSBot, game: Any, observation: Any, search: Any, rng: Any) -> None:
        original(self, game, observation, search, rng)
        roots[:] = [search.root]

    ISMCTSBot._iterate = spying  # type: ignore[method-assign]
    try:
        action = bot.act(state.observe(0), state.legal_actions(0), random.Random(3))
    finally:
        ISMCTSBot._iterate = original  # type: ignore[method-assign]
    assert str(action) == "trade 2 cow > horse"
    assert all(not child.stats for child in roots[0].children.values())


def test_back_in_a_position_it_chooses_something_else() -> None:
    """A trade and its reverse bring the table back: the bot must not go round forever."""
    game = load("rancho", 2)
    state = game.setup(WIN_IN_ONE)
    bot = ISMCTSBot(game, iterations=10, time_cap=None)
    rng = random.Random(4)
    first = bot.act(state.observe(0), state.legal_actions(0), rng)
    again = bot.act(state.observe(0), state.legal_actions(0), rng)
    assert again != first


def _decisions(game: Any, seed: int, **settings: Any) -> list[tuple[str, int]]:
    """The search's choices (and iterations) at the first real decisions of a game."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    bot = ISMCTSBot(game, time_cap=None, **settings)
    made: list[tuple[str, int]] = []
    while len(made) < 8 and not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        player = state.acting_players()[0]
        action = bot.act(state.observe(player), state.legal_actions(player), rng)
        if bot.searched:
            made.append((str(action), bot.searched))
        state.apply(action, player)
    return made


def test_the_compiled_playout_decides_as_the_reference_rollout() -> None:
    """Rancho's fast engine plays the rollouts with the same draws: the same choices."""
    pytest.importorskip("numba", reason="the compiled playout is in the fast extra")
    compiled = load("rancho", 2, max_turns=300)
    assert compiled.compiled_playout("greedy") is not None
    assert compiled.compiled_playout("random") is None

    class Reference(type(compiled)):  # type: ignore[misc]
        def compiled_playout(self, policy: str) -> None:
            return None

    reference = Reference(2, max_turns=300)
    for seed in (1, 2):
        fast = _decisions(compiled, seed, iterations=40)
        assert fast and fast == _decisions(reference, seed, iterations=40)


def test_paired_rollouts_give_every_move_the_same_dice() -> None:
    """The j-th rollout of each root move draws from stream j: with moves that change
    nothing (rolling now or after "end turn"), the same games are won and lost."""
    game = load("rancho", 2)
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(random.Random(0)), CHANCE)
    bot = ISMCTSBot(game, iterations=40, time_cap=None, bias=0.0)
    seen: list[list[float]] = []
    original = ISMCTSBot._iterate

    def spying(self: ISMCTSBot, game: Any, observation: Any, search: Any, rng: Any) -> None:
        original(self, game, observation, search, rng)
        seen[:] = [search.results.get("roll", []), search.results.get("roll and end turn", [])]

    ISMCTSBot._iterate = spying  # type: ignore[method-assign]
    try:
        bot.act(state.observe(0), state.legal_actions(0), random.Random(6))
    finally:
        ISMCTSBot._iterate = original  # type: ignore[method-assign]
    roll, roll_and_end = seen
    pairs = min(len(roll), len(roll_and_end))
    won = [[value > 0.5 for value in results[:pairs]] for results in (roll, roll_and_end)]
    assert pairs >= 3 and won[0] == won[1]  # (one step apart, so a win fades a hair more)


@pytest.mark.parametrize("game_id", ["rocket-ranchers", "glory-ranch"])
def test_opponents_modelled_by_the_rollout_bot(game_id: str) -> None:
    """With ``opponents="rollout"`` only the searcher's moves carry statistics, and the
    search is reproducible from its seed."""
    game = load(game_id, 4)
    first = _decisions(game, 3, iterations=12, opponents="rollout")
    assert first and first == _decisions(game, 3, iterations=12, opponents="rollout")


def test_a_budget_per_two_players_shrinks_with_the_table() -> None:
    """``per_two_players``: the iterations are the budget at two players, halved at four."""
    for players, searched in ((2, 40), (4, 20)):
        game = load("rancho", players)
        state = game.setup(WIN_IN_ONE)
        bot = ISMCTSBot(game, iterations=40, per_two_players=True, time_cap=None)
        bot.act(state.observe(0), state.legal_actions(0), random.Random(1))
        assert bot.searched == searched


def test_a_budget_at_a_table_size_overrides_the_others() -> None:
    """``iterations_at``: the iterations at those player counts; the rest as before."""
    for players, searched in ((2, 40), (4, 7)):
        game = load("rancho", players)
        state = game.setup(WIN_IN_ONE)
        bot = ISMCTSBot(
            game, iterations=40, per_two_players=True, iterations_at={4: 7}, time_cap=None
        )
        bot.act(state.observe(0), state.legal_actions(0), random.Random(1))
        assert bot.searched == searched


def test_the_hard_level_multiplies_every_budget() -> None:
    """``hard`` is :data:`HARD` times ``normal``, at every table size given its own budget."""
    NORMAL["test-game"] = {"iterations": 10, "iterations_at": {4: 3}}
    try:
        hard = level("test-game", "hard")
    finally:
        del NORMAL["test-game"]
    assert hard["iterations"] == 10 * HARD and hard["iterations_at"] == {4: 3 * HARD}


def test_what_hard_changes_beyond_the_budget() -> None:
    """``hard`` in Rocket Ranchers spreads its extra rollouts over greedy's 12 best
    placements (``HARD_ALSO``), ``normal`` keeping 4; Rancho's grows a tree three moves deep
    where ``normal`` is flat; Glory Ranch's only searches longer."""
    assert level("rocket-ranchers", "normal")["width"] == 4
    assert level("rocket-ranchers", "hard")["width"] == 12
    assert level("rancho", "normal")["depth"] == 1
    assert level("rancho", "hard") == {
        **level("rancho", "normal"),
        "iterations": 1000 * HARD,
        "depth": 3,
        "time_cap": 3.0,
    }
    assert level("glory-ranch", "hard") == {
        **level("glory-ranch", "normal"),
        "iterations": 600 * HARD,
        "time_cap": 3.0,
    }


def _one_deal_from_the_herd() -> tuple[Any, Any]:
    """A Rancho table where player 0 (19 rabbits, 6 sheep, 12 pastures) completes the herd
    with one deal the legal list leaves out: ``trade 6 rabbit + 5 sheep > cow + horse``."""
    game = load("rancho", 2)
    pastures = [f"4.{n}" for n in range(1, 13)]
    setup = {"players": [{"animals": {"rabbit": 19, "sheep": 6}, "pastures": pastures}]}
    setup["players"].append({"animals": {"rabbit": 1}})  # type: ignore[union-attr]
    return game, game.setup(setup)


def test_it_makes_the_winning_deal_the_legal_list_leaves_out() -> None:
    """Rancho lists one-animal trades; the many-animal deal that completes the herd is legal
    but not listed. Greedy makes it, and so must the search (it used to trade back and
    forth instead, unable to play the move it meant to keep)."""
    game, state = _one_deal_from_the_herd()
    legal = state.legal_actions(0)
    bot = ISMCTSBot(game, iterations=30, depth=1, opponents="rollout", time_cap=None)
    action = bot.act(state.observe(0), legal, random.Random(1))
    assert action not in legal and str(action) == "trade 6 rabbit + 5 sheep > cow + horse"
    state.apply(action, 0)
    assert state.outcome() is not None and state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_the_tree_below_the_root_offers_the_unlisted_deal_too() -> None:
    """In a tree deeper than the root, greedy's unlisted deal that completes the herd is a
    move of the nodes below as well (it was only offered at the root, so a path through
    another trade first never made the winning deal inside the tree)."""
    game, state = _one_deal_from_the_herd()
    observation = state.observe(0)
    first = "trade 3 rabbit > small dog"  # the deal is still open after it
    offered = {str(a): a for a in state.legal_actions(0)}
    bot = ISMCTSBot(game, iterations=1, depth=3, opponents="rollout", time_cap=None)
    search = _Search(0, {first: offered[first]}, "", 7, bot._rollout_bot(game), None)
    rng = random.Random(3)
    for _ in range(40):
        bot._iterate(game, observation, search, rng)
    (child,) = search.root.children.values()
    deals = [key for (player, key) in child.stats if player == 0 and "cow + horse" in key]
    assert deals, sorted(key for _, key in child.stats)
    after = state.clone()
    after.apply(offered[first], 0)
    assert all(str(a) not in deals for a in after.legal_actions(0))  # not in the list


def _first_beam_decision(players: int = 2) -> tuple[Any, Any]:
    """A Rocket Ranchers game at its first beam decision (seat 0, about 70 placements)."""
    game = load("rocket-ranchers", players)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng), CHANCE)
    return game, state


def test_a_narrowed_search_weighs_greedys_best_and_keeps_its_choice() -> None:
    """``width``: the root weighs only greedy's ``width`` best beams (and the reboot where
    allowed), always with greedy's own choice; the same seed gives the same decisions."""
    game, state = _first_beam_decision()
    legal = state.legal_actions(0)
    greedy = bot_factory(game, "greedy")()
    chosen = str(greedy.act(state.observe(0), legal, random.Random(0)))
    assert len(legal) > 20
    weighed: list[set[str]] = []
    original = ISMCTSBot._iterate

    def spying(self: ISMCTSBot, game: Any, observation: Any, search: Any, rng: Any) -> None:
        original(self, game, observation, search, rng)
        weighed[:] = [set(search.offered)]

    ISMCTSBot._iterate = spying  # type: ignore[method-assign]
    try:
        bot = ISMCTSBot(game, iterations=12, depth=1, opponents="rollout", width=3, time_cap=None)
        bot.act(state.observe(0), legal, random.Random(2))
    finally:
        ISMCTSBot._iterate = original  # type: ignore[method-assign]
    assert chosen in weighed[0] and 2 <= len(weighed[0]) <= 3 + 2
    settings = {"iterations": 12, "depth": 1, "opponents": "rollout", "width": 3}
    first = _decisions(game, 3, **settings)
    assert first and first == _decisions(game, 3, **settings)


def test_a_width_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="width must be at least 1"):
        ISMCTSBot(width=0)
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        ISMCTSBot(iterations_at={4: 0})
