"""Properties over random play: conservation, termination, records, JSON, notation, secrets."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.bots import RandomBot
from ranchhand.core import CHANCE, Record, play, replay
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState
from ranchhand.games.rocket_ranchers.tables import CAT, EMPTY

OPTIONS = st.fixed_dictionaries(
    {
        "abundance_table": st.sampled_from(["rulebook", "scoring-card"]),
        "abundance_counts": st.sampled_from(["cards", "dots"]),
        "variety_counts": st.sampled_from(["face-up", "all"]),
        "cat_chain": st.booleans(),
        "corral_scoring": st.sampled_from(["best", "abundance", "variety"]),
    }
)
FAST = settings(max_examples=12, deadline=None)


def _cards(state: RocketState) -> Counter[int]:
    """Every card of the game wherever it is: deck, display, corrals, floof, pending."""
    cards: Counter[int] = Counter({k: n for k, n in enumerate(state.deck) if n})
    cards[CAT] += state.deck_cats + sum(state.floof)
    cards.update(c for c in state.display if c != EMPTY)
    for mine in state.corrals:
        for founder, face_up in mine:
            cards[founder] += 1
            cards.update(face_up)
    cards.update(state.pending)
    return +cards


def _walk(state: RocketState, rng: random.Random, visit: object = None) -> RocketState:
    while not state.is_terminal():
        if callable(visit):
            visit(state)
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
        else:
            state.apply(rng.choice(state.legal_actions()), player)
    return state


@FAST
@given(players=st.integers(2, 5), options=OPTIONS, seed=st.integers(0, 10**6))
def test_random_play_ends_and_conserves_cards(players: int, options: dict, seed: int) -> None:
    game = RocketGame(players, **options)
    start = game.new_initial_state()
    built = _cards(start)
    assert sum(built.values()) == start.deck_size

    def conserved(state: RocketState) -> None:
        assert _cards(state) == built
        assert state.left == [k for k, n in enumerate(state.deck) if n]
        assert state.public == [tuple((-3, up) for _, up in mine) for mine in state.corrals]

    final = _walk(start, random.Random(seed), conserved)
    assert _cards(final) == built
    outcome = final.outcome()
    assert outcome is not None and len(outcome.winners) == 1 and outcome.scores is not None
    assert final.turn % players == 0


@FAST
@given(players=st.integers(2, 5), options=OPTIONS, seed=st.integers(0, 10**6))
def test_records_replay(players: int, options: dict, seed: int) -> None:
    game = RocketGame(players, **options)
    result = play(game, [RandomBot() for _ in range(players)], seed=seed, record=True)
    assert result.record is not None
    record = Record.from_json(json.loads(json.dumps(result.record.to_json())))
    final = replay(record)
    assert final.outcome() == result.outcome


@FAST
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), stop=st.integers(0, 400))
def test_json_notation_and_secrets_at_random_points(players: int, seed: int, stop: int) -> None:
    game = RocketGame(players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        player = state.current_player()
        for action in state.legal_actions(player):
            assert state.parse_action(str(action), player) == action
        if player == CHANCE:
            state.apply(state.chance_outcomes().sample(rng))
        else:
            state.apply(rng.choice(state.legal_actions()), player)
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data).to_json() == data
    _check_secrets(state, rng)


def _check_secrets(state: RocketState, rng: random.Random) -> None:
    """Changing what a player may not see (deck contents, others' founders) changes nothing.

    Once the game is over the founders are turned up for scoring: nothing is hidden then.
    """
    if state.is_terminal():
        everything = [[state.tables.text[f] for f, _ in mine] for mine in state.corrals]
        for player in range(state.game.players):
            seen = state.observe(player).to_json()
            assert [[c["founder"] for c in mine] for mine in seen["corrals"]] == everything
        return
    for player in range(state.game.players):
        seen = state.observe(player).to_json()
        assert "deck" not in seen
        for other, mine in enumerate(seen["corrals"]):
            if other != player:
                assert all(c["founder"] == "hidden" for c in mine)
        twin = state.clone()
        in_deck = [k for k, n in enumerate(twin.deck) if n]
        elsewhere = [k for k, n in enumerate(twin.deck) if not n]
        if in_deck and elsewhere:  # another deck of the same size and Space Cats
            twin.deck[rng.choice(in_deck)] -= 1
            twin.deck[rng.choice(elsewhere)] += 1
        for other, mine in enumerate(state.corrals):
            if other != player:
                kinds = twin.tables.kinds
                twin.set_corrals(other, [(rng.randrange(kinds), up) for _, up in mine])
        assert twin.observe(player).to_json() == seen
