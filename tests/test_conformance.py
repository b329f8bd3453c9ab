"""One conformance suite run against every registered game (and the toy game).

Whatever its rules, a game must: offer legal actions until the end, print and
parse every action the same way, list chance outcomes that sum to one, refuse
bad text and illegal actions without changing the state, round-trip its states
through JSON and clone, replay its records, count turns for ``max_turns`` and
refuse every action once over.
"""

from __future__ import annotations

import json
import random
from itertools import islice

import pytest

from ranchhand.bots import RandomBot
from ranchhand.core import (
    CHANCE,
    TERMINAL,
    ActionError,
    IllegalAction,
    Record,
    State,
    play,
    replay,
)
from ranchhand.core.registry import GAME_MODULES, game_class, game_module, load, register

register("toy", "tests.core.toy")
GAMES = sorted(GAME_MODULES)
STEPS_CHECKED = 250
ODD_WORDS = ["0", "99", "+", ">", "@", "-1", "x", "²", "¹:1", "١٢", "r²", "@a²", "9" * 5000, "½"]
"""Typos a fuzzer found crashing games: Unicode digits, fractions, 5,000-digit numbers."""
ACTIONS_CHECKED = 25


def _player_counts(game: str) -> list[int]:
    cls = game_class(game)
    return list(range(cls.min_players, cls.max_players + 1))


CASES = [(game, players) for game in GAMES for players in _player_counts(game)]


def _acting(state: State) -> list[int]:
    return [CHANCE] if state.current_player() == CHANCE else list(state.acting_players())


def _check_state(state: State, rng: random.Random) -> None:
    game = state.game
    snapshot = state.to_json()
    assert json.loads(json.dumps(snapshot)) == snapshot, "state JSON must be plain JSON"
    assert game.state_from_json(snapshot).to_json() == snapshot, "state JSON must round-trip"
    assert state.clone().to_json() == snapshot, "clone must equal the original"
    for player in range(game.players):
        json.dumps(state.observe(player).to_json())
    for player in _acting(state):
        actions = state.legal_actions(player)
        assert actions, f"player {player} must have a legal action until the end"
        assert len(set(actions)) == len(actions), "legal actions must be distinct"
        for action in islice(rng.sample(actions, len(actions)), ACTIONS_CHECKED):
            text = str(action)
            assert state.parse_action(text, player) == action, f"{text!r} must parse back"
            assert state.is_legal(action, player)
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes.probabilities()) == 1
    with pytest.raises(ActionError):
        state.parse_action("%%% not an action %%%", _acting(state)[0])
    assert state.to_json() == snapshot, "a refused action must leave the state unchanged"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_play_obeys_the_protocol(game_id: str, players: int) -> None:
    game = load(game_id, players, max_turns=400)
    rng = random.Random(f"{game_id}/{players}")
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if steps < STEPS_CHECKED:
            _check_state(state, rng)
        player = _acting(state)[0]
        if player == CHANCE:
            action = state.chance_outcomes().sample(rng)
        else:
            action = rng.choice(state.legal_actions(player))
        twin = state.clone()
        twin.apply(action, player)
        state.apply(action, player)
        assert twin.to_json() == state.to_json(), "the same action on a clone gives the same state"
        steps += 1
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert len(state.returns()) == players
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(action, player)
    json.dumps(state.details())


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_records_replay_exactly(game_id: str, players: int) -> None:
    game = load(game_id, players, max_turns=300)
    result = play(game, [RandomBot() for _ in range(players)], seed=11, record=True)
    assert result.record is not None
    record = Record.from_json(json.loads(json.dumps(result.record.to_json())))
    final = replay(record)
    assert final.outcome() == result.outcome
    assert final.turn == result.turns


@pytest.mark.parametrize("game_id", GAMES)
def test_max_turns_truncates_every_game(game_id: str) -> None:
    cls = game_class(game_id)
    game = load(game_id, cls.min_players, max_turns=2)
    result = play(game, [RandomBot() for _ in range(cls.min_players)], seed=3)
    assert result.turns <= 2
    assert result.outcome.truncated or result.outcome.winners


@pytest.mark.parametrize("game_id", GAMES)
def test_game_declares_itself(game_id: str) -> None:
    cls = game_class(game_id)
    assert cls.min_players <= cls.max_players
    info = load(game_id, cls.max_players).info.to_json()
    assert info["id"] == game_id and info["players"] == cls.max_players
    for option in cls.option_specs():
        assert option.doc, f"option {option.name} must say what it does"
        if option.choices:
            assert option.default in option.choices
            for choice in option.choices:
                load(game_id, cls.min_players, **{option.name: choice})
    module = game_module(game_id)
    assert isinstance(module.BOTS, dict)
    if game_id != "toy":
        assert "greedy" in module.BOTS, "every game has a greedy bot"
        assert module.VIEW.notation, "every game explains its action notation"


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "toy"])
def test_greedy_plays_legal_actions(game_id: str) -> None:
    cls = game_class(game_id)
    players = cls.min_players
    game = load(game_id, players, max_turns=300)
    greedy = game_module(game_id).BOTS["greedy"]
    result = play(game, [greedy() for _ in range(players)], seed=5, record=True)
    assert result.record is not None
    replay(result.record)


@pytest.mark.parametrize("game_id", GAMES)
def test_any_typed_text_is_parsed_or_refused_without_harm(game_id: str) -> None:
    """What a player types at the prompt never corrupts a game in progress."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    cls = game_class(game_id)
    state = load(game_id, cls.min_players).new_initial_state()
    rng = random.Random(9)
    for _ in range(12):  # walk into the game a little, to a player's decision
        if state.is_terminal():
            break
        player = _acting(state)[0]
        if player == CHANCE:
            state.apply(state.chance_outcomes().sample(rng), player)
        else:
            state.apply(rng.choice(state.legal_actions(player)), player)
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes().sample(rng))
    player = _acting(state)[0]
    words = sorted({w for a in state.legal_actions(player) for w in str(a).split()})
    snapshot = state.to_json()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.sampled_from([*words, *ODD_WORDS]), max_size=6) | st.text(max_size=30))
    def typed(text: list[str] | str) -> None:
        line = text if isinstance(text, str) else " ".join(text)
        try:
            action = state.parse_action(line, player)
        except ActionError:
            assert state.to_json() == snapshot
            return
        assert state.is_legal(action, player)
        assert state.to_json() == snapshot

    typed()
