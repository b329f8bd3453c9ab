"""The fox and the wolf: what they take, pens, dogs, the order of two predators."""

from __future__ import annotations

import pytest

from ranchhand.core import CHANCE, IllegalAction
from ranchhand.games.rancho.actions import DiceRoll, Dog, First, Roll, Strike
from ranchhand.games.rancho.state import DOG, ORDER, SETTLE, STRIKE
from ranchhand.games.rancho.tables import FOX, HORSE, LARGE_DOG, RABBIT, SHEEP, WOLF
from tests.games.rancho.helpers import arrange, box, give, own, position


def two_ranches(**options: str):  # type: ignore[no-untyped-def]
    """Player 0 (pen 5.1-5.2) reaches ring 2 at 2.1; player 1 (pen 5.16-5.17) at 2.7 and 2.8."""
    state = position(**options)
    own(state, 0, "4.1", "3.1", "2.1", "4.2", "4.24")
    own(state, 1, "4.13", "3.10", "2.7", "2.8", "4.14")
    return state


def roll(state, first: int, second: int) -> None:  # type: ignore[no-untyped-def]
    state.apply(Roll())
    state.apply(DiceRoll(*sorted((first, second))))


def test_fox_on_the_pastures_costing_one_takes_every_players_rabbits_there() -> None:
    state = two_ranches()
    give(state, 0, "8 rabbit")
    arrange(state, 0, "6 rabbit @5.1; 2 rabbit @2.1")
    give(state, 1, "6 rabbit + 2 sheep")
    arrange(state, 1, "6 rabbit @2.7; sheep @2.8; sheep @4.13")
    before = box(state)
    roll(state, RABBIT, FOX)
    assert state.phase == STRIKE and state.current_player() == CHANCE
    assert state.animals[0][RABBIT] == 8  # the die strikes before breeding
    state.apply(Strike(1))
    assert state.animals[1][:2] == [0, 2]  # the fox is no danger to sheep
    # Player 0 keeps the 6 rabbits of the pen, then breeds: (6 + 1) // 2 = 3.
    assert state.animals[0][RABBIT] == 9
    assert state.phase == SETTLE and box(state) == before
    assert state.eaten_value == 8


def test_wolf_on_the_pastures_costing_four_takes_animals_wholly_or_partly_there() -> None:
    state = two_ranches()
    give(state, 0, "horse + sheep + 6 rabbit")
    arrange(state, 0, "horse @5.1-5.2-4.1; sheep @3.1; 6 rabbit @4.2")
    give(state, 1, "cow + 2 sheep")
    arrange(state, 1, "cow @4.13-3.10; sheep @5.16; sheep @4.14")
    roll(state, RABBIT, WOLF)
    state.apply(Strike(4))
    assert state.animals[0][:4] == [6 + 3, 1, 0, 0]  # horse taken, rabbits stay and breed
    assert state.animals[1][:4] == [0, 1, 0, 0]  # cow partly on 4.13 taken; the pen sheep is safe


def test_animals_wholly_in_a_pen_are_safe() -> None:
    state = two_ranches()
    give(state, 1, "horse")
    arrange(state, 1, "horse @5.16-5.17-4.13")
    give(state, 0, "sheep + 6 rabbit")
    arrange(state, 0, "sheep @5.1; 6 rabbit @5.2")
    roll(state, FOX, WOLF)
    state.apply(First(FOX))
    state.apply(Strike(1))
    state.apply(Strike(2))
    assert state.animals[0][:2] == [6, 1] and state.animals[1][HORSE] == 1


def test_a_large_dog_saves_three_sheep_from_the_wolf() -> None:
    """The rulebook's dog example: wolf, pastures costing 4, the large dog is given up."""
    state = two_ranches(dogs="all")
    give(state, 1, "3 sheep + large dog")
    arrange(state, 1, "sheep @4.13; sheep @4.14; sheep @3.10")
    give(state, 0, "large dog")  # player 0 has nothing on ring 4: never asked
    before = box(state)
    roll(state, RABBIT, WOLF)
    state.apply(Strike(4))
    assert state.phase == DOG and state.current_player() == 1
    assert [str(a) for a in state.legal_actions()] == ["give large dog", "keep large dog"]
    with pytest.raises(IllegalAction, match=r"by a wolf; only a large dog saves from it"):
        state.apply(Dog(True, 4), 1)
    state.apply(Dog(True, LARGE_DOG), 1)
    assert state.animals[1][:6] == [0, 3, 0, 0, 0, 0]
    assert state.animals[0][LARGE_DOG] == 1 and state.dogs_given == 1
    assert state.phase == SETTLE and box(state) == before


def test_keeping_the_dog_loses_the_animals() -> None:
    state = two_ranches()
    give(state, 1, "3 sheep + large dog")
    arrange(state, 1, "sheep @4.13; sheep @4.14; sheep @3.10")
    roll(state, RABBIT, WOLF)
    state.apply(Strike(4))
    state.apply_text("keep large dog", 1)
    assert state.animals[1][SHEEP] == 1 and state.animals[1][LARGE_DOG] == 1


def test_a_small_dog_does_not_stop_a_wolf() -> None:
    state = two_ranches()
    give(state, 1, "sheep + small dog")
    arrange(state, 1, "sheep @4.13")
    roll(state, RABBIT, WOLF)
    state.apply(Strike(4))
    assert state.animals[1][SHEEP] == 0 and state.phase == SETTLE


def test_fox_and_wolf_the_roller_chooses_the_order() -> None:
    state = two_ranches()
    give(state, 0, "6 rabbit + sheep")
    arrange(state, 0, "6 rabbit @2.1; sheep @3.1")
    roll(state, FOX, WOLF)
    assert state.phase == ORDER and state.current_player() == 0
    assert {str(a) for a in state.legal_actions()} == {"fox first", "wolf first"}
    state.apply_text("wolf first")
    assert state.predators == [WOLF, FOX]
    state.apply(Strike(2))  # the wolf takes the sheep on 3.1
    assert state.animals[0][:2] == [6, 0] and state.phase == STRIKE
    state.apply(Strike(1))  # then the fox takes the rabbits on 2.1
    assert state.animals[0][:2] == [0, 0] and state.strikes == [(WOLF, 2), (FOX, 1)]


def test_two_foxes_roll_the_six_sided_die_twice() -> None:
    state = two_ranches()
    give(state, 0, "6 rabbit + 6 rabbit + 2 rabbit")
    arrange(state, 0, "6 rabbit @2.1; 6 rabbit @3.1; 2 rabbit @4.1")
    roll(state, FOX, FOX)
    state.apply(Strike(1))
    assert state.phase == STRIKE and state.animals[0][RABBIT] == 8
    state.apply(Strike(2))
    assert state.animals[0][RABBIT] == 2 and state.phase == SETTLE


def test_predators_strike_the_arrangement_as_it_stands() -> None:
    """The same animals, arranged safely during the expand step, survive the same strike."""
    exposed = two_ranches()
    give(exposed, 0, "sheep + 6 rabbit")
    arrange(exposed, 0, "sheep @4.1; 6 rabbit @5.1")
    safe = two_ranches()
    give(safe, 0, "sheep + 6 rabbit")
    arrange(safe, 0, "sheep @4.1; 6 rabbit @5.1")
    safe.apply_text("arrange sheep @5.2; 6 rabbit @5.1")
    for state in (exposed, safe):
        roll(state, RABBIT, WOLF)
        state.apply(Strike(4))
    assert exposed.animals[0][SHEEP] == 0 and safe.animals[0][SHEEP] == 1
