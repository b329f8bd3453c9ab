"""Determinization: a table rebuilt from one player's observation (``game.sample_state``).

What the viewer sees is kept exactly (the observation's JSON is the same); the
other players' face-down founding cards are redrawn from the cards whose
whereabouts the viewer does not know, weighted by copies; the rest is the deck.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest

from ranchhand.core import CHANCE, TERMINAL
from ranchhand.core.errors import StateError
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState
from ranchhand.games.rocket_ranchers.tables import HIDDEN
from tests.games.rocket_ranchers.helpers import position

SAMPLES = 2000


def _step(state: RocketState, rng: random.Random) -> None:
    if state.current_player() == CHANCE:
        state.apply(state.chance_outcomes().sample(rng), CHANCE)
    else:
        state.apply(rng.choice(state.legal_actions()))


def _states(players: int, seed: int, games: int = 2, every: float = 0.05) -> list[RocketState]:
    """States met along random games, the deal and the end included."""
    game = RocketGame(players)
    rng = random.Random(seed)
    found: list[RocketState] = []
    for _ in range(games):
        state = game.new_initial_state()
        found.append(state.clone())
        while not state.is_terminal():
            if rng.random() < every:
                found.append(state.clone())
            _step(state, rng)
        found.append(state)
    return found


def _public(state: RocketState) -> dict[str, object]:
    """Everything on the table but the founding cards and the deck's Wildlife cards."""
    data = state.to_json()["data"]
    return {
        **{k: v for k, v in data.items() if k not in ("deck", "corrals")},
        "face_up": [[c["face_up"] for c in mine] for mine in data["corrals"]],
        "deck_size": state.deck_size,
        "turn": state.turn,
        "current": state.current_player(),
    }


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_viewer_sees_the_same_table(players: int) -> None:
    rng = random.Random(players)
    for state in _states(players, seed=players):
        game = state.game
        for viewer in [*range(players), None]:
            seen = state.observe(viewer)
            sampled = game.sample_state(seen, rng)
            assert sampled.observe(viewer).to_json() == seen.to_json()
            assert _public(sampled) == _public(state)
            if viewer is not None:
                assert sampled.corrals[viewer] == state.corrals[viewer]
                if sampled.current_player() == viewer:
                    assert sampled.legal_actions() == state.legal_actions()
            again = game.state_from_json(sampled.to_json())  # a valid position
            assert again.to_json() == sampled.to_json()


def test_the_table_sampled_at_the_end_is_the_table() -> None:
    """Once the game is over every founding card is face up: nothing is left to guess."""
    state = _states(3, seed=9, games=1)[-1]
    assert state.is_terminal()
    for viewer in (0, 2, None):
        sampled = state.game.sample_state(state.observe(viewer), random.Random(0))
        assert sampled.to_json() == state.to_json()
        assert sampled.outcome() == state.outcome()


def test_the_deal_is_still_the_deal() -> None:
    game = RocketGame(2)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(5):
        _step(state, rng)
    sampled = game.sample_state(state.observe(1), rng)
    assert sampled.setting_up and sampled.to_json() == state.to_json()


def _hidden_position() -> RocketState:
    """Seat 0 to play, seat 1 with four corrals founded face down."""
    return position(
        {"a1": "kow/tundra/2", "b1": "kow/desert/3"},
        players=2,
        seats=[
            {"corrals": [{"founder": "bako/grassland/1", "face_up": ["kow/jungle/1"]}]},
            {
                "corrals": [
                    {"founder": "flama/desert/2", "face_up": ["kow/mountains/2"]},
                    {"founder": "kelk/jungle/3"},
                    {"founder": "woolbee/tundra/3"},
                    {"founder": "plushie/desert/3", "face_up": ["canis/tundra/3"]},
                ],
                "floof": 2,
                "beams_up": ["I3", "O4"],
            },
        ],
        player=0,
        turn=4,
    )


def test_own_founders_stay_and_the_others_are_redrawn() -> None:
    state = _hidden_position()
    game = state.game
    rng = random.Random(5)
    redrawn = Counter()
    for _ in range(50):
        sampled = game.sample_state(state.observe(0), rng)
        assert sampled.corrals[0] == state.corrals[0]
        assert [up for _, up in sampled.corrals[1]] == [up for _, up in state.corrals[1]]
        redrawn.update(
            f != g for (f, _), (g, _) in zip(sampled.corrals[1], state.corrals[1], strict=True)
        )
        # The founders and the deck are the unseen cards, each copy once.
        unseen = Counter(
            {k: n for k, n in enumerate(game.tables.deck_counts(2)[0]) if n}
        ) - Counter(c for c in state.display if c >= 0)
        unseen -= Counter(k for mine in state.corrals for _, up in mine for k in up)
        unseen -= Counter([state.corrals[0][0][0]])
        placed = Counter({k: n for k, n in enumerate(sampled.deck) if n})
        placed.update(f for f, _ in sampled.corrals[1])
        assert placed == unseen
    assert redrawn[True] > 190  # 200 founders, each one of 70 unseen cards


def test_the_spectator_sees_no_founder() -> None:
    state = _hidden_position()
    rng = random.Random(6)
    samples = [state.game.sample_state(state.observe(None), rng) for _ in range(50)]
    for seat in (0, 1):
        assert sum(s.corrals[seat] == state.corrals[seat] for s in samples) < 5
    assert all(f != HIDDEN for s in samples for mine in s.corrals for f, _ in mine)


def _chi_square_bound(df: int) -> float:
    """The 99.9% point of chi-square with ``df`` degrees (Wilson-Hilferty)."""
    z = 3.09
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _chi_square(seen: Counter[int], weights: dict[int, int], total: int) -> float:
    share = sum(weights.values())
    return sum((seen[k] - total * w / share) ** 2 / (total * w / share) for k, w in weights.items())


COPIES = {
    ("Kow", "Desert", 1): 10,
    ("Kow", "Grassland", 2): 6,
    ("Bako", "Desert", 1): 5,
    ("Bako", "Grassland", 2): 3,
    ("Canis", "Desert", 3): 1,
    ("Canis", "Grassland", 1): 8,
}


def _copies_game(tmp_path: Path) -> RocketGame:
    lines = ['name = "copies"', 'species = ["Kow", "Bako", "Canis"]']
    lines.append('biomes = [{ name = "Desert", colour = "yellow" }, ')
    lines[-1] += '{ name = "Grassland", colour = "green" }]'
    lines.append("space_cats = { 2 = 3, 3 = 3, 4 = 3, 5 = 3 }")
    cards = [
        f'{{ species = "{s}", biome = "{b}", dots = {d} }}'
        for (s, b, d), n in COPIES.items()
        for _ in range(n)
    ]
    lines.append("cards = [" + ", ".join(cards) + "]")
    path = tmp_path / "copies.toml"
    path.write_text("\n".join(lines) + "\n")
    return RocketGame(2, deck=str(path))


def test_founders_follow_the_unseen_copies(tmp_path: Path) -> None:
    """A card with more unseen copies founds proportionally more often (chi-square)."""
    game = _copies_game(tmp_path)
    display = ["kow/desert/1"] * 6 + ["kow/grassland/2"] * 2 + ["bako/desert/1"] * 2
    display += ["canis/grassland/1"] * 3 + ["cat", "cat", "bako/grassland/2"]
    state = game.setup(
        {
            "display": display,
            "players": [
                {"corrals": [{"founder": "kow/grassland/2"}]},
                {
                    "corrals": [
                        {"founder": "canis/desert/3", "face_up": ["kow/desert/1"]},
                        {"founder": "bako/desert/1"},
                    ]
                },
            ],
        }
    )
    tables = game.tables
    # Unseen by seat 0: the box minus the display, its own founder and the face-up kow.
    unseen = {"kow/desert/1": 3, "kow/grassland/2": 3, "bako/desert/1": 3}
    unseen |= {"bako/grassland/2": 2, "canis/desert/3": 1, "canis/grassland/1": 5}
    weights = {tables.kind_by_text[t]: n for t, n in unseen.items()}
    rng = random.Random(11)
    first: Counter[int] = Counter()
    both: Counter[int] = Counter()
    for _ in range(SAMPLES):
        sampled = game.sample_state(state.observe(0), rng)
        founders = [f for f, _ in sampled.corrals[1]]
        first[founders[0]] += 1
        both.update(founders)
        assert sampled.deck_size == state.deck_size == 17 - 2 + 1  # 15 cards and a cat
    bound = _chi_square_bound(len(weights) - 1)
    assert _chi_square(first, weights, SAMPLES) < bound
    assert _chi_square(both, weights, 2 * SAMPLES) < bound * 1.5  # two draws, one sample
    # The rarest card (one unseen copy) founds about 1 corral in 17.
    assert abs(first[tables.kind_by_text["canis/desert/3"]] / SAMPLES - 1 / 17) < 0.02


def test_founder_species_follow_what_is_unseen() -> None:
    """Standard deck: species seen a lot on the table found the opponent's corrals less."""
    state = _hidden_position()
    game = state.game
    tables = game.tables
    box, _ = tables.deck_counts(2)
    seen = Counter(c for c in state.display if c >= 0)
    seen.update(k for mine in state.corrals for _, up in mine for k in up)
    seen.update([state.corrals[0][0][0]])
    weights: Counter[int] = Counter()
    for kind, copies in enumerate(box):
        weights[tables.species[kind]] += copies - seen[kind]
    rng = random.Random(12)
    species: Counter[int] = Counter()
    for _ in range(SAMPLES // 4):
        sampled = game.sample_state(state.observe(0), rng)
        species.update(tables.species[f] for f, _ in sampled.corrals[1])
    counts = dict(weights)
    assert _chi_square(species, counts, SAMPLES) < _chi_square_bound(len(counts) - 1) * 1.5


def test_sampled_tables_play_to_the_end() -> None:
    rng = random.Random(13)
    for state in _states(4, seed=14, games=1, every=0.1)[:6]:
        viewer = max(state.current_player(), 0)
        sampled = state.game.sample_state(state.observe(viewer), rng)
        while not sampled.is_terminal():
            _step(sampled, rng)
        assert sampled.current_player() == TERMINAL
        assert sampled.outcome() is not None and sampled.outcome().winners


def test_the_same_seed_samples_the_same_table() -> None:
    state = _hidden_position()
    game = state.game
    one = game.sample_state(state.observe(0), random.Random(21)).to_json()
    two = game.sample_state(state.observe(0), random.Random(21)).to_json()
    other = game.sample_state(state.observe(0), random.Random(22)).to_json()
    assert one == two
    assert one != other
    assert state.resample(0, random.Random(21)).to_json() == one


def test_an_observation_of_another_game_is_refused() -> None:
    state = _hidden_position()
    with pytest.raises(StateError, match="player count"):
        RocketGame(3).sample_state(state.observe(0), random.Random(0))
    with pytest.raises(StateError, match="Rocket Ranchers observation"):
        state.game.sample_state({"player": 0}, random.Random(0))
