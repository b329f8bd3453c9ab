"""The terminal view draws what the observer may see, and the notation help is accurate."""

from __future__ import annotations

from rich.console import Console

from ranchhand.bots import RandomBot
from ranchhand.core import play
from ranchhand.games.rocket_ranchers import GAME, VIEW
from ranchhand.games.rocket_ranchers.bots import GreedyBot
from ranchhand.games.rocket_ranchers.notation import parse_action
from tests.games.rocket_ranchers.helpers import table


def _text(renderable: object) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_render_shows_the_grid_the_cats_and_hides_others_founders() -> None:
    state = table({"d4": "cat", "b1": "kow/tundra/2"})
    state.apply_text("beam I2 r0 @b1")
    state.apply_text("form kow/tundra/2")
    seen_by_owner = _text(VIEW.render(state.observe(0)))
    seen_by_other = _text(VIEW.render(state.observe(1)))
    assert "SPACE CAT" in seen_by_owner and "Wildlife display" in seen_by_owner
    assert "Kow ●● Tun" in seen_by_owner  # the owner sees the founding card
    assert "Kow" not in seen_by_other.split("Ranchers")[-1]


def test_notation_examples_parse() -> None:
    tables = GAME(2).tables
    examples = (
        "beam L3 r90 @b2",
        "beam I3 r90 @d1",
        "dogship a1 c3",
        "form kow/tundra/2",
        "occupy kow/tundra/2 in 1",
        "draw cat",
        "reboot",
        "end",
    )
    for text in examples:
        assert text in VIEW.notation
        assert str(parse_action(text, tables)) == text


def test_render_actions_groups_beams_by_shape() -> None:
    state = table()
    shown = _text(VIEW.render_actions(state.legal_actions()))
    assert "beam L3 r90: @a1" in shown and "dogship" in shown


def test_render_summary_draws_the_score_split() -> None:
    game = GAME(3)
    details = [
        play(game, [GreedyBot(), GreedyBot(), RandomBot()], seed=s).details for s in range(3)
    ]
    summary = game.summarize(details)
    assert summary["games"] == 3
    total = summary["average"]["score"]
    parts = summary["average"]
    assert abs(parts["abundance"] + parts["variety"] + parts["cats"] - total) < 1e-9
    shown = _text(VIEW.render_summary(summary))
    assert "abundance" in shown and "variety" in shown and "all" in shown


def test_the_log_shows_draws_because_they_land_face_up() -> None:
    import ranchhand

    state = ranchhand.load("rocket-ranchers", 2).new_initial_state()
    draw = state.chance_outcomes().actions[0]
    assert state.describe_for(None, draw, -1) == str(draw)
    assert state.describe_for(1, draw, -1).startswith("draw ")
