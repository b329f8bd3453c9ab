"""Could this Rancho position arise in the game? The checks behind ``State._validate``.

A state loaded from JSON (a saved game, a record, a front end) or set up by hand is
refused, naming the field, when it breaks what every position of a real game keeps:

* every animal is somewhere: the herd and the players together hold exactly the
  animals of the game (the setup table's herd for this player count and the
  ``dogs`` option's dogs), no count negative;
* pastures are pastures of the board, each owned by one player at most, at most 12
  a player, each joined to its owner's pen (through other players' pastures only,
  as a blocked player buys);
* each arrangement is legal: a stack of up to 6 rabbits or one sheep on a space, a
  cow on two adjacent spaces, a horse on three connected spaces, only on the
  player's pen and pastures, placing exactly their animals (in the return step
  the roller's newborns wait unplaced, and do not fit: that is why the step is there);
* the step's bookkeeping agrees: the predators struck and still to strike are the
  ones the dice show, a strike is a face of the six-sided die, the players asked
  about a dog hold one and would lose something, in seat order from the roller;
* a winner holds a full herd, and without a winner nobody does (but the roller
  whose newborns are waiting to be returned).

``root`` is the name of the top of the fields: ``data`` for JSON, ``setup`` for a
position set up by hand, whose keys mirror the JSON's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ranchhand.core import StateError
from ranchhand.games.rancho.board import iter_bits
from ranchhand.games.rancho.deals import MAX_PASTURES
from ranchhand.games.rancho.grazing import counts_of
from ranchhand.games.rancho.tables import FARM, FOX, KEYS, LARGE_DOG, SMALL_DOG, SPECIES, WOLF

if TYPE_CHECKING:
    from ranchhand.games.rancho.state import RanchoState


PLURALS = ("rabbits", "sheep", "cows", "horses", "small dogs", "large dogs")


def validate(state: RanchoState, root: str = "data") -> None:
    """Raise StateError naming the first field that could not be so in a real game."""
    _counts(state, root)
    _pastures(state, root)
    _arrangements(state, root)
    _step(state, root)
    _winner(state, root)


def _counts(state: RanchoState, root: str) -> None:
    game = state.game
    players = game.players
    for kind, key in enumerate(KEYS):
        if state.herd[kind] < 0:
            raise StateError(
                f"{root}.herd.{key}", f"a count cannot be negative, got {state.herd[kind]}"
            )
        for p in range(players):
            if state.animals[p][kind] < 0:
                raise StateError(
                    f"{root}.players[{p}].animals.{key}",
                    f"a count cannot be negative, got {state.animals[p][kind]}",
                )
    for kind, key in enumerate(KEYS):
        held = sum(state.animals[p][kind] for p in range(players))
        total = game.start_herd[kind]
        if state.herd[kind] + held != total:
            raise StateError(
                f"{root}.herd.{key}",
                f"the herd's {state.herd[kind]} and the players' {held} make "
                f"{state.herd[kind] + held} {PLURALS[kind]}; a {players}-player game has "
                f"{total} in all",
            )


def _pastures(state: RanchoState, root: str) -> None:
    game = state.game
    board = game.board
    claimed = 0
    for p in range(game.players):
        land = state.land[p]
        where = f"{root}.players[{p}].pastures"
        if land & ~board.pasture_mask:
            raise StateError(
                where, f"{', '.join(board.ids(land & ~board.pasture_mask))} is no pasture"
            )
        if land & claimed:
            raise StateError(where, f"{', '.join(board.ids(land & claimed))} has two owners")
        claimed |= land
        if land.bit_count() > MAX_PASTURES:
            raise StateError(
                where, f"{land.bit_count()} pastures; a player has {MAX_PASTURES} markers"
            )
    pens = 0
    for p in range(game.players):
        pens |= game.pens[p]
        # Pastures join the pen; a blocked player's also through others' pastures.
        reached = game.pens[p]
        ground = game.pens[p] | claimed
        grew = reached
        while grew:
            near = 0
            for space in iter_bits(grew):
                near |= board.neighbour_mask[space]
            grew = near & ground & ~reached
            reached |= grew
        cut_off = state.land[p] & ~reached
        if cut_off:
            raise StateError(
                f"{root}.players[{p}].pastures",
                f"{', '.join(board.ids(cut_off))} does not join pen {game.pen_numbers[p]}: a "
                "pasture touches its owner's pen or pastures (or, bought by a blocked player, "
                "is reached through other players' pastures)",
            )
    owner = [-1] * len(board.spaces)
    for p in range(game.players):
        for space in iter_bits(game.pens[p] | state.land[p]):
            owner[space] = p
    if state.taken != claimed or state.owner != owner:
        raise StateError(f"{root}.players", "the owners of the spaces disagree with the pastures")


def _arrangements(state: RanchoState, root: str) -> None:
    from ranchhand.games.rancho.state import RETURN

    grazing = state.game.grazing
    for p in range(state.game.players):
        where = f"{root}.players[{p}].arrangement"
        region, mine, pieces = state.region(p), state.animals[p], state.pieces[p]
        if state.phase == RETURN and p == state.player:
            placed = counts_of(pieces)
            problem = grazing.check(region, placed, pieces)
            if problem is None and any(placed[k] > mine[k] for k in FARM):
                problem = "it places animals the player does not have"
            if problem is None and grazing.fits(region, mine):
                raise StateError(
                    f"{root}.phase",
                    f"the return step comes only when newborns do not fit; player {p}'s do",
                )
        else:
            problem = grazing.check(region, mine, pieces)
        if problem:
            raise StateError(where, problem)


def _step(state: RanchoState, root: str) -> None:
    """The step's bookkeeping: dice, predators, strikes, the dog queue, ``settled``."""
    from ranchhand.games.rancho.state import DOG, EXPAND, ORDER, PHASES, ROLL, SETTLE, STRIKE

    game, phase = state.game, state.phase
    name = PHASES[phase]
    if state.dice is not None:
        first, second = state.dice
        if (first, second) not in dict(game.dice.pair_weights()):
            raise StateError(f"{root}.dice", f"the {game.options['dice']} dice cannot roll that")
    faces = set(game.dice.d6)
    for i, (_predator, price) in enumerate(state.strikes):
        if price not in faces:
            raise StateError(f"{root}.strikes[{i}]", f"the six-sided die shows no {price}")
    if state.strike is not None and state.strike[1] not in faces:
        raise StateError(f"{root}.strike", f"the six-sided die shows no {state.strike[1]}")

    def refuse(field: str, problem: str) -> None:
        raise StateError(f"{root}.{field}", problem)

    if state.predators and phase not in (STRIKE, DOG):
        refuse("predators", f"no predator waits to strike in the {name} step")
    if phase == STRIKE and not state.predators:
        refuse("predators", "the strike step needs a predator waiting to strike")
    if state.strike is not None and phase != DOG:
        refuse("strike", f"a strike is resolved only in the dog step, not the {name} step")
    if state.strike is None and phase == DOG:
        refuse("strike", "the dog step needs the strike being resolved")
    if state.dog_queue and phase != DOG:
        refuse("dog_queue", f"players decide on a dog only in the dog step, not the {name} step")
    if not state.dog_queue and phase == DOG:
        refuse("dog_queue", "the dog step needs a player to decide")
    if state.settled and phase == EXPAND:
        refuse("settled", "'roll and end turn' is said at the end of the expand step, not before")
    if state.settled and phase == SETTLE and state.winner < 0:
        refuse("settled", "after 'roll and end turn' the turn ends without a settle step")
    # The predators struck this turn and those still to come are those the dice show.
    if phase in (ROLL, ORDER) or state.dice is None:
        if state.strikes:
            refuse("strikes", f"no predator has struck yet in the {name} step")
        if phase == ORDER and state.dice != (FOX, WOLF):
            refuse("dice", "the order step needs a fox and a wolf on the dice")
    else:
        shown = sorted(f for f in state.dice if f in (FOX, WOLF))
        told = sorted([p for p, _price in state.strikes] + state.predators)
        if told != shown:
            refuse("strikes", "the predators struck and still to come are not those on the dice")
    if phase == DOG:
        _dog_queue(state, root)


def _dog_queue(state: RanchoState, root: str) -> None:
    game = state.game
    assert state.strike is not None
    if not state.strikes or state.strikes[-1] != state.strike:
        raise StateError(f"{root}.strike", "the strike being resolved is the last one struck")
    predator, price = state.strike
    dog = SMALL_DOG if predator == FOX else LARGE_DOG
    players = game.players
    order = [(p - state.player) % players for p in state.dog_queue]
    if order != sorted(set(order)):
        raise StateError(
            f"{root}.dog_queue", "players decide once each, in seat order from the roller"
        )
    for p in state.dog_queue:
        if not state.animals[p][dog]:
            raise StateError(f"{root}.dog_queue", f"player {p} has no {SPECIES[dog]} to give")
        if not game.grazing.struck(state.pieces[p], predator, price):
            raise StateError(f"{root}.dog_queue", f"the strike takes nothing of player {p}'s")


def _winner(state: RanchoState, root: str) -> None:
    from ranchhand.games.rancho.state import EXPAND, RETURN, SETTLE

    if state.winner >= 0:
        if not state.full_herd(state.winner):
            raise StateError(
                f"{root}.winner",
                f"player {state.winner} has no full herd (a rabbit, a sheep, a cow and a horse)",
            )
        if state.phase not in (EXPAND, SETTLE):
            raise StateError(f"{root}.winner", "the game ends after a deal or after breeding")
        return
    for p in range(state.game.players):
        if state.full_herd(p) and not (state.phase == RETURN and p == state.player):
            raise StateError(
                f"{root}.players[{p}].animals",
                "a full herd (a rabbit, a sheep, a cow and a horse) ends the game, "
                "yet no winner is set",
            )
