"""Super Farmer's log in words: each action and what it did, in sentences, by name.

The notation (``roll pig+fox``) says which faces came up; the words say what they did:

- ``You rolled a pig and a fox. The fox took 10 rabbits from you. You bred a pig.``
- ``Bob rolled a wolf and a sheep. Bob gave up a big dog to save the herd from the wolf.``
- ``Ann traded 6 rabbits for a sheep with the herd.``

What a roll does is worked out once on a copy of the state, one predator at a time as
the rules apply them, and remembered on the state until it changes (:func:`told`):
telling it to every viewer costs string formatting. Everything is public, so every
viewer is told the same, their own seat as "you".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ranchhand.core import CHANCE
from ranchhand.core.words import Memo, Speaker, listed, sentences
from ranchhand.games.super_farmer.actions import DiceRoll, Roll, Trade
from ranchhand.games.super_farmer.farm import breed, full
from ranchhand.games.super_farmer.tables import BIG_DOG, FACES, FOX, SMALL_DOG, SPECIES

if TYPE_CHECKING:
    from ranchhand.games.super_farmer.state import SuperFarmerState

PLURALS = ("rabbits", "sheep", "pigs", "cows", "horses", "small dogs", "big dogs")
FACE_PLURALS = (*PLURALS[:5], "foxes", "wolves")


@dataclass(frozen=True)
class Told:
    """What an action does, for every viewer alike."""

    strikes: tuple[tuple[int, bool, tuple[int, ...]], ...] = ()
    """Each predator of a roll in the order it struck: (face, a dog was given up,
    animals taken)."""
    bred: tuple[int, ...] | None = None
    """A roll: the animals the roller bred."""
    winner: int = -1
    """The seat this action makes the winner (-1: none)."""
    next_player: int = -1
    """The seat whose turn this action begins (-1: the turn does not pass)."""


def counted(counts: Sequence[int]) -> str:
    """'3 rabbits and a sheep', '2 pigs, a cow and a big dog'; 'nothing' for none."""
    parts = [
        f"a {SPECIES[kind]}" if n == 1 else f"{n} {PLURALS[kind]}"
        for kind, n in enumerate(counts)
        if n > 0
    ]
    return listed(parts) or "nothing"


def told(state: SuperFarmerState, action: Hashable, player: int) -> Told:
    """What ``action`` does, worked out on a copy; remembered on ``state`` until it changes."""
    return memo(state, action, player).facts


def memo(state: SuperFarmerState, action: Hashable, player: int) -> Memo[Told]:
    """The state's memo of ``action``: its facts, and the words said from them."""
    known = state._told
    if known is None or known.of(player, action) is None:
        known = state._told = Memo(player, action, _work_out(state, action, player))
    return known


def _work_out(state: SuperFarmerState, action: Hashable, player: int) -> Told:
    roller = state.player
    if isinstance(action, Roll):  # only says the dice come next: nothing to work out
        return Told()
    if isinstance(action, Trade):
        farm = zip(state.animals[player], action.give, action.take, strict=True)
        won = full([n + take - give for n, give, take in farm])
        return Told(winner=player if won and state.winner < 0 else -1)
    mine = list(state.animals[roller])
    if not isinstance(action, DiceRoll):
        return Told()
    # The roll as ``_rolled`` plays it, by the same rules, on copies of two lists.
    herd = list(state.herd)
    strikes = []
    for predator in state.predators(action):
        gave, taken = state.strike(predator, mine, herd)
        lost = tuple(taken.get(kind, 0) for kind in range(len(mine)))
        strikes.append((predator, gave, lost))
    was = list(mine)
    breed((action.wolf, action.fox), mine, herd)
    won = full(mine)
    players = state.game.players
    return Told(
        strikes=tuple(strikes),
        bred=tuple(n - w for w, n in zip(was, mine, strict=True)),
        winner=roller if won else -1,
        next_player=(roller + 1) % players if not won and players > 1 else -1,
    )


def words(
    state: SuperFarmerState,
    viewer: int | None,
    action: Hashable,
    player: int,
    names: Sequence[str],
) -> str:
    """``action`` (about to be applied by ``player``) and what it does, for ``viewer``."""
    known = memo(state, action, player)
    facts = known.facts
    named = (player, state.player, facts.winner, facts.next_player)
    said = known.words(
        viewer,
        names,
        named,
        lambda: _said(state, viewer, action, player, names),
        (action, facts, player, state.player),
    )
    return said


def _said(
    state: SuperFarmerState,
    viewer: int | None,
    action: Hashable,
    player: int,
    names: Sequence[str],
) -> str:
    facts = told(state, action, player)
    say = Speaker(viewer, names)
    doer = "chance" if player == CHANCE else say.who(player)
    said: list[str] = []
    if isinstance(action, Trade):
        given, taken = counted(action.give), counted(action.take)
        said.append(f"{doer} traded {given} for {taken} with the herd")
    elif isinstance(action, Roll):
        said.append(f"{doer} rolled the dice")
    elif isinstance(action, DiceRoll):
        said.extend(_roll(action, say.who(state.player), facts))
    else:
        said.append(f"{doer}: {action}")
    if facts.winner >= 0:
        said.append(f"{say.who(facts.winner)} won with a full herd!")
    if facts.next_player >= 0:
        said.append(f"it is {say.whose(facts.next_player)} turn")
    return sentences(*said)


def _roll(roll: DiceRoll, roller: str, facts: Told) -> list[str]:
    if roll.wolf == roll.fox:
        faces = f"two {FACE_PLURALS[roll.wolf]}"
    else:
        faces = f"{_a(FACES[roll.wolf])} and {_a(FACES[roll.fox])}"
    said = [f"{roller} rolled {faces}"]
    for predator, gave, lost in facts.strikes:
        hunter = "the fox" if predator == FOX else "the wolf"
        if gave:
            dog = SPECIES[SMALL_DOG if predator == FOX else BIG_DOG]
            said.append(f"{roller} gave up a {dog} to keep {hunter} away")
        elif any(lost):
            said.append(f"{hunter} took {counted(lost)} from {roller}")
        else:
            said.append(f"{hunter} found nothing to take")
    born = facts.bred or ()
    if not facts.strikes:
        said[0] += f" and bred {counted(born)}"
    else:
        said.append(f"{roller} bred {counted(born)}")
    return said


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"
