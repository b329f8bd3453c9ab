"""Rancho's log in words: each action and what it did, in sentences, players by name.

The table's log shows these (the notation of :mod:`ranchhand.games.rancho.describe`
stays for those who type it). Both are said from one working out of the action
(:func:`~ranchhand.games.rancho.describe.told`, remembered on the state), so telling a
move in words to every viewer costs string formatting, not another game step:

- ``You rolled a sheep and a fox. The fox strikes next.``
- ``The fox struck the pastures costing 1 and took 10 rabbits from you.``
- ``Ann traded 6 rabbits for a sheep with the herd.``
- ``Bob kept the large dog, and the wolf took 2 sheep. Ann bred a rabbit.``

Rancho hides nothing, so every viewer is told the same, their own seat as "you".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ranchhand.core import CHANCE
from ranchhand.core.words import Speaker, listed, sentences
from ranchhand.games.rancho.actions import (
    Arrange,
    ArrangeSafest,
    Deal,
    DiceRoll,
    Dog,
    EndTurn,
    First,
    Return,
    Roll,
    Strike,
)
from ranchhand.games.rancho.describe import Told, counted, memo, told
from ranchhand.games.rancho.tables import FACES, FOX, LARGE_DOG, PREDATOR_NAMES, SMALL_DOG, SPECIES

if TYPE_CHECKING:
    from ranchhand.games.rancho.state import RanchoState

FACE_PLURALS = ("rabbits", "sheep", "cows", "horses", "foxes", "wolves")


def words(
    state: RanchoState, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
) -> str:
    """``action`` (about to be applied by ``player``) and what it does, for ``viewer``."""
    known = memo(state, action, player)
    return known.words(
        viewer,
        names,
        _named(known.facts, player, state.player),
        lambda: _said(state, viewer, action, player, names),
        (action, known.facts, player, state.player),
    )


def _named(facts: Told, player: int, roller: int) -> set[int]:
    """Every seat the words of this action may name (the others read a spectator's)."""
    named = {player, roller, facts.winner, facts.next_player}
    named.update(seat for seat, _ in facts.taken)
    named.update(seat for seat, _ in facts.deciding)
    named.update(owner for owner, _, _ in facts.tolls)
    if facts.bred is not None:
        named.add(facts.bred[0])
    return named


def _said(
    state: RanchoState, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
) -> str:
    facts = told(state, action, player)
    say = Speaker(viewer, names)
    doer = "chance" if player == CHANCE else say.who(player)
    said = _action(state, action, doer, say, facts)
    if isinstance(action, DiceRoll) and facts.bred is not None and len(said) == 1:
        said[0] += f" and bred {counted(facts.bred[1])}"  # one sentence for a quiet roll
        facts = replace(facts, bred=(facts.bred[0], (), facts.bred[2]))
    return sentences(*said, *_after(facts, say))


def _action(
    state: RanchoState, action: Hashable, doer: str, say: Speaker, facts: Told
) -> list[str]:
    """The action itself, in one or two sentences."""
    if isinstance(action, DiceRoll):
        return _rolled(action, say.who(state.player))
    if isinstance(action, Strike):
        return _struck(facts, say)
    if isinstance(action, Roll):
        if action.end:
            return [f"{doer} rolled the dice, to end the turn right after breeding"]
        return [f"{doer} rolled the dice"]
    if isinstance(action, Deal):
        return [_deal(action, doer, say, facts)]
    if isinstance(action, Dog) and facts.predator >= 0:
        predator, dog = PREDATOR_NAMES[facts.predator], SPECIES[action.size]
        if action.give:
            saved = counted(facts.at_stake)
            return [f"{doer} gave up a {dog} to the herd to save {saved} from the {predator}"]
        return [f"{doer} kept the {dog}, and the {predator} took {counted(facts.at_stake)}"]
    if isinstance(action, First):
        return [f"{doer} let the {PREDATOR_NAMES[action.predator]} strike first"]
    if isinstance(action, Return):
        return [f"{doer} sent {counted(action.animals)} back to the herd: not all fit"]
    if isinstance(action, ArrangeSafest):
        return [f"{doer} moved the animals to their safest places"]
    if isinstance(action, Arrange):
        placed = [_piece(kind, count, ids) for kind, count, ids in action.pieces]
        return [f"{doer} placed {listed(placed) or 'no animals'}"]
    if isinstance(action, EndTurn):
        return [f"{doer} ended the turn"]
    return [f"{doer}: {action}"]


def _rolled(roll: DiceRoll, roller: str) -> list[str]:
    first, second = roll.first, roll.second
    if first == second:
        faces = f"two {FACE_PLURALS[first]}"
    else:
        faces = f"{_a(FACES[first])} and {_a(FACES[second])}"
    said = [f"{roller} rolled {faces}"]
    hunters = [f for f in (first, second) if f in PREDATOR_NAMES]
    if len(hunters) == 2 and hunters[0] != hunters[1]:
        said.append(f"{roller} chooses whether the fox or the wolf strikes first")
    elif len(hunters) == 2:
        said.append(f"the {PREDATOR_NAMES[hunters[0]]} strikes twice")
    elif hunters:
        said.append(f"the {PREDATOR_NAMES[hunters[0]]} strikes next")
    return said


def _struck(facts: Told, say: Speaker) -> list[str]:
    if facts.predator < 0:
        return ["the die was rolled"]
    hunter = f"the {PREDATOR_NAMES[facts.predator]}"
    where = f"the pastures costing {facts.price}"
    taken = [f"{counted(lost)} from {say.who(seat)}" for seat, lost in facts.taken]
    if taken:
        said = [f"{hunter} struck {where} and took {listed(taken)}"]
    elif facts.deciding:
        said = [f"{hunter} struck {where}"]
    else:
        said = [f"{hunter} struck {where} and found nothing"]
    dog = SPECIES[SMALL_DOG if facts.predator == FOX else LARGE_DOG]
    for seat, at_stake in facts.deciding:
        said.append(f"{say.who(seat)} may give up a {dog} to save {counted(at_stake)}")
    return said


def _deal(deal: Deal, doer: str, say: Speaker, facts: Told) -> str:
    paid = counted(deal.give)
    if not deal.pastures:
        return f"{doer} traded {paid} for {counted(deal.take)} with the herd"
    land = ("pasture " if len(deal.pastures) == 1 else "pastures ") + listed(deal.pastures)
    if any(deal.take):
        land += f" and {counted(deal.take)}"
    text = f"{doer} bought {land} for {paid}"
    if facts.tolls:
        tolls = []
        for owner, rabbits, room in facts.tolls:
            toll = f"{counted((rabbits, 0, 0, 0, 0, 0))} to {say.who(owner)}"
            if room < rabbits:
                toll += f" ({rabbits - room} went back to the herd: no room)"
            tolls.append(toll)
        text += f", crossing others' land for a toll of {listed(tolls)}"
    return text


def _piece(kind: int, count: int, ids: tuple[str, ...]) -> str:
    animals = counted(tuple(count if k == kind else 0 for k in range(6)))
    return f"{animals} on {listed(ids)}"


def _after(facts: Told, say: Speaker) -> list[str]:
    """What followed: breeding, a win, the next turn."""
    said = []
    if facts.bred is not None:
        roller, born, crowded = facts.bred
        if born:  # empty: already said with the roll
            said.append(f"{say.who(roller)} bred {counted(born)}")
        if crowded:
            said.append(f"not all of {say.whose(roller)} animals fit: some go back to the herd")
    if facts.winner >= 0:
        said.append(f"{say.who(facts.winner)} won with a full herd!")
    if facts.next_player >= 0:
        said.append(f"it is {say.whose(facts.next_player)} turn")
    return said


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"
