"""The log of Rocket Ranchers in words: an action and what it did, told to one viewer.

:mod:`.describe` speaks the notation a player types ("beam L3 r90 @b2", "occupy
kelk/tundra/2 in 2"); this module tells the same events as sentences a table log
shows, players by name and the viewer as "you":

- "Ann used their L of 3 on b2, b3 and c3 and took Tundra Kow (2 dots), Desert
  Bako (1 dot) and a Space Cat." (the others read "took 2 cards and a Space Cat")
- "You formed corral 3 with Tundra Kow (2 dots), face down." / "Ann formed corral 3
  with a face-down card."
- "Ann put Tundra Kelk (2 dots) face up in their corral 2 (now 3 face up there)."
- "Ann's dogship swapped Tundra Kow (2 dots) in a1 and Tundra Bako (1 dot) in c3."
- "Desert Flama (3 dots) was turned up in b2." (a draw into the display)

and what followed without a choice: an automatic reboot, the last card of the deck,
the end of the game with every player's score.

The secrets are :mod:`.describe`'s: the card that founds a corral is named only to
its owner, and only the player who beams reads the Wildlife cards they took by name
(a card taken may go face down). Everything else happens in plain view. The
consequences come from applying the action to a copy of the state, so the words
can never disagree with the rules.
"""

from __future__ import annotations

from collections.abc import Container, Hashable, Sequence
from typing import TYPE_CHECKING

from ranchhand.core import CHANCE, ActionError
from ranchhand.core.words import Memo, Speaker, listed, sentence
from ranchhand.games.rocket_ranchers.actions import (
    Beam,
    Dogship,
    Draw,
    EndTurn,
    Form,
    Occupy,
    Reboot,
    cell_name,
)
from ranchhand.games.rocket_ranchers.scoring import score_players
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY

if TYPE_CHECKING:
    from ranchhand.games.rocket_ranchers.state import RocketState


class Voice(Speaker):
    """Players as one viewer reads them (a name, or "you"), and cards in words."""

    __slots__ = ("state",)

    def __init__(self, state: RocketState, viewer: int | None, names: Sequence[str]) -> None:
        super().__init__(viewer, names)
        self.state = state

    def their(self, seat: int) -> str:
        return "your" if seat == self.viewer else "their"

    def sees(self, seat: int) -> bool:
        """Whether the viewer is ``seat`` (or the all-seeing CHANCE viewer)."""
        return self.viewer in (seat, CHANCE)

    def card(self, card: int) -> str:
        """``Tundra Kow (2 dots)``, ``a Space Cat``."""
        if card == CAT:
            return "a Space Cat"
        tables = self.state.tables
        deck = tables.deck
        dots = tables.dots[card]
        kind = f"{deck.biomes[tables.biome[card]]} {deck.species[tables.species[card]]}"
        return f"{kind} ({dots} {'dot' if dots == 1 else 'dots'})"


def words(
    state: RocketState, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
) -> str:
    """``action`` (about to be applied by ``player``) and what follows, in sentences.

    Worked out once per action (:func:`_memo`); a viewer the words do not name (anyone
    but the player, before the end, where every score is told) reads the spectator's."""
    memo = _memo(state, action, player)
    twin = memo.facts
    ends = twin is not None and twin.over is not None and state.over is None
    named: Container[int] = ALL if ends else (player, CHANCE)

    def say() -> str:
        voice = Voice(state, viewer, names)
        head = _head(voice, action, player)
        if not head:  # an action the rules would refuse: told as typed
            who = "Chance" if player == CHANCE else voice.who(player)
            return sentence(f"{who} chose {action}")
        return " ".join([head, *_after(voice, action, player, twin)])

    return memo.words(viewer, names, named, say)


class _Everyone:
    """Every viewer: each is named in the scores at the end of the game."""

    def __contains__(self, viewer: object) -> bool:
        return True


ALL = _Everyone()


def _head(voice: Voice, action: Hashable, player: int) -> str:
    """The action itself in a sentence ('' for one the rules would refuse)."""
    state = voice.state
    tables = state.tables
    who = voice.who(player)
    if isinstance(action, Beam) and action in tables.placement_of:
        return _beam(voice, action, player)
    if isinstance(action, Form) and action.card in tables.kind_by_text:
        number = len(state.corrals[player]) + 1
        if voice.sees(player):
            card = voice.card(tables.kind_by_text[action.card])
            return sentence(f"{who} formed corral {number} with {card}, face down")
        return sentence(f"{who} formed corral {number} with a face-down card")
    if isinstance(action, Occupy) and action.card in tables.kind_by_text:
        corrals = state.corrals[player]
        if not 0 < action.corral <= len(corrals):
            return ""
        card = voice.card(tables.kind_by_text[action.card])
        there = len(corrals[action.corral - 1][1]) + 1
        count = "the first face up there" if there == 1 else f"now {there} face up there"
        where = f"{voice.their(player)} corral {action.corral}"
        return sentence(f"{who} put {card} face up in {where} ({count})")
    if isinstance(action, Dogship) and action in tables.swap_cells:
        first, second = tables.swap_cells[action]
        display = state.display
        swapped = (
            f"{voice.card(display[first])} in {cell_name(first)} and "
            f"{voice.card(display[second])} in {cell_name(second)}"
        )
        return sentence(f"{voice.whose(player)} dogship swapped {swapped}")
    if isinstance(action, Reboot):
        mine = voice.their(player)
        return sentence(f"{who} rebooted: {mine} beams and {mine} dogship are face up again")
    if isinstance(action, EndTurn):
        kept = f", keeping {voice.their(player)} dogship face up" if state.dogship[player] else ""
        return sentence(f"{who} ended {voice.their(player)} turn{kept}")
    if isinstance(action, Draw) and EMPTY in state.display:
        kind = tables.drawn.get(action)  # the tables' own draw: one lookup
        if kind is None:
            kind = tables.card_of(action.card)
        if kind is None:
            return ""
        drawn = voice.card(kind)
        return sentence(f"{drawn} was turned up in {cell_name(state.display.index(EMPTY))}")
    return ""


def _beam(voice: Voice, action: Beam, player: int) -> str:
    """The beam, its pattern and the cells it covers, and what it took (as describe.py
    tells it: Wildlife cards by name only to the player who beams)."""
    state = voice.state
    placement = state.tables.placement_of[action]
    shape = state.tables.beams[placement.beam].description.removeprefix("a ").removeprefix("an ")
    cells = listed([cell_name(c) for c in placement.cells])
    mask = state._catch(action)
    taken = [state.display[c] for c in range(CELLS) if mask >> c & 1]
    wild = [c for c in taken if c >= 0]
    cats = sum(c == CAT for c in taken)
    if voice.sees(player):
        parts = [voice.card(c) for c in wild]
    else:
        parts = [f"{len(wild)} {'card' if len(wild) == 1 else 'cards'}"] if wild else []
    if cats:
        parts.append("a Space Cat" if cats == 1 else f"{cats} Space Cats")
    took = f"took {listed(parts)}" if parts else "took nothing: the cells were empty"
    who = voice.who(player)
    return sentence(f"{who} used {voice.their(player)} {shape} on {cells} and {took}")


def _after(voice: Voice, action: Hashable, player: int, twin: RocketState | None) -> list[str]:
    """What followed without a choice (``twin``: the state after the action, where one
    of these may follow): an automatic reboot, the deck's last card, the end."""
    if twin is None:
        return []
    state = voice.state
    told = []
    down = player != CHANCE and not state.beams[player] & ~_spent(state, action)
    if down and twin.beams[player] == twin.all_beams:
        mine = voice.their(player)
        told.append(
            sentence(
                f"All {mine} beams were down, so {voice.who(player)} rebooted: "
                f"{mine} beams and {mine} dogship are face up again"
            )
        )
    if state.deck_size and not twin.deck_size:
        told.append(
            "That was the deck's last card: play goes on until everyone has had as many turns."
        )
    if twin.over is not None and state.over is None:
        told.append(_final(voice, twin))
    return told


def _spent(state: RocketState, action: Hashable) -> int:
    """The beam ``action`` turns face down, as a bit of the beams' mask (0: none)."""
    placement = state.tables.placement_of.get(action) if isinstance(action, Beam) else None
    return 0 if placement is None else 1 << placement.beam


def _memo(state: RocketState, action: Hashable, player: int) -> Memo[RocketState | None]:
    """The state's memo of ``action``: the state after it where an automatic reboot or the
    end may follow (every beam down once it is done, or a deck of at most one card), else
    None; remembered until the state changes, since every viewer's line asks. Most steps
    are draws and placements that lead to nothing of the kind and need no copy."""
    known = state._played
    if known is not None and known.player == player and known.action == action:
        return known
    twin: RocketState | None = None
    down = player != CHANCE and not state.beams[player] & ~_spent(state, action)
    if down or state.deck_size <= 1:
        twin = state.clone()
        try:
            twin.apply(action, player)
        except ActionError:
            twin = None
    known = state._played = Memo(player, action, twin)
    return known


def _final(voice: Voice, twin: RocketState) -> str:
    """The end of the game: every player's points, split, and the winner."""
    scores = score_players(twin.tables, twin.game.options, twin.corrals, twin.floof)
    parts = [
        f"{voice.who(p)} {s.total} (Abundance {s.abundance}, Variety {s.variety}, "
        f"Space Cats {s.cats:+d})"
        for p, s in enumerate(scores)
    ]
    assert twin.over is not None
    winner = twin.over.winners[0]
    return f"The game is over. Points: {'; '.join(parts)}. " + sentence(
        f"{voice.who(winner)} won the game"
    )
