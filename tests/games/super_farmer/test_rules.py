"""Every rule of Super Farmer as the rules notes state it, and their worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ranchhand.core import IllegalAction
from ranchhand.core.registry import load
from ranchhand.games.super_farmer.actions import DiceRoll
from ranchhand.games.super_farmer.tables import FACES, KEYS, load_tables
from tests.games.super_farmer.helpers import holding, roll, table, trade


def test_the_box_the_herd_starts_with_and_empty_farms() -> None:
    state = load("super-farmer", 3).new_initial_state()
    herd = dict(zip(KEYS, state.herd, strict=True))
    assert herd == {
        "rabbit": 60,
        "sheep": 24,
        "pig": 20,
        "cow": 12,
        "horse": 6,
        "small_dog": 4,
        "big_dog": 2,
    }
    assert all(holding(state, p) == {} for p in range(3))


def test_the_two_dice_differ_and_every_roll_has_its_exact_chance() -> None:
    wolf, fox = load_tables().dice
    assert dict(zip(FACES, wolf, strict=True)) == {
        "rabbit": 6, "sheep": 3, "pig": 1, "cow": 1, "horse": 0, "fox": 0, "wolf": 1,
    }  # fmt: skip
    assert dict(zip(FACES, fox, strict=True)) == {
        "rabbit": 6, "sheep": 2, "pig": 2, "cow": 0, "horse": 1, "fox": 1, "wolf": 0,
    }  # fmt: skip
    outcomes = load("super-farmer", 1).new_initial_state()
    outcomes.apply_text("roll")
    chance = outcomes.chance_outcomes()
    assert len(chance) == 25
    assert chance.probability(DiceRoll(0, 0)) == Fraction(36, 144)
    assert chance.probability(DiceRoll(FACES.index("wolf"), FACES.index("fox"))) == Fraction(1, 144)


def test_exchange_values_in_rabbits() -> None:
    values = dict(zip(KEYS, load_tables().values, strict=True))
    assert values == {
        "rabbit": 1, "sheep": 6, "pig": 12, "cow": 36, "horse": 72, "small_dog": 6, "big_dog": 36,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("have", "text", "after"),
    [
        ({"rabbit": 6}, "trade 6 rabbit > sheep", {"sheep": 1}),
        ({"sheep": 2}, "trade 2 sheep > pig", {"pig": 1}),
        ({"pig": 3}, "trade 3 pig > cow", {"cow": 1}),
        ({"cow": 2}, "trade 2 cow > horse", {"horse": 1}),
        ({"sheep": 1}, "trade sheep > small dog", {"small_dog": 1}),
        ({"cow": 1}, "trade cow > big dog", {"big_dog": 1}),
        ({"big_dog": 1}, "trade big dog > cow", {"cow": 1}),
        ({"horse": 1}, "trade horse > 2 cow", {"cow": 2}),
        # The published examples: a pig for a sheep and 6 rabbits; a cow, 2 pigs and
        # 2 sheep for a horse.
        ({"pig": 1}, "trade pig > 6 rabbit + sheep", {"rabbit": 6, "sheep": 1}),
        ({"cow": 1, "pig": 2, "sheep": 2}, "trade 2 sheep + 2 pig + cow > horse", {"horse": 1}),
    ],
)
def test_the_exchange_table_both_ways(
    have: dict[str, int], text: str, after: dict[str, int]
) -> None:
    state = table(have)
    trade(state, text)
    assert holding(state) == after
    assert sum(state.herd) + sum(state.animals[0]) == sum(load_tables().herd)


@pytest.mark.parametrize(
    ("have", "text", "reason"),
    [
        ({"rabbit": 5}, "trade 5 rabbit > sheep", "values differ"),
        ({"rabbit": 12}, "trade 12 rabbit > 2 sheep", "single animal"),
        ({"sheep": 1}, "trade sheep > pig", "values differ"),
        ({"small_dog": 1}, "trade small dog > rabbit + 5 rabbit", "no animal|named twice"),
        ({"horse": 1}, "trade horse > horse", "only a sheep"),
        ({"rabbit": 3}, "trade 6 rabbit > sheep", "have 3"),
        ({"sheep": 1}, "trade sheep > cow", "values differ"),
    ],
)
def test_exchanges_that_are_refused_say_why(have: dict[str, int], text: str, reason: str) -> None:
    state = table(have)
    before = state.to_json()
    with pytest.raises(ValueError, match=reason):
        state.apply_text(text)
    assert state.to_json() == before


def test_the_herd_must_hold_what_the_farmer_takes() -> None:
    state = table({"horse": 1}, {"big_dog": 2}, players=2)
    assert "trade horse > 2 big dog" not in {str(a) for a in state.legal_actions()}
    with pytest.raises(IllegalAction, match="the herd has 0 big dog"):
        state.apply_text("trade horse > 2 big dog")


def test_a_dog_pays_at_its_value_in_a_mixed_exchange() -> None:
    """A small dog is worth a sheep (6 rabbits), so a sheep and a small dog buy a pig."""
    state = table({"sheep": 1, "small_dog": 1})
    trade(state, "trade sheep + small dog > pig")
    assert holding(state) == {"pig": 1}


def test_one_exchange_a_turn_then_the_dice() -> None:
    state = table({"rabbit": 12})
    trade(state, "trade 6 rabbit > sheep")
    assert state.is_chance_node(), "with one exchange a turn, the roll follows at once"
    with pytest.raises(IllegalAction):
        state.apply_text("trade 6 rabbit > sheep", 0)


def test_many_exchanges_with_the_option() -> None:
    state = table({"rabbit": 12}, exchanges="many")
    trade(state, "trade 6 rabbit > sheep")
    trade(state, "trade 6 rabbit > sheep")
    assert holding(state) == {"sheep": 2}
    assert not state.is_chance_node()


def test_one_kind_trades_refuse_mixed_payments() -> None:
    state = table({"cow": 1, "pig": 2, "sheep": 2}, trade="one-kind")
    with pytest.raises(IllegalAction, match="one species"):
        state.apply_text("trade 2 sheep + 2 pig + cow > horse")
    assert {str(a) for a in state.legal_actions()} >= {"trade 2 sheep > pig", "trade cow > 3 pig"}


def test_breeding_by_pairs_with_the_animals_shown() -> None:
    """5 rabbits, 3 sheep and 2 pigs, a rabbit and a sheep rolled: 3 rabbits and 2 sheep
    are born ((5+1)//2 and (3+1)//2); the pigs, not shown, do not breed."""
    state = table({"rabbit": 5, "sheep": 3, "pig": 2})
    roll(state, "sheep", "rabbit")
    assert holding(state) == {"rabbit": 8, "sheep": 5, "pig": 2}


def test_both_dice_showing_one_species_count_twice() -> None:
    state = table({"rabbit": 3})
    roll(state, "rabbit", "rabbit")
    assert holding(state) == {"rabbit": 5}  # (3 + 2) // 2 = 2 born


def test_an_empty_farm_breeds_only_from_a_pair_on_the_dice() -> None:
    state = table({})
    roll(state, "rabbit", "sheep")
    assert holding(state) == {}, "one animal shown makes no pair"
    state = table({})
    roll(state, "sheep", "sheep")
    assert holding(state) == {"sheep": 1}


def test_breeding_is_limited_by_the_herd() -> None:
    state = table({"horse": 5})
    roll(state, "rabbit", "horse")
    assert holding(state)["horse"] == 6, "3 are due, the herd has 1"
    assert state.herd[4] == 0


def test_the_fox_takes_every_rabbit_unless_a_small_dog_goes_instead() -> None:
    state = table({"rabbit": 9, "sheep": 1})
    roll(state, "sheep", "fox")
    assert holding(state) == {"sheep": 2}, "rabbits gone; the sheep and the one shown pair"
    state = table({"rabbit": 9, "small_dog": 2})
    roll(state, "rabbit", "fox")
    assert holding(state) == {"rabbit": 14, "small_dog": 1}


def test_the_wolf_takes_rabbits_sheep_pigs_and_cows_but_not_horses_or_small_dogs() -> None:
    state = table({"rabbit": 4, "sheep": 3, "cow": 1, "horse": 1, "small_dog": 1})
    roll(state, "wolf", "horse")
    assert holding(state) == {"horse": 2, "small_dog": 1}
    state = table({"rabbit": 4, "sheep": 3, "pig": 2, "big_dog": 1})
    roll(state, "wolf", "rabbit")
    assert holding(state) == {"rabbit": 6, "sheep": 3, "pig": 2}


def test_a_predator_strikes_before_the_other_die_breeds() -> None:
    state = table({"rabbit": 7})
    roll(state, "wolf", "rabbit")
    assert holding(state) == {}, "the wolf took the rabbits; one rabbit shown makes no pair"
    state = table({"sheep": 3, "rabbit": 2})
    roll(state, "sheep", "fox")
    assert holding(state) == {"sheep": 5}


def test_fox_and_wolf_together() -> None:
    state = table({"rabbit": 4, "sheep": 2, "horse": 1, "small_dog": 1, "big_dog": 1})
    roll(state, "wolf", "fox")
    assert holding(state) == {"rabbit": 4, "sheep": 2, "horse": 1}


def test_winning_after_an_exchange() -> None:
    state = table({"rabbit": 1, "sheep": 1, "pig": 1, "cow": 3})
    trade(state, "trade 2 cow > horse")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "full herd"
    assert state.turn == 1, "the winning turn counts"
    assert state.details()["rolls"] == 0, "won before rolling"


def test_winning_after_a_roll() -> None:
    state = table({"rabbit": 1, "sheep": 1, "cow": 1, "horse": 1}, {}, players=2)
    roll(state, "pig", "rabbit")
    assert state.outcome() is None, "one pig shown makes no pair"
    state = table({"rabbit": 1, "sheep": 1, "cow": 1, "horse": 1}, {}, players=2)
    roll(state, "pig", "pig")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert state.current_player() < 0 and state.turn == 1
    assert state.details()["rolls"] == 1


def test_an_exchange_that_gives_up_a_species_does_not_win() -> None:
    state = table({"rabbit": 1, "sheep": 1, "pig": 1, "cow": 2})
    trade(state, "trade 2 cow > horse")
    assert state.outcome() is None, "the cows went for the horse"


def test_turns_pass_around_the_table() -> None:
    state = table({}, {}, {}, players=3)
    for player in (0, 1, 2, 0):
        assert state.current_player() == player
        roll(state, "rabbit", "sheep")
    assert state.turn == 4


@pytest.mark.parametrize(
    ("options", "have", "dice", "after"),
    [
        ({"fox": "leave-one"}, {"rabbit": 9}, ("sheep", "fox"), {"rabbit": 1}),
        ({"fox": "leave-one"}, {}, ("sheep", "fox"), {}),
        ({"wolf": "takes-small-dog"}, {"sheep": 2, "small_dog": 2}, ("wolf", "pig"), {}),
        ({"dog": "always"}, {"sheep": 2, "small_dog": 1}, ("sheep", "fox"), {"sheep": 3}),
        (
            {"dog": "if-needed"},
            {"sheep": 2, "small_dog": 1},
            ("sheep", "fox"),
            {"sheep": 3, "small_dog": 1},
        ),
        (
            {"dog": "if-needed"},
            {"horse": 1, "big_dog": 1},
            ("wolf", "rabbit"),
            {"horse": 1, "big_dog": 1},
        ),
        (
            {"dog": "if-needed", "predators": "wolf-first"},
            {"rabbit": 3, "small_dog": 1},
            ("wolf", "fox"),
            {"small_dog": 1},
        ),
        (
            {"dog": "if-needed", "predators": "fox-first"},
            {"rabbit": 3, "small_dog": 1},
            ("wolf", "fox"),
            {},
        ),
    ],
)
def test_the_readings_that_differ_are_options(
    options: dict[str, str], have: dict[str, int], dice: tuple[str, str], after: dict[str, int]
) -> None:
    state = table(have, **options)
    roll(state, *dice)
    assert holding(state) == after
