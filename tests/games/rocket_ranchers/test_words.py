"""The log in words: every action and chance event of Rocket Ranchers told as sentences.

Players are named, the viewer is "you"; a founding card is named only to its owner and
the Wildlife cards a beam takes only to the player who beams, as :meth:`describe_for`
does (the property at the end checks that over random games).
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable

import pytest

from ranchhand.core import CHANCE
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.phases import AFTER, PLACE
from ranchhand.games.rocket_ranchers.state import RocketState
from tests.games.rocket_ranchers.helpers import endgame, finish_refill, table
from tests.games.words_checks import play_telling

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
NOTATION = re.compile(
    r"[a-z]+/[a-z]+/\d|\b[ILO]\d\b|\br\d+\b|@[a-d]\d|\bdogship [a-d]\d|\bbeam [A-Z]"
    r"|\b(form|occupy|draw) [a-z]|^end$|\bcat\b|\bin \d\b|\bP\d\b"
)
"""Fragments of the notation (card texts, beam names and turns, action words as typed,
seats as numbers) that no sentence may hold."""
CARD_TEXT = re.compile(r"[a-z]+/[a-z]+/\d")
CARD_WORDS = re.compile(r"([A-Z][a-z]+) ([A-Z][a-z]+) \((\d) dots?\)")


def _cards_named(line: str, said: str) -> None:
    """Every Wildlife card ``said`` names (``Tundra Kow (2 dots)``) the notation's line
    names too (``kow/tundra/2``): a founding card and the cards another player's beam
    took are never named, though the observation lets a player follow them."""
    words = {f"{s}/{b}/{d}".lower() for b, s, d in CARD_WORDS.findall(said)}
    assert words <= set(CARD_TEXT.findall(line)), (line, said)


def _told(state: RocketState, text: str, player: int | None = None) -> dict[int | None, str]:
    actor = state.current_player() if player is None else player
    action = state.parse_action(text, actor)
    names = NAMES[: state.game.players]
    seats = (*range(state.game.players), None)
    return {v: state.describe_words(v, action, actor, names) for v in seats}


def test_a_beam_names_its_pattern_and_cells_and_the_cards_only_to_the_beamer() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "bako/tundra/2", "c1": "cat", "a2": "cat"})
    told = _told(state, "beam I2 r0 @a1")
    assert told[0] == (
        "You used your line of 2 on a1 and b1 and took Tundra Kow (2 dots), "
        "Tundra Bako (2 dots) and 2 Space Cats."
    )
    assert (
        told[1]
        == told[None]
        == ("Ann used their line of 2 on a1 and b1 and took 2 cards and 2 Space Cats.")
    )


def test_a_founding_card_is_named_to_its_owner_only_and_an_occupied_corral_counts() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "bako/tundra/2"})
    state.apply_text("beam I2 r0 @a1")
    told = _told(state, "form kow/tundra/2")
    assert told[0] == "You formed corral 1 with Tundra Kow (2 dots), face down."
    assert told[1] == told[None] == "Ann formed corral 1 with a face-down card."
    state.apply_text("form kow/tundra/2")
    told = _told(state, "occupy bako/tundra/2 in 1")
    assert (
        told[0]
        == "You put Tundra Bako (2 dots) face up in your corral 1 (the first face up there)."
    )
    assert (
        told[1]
        == "Ann put Tundra Bako (2 dots) face up in their corral 1 (the first face up there)."
    )


def test_a_draw_fills_the_next_empty_cell_in_plain_view() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "bako/tundra/2"})
    state.apply_text("beam I2 r0 @a1")
    while state.phase == PLACE:
        state.apply_text(f"form {state.tables.text[state.pending[0]]}")
    told = _told(state, "draw cat", CHANCE)
    assert set(told.values()) == {"A Space Cat was turned up in a1."}
    kind = next(k for k, n in enumerate(state.deck) if n)
    told = _told(state, f"draw {state.tables.text[kind]}", CHANCE)
    assert told[0].endswith(" was turned up in a1.") and "(" in told[0]


def test_the_setup_deal_is_told_the_same_way() -> None:
    state = RocketGame(2).new_initial_state()
    told = _told(state, "draw kow/tundra/2", CHANCE)
    assert set(told.values()) == {"Tundra Kow (2 dots) was turned up in a1."}


def test_the_dogship_swap_names_both_cards_and_cells() -> None:
    state = table({"a1": "kow/tundra/2", "d4": "bako/tundra/2"})
    told = _told(state, "dogship d4 a1")
    assert (
        told[0] == "Your dogship swapped Tundra Kow (2 dots) in a1 and Tundra Bako (2 dots) in d4."
    )
    assert told[1] == (
        "Ann's dogship swapped Tundra Kow (2 dots) in a1 and Tundra Bako (2 dots) in d4."
    )


def test_ending_a_turn_and_rebooting_by_hand_or_automatically() -> None:
    state = table()
    state.apply_text("beam I2 r0 @a1")
    while state.phase == PLACE:
        state.apply_text(f"form {state.tables.text[state.pending[0]]}")
    finish_refill(state)
    assert state.phase == AFTER
    told = _told(state, "end")
    assert told[0] == "You ended your turn, keeping your dogship face up."
    assert told[1] == "Ann ended their turn, keeping their dogship face up."
    state.apply_text("end")
    state.apply_text("beam I2 r0 @a1")  # Bob, so that Ann may reboot by hand next
    while state.phase == PLACE:
        state.apply_text(f"form {state.tables.text[state.pending[0]]}")
    finish_refill(state)
    if state.phase == AFTER:
        state.apply_text("end")
    told = _told(state, "reboot")
    assert told[1] == "Ann rebooted: their beams and their dogship are face up again."
    state = table()
    state.beams[0] = 1  # only the line of 2 is left face up: this beam turns the last down
    state._forget_cached()
    state.apply_text("beam I2 r0 @a1")
    state.apply_text(f"form {state.tables.text[state.pending[0]]}")
    told = _told(state, f"form {state.tables.text[state.pending[0]]}")
    assert told[1] == (
        "Ann formed corral 2 with a face-down card. All their beams were down, so Ann "
        "rebooted: their beams and their dogship are face up again."
    )


def test_the_deck_running_out_and_the_end_of_the_game_with_every_score() -> None:
    state = endgame(2, 0, deck=["kow/tundra/2"])
    state.apply_text("beam I2 r0 @a1")
    while state.phase == PLACE:
        state.apply(state.legal_actions()[0])
    told = _told(state, "draw kow/tundra/2", CHANCE)
    assert told[None] == (
        "Tundra Kow (2 dots) was turned up in a1. That was the deck's last card: "
        "play goes on until everyone has had as many turns."
    )
    state = endgame(2, 1, empty=["a1", "b1", "a2", "b2"])
    told = _told(state, "beam O4 r0 @a1")
    assert told[1] == (
        "You used your 2x2 square on a1, b1, a2 and b2 and took nothing: the cells were empty."
    )
    state.apply_text("beam O4 r0 @a1")
    last = "end" if state.phase == AFTER else None
    assert last is not None
    told = _told(state, last)
    assert told[0].startswith(
        "Bob ended their turn, keeping their dogship face up. The game is over."
    )
    scores = [s for s in told[0].split("Points: ")[1].split("; ")]
    assert scores[0].startswith("you ") and "Space Cats -5" in scores[0]  # seat 0 holds the cats
    assert scores[1].startswith("Bob ") and "Abundance" in scores[1] and "Variety" in scores[1]
    assert told[0].endswith(" won the game.")


def test_the_all_seeing_viewer_reads_every_card_and_a_refused_action_is_told_as_typed() -> None:
    state = table({"a1": "kow/tundra/2", "b1": "bako/tundra/2"})
    beam = state.parse_action("beam I2 r0 @a1")
    assert state.describe_words(CHANCE, beam, 0, NAMES[:2]) == (
        "Ann used their line of 2 on a1 and b1 and took Tundra Kow (2 dots) and "
        "Tundra Bako (2 dots)."
    )
    occupy = state.tables.occupy(0, 4)
    assert state.describe_words(1, occupy, 0, NAMES[:2]) == f"Ann chose {occupy}."


def test_words_worked_out_once_per_action_are_each_viewers_own() -> None:
    """The words are remembered per action on the state: a viewer the words do not name
    reads the spectator's sentence, the player their own, in whatever order they ask."""
    state = table({"a1": "kow/tundra/2", "b1": "bako/tundra/2"}, players=3)
    beam = state.parse_action("beam I2 r0 @a1")
    names = NAMES[:3]
    first = [state.describe_words(v, beam, 0, names) for v in (2, 0, None, 1)]
    assert (
        first[0]
        == first[2]
        == first[3]
        == ("Ann used their line of 2 on a1 and b1 and took 2 cards.")
    )
    assert first[1].startswith("You used your line of 2 on a1 and b1 and took Tundra Kow")
    assert state.describe_words(1, beam, 0, ("Al", "Bo", "Cy")).startswith("Al used")
    state.apply(beam)
    form = state.legal_actions()[0]
    assert state.describe_words(1, form, 0, names).startswith("Ann formed corral 1")


# --------------------------------------------------------------------- property
def _variants(
    state: RocketState, viewer: int | None, action: Hashable, player: int, rng: random.Random
) -> list[RocketState]:
    """Positions ``viewer`` cannot tell from ``state`` (founding cards and the deck
    redrawn) where ``action`` is legal."""
    found = []
    observation = state.observe(viewer)
    for _ in range(3):
        variant = state.game.sample_state(observation, rng)
        assert isinstance(variant, RocketState)
        if variant.is_legal(action, player):
            found.append(variant)
    return found


def _check(state: RocketState, line: str, said: str) -> None:
    assert not NOTATION.search(said), said
    _cards_named(line, said)


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (4, 22), (5, 23)])
def test_words_never_raise_speak_no_notation_and_tell_no_more_than_describe_for(
    players: int, seed: int
) -> None:
    """At every step, for every viewer: positions the viewer cannot tell apart (the real
    one, determinized ones, every outcome of a draw) whose ``describe_for`` lines agree
    get the same words; the game is played to its end."""
    state = RocketGame(players).new_initial_state()
    rng = random.Random(seed)
    played = play_telling(state, NAMES[:players], rng, _variants, _check, every=4)
    assert played > 150 and state.is_terminal()
