"""No text a player is given names a card they cannot know; a pending sign never shows.

Random games are played with a deck of one copy of each card (the standard cards,
copies set to 1), so a card's name says exactly where that card is. A viewer may
know a card if this round it has been in their hand or among the cards they pass,
in any ranch, played or discarded face up. Every text the viewer is given at a
step (the action as ``describe_for`` tells it, the log lines the step adds, the
observation and the terminal view) must not name any other card held by another
player.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
import tomllib
from collections.abc import Iterator

import pytest
from rich.console import Console

from ranchhand.core import CHANCE, SIMULTANEOUS
from ranchhand.games.glory_ranch import VIEW, GloryRanch, GloryState
from ranchhand.games.glory_ranch.actions import SIGNS, Choose
from ranchhand.games.glory_ranch.cards import DECK_FILE, PACKAGE
from ranchhand.games.glory_ranch.state import HandCard

STEPS = 400
VIEW_EVERY = 13


@pytest.fixture(scope="module")
def single_copy_deck(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The standard deck with one copy of each card, as a deck file."""
    from importlib import resources

    text = resources.files(PACKAGE).joinpath(DECK_FILE).read_text()
    assert tomllib.loads(text)["card"]
    single = re.sub(r"(?m)^copies = \d+$", "copies = 1", text)
    path = tmp_path_factory.mktemp("deck") / "single.toml"
    path.write_text(single)
    return str(path)


def _draw(state: GloryState, viewer: int, log: list[str]) -> str:
    observation = dataclasses.replace(state.observe(viewer), log=log)
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    console.print(VIEW.render(observation))
    return console.export_text()


def _patterns(state: GloryState) -> dict[int, re.Pattern[str]]:
    """For each card, a pattern matching its id or name as whole words."""
    patterns = {}
    for card in state.game.deck.cards:
        words = {re.escape(card.id), re.escape(card.name.lower())}
        patterns[card.index] = re.compile(r"(?<![\w'-])(" + "|".join(words) + r")(?![\w'-])")
    return patterns


def _held(state: GloryState, viewer: int) -> set[int]:
    """The cards in other players' hands or being passed by them."""
    return {
        k
        for p in range(state.game.players)
        if p != viewer
        for k in [*(k for k, c in enumerate(state.hands[p]) if c), *state.passing[p]]
    }


def _public(state: GloryState, viewer: int) -> set[int]:
    """What ``viewer`` sees now: own hand and passing, every ranch, the discard pile."""
    seen = {k for k, c in enumerate(state.hands[viewer]) if c} | set(state.passing[viewer])
    seen |= {k for r in state.ranches for k in r}
    return seen | {k for k, c in enumerate(state.discard) if c}


def _steps(state: GloryState, rng: random.Random) -> Iterator[tuple[int, object]]:
    for _ in range(STEPS):
        if state.is_terminal():
            return
        player = CHANCE if state.is_chance_node() else rng.choice(state.acting_players())
        if player == CHANCE:
            yield player, state.chance_outcomes().sample(rng)
        else:
            yield player, rng.choice(state.legal_actions(player))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_no_text_names_a_card_the_viewer_cannot_know(
    players: int, seed: int, single_copy_deck: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes: list[str] = []
    original = GloryState._note

    def noting(self: GloryState, text: str, *move: object) -> None:
        notes.append(text)
        original(self, text, *move)

    monkeypatch.setattr(GloryState, "_note", noting)
    state = GloryRanch(players, deck=single_copy_deck, target=25).new_initial_state()
    patterns = _patterns(state)
    seen = {v: _public(state, v) for v in range(players)}
    checked = 0
    for step, (player, action) in enumerate(_steps(state, random.Random(seed))):
        told = {v: state.describe_for(v, action, player) for v in range(players)}
        before = {v: _held(state, v) for v in range(players)}
        round_before = state.round
        notes.clear()
        state.apply(action, player)
        if state.round != round_before:  # every card is back in the box: no hand holds any
            # but the ranches scored were face up (the observation's last_round lists them)
            scored = {state.game.index[c] for r in state.rounds[-1]["ranches"] for c in r}
            seen = {v: set(scored) for v in range(players)}
            before = {v: set() for v in range(players)}
        face_up = isinstance(action, HandCard) and action.verb in ("play", "discard")
        for viewer in range(players):
            seen[viewer] |= _public(state, viewer)
            if face_up:  # played or discarded face up, even if it is back in a hand now
                seen[viewer].add(state.game.index[action.card])  # type: ignore[attr-defined]
            secret = (before[viewer] | _held(state, viewer)) - seen[viewer]
            observation = state.observe(viewer).to_json()
            del observation["log"]
            texts = [told[viewer], *notes, json.dumps(observation)]
            if step % VIEW_EVERY == 0:
                texts.append(_draw(state, viewer, list(notes)))
            for text in texts:
                for card in secret:
                    named = patterns[card].search(text.lower())
                    assert named is None, (
                        f"step {step}: P{viewer} is told {text!r}, naming "
                        f"{state.game.ids[card]} which another player holds"
                    )
            checked += len(texts)
    assert checked > 200


def test_draws_and_steals_are_told_to_those_who_see_them() -> None:
    from tests.games.glory_ranch.helpers import do, table

    state = table(3, hands={0: ["steal", "plain"], 1: ["fairy", "fairy"]}, stock=["skip"])
    do(state, "play steal", "target 1")
    steal = state.legal_actions(CHANCE)[0]
    assert state.describe_for(0, steal, CHANCE) == "P0 steals Fairy from P1"
    assert state.describe_for(1, steal, CHANCE) == "P0 steals your Fairy"
    assert state.describe_for(2, steal, CHANCE) == "P0 steals a card from P1"
    assert state.describe_for(None, steal, CHANCE) == "P0 steals a card from P1"
    do(state, "steal fairy")
    state = table(3, hands={0: ["draw-you", "plain"]}, stock=["skip"])
    do(state, "play draw-you")
    draw = state.legal_actions(CHANCE)[0]
    # the deck runs dry with this draw, so the round ends: the line goes on to say so
    assert state.describe_for(0, draw, CHANCE).startswith("P0 draws Skip; round 1 ends: ")
    assert state.describe_for(1, draw, CHANCE).startswith("P0 draws a card; round 1 ends: ")
    assert state.describe_for(CHANCE, draw, CHANCE) == "draw skip"
    assert state.describe_for(1, HandCard("discard", "plain"), 0) == "discard plain"


@pytest.mark.parametrize(("players", "seed"), [(2, 7), (3, 8), (4, 9)])
def test_a_pending_sign_never_shows_to_anyone_else(players: int, seed: int) -> None:
    state = GloryRanch(players).new_initial_state()
    rng = random.Random(seed)
    contests = 0
    for player, action in _steps(state, rng):
        if isinstance(action, Choose) and not state.signs:
            contests += 1
            others = [v for v in (None, *range(players)) if v != player]
            for viewer in others:
                told = {state.describe_for(viewer, Choose(s), player) for s in SIGNS}
                assert told == {"chooses a sign"}
            twins = []
            for sign in SIGNS:
                twin = state.clone()
                twin.apply(Choose(sign), player)
                assert twin.current_player() == SIMULTANEOUS
                twins.append(twin)
            for viewer in range(players):
                if viewer == player:
                    continue
                seen = {json.dumps(t.observe(viewer).to_json(), sort_keys=True) for t in twins}
                assert len(seen) == 1, f"P{viewer} can tell P{player}'s pending sign"
                drawn = {_draw(t, viewer, t.log) for t in twins}
                assert len(drawn) == 1
        state.apply(action, player)
    assert contests >= 1


def test_the_spectator_sees_the_table_but_no_hand_sign_or_passed_card() -> None:
    from tests.games.glory_ranch.helpers import do, table

    state = table(3, hands={0: ["griffin", "roc"], 1: ["kraken", "kraken"]}, vocabulary=False)
    do(state, "play griffin", "target 1")
    state.apply_text("choose paper", 0)  # P0's sign is pending
    for viewer in (None, -1, 3, 99):
        seen = state.observe(viewer)
        assert seen.player is None and seen.hand == [] and seen.my_sign is None
        assert seen.passing == [] and seen.hand_sizes == [1, 2, 2]
        text = _draw(state, viewer, state.log)  # type: ignore[arg-type]
        assert "Kraken" not in text and "secret sign" not in text and "(your move)" not in text
        assert "P0 you" not in text and "1 Griffin B4" in text
    assert json.dumps(state.observe(None).to_json())  # JSON-ready, like any observation
    state = table(
        3, hands={0: ["tanuki", "roc", "kraken"], 1: ["selkie", "pixie"]}, vocabulary=False
    )
    do(state, "play tanuki", "pass kraken")
    assert state.observe(0).passing and not state.observe(None).passing
