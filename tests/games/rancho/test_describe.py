"""The log: each action says what it did to whom (predators, dogs, breeding, returns, tolls)."""

from __future__ import annotations

from typing import Any

from ranchhand.core import CHANCE
from ranchhand.games.rancho.actions import Return
from ranchhand.games.rancho.describe import counted
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import RanchoState
from tests.games.rancho.test_blocked import PURPLE, walled_in

ROOMY = {"pastures": ["4.1", "3.1"]}
"""P0 with the start animals (a rabbit and a sheep) and room for their young."""
# P1 (pen 5.16-5.17) grazes rabbits on two pastures costing 1 and a sheep on one costing 2.
P1_OUT = {
    "animals": {"rabbit": 10, "sheep": 1, "cow": 1},
    "pastures": ["4.13", "3.10", "2.7", "2.8"],
    "arrangement": "6 rabbit @2.7; 4 rabbit @2.8; sheep @3.10; cow @5.16-5.17",
}


def table(*players: dict[str, Any], **more: Any) -> RanchoState:
    return RanchoGame(len(players), **more.pop("options", {})).setup(
        {"players": list(players), **more}
    )


def told(state: RanchoState, text: str, viewer: int | None = None) -> str:
    """What ``text`` (the next action) tells ``viewer``; then the action is applied."""
    player = state.current_player()
    action = state.parse_action(text, player)
    before = state.to_json()
    line = state.describe_for(viewer, action, player)
    assert state.to_json() == before, "describing an action must not change the state"
    state.apply(action, player)
    return line


def test_counted_speaks_english() -> None:
    assert counted((3, 1, 0, 0, 0, 0)) == "3 rabbits and a sheep"
    assert counted((0, 2, 1, 1, 0, 0)) == "2 sheep, a cow and a horse"
    assert counted((0, 0, 0, 0, 1, 2)) == "a small dog and 2 large dogs"
    assert counted((0,) * 6) == "nothing"


def test_the_fox_says_what_it_took_from_whom_and_the_victim_reads_you() -> None:
    state = table(ROOMY, P1_OUT)
    state.apply_text("roll")
    assert told(state, "roll cow+fox") == "roll cow+fox"  # the strike comes next
    strike = state.clone()
    assert told(strike, "strike 1", viewer=1) == (
        "strike 1: the fox took 10 rabbits from you (pastures costing 1); P0 bred nothing"
    )
    line = told(state, "strike 1", viewer=None)
    assert line.startswith("strike 1: the fox took 10 rabbits from P1 (pastures costing 1)")
    assert state.animals[1][0] == 0


def test_the_wolf_takes_sheep_cows_and_horses_from_every_player_it_finds() -> None:
    p0 = {"animals": {"rabbit": 1, "sheep": 2}, "pastures": ["4.1", "3.1"]}
    p0["arrangement"] = "rabbit @5.1; sheep @3.1; sheep @4.1"
    state = table(p0, P1_OUT)
    state.apply_text("roll")
    state.apply_text("roll rabbit+wolf")
    line = told(state, "strike 2", viewer=0)
    assert line == (
        "strike 2: the wolf took a sheep from you, a sheep from P1 (pastures costing 2); "
        "you bred a rabbit"
    )
    assert told(table(p0, P1_OUT), "roll") == "roll"


def test_a_strike_on_empty_pastures_finds_nothing() -> None:
    state = table(ROOMY, P1_OUT)
    state.apply_text("roll")
    state.apply_text("roll wolf+wolf")
    assert told(state, "strike 4") == "strike 4: the wolf found nothing (pastures costing 4)"


def test_dogs_a_player_may_give_up_saving_animals_or_keep_losing_them() -> None:
    guarded = {**P1_OUT, "animals": {**P1_OUT["animals"], "small_dog": 1}}
    state = table(ROOMY, guarded)
    state.apply_text("roll")
    state.apply_text("roll sheep+fox")
    line = told(state, "strike 1", viewer=1)
    assert line == (
        "strike 1: the fox struck pastures costing 1; you may give up a small dog to save "
        "10 rabbits"
    )
    kept = state.clone()
    assert told(state, "give small dog") == ("give small dog, saving 10 rabbits: P0 bred a sheep")
    assert state.animals[1][0] == 10 and state.animals[1][4] == 0
    assert told(kept, "keep small dog", viewer=0) == (
        "keep small dog: the fox took 10 rabbits; you bred a sheep"
    )
    assert kept.animals[1][0] == 0 and kept.animals[1][4] == 1


def test_the_order_of_a_fox_and_a_wolf() -> None:
    state = table(ROOMY, P1_OUT)
    state.apply_text("roll")
    state.apply_text("roll fox+wolf")
    assert told(state, "wolf first") == "wolf first: the wolf strikes first"


def test_breeding_as_in_the_rulebook() -> None:
    """A player with 2 sheep and 5 rabbits who rolls a rabbit and a sheep gets 3 and 1."""
    p0 = {"animals": {"rabbit": 5, "sheep": 2}, "pastures": ["4.1", "3.1", "2.1"]}
    state = table(p0, {})
    state.apply_text("roll")
    assert told(state, "roll rabbit+sheep") == "roll rabbit+sheep: P0 bred 3 rabbits and a sheep"
    assert told(state, "end turn") == "end turn"


def test_breeding_after_the_rollers_own_losses_counts_what_was_born() -> None:
    """The fox takes the roller's rabbits on the pastures costing 1 before breeding."""
    mine = {
        "animals": {"rabbit": 10, "sheep": 1},
        "pastures": ["4.1", "3.1", "2.1", "2.2"],
        "arrangement": "6 rabbit @2.1; 4 rabbit @2.2; sheep @5.1",
    }
    state = table(mine, {})
    state.apply_text("roll")
    state.apply_text("roll rabbit+fox")
    line = told(state, "strike 1", viewer=0)
    # 10 rabbits taken, none left: the rabbit on the die has no mate.
    assert (
        line == "strike 1: the fox took 10 rabbits from you (pastures costing 1); you bred nothing"
    )


def test_newborns_that_do_not_fit_and_what_goes_back_to_the_herd() -> None:
    crowded = {"animals": {"rabbit": 11, "sheep": 1}, "arrangement": "6 rabbit @5.1; 5 rabbit @5.2"}
    crowded["animals"]["sheep"] = 0
    state = table(crowded, {})
    state.apply_text("roll")
    assert told(state, "roll rabbit+rabbit") == "roll rabbit+rabbit: P0 bred 6 rabbits, not all fit"
    returned = state.legal_actions()[0]
    assert isinstance(returned, Return)
    assert told(state, str(returned)) == (
        "return 5 rabbit: 5 rabbits back to the herd for lack of room"
    )


def test_a_win_is_told() -> None:
    ranch = ["4.1", "4.2", "4.24", "3.1", "4.23", "3.18"]
    p0 = {"animals": {"sheep": 1, "cow": 1, "horse": 1}, "pastures": ranch}
    state = table(p0, {})
    state.apply_text("roll")
    line = told(state, "roll rabbit+rabbit", viewer=0)
    assert line == "roll rabbit+rabbit: you bred a rabbit; you win!"
    p0 = {"animals": {"rabbit": 1, "sheep": 1, "cow": 3}, "pastures": ranch}
    state = table(p0, {})
    assert told(state, "trade 2 cow > horse") == "trade 2 cow > horse: P0 wins!"


def test_tolls_say_who_was_paid_and_what_found_no_room() -> None:
    state = walled_in()
    assert told(state, "buy 3.17 via 3.18 with 2 rabbit") == (
        "buy 3.17 via 3.18 with 2 rabbit: 2 rabbits toll to P2"
    )
    state = walled_in()
    full = "5 sheep"  # every space of Purple's pen and pastures holds a sheep
    from tests.games.rancho.helpers import give

    give(state, PURPLE, full)
    line = told(state, "buy 3.17 via 3.18 with 2 rabbit", viewer=PURPLE)
    assert line == (
        "buy 3.17 via 3.18 with 2 rabbit: 2 rabbits toll to you (2 back to the herd, no room)"
    )
    assert state.animals[PURPLE][0] == 0


def test_chance_actions_are_told_to_everyone_alike_but_you() -> None:
    state = table(ROOMY, P1_OUT)
    state.apply_text("roll")
    action = state.parse_action("roll cow+horse", CHANCE)
    lines = {viewer: state.describe_for(viewer, action, CHANCE) for viewer in (None, 0, 1)}
    assert lines[None] == lines[1] == "roll cow+horse: P0 bred nothing"
    assert lines[0] == "roll cow+horse: you bred nothing"
