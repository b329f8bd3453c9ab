"""The terminal view and the greedy bot."""

from __future__ import annotations

import random

from rich.console import Console

from ranchhand.bots import RandomBot
from ranchhand.core import play
from ranchhand.core.registry import bot_factory, load
from ranchhand.games.rancho import BOTS, GAME, VIEW
from ranchhand.games.rancho.actions import Dog
from ranchhand.games.rancho.bots import GreedyBot, winning_deal
from ranchhand.games.rancho.tables import LARGE_DOG
from tests.games.rancho.helpers import arrange, give, own, position


def rendered(renderable: object) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_board_shows_ids_owners_animals_and_forest() -> None:
    state = position()
    give(state, 0, "7 rabbit + sheep + cow")
    own(state, 0, "4.1", "3.1", "4.2")
    text = rendered(VIEW.render(state.observe(0)))
    for expected in ("4.24", "2.12", "1·#", "^^", "0r6", "0r1", "0S", "0C", "herd", ">P0*"):
        assert expected in text
    assert "P0 trades, buys, arranges, rolls" in text


def test_actions_are_grouped_by_kind_and_notation_has_examples() -> None:
    state = position()
    give(state, 0, "12 rabbit + sheep")
    text = rendered(VIEW.render_actions(state.legal_actions()))
    assert "Turn: roll" in text and "Trades:" in text and "Buy pastures:" in text
    assert "trade 2 sheep + small dog + large dog + 3 rabbit > horse" in VIEW.notation
    assert VIEW.render_summary({"games": 3, "mean_turns": 40.5}) is not None


def test_registry_finds_game_bots_and_view() -> None:
    assert load("rancho", 3).players == 3
    assert bot_factory("rancho", "greedy") is GreedyBot
    assert "greedy" in BOTS and GAME.id == "rancho"


def test_greedy_completes_the_herd_in_one_deal() -> None:
    state = position()
    own(state, 0, "4.1", "4.2", "4.3", "4.24", "4.23", "4.22")
    give(state, 0, "3 cow + 2 sheep + rabbit")
    deal = winning_deal(state, 0)
    assert deal is not None and str(deal) == "trade 2 cow > horse"
    state.apply(deal)
    assert state.outcome() is not None and state.outcome().winners == (0,)


def test_greedy_gives_a_dog_only_when_it_saves_more_than_the_dog() -> None:
    for sheep, gives in ((2, True), (1, False)):
        state = position()
        own(state, 1, "4.13", "4.14")
        give(state, 1, f"{sheep} sheep + large dog")
        arrange(state, 1, "; ".join(f"sheep @{s}" for s in ("4.13", "4.14")[:sheep]))
        state.apply_text("roll")
        state.apply_text("roll rabbit+wolf")
        state.apply_text("strike 4")
        choice = GreedyBot().act(state.observe(1), state.legal_actions(), random.Random(0))
        assert choice == Dog(gives, LARGE_DOG)


def test_greedy_always_acts_legally_and_beats_random() -> None:
    wins = 0
    games = 200
    for seed in range(games):
        seats = [GreedyBot(), RandomBot()] if seed % 2 == 0 else [RandomBot(), GreedyBot()]
        result = play(GAME(2, max_turns=500), seats, seed)
        greedy_seat = seed % 2
        wins += result.outcome.winners == (greedy_seat,)
    assert wins >= 188  # 94%; 96-97% over thousands of games (see the docs)


def test_four_greedy_bots_finish_their_games() -> None:
    truncated = 0
    for seed in range(100):
        result = play(GAME(4, max_turns=500), [GreedyBot() for _ in range(4)], seed)
        truncated += result.outcome.truncated
    assert truncated == 0


def test_the_view_names_who_decides_on_a_dog_and_the_winner() -> None:
    state = position(dogs="all")
    own(state, 1, "4.13")
    give(state, 1, "sheep + large dog")
    arrange(state, 1, "sheep @4.13")
    state.apply_text("roll")
    state.apply_text("roll rabbit+wolf")
    state.apply_text("strike 4")
    text = rendered(VIEW.render(state.observe(1)))
    assert "P1 may give up a large dog to save a sheep" in text
    assert "Rolled by P0: rabbit + wolf; the wolf struck pastures costing 4" in text
    state.apply_text("give large dog", 1)
    give(state, 0, "rabbit + sheep + cow + horse")
    state.winner = 0
    assert "P0 has a full herd and wins!" in rendered(VIEW.render(state.observe(0)))
