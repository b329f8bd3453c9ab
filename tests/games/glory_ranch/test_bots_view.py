"""The greedy bot's choices and the terminal view (drawn from the observation only)."""

from __future__ import annotations

import random

from rich.console import Console

from ranchhand.core import play
from ranchhand.games.glory_ranch import BOTS, GAME, VIEW, GloryRanch
from ranchhand.games.glory_ranch.actions import Target
from tests.games.glory_ranch.helpers import do, table

GREEDY = BOTS["greedy"]()


def _choice(state, player: int = 0) -> str:  # type: ignore[no-untyped-def]
    return str(GREEDY.act(state.observe(player), state.legal_actions(player), random.Random(0)))


def _draw(renderable: object) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_greedy_prefers_glory_and_sheds_its_worst_card() -> None:
    state = table(2, hands={0: ["roc", "caladrius", "pixie"]}, vocabulary=False)
    assert _choice(state) == "play roc"
    state = table(2, hands={0: ["caladrius", "lindworm", "pixie", "kraken"]}, vocabulary=False)
    do(state, "play caladrius")
    assert _choice(state) == "discard kraken"


def test_greedy_aims_hostile_actions_at_the_leader() -> None:
    state = table(3, hands={0: ["thunderbird", "roc"]}, vocabulary=False)
    state.totals = [5, 40, 10]
    do(state, "play thunderbird")
    assert _choice(state) == "target 1"
    state = table(3, hands={0: ["cinder-wyrm", "roc"]}, vocabulary=False)
    state.ranches = [[], [state.game.index["pixie"]], [state.game.index["lindworm"]]]
    state.shields = [[], [0], [0]]
    do(state, "play cinder-wyrm")
    assert _choice(state) == "pick 2:1 lindworm"


def test_greedy_games_finish_for_every_player_count() -> None:
    for players in range(2, 7):
        result = play(GloryRanch(players), [BOTS["greedy"]()] * players, seed=players)
        assert result.outcome.reason == "target reached"


def test_view_draws_the_table_from_the_observation_without_leaks() -> None:
    state = table(3, hands={0: ["roc", "pixie"], 1: ["kraken", "kraken"]}, vocabulary=False)
    state.ranches[2] = [state.game.index["selkie"]]
    state.shields[2] = [1]
    text = _draw(VIEW.render(state.observe(0)))
    assert "Roc" in text and "Pixie" in text
    assert "Kraken" not in text  # player 1's hand stays hidden
    assert "1 Selkie Se2⧗*" in text  # position, family Sea, Glory, Hour Glass, protected
    assert "Round 1" in text and "clockwise" in text and "deck" in text
    assert "Give a card from your hand to another player." in text
    assert "play wyvern" in VIEW.notation and "choose rock" in VIEW.notation


def test_view_shows_only_your_own_secret_sign() -> None:
    state = table(2, hands={0: ["griffin", "roc"]}, vocabulary=False)
    do(state, "play griffin")
    state.apply_text("choose paper", 0)
    assert "Your secret sign: paper" in _draw(VIEW.render(state.observe(0)))
    assert "secret sign" not in _draw(VIEW.render(state.observe(1)))


def test_summary_counts_rounds_turns_seats_and_card_lift() -> None:
    game = GAME(3)
    details = [play(game, [BOTS["greedy"]()] * 3, seed=s).details for s in range(4)]
    summary = game.summarize(details)
    assert summary["games"] == 4
    rounds = sum(len(d["rounds"]) for d in details)
    assert summary["rounds_per_game"] == round(rounds / 4, 3)
    assert sum(summary["wins_per_seat"]) >= 4
    rows = {row["card"]: row for row in summary["cards"]}
    assert set(rows) == set(game.ids)
    seen = sum(row["rounds"] for row in summary["cards"])
    assert seen == sum(len(set(r)) for d in details for rd in d["rounds"] for r in rd["ranches"])
    text = _draw(VIEW.render_summary(summary))
    assert "lift" in text and "rounds per game" in text


def test_greedy_places_and_protects_for_the_most_glory() -> None:
    state = table(
        2,
        hands={0: ["will-o-wisp", "roc"]},
        ranches={0: ["pixie", "roc", "roc"]},
        vocabulary=False,
    )
    do(state, "play will-o-wisp")
    # next to the Pixie, whose Hour Glass counts Fae neighbours (not at the right end)
    assert _choice(state) in ("place 1", "place 2")
    state = table(
        2, hands={0: ["hearth-drake", "roc"]}, ranches={0: ["pixie", "lindworm"]}, vocabulary=False
    )
    do(state, "play hearth-drake")
    assert _choice(state) == "pick 0:2 lindworm"


def test_choosing_yourself_is_refused_with_the_reason() -> None:
    state = table(3, hands={0: ["draw-chosen", "plain"]})
    do(state, "play draw-chosen")
    assert state.why_illegal(state.parse_action("target 1")) is None
    reason = state.why_illegal(Target(0))
    assert reason == "choose another player, not yourself: P1 or P2"


def test_greedy_never_hands_back_a_card_that_returns_ranch_cards() -> None:
    """Two greedy players once handed each other's Hob back forever (seed 19)."""
    result = play(GloryRanch(2, max_turns=3000), [BOTS["greedy"](), BOTS["greedy"]()], seed=19)
    assert result.outcome.reason == "target reached"
    state = table(
        2,
        hands={0: ["hob", "roc"], 1: ["pixie", "pixie"]},
        ranches={1: ["hob", "pixie"]},
        vocabulary=False,
    )
    do(state, "play hob")
    assert _choice(state) == "pick 1:2 pixie"  # not the Hob, though it has more Glory
