"""Properties over random play: conservation, termination, records, JSON, notation."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.bots import RandomBot
from ranchhand.core import CHANCE, Record, play, replay
from ranchhand.games.glory_ranch import BOTS, GloryRanch, GloryState
from ranchhand.games.glory_ranch.cards import load_deck
from tests.games.glory_ranch.helpers import VOCABULARY_DECK, table

PROPERTY = settings(max_examples=30, deadline=None)


def conserved(state: GloryState) -> bool:
    """Every copy of every card is in exactly one place: deck, discard, hand, ranch, passing."""
    counts = [d + x for d, x in zip(state.deck, state.discard, strict=True)]
    for hand in state.hands:
        counts = [c + h for c, h in zip(counts, hand, strict=True)]
    for place in (*state.ranches, *state.passing):
        for k in place:
            counts[k] += 1
    return counts == list(state.game.deck.copies)


def random_walk(state: GloryState, rng: random.Random, steps: int = 10_000) -> GloryState:
    """Play random legal actions, checking conservation, JSON and notation as it goes."""
    game = state.game
    for _ in range(steps):
        if state.is_terminal():
            break
        assert conserved(state)
        if rng.random() < 0.05:
            snapshot = state.to_json()
            assert game.state_from_json(json.loads(json.dumps(snapshot))).to_json() == snapshot
        player = CHANCE if state.is_chance_node() else rng.choice(state.acting_players())
        actions = state.legal_actions(player)
        action = rng.choice(actions)
        assert state.parse_action(str(action), player) == action
        state.apply(action, player)
    return state


@PROPERTY
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    tie=st.sampled_from(["play-on", "share"]),
    target=st.sampled_from([0, 10, 25]),
    vocabulary=st.booleans(),
)
def test_random_play_conserves_cards_and_ends(
    players: int, seed: int, tie: str, target: int, vocabulary: bool
) -> None:
    options = {"tie": tie, "target": target}
    if vocabulary:
        options["deck"] = VOCABULARY_DECK
    state = GloryRanch(players, **options).new_initial_state()
    final = random_walk(state, random.Random(seed))
    assert final.is_terminal()
    outcome = final.outcome()
    assert outcome is not None and outcome.reason == "target reached"
    assert min(final.totals) >= 0
    assert max(final.totals) >= final.game.target
    if tie == "play-on":
        assert len(outcome.winners) == 1


@PROPERTY
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_records_replay(players: int, seed: int) -> None:
    game = GloryRanch(players, target=20)
    seats = [RandomBot() if p % 2 else BOTS["greedy"]() for p in range(players)]
    result = play(game, seats, seed=seed, record=True)
    assert result.record is not None
    again = Record.from_json(json.loads(json.dumps(result.record.to_json())))
    final = replay(again)
    assert final.outcome() == result.outcome
    assert final.details() == result.details


def _resolve_turn(state: GloryState, rng: random.Random) -> None:
    """Answer every question at random until the first turn is over."""
    while state.turn == 0 and not state.is_terminal():
        player = CHANCE if state.is_chance_node() else rng.choice(state.acting_players())
        state.apply(rng.choice(state.legal_actions(player)), player)


@pytest.mark.parametrize("deck", ["standard", VOCABULARY_DECK])
def test_every_card_of_the_deck_file_can_be_played(deck: str) -> None:
    cards = load_deck() if deck == "standard" else load_deck(deck)
    filler = cards.cards[0].id
    others = [c.id for c in cards.cards[1:4]]
    for card in cards.cards:
        for seed in range(3):
            state = table(
                3,
                hands={0: [card.id, *others], 1: [filler, *others], 2: [filler]},
                ranches={0: others[:2], 1: others[:3], 2: [filler]},
                vocabulary=False,
                **({} if deck == "standard" else {"deck": deck}),
            )
            state.apply_text(f"play {card.id}")
            _resolve_turn(state, random.Random(seed))
            assert state.turn == 1
            assert f"P0 plays {card.name}" in state.log
