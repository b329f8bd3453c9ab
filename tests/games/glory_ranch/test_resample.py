"""Determinization: ``GloryRanch.sample_state`` rebuilds a state from one observation.

What the viewer sees stays as it is (their hand, their passed cards, their own sign,
the table); what they cannot see (other hands, cards others pass) is redrawn from the
unseen copies; the result is a valid position that plays on to the end.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ranchhand.core import CHANCE
from ranchhand.games.glory_ranch import GloryRanch, GloryState
from tests.games.glory_ranch.helpers import do

STEPS = 260


def _play(state: GloryState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply(state.chance_outcomes().sample(rng), CHANCE)
        else:
            player = rng.choice(state.acting_players())
            state.apply(rng.choice(state.legal_actions(player)), player)


def _positions(players: int, seed: int) -> list[GloryState]:
    """Every position of a random game (several rounds, card actions, contests)."""
    state = GloryRanch(players, target=30).new_initial_state()
    rng = random.Random(seed)
    found = []
    for _ in range(STEPS):
        if state.is_terminal():
            break
        found.append(state.clone())
        _play(state, rng, 1)
    found.append(state.clone())
    return found


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_the_viewer_sees_the_same_and_the_table_never_changes(players: int, seed: int) -> None:
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    for state in _positions(players, seed):
        game = state.game
        top = state.stack[-1][0] if state.stack else "turn"
        kinds[top] += 1
        public = state.observe(None).to_json()
        for viewer in (None, *range(players)):
            seen = state.observe(viewer).to_json()
            sampled = game.sample_state(state.observe(viewer), rng)
            assert sampled.observe(viewer).to_json() == seen
            assert sampled.observe(None).to_json() == public
            assert sampled.current_player() == state.current_player()
            assert sampled.acting_players() == state.acting_players()
            if viewer is not None:
                assert sampled.hands[viewer] == state.hands[viewer]
                assert sampled.passing[viewer] == state.passing[viewer]
            assert sampled.ranches == state.ranches and sampled.discard == state.discard
            assert [sum(h) for h in sampled.hands] == [sum(h) for h in state.hands]
            assert sum(sampled.deck) == sum(state.deck)
            # a valid position: it loads back from its JSON, checked field by field
            loaded = game.state_from_json(sampled.to_json())
            assert loaded.to_json() == sampled.to_json()
    assert kinds["turn"] and kinds["draw"]


def test_mid_card_steps_and_contests_are_met() -> None:
    """The positions above include decisions inside card actions and pending contests."""
    met: set[str] = set()
    signed = 0
    for players, seed in [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)]:
        for state in _positions(players, seed):
            if state.stack:
                met.add(state.stack[-1][0])
            signed += bool(state.signs)
    assert {"rps", "target", "pick", "discard", "give"} <= met
    assert signed


def test_a_sampled_state_plays_to_the_end_and_repeats_from_its_seed() -> None:
    for players, seed in [(2, 7), (4, 8), (6, 9)]:
        positions = _positions(players, seed)
        for state in positions[:: max(1, len(positions) // 6)]:
            viewer = seed % players
            one = state.game.sample_state(state.observe(viewer), random.Random(3))
            two = state.resample(viewer, random.Random(3))
            assert one.to_json() == two.to_json()
            _play(one, random.Random(seed), 5000)
            assert one.is_terminal()


def test_unseen_cards_are_drawn_in_proportion_to_their_copies() -> None:
    game = GloryRanch(3)
    state = game.setup(
        {
            "discard": ["kraken", "roc"],
            "player": [
                {"hand": ["wyvern", "roc", "selkie"], "ranch": ["selkie", "hippocamp"]},
                {"hand": ["phoenix", "lindworm", "pixie", "puck"], "ranch": ["hearth-drake"]},
                {"hand": ["puck", "tanuki"]},
            ],
        }
    )
    observation = state.observe(0)
    unseen = Counter(
        {card.index: card.copies for card in game.deck.cards}
    )  # the box, less what P0 can see
    for k in [*observation.hand, *observation.discard_pile, *(k for r in state.ranches for k in r)]:
        unseen[k] -= 1
    total = sum(unseen.values())
    samples = 2000
    rng = random.Random(11)
    counts = [Counter[int]() for _ in range(3)]
    for _ in range(samples):
        sampled = game.sample_state(observation, rng)
        for p in (1, 2):
            counts[p].update({k: c for k, c in enumerate(sampled.hands[p]) if c})
        assert sampled.hands[0] == state.hands[0]
    for p, size in ((1, 4), (2, 2)):
        for k, copies in unseen.items():
            expected = samples * size * copies / total
            # binomial-ish spread: within 5 standard deviations (and never a seen card)
            spread = 5 * (expected * (1 - copies / total)) ** 0.5 + 1
            assert abs(counts[p][k] - expected) <= spread, (game.ids[k], p, counts[p][k], expected)
        seen_only = {k for k in range(game.kinds) if not unseen[k]}
        assert not seen_only & set(counts[p])
    assert {game.ids[k] for k in seen_only} == {"kraken", "roc"}  # every copy in view


def test_the_spectator_holds_nothing_so_every_hand_is_drawn() -> None:
    game = GloryRanch(2)
    state = game.setup({"player": [{"hand": ["kraken", "roc"]}, {"hand": ["pixie"]}]})
    rng = random.Random(5)
    hands = {tuple(game.sample_state(state.observe(None), rng).hands[0]) for _ in range(40)}
    assert len(hands) > 30
    assert all(sum(h) == 2 for h in hands)


def test_a_pending_sign_is_kept_for_its_owner_and_drawn_only_if_made() -> None:
    game = GloryRanch(3)
    state = game.setup(
        {"player": [{"hand": ["griffin", "roc"]}, {"hand": ["pixie", "puck"]}, {"hand": ["hob"]}]}
    )
    do(state, "play griffin", "target 1")
    assert state.stack[-1][0] == "rps"
    rng = random.Random(2)
    # nobody has chosen: no sign anywhere
    assert all(not game.sample_state(state.observe(v), rng).signs for v in (None, 0, 1, 2))
    state.apply(state.parse_action("choose paper", 0), 0)
    for _ in range(20):
        assert game.sample_state(state.observe(0), rng).signs == {0: "paper"}
    # to P1 and the others, P0's sign is unknown but made: drawn from all three
    signs = {game.sample_state(state.observe(v), rng).signs[0] for v in (1, 2, None) * 15}
    assert signs == {"rock", "paper", "scissors"}


def test_a_card_choice_asked_of_another_player_keeps_two_kinds_in_their_hand() -> None:
    """A pass asked of P1 means P1's hand holds two kinds at least (one would go unasked)."""
    game = GloryRanch(2)
    state = game.setup(
        {"player": [{"hand": ["tanuki", "roc"]}, {"hand": ["pixie", "puck", "puck"]}]}
    )
    do(state, "play tanuki")  # P0 passes the Roc without asking: it is all they hold
    assert state.stack[-1][:2] == ("pass", 1)
    rng = random.Random(4)
    for _ in range(300):
        sampled = game.sample_state(state.observe(0), rng)
        assert sum(1 for c in sampled.hands[1] if c) >= 2
        assert sampled.passing[0] == [game.index["roc"]]
