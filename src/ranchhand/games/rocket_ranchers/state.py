"""A position of Rocket Ranchers and the rules that move it on.

A turn runs through phases: ``start`` (use a beam, reboot, or the dogship
first), ``place`` (put each collected Wildlife card in a corral, one decision a
card), ``fill`` (chance draws the refill, top to bottom, left to right) and
``after`` (the dogship may still be used, or the turn ends). The deck is a
count of the cards left, never an order: every draw is a chance outcome.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ranchhand.core import CHANCE, TERMINAL, ChanceOutcomes, Outcome, State
from ranchhand.core.chance import draw_weighted
from ranchhand.core.words import Memo
from ranchhand.games.rocket_ranchers.actions import (
    END_TURN,
    REBOOT,
    Beam,
    Dogship,
    Draw,
    Form,
    Occupy,
    Reboot,
)
from ranchhand.games.rocket_ranchers.describe import describe
from ranchhand.games.rocket_ranchers.notation import parse_action
from ranchhand.games.rocket_ranchers.observation import RocketObservation
from ranchhand.games.rocket_ranchers.phases import AFTER, FILL, PHASES, PLACE, START
from ranchhand.games.rocket_ranchers.reasons import why_illegal
from ranchhand.games.rocket_ranchers.scoring import Corral, score_players, winner
from ranchhand.games.rocket_ranchers.serial import load_state_json, state_to_json
from ranchhand.games.rocket_ranchers.tables import CAT, CELLS, EMPTY, HIDDEN, neighbours
from ranchhand.games.rocket_ranchers.validate import validate_state
from ranchhand.games.rocket_ranchers.words import words

if TYPE_CHECKING:
    import random

    from ranchhand.games.rocket_ranchers.game import RocketGame

SPREAD = 8.0
"""Points per factor e in :meth:`RocketState.evaluate`'s estimate of the chance to win."""


def chances(totals: Sequence[int]) -> list[float]:
    """Each player's share of 1 by ``exp(points / SPREAD)`` (:meth:`RocketState.evaluate`)."""
    top = max(totals)
    weights = [math.exp((t - top) / SPREAD) for t in totals]
    share = sum(weights)
    return [w / share for w in weights]


class RocketState(State):
    """The table: display, deck counts, each player's corrals, floof pile and tokens."""

    game: RocketGame

    def __init__(self, game: RocketGame) -> None:
        super().__init__(game)
        tables = game.tables
        self.tables = tables
        counts, cats = tables.deck_counts(game.players)
        self.deck: list[int] = counts
        self.left = [k for k, n in enumerate(counts) if n]
        """The kinds still in the deck, in kind order (kept for fast chance nodes)."""
        self.deck_cats = cats
        self.deck_size = sum(counts) + cats
        self.display: list[int] = [EMPTY] * CELLS
        self.corrals: list[list[Corral]] = [[] for _ in range(game.players)]
        self.public: list[tuple[Corral, ...]] = [() for _ in range(game.players)]
        """Each player's corrals as the others see them (founders hidden)."""
        self.floof = [0] * game.players
        self.all_beams = (1 << len(tables.beams)) - 1
        self.beams = [self.all_beams] * game.players
        self.dogship = [True] * game.players
        self.player = 0
        self.phase = FILL
        self.setting_up = True
        self.pending: list[int] = []
        self.over: Outcome | None = None
        self._played: Memo[RocketState | None] | None = None
        """The last action the log in words worked out (:func:`.words._memo`): the state
        after it where that was needed, and the words said; every viewer's line asks for
        the same one. Forgotten with the caches."""

    def _forget_cached(self) -> None:
        super()._forget_cached()
        self._played = None

    # ----------------------------------------------------------- whose turn
    def _current_player(self) -> int:
        return CHANCE if self.phase == FILL else self.player

    def _outcome(self) -> Outcome | None:
        return self.over

    # ------------------------------------------------------------ the lists
    def _legal_actions(self, player: int) -> list[Hashable]:
        phase = self.phase
        if phase == START:
            up = self.beams[player]
            actions: list[Hashable] = list(self.tables.beam_choices(up))
            if up != self.all_beams:
                actions.append(REBOOT)
            if self.dogship[player]:
                actions.extend(self._swaps())
            return actions
        if phase == PLACE:
            return self._placements(player)
        return [END_TURN, *self._swaps()]

    def _biome_groups(self) -> list[list[int]]:
        """The display cells holding Wildlife cards, grouped by biome."""
        biome = self.tables.biome
        groups: list[list[int]] = [[] for _ in self.tables.deck.biomes]
        for cell, card in enumerate(self.display):
            if card >= 0:
                groups[biome[card]].append(cell)
        return groups

    def _swaps(self) -> list[Dogship]:
        """Every dogship swap: two Wildlife cards of the same biome."""
        return list(self.tables.swaps_in(tuple(self.display)))

    def _placements(self, player: int) -> list[Hashable]:
        tables = self.tables
        species = tables.species
        actions: list[Hashable] = []
        for kind in dict.fromkeys(self.pending):
            actions.append(tables.forms[kind])
            for index, (_, face_up) in enumerate(self.corrals[player]):
                if not face_up or species[face_up[0]] == species[kind]:
                    actions.append(tables.occupy(kind, index))
        return actions

    def _chance_outcomes(self) -> ChanceOutcomes:
        deck = self.deck
        kinds = self.left
        if len(kinds) > 1:
            actions = list(itemgetter(*kinds)(self.tables.draws))
            weights = list(itemgetter(*kinds)(deck))
        else:
            actions = [self.tables.draws[k] for k in kinds]
            weights = [deck[k] for k in kinds]
        if self.deck_cats:
            actions.append(self.tables.draw_cat)
            weights.append(self.deck_cats)
        return ChanceOutcomes(actions, weights)

    def _sample_chance(self, rng: random.Random) -> Hashable:
        """The draw ``chance_outcomes().sample(rng)`` gives, walked from the deck's counts."""
        kinds, deck = self.left, self.deck
        weights = itemgetter(*kinds)(deck) if len(kinds) > 1 else [deck[k] for k in kinds]
        index = draw_weighted(rng, weights, self.deck_size)
        return self.tables.draws[kinds[index]] if index < len(kinds) else self.tables.draw_cat

    def _is_chance_outcome(self, action: Hashable) -> bool:
        kind = self.tables.kind_by_text.get(action.card) if isinstance(action, Draw) else None
        if kind is not None:
            return self.deck[kind] > 0
        return action == self.tables.draw_cat and self.deck_cats > 0

    # ----------------------------------------------------------- the reasons
    def _why_illegal(self, action: Hashable, player: int) -> str | None:
        return why_illegal(self, action, player)

    # -------------------------------------------------------------- the moves
    def _apply(self, action: Hashable, player: int) -> None:
        if player == CHANCE:
            self._draw(action)  # type: ignore[arg-type]
        elif isinstance(action, Beam):
            self._beam(action, player)
        elif isinstance(action, Form):
            self._place(self.tables.kind_by_text[action.card], None, player)
        elif isinstance(action, Occupy):
            self._place(self.tables.kind_by_text[action.card], action.corral - 1, player)
        elif isinstance(action, Dogship):
            first, second = self.tables.swap_cells[action]
            display = self.display
            display[first], display[second] = display[second], display[first]
            self.dogship[player] = False
            if self.phase == AFTER:
                self._next_player()
        elif isinstance(action, Reboot):
            self.beams[player] = self.all_beams
            self.dogship[player] = True
            self._next_player()
        else:
            self._next_player()

    def _draw(self, action: Draw) -> None:
        card = self.tables.drawn.get(action)
        if card is None:  # a draw typed in other letters than the tables'
            card = self.tables.card_of(action.card)
            assert card is not None
        if card == CAT:
            self.deck_cats -= 1
        else:
            self.deck[card] -= 1
            if not self.deck[card]:
                self.left.remove(card)
        self.deck_size -= 1
        display = self.display
        display[display.index(EMPTY)] = card
        if not self.deck_size or EMPTY not in display:
            self._refilled()

    def _catch(self, action: Beam) -> int:
        """The display cells a legal beam collects: its cards, then the Space Cats next
        to them (once, or on and on with ``cat_chain``)."""
        placement = self.tables.placement_of[action]
        display = self.display
        mask = 0
        cats = 0
        for cell in range(CELLS):
            if display[cell] == CAT:
                cats |= 1 << cell
        for cell in placement.cells:
            if display[cell] != EMPTY:
                mask |= 1 << cell
        chain = self.game.options["cat_chain"]
        new = neighbours(mask) & cats & ~mask
        while new:
            mask |= new
            new = neighbours(new) & cats & ~mask if chain else 0
        return mask

    def _beam(self, action: Beam, player: int) -> None:
        placement = self.tables.placement_of[action]
        display = self.display
        mask = self._catch(action)
        pending = self.pending
        for cell in range(CELLS):
            if mask >> cell & 1:
                card = display[cell]
                if card == CAT:
                    self.floof[player] += 1
                else:
                    pending.append(card)
                display[cell] = EMPTY
        self.beams[player] &= ~(1 << placement.beam)
        if pending:
            self.phase = PLACE
        else:
            self._collected(player)

    def _place(self, kind: int, corral: int | None, player: int) -> None:
        self.pending.remove(kind)
        corrals = self.corrals[player]
        if corral is None:
            corrals.append((kind, ()))
        else:
            founder, face_up = corrals[corral]
            corrals[corral] = (founder, (*face_up, kind))
        self.public[player] = tuple((HIDDEN, up) for _, up in corrals)
        if not self.pending:
            self._collected(player)

    def _collected(self, player: int) -> None:
        """After the collected cards are placed: automatic reboot, then the refill."""
        if not self.beams[player]:
            self.beams[player] = self.all_beams
            self.dogship[player] = True
        if self.deck_size and EMPTY in self.display:
            self.phase = FILL
        else:
            self._refilled()

    def _refilled(self) -> None:
        if self.setting_up:
            self.setting_up = False
            self.phase = START
        elif self.dogship[self.player] and self.tables.swaps_in(tuple(self.display)):
            # memoised: the 'after' list asks for the same display's swaps next
            self.phase = AFTER
        else:
            self._next_player()

    def _next_player(self) -> None:
        self._end_turn()
        self.player = (self.player + 1) % self.game.players
        self.phase = START
        if not self.deck_size and self.player == 0:
            self.over = self._final_outcome()

    # ------------------------------------------------------------ the ending
    def _final_outcome(self) -> Outcome:
        scores = score_players(self.tables, self.game.options, self.corrals, self.floof)
        totals = [s.total for s in scores]
        return Outcome(
            (winner(totals, self.floof),),
            tuple(float(t) for t in totals),
            "the deck ran out and every player had the same number of turns",
        )

    def evaluate(self) -> list[float]:
        """Each player's rough chance to win from the points if the game ended now.

        A share of 1 by ``exp(points / SPREAD)``: a lead of one Variety row (about 8
        points) is worth about 3 to 1. Search bots use it to score a rollout cut short;
        the compiled playout (``fast/engine.py``) scores its cut rollouts with the same
        :func:`chances` of the totals its kernel counts.
        """
        scores = score_players(self.tables, self.game.options, self.corrals, self.floof)
        return chances([s.total for s in scores])

    def standing(self) -> list[float]:
        """Each player's score if the game ended now, the lab's "who is ahead"."""
        scores = score_players(self.tables, self.game.options, self.corrals, self.floof)
        return [float(s.total) for s in scores]

    def details(self) -> dict[str, Any]:
        scores = score_players(self.tables, self.game.options, self.corrals, self.floof)
        return {
            "abundance": [s.abundance for s in scores],
            "variety": [s.variety for s in scores],
            "cats": [s.cats for s in scores],
            "score": [s.total for s in scores],
            "space_cats": list(self.floof),
            "corrals": [len(c) for c in self.corrals],
            "winner": self.over.winners[0] if self.over else None,
        }

    # ------------------------------------------------------------- the views
    def describe_for(self, viewer: int | None, action: Hashable, player: int) -> str:
        """An action's text as ``viewer`` may see it: what the observation hides stays hidden.

        Draws land face up in the display, beams, swaps and face-up placements
        happen in plain view; the card that founds a corral goes face down, so
        anyone but its owner learns only that a corral was founded. Each text
        starts with the action as typed (the founding card's aside) and says
        what it does: the cards a beam takes, the cards a swap moves, the cell a
        draw fills (see :func:`.describe.describe`).
        """
        return describe(self, viewer, action, player)

    def describe_words(
        self, viewer: int | None, action: Hashable, player: int, names: Sequence[str]
    ) -> str:
        """``action`` and what follows, in sentences for a table's log (see words.py):
        "Ann used their L of 3 on b2, b3 and c3 and took 2 cards and a Space Cat.". It
        keeps every secret :meth:`describe_for` keeps."""
        return words(self, viewer, action, player, names)

    def observe(self, player: int | None) -> RocketObservation:
        """What ``player`` sees; once the game is over every founding card is turned up.

        ``player`` None is the spectator: what the table shows to nobody in
        particular, every founding card face down until the end. The reveal at
        the end lets every player check the scores (with ``variety_counts=all``
        the founders' biomes count).
        """
        current = self.current_player()
        over = current == TERMINAL  # is_terminal(), without asking twice
        if over:
            corrals = tuple(tuple(mine) for mine in self.corrals)
        else:
            public = list(self.public)
            if player is not None and 0 <= player < len(public):
                public[player] = tuple(self.corrals[player])
            corrals = tuple(public)
        return RocketObservation.made_of(
            player=player,
            tables=self.tables,
            options=self.game.options,
            current=current,
            phase=PHASES[self.phase],
            display=tuple(self.display),
            corrals=corrals,
            floof=tuple(self.floof),
            beams=tuple(self.beams),
            dogship=tuple(self.dogship),
            pending=tuple(self.pending),
            deck_size=self.deck_size,
            deck_cats=self.deck_cats,
            turn=self.turn,
            over=over,
        )

    def _parse(self, text: str, player: int) -> Hashable:
        return parse_action(text, self.tables, lambda: self.legal_actions(player))

    def clone(self) -> RocketState:
        twin = self._twin()
        twin.deck = list(self.deck)
        twin.left = list(self.left)
        twin.display = list(self.display)
        twin.corrals = [list(c) for c in self.corrals]
        twin.public = list(self.public)
        twin.floof = list(self.floof)
        twin.beams = list(self.beams)
        twin.dogship = list(self.dogship)
        twin.pending = list(self.pending)
        return twin

    def set_deck(self, cards: Mapping[str, int], cats: int = 0) -> None:
        """Put exactly ``cards`` (text -> copies) and ``cats`` Space Cats in the deck.

        For constructed positions (rule tests, puzzles); the display is untouched.
        """
        self.deck = [0] * self.tables.kinds
        for card, count in cards.items():
            self.deck[self.tables.kind_by_text[card]] = count
        self.left = [k for k, n in enumerate(self.deck) if n]
        self.deck_cats = cats
        self.deck_size = sum(self.deck) + cats
        self._forget_cached()

    def set_corrals(self, player: int, corrals: list[Corral]) -> None:
        """Give ``player`` exactly these corrals (constructed positions: tests, puzzles)."""
        self.corrals[player] = list(corrals)
        self.public[player] = tuple((HIDDEN, up) for _, up in corrals)
        self._forget_cached()

    # -------------------------------------------------------------- the JSON
    def _to_json(self) -> dict[str, Any]:
        return state_to_json(self)

    def load_json(self, data: Mapping[str, Any]) -> None:
        """Fill this fresh state from :meth:`_to_json` data (StateError naming the field)."""
        load_state_json(self, data)
        if not self.deck_size and self.player == 0 and self.phase == START and not self.setting_up:
            self.over = self._final_outcome()

    def _validate(self) -> None:
        """Refuse a position the rules cannot reach (see :mod:`.validate`)."""
        validate_state(self)
