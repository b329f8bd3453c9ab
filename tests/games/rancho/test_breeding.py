"""Breeding after the roll: the rulebook's examples, the herd running short, no room."""

from __future__ import annotations

import pytest

from ranchhand.core import CHANCE, IllegalAction
from ranchhand.games.rancho.actions import DiceRoll, EndTurn, Return, Roll
from ranchhand.games.rancho.state import RETURN, SETTLE
from ranchhand.games.rancho.tables import COW, HORSE, RABBIT, SHEEP
from tests.games.rancho.helpers import box, counts, give, own, position

PASTURES = ("4.1", "4.2", "4.3", "4.24", "4.23", "4.22")


def rolled(state, first: int, second: int) -> None:  # type: ignore[no-untyped-def]
    state.apply(Roll())
    assert state.current_player() == CHANCE
    state.apply(DiceRoll(*sorted((first, second))))


@pytest.mark.parametrize(
    ("first", "second", "gained"),
    [
        (RABBIT, RABBIT, "3 rabbit"),
        (RABBIT, SHEEP, "3 rabbit + sheep"),
        (RABBIT, COW, "3 rabbit"),
        (SHEEP, SHEEP, "2 sheep"),
        (COW, SHEEP, "sheep"),
        (COW, COW, "cow"),
        (HORSE, COW, "nothing"),
    ],
)
def test_rulebook_breeding_examples(first: int, second: int, gained: str) -> None:
    """A player with 2 sheep and 5 rabbits, for each pair of dice in the rulebook."""
    state = position()
    give(state, 0, "2 sheep + 5 rabbit")
    own(state, 0, *PASTURES)
    before = box(state)
    rolled(state, first, second)
    expected = [a + b for a, b in zip(counts("2 sheep + 5 rabbit"), counts(gained), strict=True)]
    assert state.animals[0] == expected
    assert state.phase == SETTLE and box(state) == before


def test_herd_shortage_gives_only_what_the_herd_holds() -> None:
    """11 rabbits, a rabbit on both dice: 6 are due but the herd holds only 4."""
    state = position()
    give(state, 1, "5 rabbit")
    give(state, 0, "11 rabbit")
    own(state, 0, *PASTURES)
    assert state.herd[RABBIT] == 4
    rolled(state, RABBIT, RABBIT)
    assert state.animals[0][RABBIT] == 15 and state.herd[RABBIT] == 0


def test_breeding_ends_the_game_with_a_full_herd() -> None:
    state = position()
    give(state, 0, "rabbit + sheep + horse")
    own(state, 0, *PASTURES)
    rolled(state, COW, COW)  # no cow owned: the two dice make one pair
    assert state.animals[0][COW] == 1
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


def test_newborns_that_do_not_fit_go_back_as_the_player_chooses() -> None:
    state = position()
    give(state, 0, "6 rabbit + sheep")  # the pen is full
    before = box(state)
    rolled(state, RABBIT, SHEEP)
    assert state.phase == RETURN and state.current_player() == 0
    assert state.animals[0][:2] == [9, 2]  # 3 rabbits and a sheep were born
    offered = {str(a) for a in state.legal_actions()}
    assert offered == {"return 9 rabbit", "return 2 sheep"}
    with pytest.raises(IllegalAction, match=r"one rabbit fewer would fit too"):
        state.apply_text("return 4 rabbit + sheep")
    with pytest.raises(IllegalAction, match=r"still does not fit"):
        state.apply_text("return 2 rabbit + sheep")
    with pytest.raises(IllegalAction, match=r"dogs take no space"):
        state.apply_text("return small dog")
    state.apply(Return(counts("3 rabbit + sheep")))  # type: ignore[arg-type]
    assert state.animals[0][:2] == [6, 1] and state.phase == SETTLE
    assert box(state) == before
    state.apply(EndTurn())
    assert state.current_player() == 1 and state.turn == 1


def test_roll_and_end_turn_settles_in_advance() -> None:
    state = position()
    give(state, 0, "2 sheep + 5 rabbit")
    own(state, 0, *PASTURES)
    state.apply_text("roll and end turn")
    state.apply(DiceRoll(RABBIT, SHEEP))
    assert state.animals[0][:2] == [8, 3]
    assert state.current_player() == 1 and state.turn == 1  # no settle step
    assert state.pieces[0] == state.safest(0)


def test_roll_and_end_turn_still_asks_what_goes_back() -> None:
    state = position()
    give(state, 0, "6 rabbit + sheep")
    state.apply(Roll(True))
    state.apply(DiceRoll(RABBIT, SHEEP))
    assert state.phase == RETURN
    state.apply_text("return 2 sheep")
    assert state.current_player() == 1 and state.turn == 1
