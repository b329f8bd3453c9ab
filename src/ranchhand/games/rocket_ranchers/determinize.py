"""Determinization: a full Rocket Ranchers table rebuilt from one player's observation.

Everything the observation shows is kept as it is: the display, every face-up
corral card, floof piles, beam and dogship sides, the collected cards waiting
for a corral, the phase, whose turn and how many turns are over, the deck's size
and its Space Cats. What the viewer cannot see is redrawn: the face-down card
that founds each corral of another player (every corral for the spectator,
``player`` None). Those cards come from the cards whose whereabouts the viewer
does not know, the box for the player count minus every card in sight, drawn
without replacement and uniformly over copies (a card with more unseen copies is
proportionally likelier); the rest of them are the deck, which is counts, never
an order. The viewer's own founding cards stay as they are.

Nothing but the observation is read, so a search that plays on the sampled
table cannot learn what its player does not know. (A player with perfect memory
could follow a card from the display into an opponent's corral; the observation
does not, so neither does the sample.) The table is not checked again as a state
read from JSON would be: it is built from an observation the engine made of a position
the rules reached, the counts above are checked as they are drawn, and a search imagines
one every iteration (the full check took a fifth of a decision). The tests check that every
sample loads as valid JSON.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ranchhand.core.errors import StateError
from ranchhand.games.rocket_ranchers.observation import RocketObservation
from ranchhand.games.rocket_ranchers.phases import FILL, PHASES, START
from ranchhand.games.rocket_ranchers.scoring import Corral
from ranchhand.games.rocket_ranchers.tables import HIDDEN

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.game import RocketGame
    from ranchhand.games.rocket_ranchers.state import RocketState


def sample_state(game: RocketGame, observation: Any, rng: random.Random) -> RocketState:
    """A table ``observation``'s player cannot tell apart from the one it was made from.

    Raises StateError if the observation does not belong to this game (another
    player count or rules configuration) or could not have been made from a
    position of it.
    """
    from ranchhand.games.rocket_ranchers.state import RocketState

    seen = _checked(game, observation)
    tables = game.tables
    players = game.players
    state = RocketState(game)
    state.turn = seen.turn
    state.player = seen.turn % players
    state.phase = PHASES.index(seen.phase)
    state.display = list(seen.display)
    state.floof = list(seen.floof)
    state.beams = list(seen.beams)
    state.dogship = list(seen.dogship)
    state.pending = list(seen.pending)
    # The deal (before seat 0's first beam) is the only fill with all of seat 0's beams up.
    state.setting_up = state.phase == FILL and not seen.turn and seen.beams[0] == state.all_beams

    box, _ = tables.deck_counts(players)
    unseen = list(box)
    for card in (*seen.display, *seen.pending):
        if card >= 0:
            unseen[card] -= 1
    hidden = 0
    for mine in seen.corrals:
        for founder, face_up in mine:
            if founder == HIDDEN:
                hidden += 1
            else:
                unseen[founder] -= 1
            for card in face_up:
                unseen[card] -= 1
    if any(n < 0 for n in unseen):
        kind = next(k for k, n in enumerate(unseen) if n < 0)
        raise StateError(
            "observation",
            f"more copies of {tables.text[kind]} in sight than the box has for {players} players",
        )
    if hidden > sum(unseen):
        raise StateError("observation", f"{hidden} hidden founding cards, {sum(unseen)} unseen")
    drawn = iter(rng.sample(range(tables.kinds), hidden, counts=unseen) if hidden else ())
    corrals: list[list[Corral]] = []
    for mine in seen.corrals:
        rebuilt: list[Corral] = []
        for founder, face_up in mine:
            if founder == HIDDEN:
                founder = next(drawn)
                unseen[founder] -= 1
            rebuilt.append((founder, tuple(face_up)))
        corrals.append(rebuilt)
    state.corrals = corrals
    state.public = [tuple((HIDDEN, up) for _, up in mine) for mine in corrals]
    state.deck = unseen
    state.left = [k for k, n in enumerate(unseen) if n]
    state.deck_cats = seen.deck_cats
    state.deck_size = sum(unseen) + seen.deck_cats
    if state.deck_size != seen.deck_size:
        raise StateError(
            "observation.deck_size",
            f"{seen.deck_size} cards in the deck, but {state.deck_size} are unaccounted for",
        )
    if not state.deck_size and not state.player and state.phase == START:
        state.over = state._final_outcome()
    return state


def _checked(game: RocketGame, observation: Any) -> RocketObservation:
    """``observation`` if it is a view of a table of this game."""
    if not isinstance(observation, RocketObservation):
        raise StateError(
            "observation", f"expected a Rocket Ranchers observation, got {type(observation)}"
        )
    if observation.tables is not game.tables or len(observation.corrals) != game.players:
        raise StateError(
            "observation", "made by another rules configuration or player count than this game's"
        )
    player = observation.player
    if player is not None and not 0 <= player < game.players:
        raise StateError("observation.player", f"expected a seat 0..{game.players - 1}")
    mine = observation.corrals[player] if player is not None else ()
    if not observation.over and any(f == HIDDEN for f, _ in mine):
        raise StateError("observation.corrals", "the viewer's own founding card is hidden")
    return observation
