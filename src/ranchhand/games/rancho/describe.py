"""Log lines of Rancho: an action and what it did to whom, in one short line.

The terminal writes one line per action, before the action is applied, after the
acting player's name ("P1 human: ", "chance: "). :func:`describe` works out the
consequences on a clone of the state (front ends call it for display only; the
simulations never do) and says them in words:

- ``roll rabbit+sheep: P0 bred 3 rabbits and a sheep``
- ``strike 1: the fox took 4 rabbits from P1, 6 rabbits from you (pastures costing 1)``
- ``strike 4: the wolf found nothing (pastures costing 4)``; ``strike 2: the wolf
  struck pastures costing 2; P1 may give up a large dog to save a sheep``
- ``give small dog, saving 4 rabbits``; ``keep large dog: the wolf took 2 sheep``
- ``return 3 rabbit: 3 rabbits back to the herd for lack of room``
- ``buy 3.17 via 3.18 with 2 rabbit: 2 rabbits toll to P1 (1 back to the herd, no room)``
- breeding, a return still to choose and a win are added to the line of the
  action that caused them: ``…; P0 bred 8 rabbits, not all fit``, ``…; P0 wins!``

The viewer reads "you" for their own seat; ``viewer`` None (a shared screen, a
spectator) reads seat numbers only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ranchhand.core.words import Memo
from ranchhand.games.rancho.actions import Deal, Dog, First, Return, Strike
from ranchhand.games.rancho.tables import FARM, FOX, LARGE_DOG, PREDATOR_NAMES, SMALL_DOG, SPECIES

if TYPE_CHECKING:
    from ranchhand.games.rancho.state import RanchoState

PLURALS = ("rabbits", "sheep", "cows", "horses", "small dogs", "large dogs")


def counted(counts: Sequence[int]) -> str:
    """'3 rabbits and a sheep', '2 sheep, a cow and a horse'; 'nothing' for none."""
    parts = [
        f"a {SPECIES[kind]}" if n == 1 else f"{n} {PLURALS[kind]}"
        for kind, n in enumerate(counts)
        if n > 0
    ]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True)
class Told:
    """What an action does, worked out once for every viewer (Rancho hides nothing, so
    only the names differ): the log in notation (:func:`describe`) and in words
    (:mod:`ranchhand.games.rancho.words`) are both said from it."""

    predator: int = -1
    """The fox or the wolf of a strike or a dog's choice (-1: neither)."""
    price: int = 0
    """The pasture price struck."""
    taken: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """(seat, animals taken) of each seat the predator took from, in strike order."""
    deciding: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """(seat, animals at stake) of each struck seat that has the dog to give up."""
    at_stake: tuple[int, ...] = ()
    """A dog's choice: the animals the dog saves, or the predator takes."""
    tolls: tuple[tuple[int, int, int], ...] = ()
    """(owner, toll rabbits, of which room for) of each owner a purchase crosses."""
    bred: tuple[int, tuple[int, ...], bool] | None = None
    """(roller, animals born, whether some do not fit) if the action ends in breeding."""
    winner: int = -1
    """The seat this action makes the winner (-1: none)."""
    next_player: int = -1
    """The seat whose turn this action begins (-1: the turn does not pass)."""


def told(state: RanchoState, action: Hashable, player: int) -> Told:
    """What ``action`` (about to be applied by ``player``) does: worked out on a clone,
    remembered on ``state`` until it changes (every viewer's line asks again)."""
    return memo(state, action, player).facts


def memo(state: RanchoState, action: Hashable, player: int) -> Memo[Told]:
    """The state's memo of ``action``: its facts, and the words said from them."""
    known = state._told
    if known is None or known.of(player, action) is None:
        known = state._told = Memo(player, action, *_work_out(state, action, player))
    return known


def _work_out(state: RanchoState, action: Hashable, player: int) -> tuple[Told, RanchoState]:
    """What ``action`` does, and the copy of ``state`` it was played on to find out."""
    from ranchhand.games.rancho.state import DOG, EXPAND, RETURN, ROLL, SETTLE, STRIKE

    fields: dict[str, object] = {}
    lost: dict[int, list[int]] = {}
    if isinstance(action, Strike) and state.predators:
        predator = state.predators[0]
        dog = SMALL_DOG if predator == FOX else LARGE_DOG
        taken, deciding = [], []
        for step in range(state.game.players):
            seat = (state.player + step) % state.game.players
            at_stake = at_risk(state, seat, predator, action.price)
            if not any(at_stake):
                continue
            if state.animals[seat][dog]:
                deciding.append((seat, tuple(at_stake)))
            else:
                lost[seat] = at_stake
                taken.append((seat, tuple(at_stake)))
        fields.update(
            predator=predator, price=action.price, taken=tuple(taken), deciding=tuple(deciding)
        )
    elif isinstance(action, Dog) and state.strike is not None:
        predator, price = state.strike
        at_stake = at_risk(state, player, predator, price)
        if not action.give:
            lost[player] = at_stake
        fields.update(predator=predator, price=price, at_stake=tuple(at_stake))
    elif isinstance(action, Deal) and action.via:
        fields["tolls"] = tolls_of(state, action)

    after = state.clone()
    if state.why_illegal(action, player) is None:  # read from the rules' warm cache
        after._apply(action, player)  # checked just above: no legal list on the copy
    else:
        after.apply(action, player)  # raises the rules' reason
    bred = state.phase in (ROLL, STRIKE, DOG) and after.phase in (RETURN, SETTLE, EXPAND)
    if bred and after.dice and any(face in FARM for face in after.dice):
        roller = state.player
        born = bred_of(state, after, roller, lost.get(roller))
        fields["bred"] = (roller, born, after.phase == RETURN)
    if after.winner >= 0 and state.winner < 0:
        fields["winner"] = after.winner
    if after.player != state.player and after.winner < 0:
        fields["next_player"] = after.player
    return Told(**fields), after  # type: ignore[arg-type]


def describe(state: RanchoState, viewer: int | None, action: Hashable, player: int) -> str:
    """``action`` (about to be applied by ``player``) and its consequences, for ``viewer``."""

    def name(seat: int) -> str:
        return "you" if seat == viewer else f"P{seat}"

    facts = told(state, action, player)
    text = str(action)
    said: list[str] = []
    if isinstance(action, Strike) and facts.predator >= 0:
        taken = [f"{counted(at_stake)} from {name(seat)}" for seat, at_stake in facts.taken]
        where = f"pastures costing {facts.price}"
        hunter = f"the {PREDATOR_NAMES[facts.predator]}"
        if taken:
            said.append(f"{hunter} took {', '.join(taken)} ({where})")
        elif facts.deciding:
            said.append(f"{hunter} struck {where}")
        else:
            said.append(f"{hunter} found nothing ({where})")
        dog = SMALL_DOG if facts.predator == FOX else LARGE_DOG
        for seat, at_stake in facts.deciding:
            said.append(f"{name(seat)} may give up a {SPECIES[dog]} to save {counted(at_stake)}")
    elif isinstance(action, Dog) and facts.predator >= 0:
        if action.give:
            text = f"{text}, saving {counted(facts.at_stake)}"
        else:
            said.append(f"the {PREDATOR_NAMES[facts.predator]} took {counted(facts.at_stake)}")
    elif isinstance(action, First):
        said.append(f"the {PREDATOR_NAMES[action.predator]} strikes first")
    elif isinstance(action, Return):
        said.append(f"{counted(action.animals)} back to the herd for lack of room")
    elif isinstance(action, Deal) and action.via:
        said.append(tolls_text(facts.tolls, name))
    if facts.bred is not None:
        roller, born, crowded = facts.bred
        said.append(bred_text(born, crowded, name(roller)))
    if facts.winner >= 0:
        said.append(f"{name(facts.winner)} {'win' if facts.winner == viewer else 'wins'}!")
    return f"{text}: {'; '.join(said)}" if said else text


def at_risk(state: RanchoState, seat: int, predator: int, price: int) -> list[int]:
    """What a strike of ``predator`` on ``price`` would take from ``seat``, by species."""
    counts = [0] * 6
    for kind, count, _mask in state.game.grazing.struck(state.pieces[seat], predator, price):
        counts[kind] += count
    return counts


def bred_of(
    before: RanchoState, after: RanchoState, roller: int, lost: list[int] | None
) -> tuple[int, ...]:
    """What the roller bred: the animals gained, after this action's losses."""
    was = before.animals[roller]
    now = after.animals[roller]
    taken = lost or [0] * 6
    return tuple(now[k] - (was[k] - taken[k]) if k in FARM else 0 for k in range(6))


def bred_text(born: Sequence[int], crowded: bool, who: str) -> str:
    """What the roller bred, and whether it all fits."""
    if not any(born):
        return f"{who} bred nothing"
    text = f"{who} bred {counted(born)}"
    if crowded:
        text += ", not all fit"
    return text


def tolls_of(state: RanchoState, deal: Deal) -> tuple[tuple[int, int, int], ...]:
    """(owner, toll rabbits, of which the owner has room for) of each owner crossed."""
    from ranchhand.games.rancho import deals

    found = []
    for owner, rabbits in sorted(deals.tolls_of(state, deal.via).items()):
        room = state.game.grazing.add_rabbits(state.pieces[owner], state.region(owner), rabbits)[1]
        found.append((owner, rabbits, room))
    return tuple(found)


def tolls_text(tolls: Sequence[tuple[int, int, int]], name: Callable[[int], str]) -> str:
    """Toll rabbits paid to each owner crossed, and any the owner had no room for."""
    parts = []
    for owner, rabbits, room in tolls:
        part = f"{counted((rabbits, 0, 0, 0, 0, 0))} toll to {name(owner)}"
        if room < rabbits:
            part += f" ({rabbits - room} back to the herd, no room)"
        parts.append(part)
    return ", ".join(parts) or "no toll"
