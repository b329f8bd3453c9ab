"""The log in words: every action and chance event of Glory Ranch told as sentences.

Players are named, the viewer is "you", and each viewer reads a card by name exactly
where :meth:`describe_for` names it (the property at the end checks that over random
games: the words never tell two positions apart that the notation's line does not).
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable

import pytest

from ranchhand.core import CHANCE
from ranchhand.games.glory_ranch import GloryRanch, GloryState
from ranchhand.games.glory_ranch.actions import Choose, HandCard, Target
from tests.games.glory_ranch.helpers import do, table
from tests.games.words_checks import play_telling

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
NOTATION = re.compile(r"\d:\d|\btarget \d|\bpick \d|\bplace \d|\bchoose [a-z]|\bP\d\b")
"""Fragments of the notation (seats as numbers, actions as typed) no sentence may hold."""


def _no_notation(state: GloryState, said: str) -> None:
    """``said`` holds no notation and no card id (``cinder-wyrm``: names are ``Cinder Wyrm``)."""
    assert not NOTATION.search(said), said
    ids = {card.id for card in state.game.deck.cards if card.id != card.name}
    assert not set(re.findall(r"[a-z][a-z'-]*[a-z]", said)) & ids, said


def _cards_named(state: GloryState, line: str, said: str) -> None:
    """Every card ``said`` names, the notation's ``line`` names too (by name or id), or
    it lies face up in a ranch."""
    ranches = {k for ranch in state.ranches for k in ranch}
    for card in state.game.deck.cards:
        named = re.compile(rf"(?<![\w'-]){re.escape(card.name)}(?![\w'-])")
        if named.search(said) and card.index not in ranches:
            either = f"{re.escape(card.name)}|{re.escape(card.id)}"
            known = re.compile(rf"(?<![\w'-])({either})(?![\w'-])")
            assert known.search(line), (card.name, line, said)


def _told(state: GloryState, action: Hashable, player: int) -> dict[int | None, str]:
    names = NAMES[: state.game.players]
    seats = (*range(state.game.players), None)
    return {v: state.describe_words(v, action, player, names) for v in seats}


def test_a_play_is_told_to_all_and_a_skip_names_who_loses_a_turn() -> None:
    state = table(3, hands={0: ["jackalope", "roc"]}, vocabulary=False)
    told = _told(state, HandCard("play", "jackalope"), 0)
    assert told[0] == "You played Jackalope. Bob loses their next turn."
    assert told[1] == "Ann played Jackalope. You lose your next turn."
    assert told[2] == told[None] == "Ann played Jackalope. Bob loses their next turn."


def test_a_chosen_player_draws_and_the_card_is_named_to_the_drawer_only() -> None:
    state = table(3, hands={0: ["wyvern", "roc"]}, vocabulary=False)
    do(state, "play wyvern")
    told = _told(state, Target(1), 0)
    assert told[0] == "You chose Bob to draw a card."
    assert told[1] == "Ann chose you to draw a card."
    do(state, "target 1")
    draw = next(a for a in state.legal_actions(CHANCE) if str(a) == "draw kraken")
    told = _told(state, draw, CHANCE)
    assert told[1] == "You drew Kraken."
    assert told[0] == told[2] == told[None] == "Bob drew a card."


def test_the_deal_is_told_as_cards_dealt() -> None:
    state = GloryRanch(2).new_initial_state()
    draw = state.chance_outcomes().actions[0]
    told = _told(state, draw, CHANCE)
    name = state.game.deck.cards[state.game.index[draw.card]].name  # type: ignore[attr-defined]
    assert told[0] == f"You were dealt {name}."
    assert told[1] == told[None] == "Ann was dealt a card."


def test_a_card_given_is_named_to_the_giver_and_the_receiver_only() -> None:
    state = table(3, hands={2: ["selkie", "kraken", "roc"]}, current=2, vocabulary=False)
    do(state, "play selkie")
    assert _told(state, Target(0), 2)[1] == "Cy chose to give Ann a card."
    do(state, "target 0")
    told = _told(state, HandCard("give", "kraken"), 2)
    assert told[0] == "Cy gave you Kraken."
    assert told[1] == told[None] == "Cy gave Ann a card."
    assert told[2] == "You gave Ann Kraken."


def test_a_card_given_without_a_choice_and_the_round_end_follow_the_target() -> None:
    state = table(3, hands={2: ["selkie", "kraken"]}, current=2, vocabulary=False)
    do(state, "play selkie")
    told = _told(state, Target(0), 2)  # Cy's hand is then empty: the round ends
    assert told[0].startswith("Cy chose to give you a card. Cy gave you Kraken. Round 1 ended.")
    assert told[1].startswith("Cy chose to give Ann a card. Cy gave Ann a card. Round 1 ended.")
    assert told[2].startswith("You chose to give Ann a card. You gave Ann Kraken. Round 1 ended.")
    assert told[0].endswith("Round 2 begins: you go first.")
    assert told[1].endswith("Round 2 begins: Ann goes first.")


def test_a_card_stolen_is_named_to_the_thief_and_the_robbed_player() -> None:
    state = table(
        3, hands={1: ["peryton", "roc"], 0: ["selkie", "selkie"]}, current=1, vocabulary=False
    )
    do(state, "play peryton")
    assert _told(state, Target(0), 1)[2] == "Bob chose to steal from Ann."
    do(state, "target 0")
    told = _told(state, state.legal_actions(CHANCE)[0], CHANCE)
    assert told[0] == "Bob stole your Selkie."
    assert told[1] == "You stole Selkie from Ann."
    assert told[2] == told[None] == "Bob stole a card from Ann."


def test_traded_hands_are_listed_to_the_traders_and_counted_for_the_others() -> None:
    state = table(
        3,
        hands={0: ["puck", "roc", "roc"], 1: ["kraken"], 2: ["pixie", "brownie"]},
        vocabulary=False,
    )
    do(state, "play puck")
    told = _told(state, Target(1), 0)
    assert told[0] == (
        "You chose to trade hands with Bob. You traded hands with Bob: you got Kraken."
    )
    assert told[1] == (
        "Ann chose to trade hands with you. Ann traded hands with you: you got Roc and Roc."
    )
    assert told[2] == (
        "Ann chose to trade hands with Bob. Ann traded hands with Bob (2 cards for 1)."
    )


def test_passed_cards_are_named_to_whoever_receives_them_and_play_reverses() -> None:
    state = table(
        3,
        hands={0: ["merrow", "roc", "kraken"], 1: ["selkie", "hob"], 2: ["pixie", "brownie"]},
        vocabulary=False,
    )
    do(state, "play merrow", "pass kraken", "pass hob")
    told = _told(state, HandCard("pass", "pixie"), 2)
    reversed_ = "Play reversed: it now goes counter-clockwise."
    assert told[0] == f"Cy chose a card to pass. Bob passed you Hob. {reversed_}"
    assert told[1] == f"Cy chose a card to pass. Cy passed you Pixie. {reversed_}"
    assert told[2] == f"You put Pixie aside to pass to Bob. Ann passed you Kraken. {reversed_}"
    assert told[None] == f"Cy chose a card to pass. The passed cards changed hands. {reversed_}"


def test_discards_are_face_up() -> None:
    state = table(2, hands={0: ["brownie", "kraken", "roc"]}, vocabulary=False)
    do(state, "play brownie")
    told = _told(state, HandCard("discard", "kraken"), 0)
    assert told[0] == "You discarded Kraken."
    assert told[1] == told[None] == "Ann discarded Kraken."


def test_ranch_cards_discarded_returned_and_protected() -> None:
    state = table(
        3, hands={0: ["cinder-wyrm", "roc"]}, ranches={1: ["selkie", "roc"]}, vocabulary=False
    )
    do(state, "play cinder-wyrm")
    told = _told(state, state.parse_action("pick 1:2"), 0)
    assert told[0] == "You discarded Roc from Bob's ranch."
    assert told[1] == "Ann discarded Roc from your ranch."
    assert told[2] == "Ann discarded Roc from Bob's ranch."
    state = table(3, hands={0: ["hob", "roc"]}, ranches={1: ["selkie", "kraken"]}, vocabulary=False)
    do(state, "play hob")
    told = _told(state, state.parse_action("pick 1:2"), 0)
    assert told[1] == "Ann returned Kraken from your ranch to your hand."
    assert told[2] == "Ann returned Kraken from Bob's ranch to Bob's hand."
    state = table(2, hands={0: ["phoenix", "roc"]}, ranches={0: ["kraken"]}, vocabulary=False)
    do(state, "play phoenix")
    told = _told(state, state.parse_action("pick 0:1"), 0)
    assert told[0] == "You took Kraken from your own ranch back into your hand."
    assert told[1] == "Ann took Kraken from their own ranch back into their hand."
    state = table(2, hands={0: ["hearth-drake", "roc"]}, ranches={0: ["hob"]}, vocabulary=False)
    do(state, "play hearth-drake")
    told = _told(state, state.parse_action("pick 0:1"), 0)
    assert told[0] == "You protected Hob in your ranch."
    assert told[1] == "Ann protected Hob in their ranch."


def test_where_a_card_is_placed_in_the_ranch() -> None:
    state = table(
        3, hands={0: ["will-o-wisp", "roc"]}, ranches={0: ["hob", "kraken"]}, vocabulary=False
    )
    do(state, "play will-o-wisp")
    told = _told(state, state.parse_action("place 2"), 0)
    assert told[1] == (
        "Ann placed Will-o'-Wisp second from the left in their ranch. "
        "Play reversed: it now goes counter-clockwise."
    )
    assert _told(state, state.parse_action("place 1"), 0)[0].startswith(
        "You placed Will-o'-Wisp at the left end of your ranch."
    )
    state = table(2, hands={0: ["catoblepas", "roc"]}, ranches={0: ["hob"]}, vocabulary=False)
    told = _told(state, HandCard("play", "catoblepas"), 0)
    assert told[1] == "Ann played Catoblepas at the left end of their ranch."


def test_rock_paper_scissors_signs_stay_secret_until_the_contest() -> None:
    state = table(3, hands={0: ["griffin", "roc", "kraken"], 1: ["hob", "roc"]}, vocabulary=False)
    do(state, "play griffin")
    told = _told(state, Target(1), 0)
    assert told[2] == "Ann challenged Bob to rock-paper-scissors."
    assert told[1] == "Ann challenged you to rock-paper-scissors."
    do(state, "target 1")
    told = _told(state, Choose("rock"), 0)
    assert told[0] == "You chose rock for rock-paper-scissors."
    assert told[1] == told[2] == told[None] == "Ann chose a sign for rock-paper-scissors."
    do(state, "choose rock", player=0)
    tie = _told(state, Choose("rock"), 1)
    assert tie[2] == "Ann and Bob both showed rock: they play again."
    assert tie[1] == "Ann and you both showed rock: you play again."
    do(state, "choose rock", player=1)
    do(state, "choose rock", player=0)
    told = _told(state, Choose("scissors"), 1)
    assert told[2] == "Ann showed rock and Bob showed scissors: Ann won."
    assert told[1] == "Ann showed rock and you showed scissors: Ann won."
    do(state, "choose scissors", player=1)
    told = _told(state, HandCard("give", "kraken"), 0)  # the winner gives the loser a card
    assert told[1] == "Ann gave you Kraken."
    assert told[2] == "Ann gave Bob a card."


def test_a_contest_tied_too_often_is_void() -> None:
    state = table(2, hands={0: ["griffin", "roc", "kraken"]}, rps_ties=2, vocabulary=False)
    do(state, "play griffin")
    do(state, "choose paper", player=0)
    do(state, "choose paper", player=1)
    do(state, "choose rock", player=0)
    told = _told(state, Choose("rock"), 1)
    assert told[0] == "You and Bob both showed rock, 2 ties in a row: the contest is void."


def test_the_discard_pile_shuffled_into_an_empty_deck() -> None:
    state = table(2, hands={0: ["lindworm", "roc"]}, stock=[], discard=["kraken"], vocabulary=False)
    told = _told(state, HandCard("play", "lindworm"), 0)
    assert told[1] == "Ann played Lindworm. The discard pile was shuffled into the deck."


def test_the_round_end_gives_every_score_and_the_game_end_the_winner() -> None:
    setup = {"player": [{"hand": ["roc"], "ranch": ["lindworm"]}, {"hand": ["kraken", "puck"]}]}
    state = GloryRanch(2, target=10).setup(setup)
    told = _told(state, HandCard("play", "roc"), 0)
    assert told[1] == (
        "Ann played Roc. Round 1 ended. Glory: Ann +12 (total 12), you -7 (total 0). "
        "Ann won the game with 12 Glory."
    )
    assert told[0].endswith("You won the game with 12 Glory.")
    state = GloryRanch(2).setup(setup)
    assert _told(state, HandCard("play", "roc"), 0)[None] == (
        "Ann played Roc. Round 1 ended. Glory: Ann +12 (total 12), Bob -7 (total 0). "
        "Round 2 begins: Bob goes first."
    )


def test_the_all_seeing_viewer_reads_every_card_and_a_refused_action_is_told_as_typed() -> None:
    state = table(
        3, hands={1: ["peryton", "roc"], 0: ["selkie", "selkie"]}, current=1, vocabulary=False
    )
    do(state, "play peryton", "target 0")
    steal = state.legal_actions(CHANCE)[0]
    assert state.describe_words(CHANCE, steal, CHANCE, NAMES[:3]) == "Bob stole Selkie from Ann."
    assert state.describe_words(2, Target(0), 0, NAMES[:3]) == "Ann chose target 0."


# --------------------------------------------------------------------- property
def _hidden_swap(variant: GloryState, player: int, card: int, viewer: int | None) -> bool:
    """Put ``card`` in ``player``'s hand of a determinized ``variant`` by exchanging it
    with one of theirs, taken from where the viewer cannot see (the deck or another
    hidden hand); False if nowhere hidden holds it."""
    hands = variant.hands
    if hands[player][card]:
        return True
    sources = [variant.deck] + [
        hands[q] for q in range(variant.game.players) if q not in (player, viewer)
    ]
    source = next((s for s in sources if s[card]), None)
    mine = [k for k, c in enumerate(hands[player]) if c]
    if source is None or not mine:
        return False
    other = mine[0]
    hands[player][other] -= 1
    hands[player][card] += 1
    source[card] -= 1
    source[other] += 1
    variant._forget_cached()
    return True


def _variants(
    state: GloryState, viewer: int | None, action: Hashable, player: int, rng: random.Random
) -> list[GloryState]:
    """Positions ``viewer`` cannot tell from ``state`` where ``action`` is legal."""
    found = []
    observation = state.observe(viewer)
    for _ in range(3):
        variant = state.game.sample_state(observation, rng)
        assert isinstance(variant, GloryState)
        card = getattr(action, "card", None)
        held = isinstance(action, HandCard) and card in variant.game.index
        if held and not _hidden_swap(variant, player, variant.game.index[card], viewer):
            continue
        if player == CHANCE and not variant.is_chance_node():
            continue
        if player != CHANCE and player not in variant.acting_players():
            continue
        if variant.is_legal(action, player):
            found.append(variant)
    return found


def _check(state: GloryState, line: str, said: str) -> None:
    _no_notation(state, said)
    _cards_named(state, line, said)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12), (6, 13)])
def test_words_never_raise_speak_no_notation_and_tell_no_more_than_describe_for(
    players: int, seed: int
) -> None:
    """At every step, for every viewer: positions the viewer cannot tell apart (the real
    one, determinized ones with the acting player's card put in their hand, every outcome
    of a chance node) whose ``describe_for`` lines agree get the same words."""
    state = GloryRanch(players).new_initial_state()
    rng = random.Random(seed)
    played = play_telling(state, NAMES[:players], rng, _variants, _check, steps=260)
    assert played > 80
