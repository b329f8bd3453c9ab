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
from typing import TYPE_CHECKING

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


def describe(state: RanchoState, viewer: int | None, action: Hashable, player: int) -> str:
    """``action`` (about to be applied by ``player``) and its consequences, for ``viewer``."""
    from ranchhand.games.rancho.state import DOG, EXPAND, RETURN, ROLL, SETTLE, STRIKE

    def name(seat: int) -> str:
        return "you" if seat == viewer else f"P{seat}"

    text = str(action)
    said: list[str] = []
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
                deciding.append(seat)
            else:
                lost[seat] = at_stake
                taken.append(f"{counted(at_stake)} from {name(seat)}")
        where = f"pastures costing {action.price}"
        hunter = f"the {PREDATOR_NAMES[predator]}"
        if taken:
            said.append(f"{hunter} took {', '.join(taken)} ({where})")
        elif deciding:
            said.append(f"{hunter} struck {where}")
        else:
            said.append(f"{hunter} found nothing ({where})")
        for seat in deciding:
            at_stake = at_risk(state, seat, predator, action.price)
            said.append(f"{name(seat)} may give up a {SPECIES[dog]} to save {counted(at_stake)}")
    elif isinstance(action, Dog) and state.strike is not None:
        predator, price = state.strike
        at_stake = at_risk(state, player, predator, price)
        if action.give:
            text = f"{text}, saving {counted(at_stake)}"
        else:
            lost[player] = at_stake
            said.append(f"the {PREDATOR_NAMES[predator]} took {counted(at_stake)}")
    elif isinstance(action, First):
        said.append(f"the {PREDATOR_NAMES[action.predator]} strikes first")
    elif isinstance(action, Return):
        said.append(f"{counted(action.animals)} back to the herd for lack of room")
    elif isinstance(action, Deal) and action.via:
        said.append(tolls_text(state, action, name))

    after = state.clone()
    after.apply(action, player)
    bred = state.phase in (ROLL, STRIKE, DOG) and after.phase in (RETURN, SETTLE, EXPAND)
    if bred and after.dice and any(face in FARM for face in after.dice):
        said.append(bred_text(state, after, state.player, lost.get(state.player), name))
    if after.winner >= 0 and state.winner < 0:
        said.append(f"{name(after.winner)} {'win' if after.winner == viewer else 'wins'}!")
    return f"{text}: {'; '.join(said)}" if said else text


def at_risk(state: RanchoState, seat: int, predator: int, price: int) -> list[int]:
    """What a strike of ``predator`` on ``price`` would take from ``seat``, by species."""
    counts = [0] * 6
    for kind, count, _mask in state.game.grazing.struck(state.pieces[seat], predator, price):
        counts[kind] += count
    return counts


def bred_text(
    before: RanchoState,
    after: RanchoState,
    roller: int,
    lost: list[int] | None,
    name: Callable[[int], str],
) -> str:
    """What the roller bred (after this action's losses), and whether it all fits."""
    from ranchhand.games.rancho.state import RETURN

    was = before.animals[roller]
    now = after.animals[roller]
    taken = lost or [0] * 6
    born = [now[k] - (was[k] - taken[k]) if k in FARM else 0 for k in range(6)]
    who = name(roller)
    if not any(born):
        return f"{who} bred nothing"
    text = f"{who} bred {counted(born)}"
    if after.phase == RETURN:
        text += ", not all fit"
    return text


def tolls_text(state: RanchoState, deal: Deal, name: Callable[[int], str]) -> str:
    """Toll rabbits paid to each owner crossed, and any the owner had no room for."""
    from ranchhand.games.rancho import deals

    parts = []
    for owner, rabbits in sorted(deals.tolls_of(state, deal.via).items()):
        room = state.game.grazing.add_rabbits(state.pieces[owner], state.region(owner), rabbits)[1]
        part = f"{counted((rabbits, 0, 0, 0, 0, 0))} toll to {name(owner)}"
        if room < rabbits:
            part += f" ({rabbits - room} back to the herd, no room)"
        parts.append(part)
    return ", ".join(parts) or "no toll"
