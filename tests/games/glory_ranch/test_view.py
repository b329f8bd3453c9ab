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


def test_the_board_command_shows_every_hand_card_with_its_whole_text() -> None:
    import io
    import random

    from rich.console import Console

    from ranchhand.games.glory_ranch import VIEW, GloryRanch

    state = GloryRanch(4).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply(state.chance_outcomes().sample(rng))
    observation = state.observe(0)
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(VIEW.render_full(observation))
    shown = " ".join(out.getvalue().replace("│", " ").split())
    for kind in observation.hand:
        words = observation.cards.cards[kind].text.split()
        assert all(word in shown for word in words)
