"""How much of Rancho the fixed action encoding can express, measured over played games.

Two shares, counted at every decision of seeded games between bots:

* of the **legal actions the engine lists** (``state.legal_actions()``), how many have
  an index (``RanchoEncoding.legal_moves``);
* of the **moves the bots chose**, how many have an index: the greedy bot sometimes
  plays a deal the engine does not list (the many-animal deal completing its herd),
  and a move without an index is one a learner could never make;
* of the **simple deals a person could type** in an expand step, which the engine does
  not list: every legal trade of one species for another in any counts (``trade 12
  rabbit > cow``) and every legal purchase of one pasture paid in one species with the
  change in rabbits (``buy 4.7 with cow`` when rabbits would do). This is a floor under
  the open-ended space (deals of three or more species are not counted).

``tools/rancho_coverage.py`` prints these for the docs page; the tests run a few games.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ranchhand.core.registry import bot_factory
from ranchhand.games.rancho.actions import Arrange, Deal, Return
from ranchhand.games.rancho.board import iter_bits
from ranchhand.games.rancho.deals import deal_problem, frontier
from ranchhand.games.rancho.encoding import ROUTES, RanchoEncoding
from ranchhand.games.rancho.game import RanchoGame
from ranchhand.games.rancho.state import EXPAND, RanchoState


@dataclass
class Coverage:
    """Counts over many decisions; ``missed`` names the kinds of move without an index."""

    games: int = 0
    decisions: int = 0
    legal: int = 0
    legal_encoded: int = 0
    chosen: dict[str, int] = field(default_factory=Counter)
    chosen_encoded: dict[str, int] = field(default_factory=Counter)
    missed: dict[str, int] = field(default_factory=Counter)
    simple: int = 0
    simple_encoded: int = 0
    simple_by_steps: int = 0

    def absorb(self, other: Coverage) -> None:
        """Add ``other``'s counts to these (a total over several tables)."""
        for name in ("games", "decisions", "legal", "legal_encoded", "simple"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.simple_encoded += other.simple_encoded
        self.simple_by_steps += other.simple_by_steps
        for mine, theirs in (
            (self.chosen, other.chosen),
            (self.chosen_encoded, other.chosen_encoded),
            (self.missed, other.missed),
        ):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count

    def legal_share(self) -> float:
        return self.legal_encoded / self.legal if self.legal else 1.0

    def simple_share(self) -> float:
        return self.simple_encoded / self.simple if self.simple else 1.0

    def simple_steps_share(self) -> float:
        """Simple deals with an index, or reached by a sequence of indexed moves."""
        done = self.simple_encoded + self.simple_by_steps
        return done / self.simple if self.simple else 1.0

    def chosen_share(self, bot: str) -> float:
        chosen = self.chosen.get(bot, 0)
        return self.chosen_encoded.get(bot, 0) / chosen if chosen else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decisions": self.decisions,
            "legal": self.legal,
            "legal_encoded": self.legal_encoded,
            "legal_share": self.legal_share(),
            "chosen": dict(self.chosen),
            "chosen_encoded": dict(self.chosen_encoded),
            "missed": dict(self.missed),
            "simple": self.simple,
            "simple_encoded": self.simple_encoded,
            "simple_share": self.simple_share(),
            "simple_by_steps": self.simple_by_steps,
            "simple_steps_share": self.simple_steps_share(),
        }


def kind_of(action: Hashable) -> str:
    """A short name for the kind of a move, to say what the encoding misses."""
    if isinstance(action, Deal):
        if action.via:
            return "blocked purchase"
        if action.pastures:
            return "purchase"
        kinds = sum(1 for n in (*action.give, *action.take) if n)
        return "trade" if kinds == 2 else "many-animal deal"
    if isinstance(action, Arrange):
        return "arrangement"
    if isinstance(action, Return):
        return "return"
    return type(action).__name__.lower()


def measure(
    seats: Sequence[str],
    games: int,
    seed: int = 0,
    max_turns: int = 500,
    coverage: Coverage | None = None,
    **options: Any,
) -> Coverage:
    """Play ``games`` seeded games with ``seats`` (bot names) and count what is expressible."""
    game = RanchoGame(len(seats), max_turns=max_turns, **options)
    encoding = game.encoding()
    assert isinstance(encoding, RanchoEncoding)
    out = coverage if coverage is not None else Coverage()
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        bots = [bot_factory(game, name)() for name in seats]
        state: RanchoState = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply(rng.choices(outcomes.actions, outcomes.weights)[0])
                continue
            player = state.current_player()
            legal = state.legal_actions(player)
            encoded = set(encoding.legal_moves(state, player).values())
            out.decisions += 1
            out.legal += len(legal)
            for action in legal:
                if action in encoded:
                    out.legal_encoded += 1
                else:
                    out.missed[f"listed {kind_of(action)}"] += 1
            if state.phase == EXPAND:
                for deal in simple_deals(state, player):
                    out.simple += 1
                    if deal in encoded:
                        out.simple_encoded += 1
                    elif by_steps(state, player, deal, encoding):
                        out.simple_by_steps += 1
                    else:
                        out.missed[f"simple {kind_of(deal)}, not even in steps"] += 1
            choice = bots[player].act(state.observe(player), legal, rng)
            name = seats[player]
            out.chosen[name] += 1
            if choice in encoded:
                out.chosen_encoded[name] += 1
            else:
                out.missed[f"chosen by {name}: {kind_of(choice)}"] += 1
            state.apply(choice, player)
        out.games += 1
    return out


def simple_deals(state: RanchoState, player: int) -> list[Deal]:
    """Every legal trade of one species for another, and every legal one-species payment
    for one pasture next to the player's land (change in rabbits), in any counts."""
    game = state.game
    values, mine, herd = game.values, state.animals[player], state.herd
    out: list[Deal] = []
    for give in range(6):
        for take in range(6):
            if give == take:
                continue
            for count in range(1, mine[give] + 1):
                worth = count * values[give]
                if worth % values[take] or not 0 < worth // values[take] <= herd[take]:
                    continue
                out.append(Deal(_one(give, count), _one(take, worth // values[take])))
    board = game.board
    for space in iter_bits(frontier(state, player)):
        price = board.spaces[space].price
        for give in range(6):
            count = -(-price // values[give])
            change = count * values[give] - price
            if count <= mine[give] and (change == 0 or give != 0):
                out.append(Deal(_one(give, count), _one(0, change), (board.spaces[space].id,)))
    return [deal for deal in out if deal_problem(state, player, deal) is None]


def _one(kind: int, count: int) -> tuple[int, int, int, int, int, int]:
    counts = [0] * 6
    counts[kind] = count
    return tuple(counts)  # type: ignore[return-value]


def by_steps(state: RanchoState, player: int, deal: Deal, encoding: RanchoEncoding) -> bool:
    """Whether indexed moves alone reach what ``deal`` does: the one-animal trade between
    its two species repeated, or (a purchase paid in another species) that species traded
    for rabbits one animal at a time, then the pasture's own slot. Each step must be legal
    when it is made, and the player, the herd and the land must end as after ``deal``."""
    give = next(kind for kind in range(6) if deal.give[kind])
    take = next((kind for kind in range(6) if deal.take[kind]), 0)
    if deal.pastures:
        take = 0
    step = next((t for t in encoding.trades if t[1] == give and t[3] == take), None)
    if step is None:
        return False
    one, _give, given, _take, taken = step
    if deal.pastures:
        repeats = deal.give[give] if give else 0
    elif deal.give[give] % given == 0 and deal.take[take] == deal.give[give] // given * taken:
        repeats = deal.give[give] // given
    else:
        return False
    after = state.clone()
    for _ in range(repeats):
        if one not in encoding.legal_moves(after, player).values():
            return False
        after.apply(one, player)
    if deal.pastures:
        slot = encoding.purchase_base + encoding.pasture_slot[deal.pastures[0]] * ROUTES
        purchase = encoding.legal_moves(after, player).get(slot)
        if purchase is None:
            return False
        after.apply(purchase, player)
    direct = state.clone()
    direct.apply(deal, player)
    return (after.animals, after.herd, after.land) == (direct.animals, direct.herd, direct.land)
