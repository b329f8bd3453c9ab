"""What a shared screen may say about other players' actions."""

from ranchhand import load
from ranchhand.games.glory_ranch.actions import HandCard


def test_log_hides_a_given_card_from_everyone_but_the_giver() -> None:
    state = load("glory-ranch", 3).new_initial_state()
    action = HandCard("give", "wyvern")
    assert state.describe_for(0, action, 0) == "give wyvern"
    assert state.describe_for(1, action, 0) == "gives a card"
    assert state.describe_for(None, action, 0) == "gives a card"
    assert state.describe_for(1, HandCard("play", "wyvern"), 0) == "play wyvern"
