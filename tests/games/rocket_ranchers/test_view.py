"""The terminal view draws what the observer may see, and the notation help is accurate."""

from __future__ import annotations

from rich.console import Console

from ranchhand.bots import RandomBot
from ranchhand.core import play
from ranchhand.games.rocket_ranchers import GAME, VIEW
from ranchhand.games.rocket_ranchers.actions import REBOOT
from ranchhand.games.rocket_ranchers.board import glyphs
from ranchhand.games.rocket_ranchers.bots import GreedyBot
from ranchhand.games.rocket_ranchers.notation import parse_action
from ranchhand.games.rocket_ranchers.view import compact_actions
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
    assert "SPACE CAT" in seen_by_owner and "  a " in seen_by_owner
    assert "1▒Kow●●T" in seen_by_owner  # the owner sees the founding card
    assert "Kow●●T" not in seen_by_other and "1▒" in seen_by_other
    assert "P0 you" in seen_by_owner and "P1 you" in seen_by_other


def test_a_display_card_shows_species_dots_biome_letter_and_mark() -> None:
    state = table({"a1": "capiwata/jungle/3", "b1": "cat"}, players=5)
    shown = _text(VIEW.render(state.observe(0))).splitlines()
    row = next(line for line in shown if line.startswith("1 "))
    assert row.startswith("1 Capiwata ●●● J")
    assert "SPACE CAT" in row
    marks = {"4+": 0, "5+": 0}
    tables = state.tables
    for line in shown:
        for mark in marks:
            marks[mark] += line.count(mark)
    kinds = [c for c in state.display if c >= 0]
    expected = {m: sum(glyphs(tables).marks[k] == m for k in kinds) for m in marks}
    assert marks == expected


def test_compact_actions_sum_up_each_phase_in_three_lines() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "kow/mountains/1", "c1": "bako/desert/3"})
    start = compact_actions(state.legal_actions())
    assert start[0].startswith("beam I2 I3 L3 O4: e.g. beam ")
    assert start[1].startswith("dogship: ") and len(start) == 2  # no reboot: all beams up
    state.apply_text("beam I3 r0 @a1")
    place = compact_actions(state.legal_actions())
    assert place == ["form: kow/tundra/2, kow/mountains/1, bako/desert/3"]
    state.apply_text("form bako")
    place = compact_actions(state.legal_actions())
    assert place[1] == "occupy: kow/tundra/2 in 1, kow/mountains/1 in 1"
    for width in (40, 80):
        assert all(len(line) <= width for line in compact_actions(state.legal_actions(), width))


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
    assert state.describe_for(None, draw, -1) == f"{draw} into a1"
    assert state.describe_for(1, draw, -1) == f"{draw} into a1"


def test_log_lines_say_what_an_action_does() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "cat", "a2": "bako/desert/3", "c1": "kow/tundra/3"})
    beam = state.parse_action("beam I2 r90 @a1")
    said = state.describe_for(0, beam, 0)
    assert said == "beam I2 r90 @a1, taking kow/tundra/2, bako/desert/3 and a Space Cat"
    assert state.describe_for(1, beam, 0) == "beam I2 r90 @a1, taking 2 cards and a Space Cat"
    said = state.describe_for(0, state.parse_action("dogship a1 c1"), 0)
    assert said == "dogship a1 c1, swapping kow/tundra/2 and kow/tundra/3"
    assert state.describe_for(1, REBOOT, 0).startswith("reboot, turning every beam")
    state.apply_text("beam I2 r90 @a1")
    form = state.parse_action("form kow")
    assert state.describe_for(0, form, 0) == "form kow/tundra/2, face down as corral 1"
    assert state.describe_for(1, form, 0) == "forms corral 1 with a face-down card"
    state.apply(form)
    occupy = state.parse_action("occupy bako in 1")
    assert state.describe_for(1, occupy, 0) == "occupy bako/desert/3 in 1 (1 card face up there)"
