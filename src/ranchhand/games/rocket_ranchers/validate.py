"""Could this Rocket Ranchers position arise in a game? Every problem names its field.

A state loaded from JSON or set up by hand is checked before anyone plays on
it: a position the rules cannot reach (a card twice, a Space Cat too many, a
player with every beam face down between turns) would give wrong scores or
crash a bot later, far from the cause. Field names follow the state JSON
(``data.corrals[1][0].face_up[2]``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ranchhand.core.errors import StateError
from ranchhand.games.rocket_ranchers.phases import AFTER, FILL, PHASES, PLACE, START
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.state import RocketState


def validate_state(state: RocketState) -> None:
    """Raise StateError naming the field if ``state`` could not arise in this game."""
    _check_shapes(state)
    _check_cards(state)
    _check_cats(state)
    _check_corral_species(state)
    _check_turn(state)
    _check_tokens(state)


def _check_shapes(state: RocketState) -> None:
    """Lengths and ranges (a state edited by hand, not read from JSON, may have any)."""
    players = state.game.players
    kinds = state.tables.kinds
    for name in ("corrals", "floof", "beams", "dogship"):
        if len(getattr(state, name)) != players:
            raise StateError(f"data.{name}", f"expected {players} entries, one per player")
    if len(state.display) != CELLS or len(state.deck) != kinds:
        raise StateError("data.display", f"expected {CELLS} cells")
    for kind, count in enumerate(state.deck):
        if count < 0:
            raise StateError(f"data.deck.{state.tables.text[kind]}", f"{count} copies")
    for where, count in [("data.deck_cats", state.deck_cats)] + [
        (f"data.floof[{p}]", n) for p, n in enumerate(state.floof)
    ]:
        if count < 0:
            raise StateError(where, f"expected a whole number 0 or more, got {count}")
    if state.deck_size != sum(state.deck) + state.deck_cats:
        raise StateError("data.deck", "the deck size does not match its cards")
    for cell, card in enumerate(state.display):
        if card not in (EMPTY, CAT) and not 0 <= card < kinds:
            raise StateError(f"data.display[{cell}]", f"no card {card}")
    for p, beams in enumerate(state.beams):
        if not 0 <= beams <= state.all_beams:
            raise StateError(f"data.beams[{p}]", f"expected a bitmask 0..{state.all_beams}")
    if not 0 <= state.player < players:
        raise StateError("data.player", f"expected a seat 0..{players - 1}, got {state.player}")
    if not 0 <= state.phase < len(PHASES):
        raise StateError("data.phase", f"expected one of {', '.join(PHASES)}")
    places = [*(f for mine in state.corrals for f, _ in mine), *state.pending]
    places += [k for mine in state.corrals for _, up in mine for k in up]
    if any(not 0 <= k < kinds for k in places):
        raise StateError("data.corrals", "a corral or pending card is no Wildlife card")


def _places(state: RocketState) -> list[tuple[int, str]]:
    """Every Wildlife card outside the deck, with the field it is in."""
    found = [(c, f"data.display[{i}]") for i, c in enumerate(state.display) if c >= 0]
    for seat, mine in enumerate(state.corrals):
        for number, (founder, face_up) in enumerate(mine):
            where = f"data.corrals[{seat}][{number}]"
            found.append((founder, f"{where}.founder"))
            found.extend((k, f"{where}.face_up[{i}]") for i, k in enumerate(face_up))
    found.extend((k, f"data.pending[{i}]") for i, k in enumerate(state.pending))
    return found


def _check_cards(state: RocketState) -> None:
    """Deck + display + corrals + pending hold exactly the box's cards for the player count."""
    tables = state.tables
    players = state.game.players
    box, _ = tables.deck_counts(players)
    for kind, count in enumerate(state.deck):
        if count > box[kind]:
            raise StateError(
                f"data.deck.{tables.text[kind]}",
                f"{count} copies in the deck; the box has {box[kind]} for {players} players",
            )
    seen = Counter({k: n for k, n in enumerate(state.deck) if n})
    for kind, where in _places(state):
        seen[kind] += 1
        if seen[kind] > box[kind]:
            placed = "in the deck and on the table" if state.deck[kind] else "on the table"
            raise StateError(
                where,
                f"{seen[kind]} copies of {tables.text[kind]} {placed}; "
                f"the box has {box[kind]} for {players} players",
            )
    for kind, count in enumerate(box):
        if seen[kind] < count:
            raise StateError(
                "data.deck",
                f"{tables.text[kind]}: {seen[kind]} of its {count} copies are anywhere; "
                "a card never leaves the game",
            )


def _check_cats(state: RocketState) -> None:
    """Deck + display + floof piles hold exactly the Space Cats shuffled in."""
    players = state.game.players
    _, box = state.tables.deck_counts(players)
    shown = state.display.count(CAT)
    held = sum(state.floof)
    total = state.deck_cats + shown + held
    if total != box:
        where = "data.floof" if total > box and held else "data.deck_cats"
        more = "more" if total > box else "fewer"
        raise StateError(
            where,
            f"{total} Space Cats (deck {state.deck_cats}, display {shown}, floof piles {held}): "
            f"{more} than the {box} shuffled in for {players} players",
        )


def _check_corral_species(state: RocketState) -> None:
    """Face-up cards of a corral share one species (the occupy rule)."""
    tables = state.tables
    species = tables.species
    for seat, mine in enumerate(state.corrals):
        for number, (_, face_up) in enumerate(mine):
            for index, kind in enumerate(face_up[1:], start=1):
                if species[kind] != species[face_up[0]]:
                    names = tables.deck.species
                    raise StateError(
                        f"data.corrals[{seat}][{number}].face_up[{index}]",
                        f"a {names[species[kind]]} card in a corral of "
                        f"{names[species[face_up[0]]]}; a corral holds one species",
                    )


def _check_turn(state: RocketState) -> None:
    """Whose turn, the phase, the display and the end agree with each other."""
    players = state.game.players
    player, phase, name = state.player, state.phase, PHASES[state.phase]
    empty = [i for i, c in enumerate(state.display) if c == EMPTY]
    if state.turn % players != player:
        raise StateError(
            "data.player",
            f"after {state.turn} turns of {players} players it is seat "
            f"{state.turn % players}'s turn, not seat {player}'s",
        )
    if state.setting_up:
        _check_setting_up(state, empty)
        return
    if state.pending and phase != PLACE:
        raise StateError(
            "data.pending", f"collected cards wait only in the place phase, not {name}"
        )
    if phase == PLACE:
        if not state.pending:
            raise StateError("data.pending", "the place phase needs a collected card to place")
        if state.beams[player] == state.all_beams:
            raise StateError(
                f"data.beams[{player}]", "cards are being placed, so a beam was just used"
            )
    elif phase == FILL:
        if not state.deck_size or not empty:
            raise StateError(
                "data.phase", "a refill needs an empty display cell and a card in the deck"
            )
    elif state.deck_size and empty:
        raise StateError(
            f"data.display[{empty[0]}]",
            f"empty in the {name} phase while the deck has {state.deck_size} cards; "
            "the display is refilled before the turn goes on",
        )
    if phase == AFTER:
        if not state.dogship[player]:
            raise StateError(
                f"data.dogship[{player}]", "the after phase is only for a face-up dogship"
            )
        if not any(len(group) > 1 for group in state._biome_groups()):
            raise StateError("data.phase", "the after phase needs a possible dogship swap")
    ended = not state.deck_size and player == 0 and phase == START
    if ended != (state.over is not None):
        raise StateError(
            "data.deck",
            "the game is over exactly when the deck is empty and seat 0 is to start a turn",
        )


def _check_setting_up(state: RocketState, empty: list[int]) -> None:
    """While the first 16 cards are dealt: nothing has been played yet."""
    if state.phase != FILL or state.player != 0 or state.turn:
        raise StateError("data.setting_up", "the deal happens before seat 0's first turn")
    filled = CELLS - len(empty)
    if empty != list(range(filled, CELLS)):
        raise StateError(
            f"data.display[{empty[0] if empty else 0}]",
            "the deal fills the display in reading order, a1 first",
        )
    if not empty or not state.deck_size:
        raise StateError("data.setting_up", "the deal is over once the display is full")
    played = (
        any(state.corrals)
        or any(state.floof)
        or state.pending
        or any(b != state.all_beams for b in state.beams)
        or not all(state.dogship)
    )
    if played:
        raise StateError("data.setting_up", "nobody has played during the deal")


def _check_tokens(state: RocketState) -> None:
    """Every beam face down happens only while the fourth beam's cards are placed.

    The automatic reboot flips them up as soon as the collected cards are in
    corrals, so at any other moment a player has a face-up beam. (A face-down
    dogship beside four face-up beams can arise: a swap after the refill that
    followed an automatic reboot.)
    """
    for seat, beams in enumerate(state.beams):
        placing = seat == state.player and state.phase == PLACE and not state.setting_up
        if beams == 0 and not placing:
            raise StateError(
                f"data.beams[{seat}]",
                "every beam face down: the automatic reboot flips them up after the fourth",
            )
