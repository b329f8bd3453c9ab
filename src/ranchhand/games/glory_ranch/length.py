"""How long a Glory Ranch game can be, in decisions (OpenSpiel's ``max_game_length``).

A turn's decisions follow from the cards: the card played, then whatever its
actions ask (another player to choose, cards to discard, give or pass, a ranch
card to pick, rock-paper-scissors signs), and a card that plays another card
adds that card's decisions. :func:`decisions_per_turn` takes the most any card
of the deck can ask, playing the costliest card at every "play another card",
up to the ranch limit of seven cards. A rock-paper-scissors contest asks two
signs a throw, for at most ``rps_ties`` throws (the tie that voids it), then the
winner's or the loser's actions, whichever ask more.

Turns have no bound in the rules: a round in which nobody gains is followed by
another, and with ``tie=play-on`` tied leaders play on. So the game length is
capped by ``max_turns`` when it is set; without it, by :data:`UNCAPPED_TURNS`,
far beyond the longest game measured (docs/games/glory-ranch.md gives the
figures), and load the game with ``max_turns`` for a hard cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ranchhand.games.glory_ranch.game import RANCH_LIMIT

if TYPE_CHECKING:
    from ranchhand.games.glory_ranch.cards import Effect
    from ranchhand.games.glory_ranch.game import GloryRanch

UNCAPPED_TURNS = 5000
"""Turns assumed without ``max_turns``: over 10 times the longest of 2,500 random games
(399 turns, at 6 players; 500 games per player count)."""


def turns_cap(game: GloryRanch) -> int:
    """``max_turns`` if set, else :data:`UNCAPPED_TURNS`."""
    return game.max_turns or UNCAPPED_TURNS


def decisions_per_turn(game: GloryRanch) -> int:
    """The most decisions one turn can ask: the card played and its actions."""
    return 1 + _Costs(game).card(RANCH_LIMIT - 1)


class _Costs:
    """Decisions asked by each card and action, with so many plays left in the turn."""

    def __init__(self, game: GloryRanch) -> None:
        self.game = game
        self.known: dict[int, int] = {}

    def card(self, plays: int) -> int:
        """The costliest card's decisions, with ``plays`` more cards playable."""
        if plays not in self.known:
            effects = self.game.effects
            self.known[plays] = max(
                sum(self.effect(effects[e], plays) for e in actions)
                for actions in self.game.card_effects
            )
        return self.known[plays]

    def effect(self, e: Effect, plays: int) -> int:
        n = self.game.players
        chosen = {"draw": e.who, "discard": e.who, "give": e.to}.get(e.do, e.target) == "chosen"
        who = {"each": n, "others": n - 1}.get(e.who, 1)
        asks = {
            "discard": e.n * who,
            "give": e.n,
            "pass": e.n * n,
            "place": int(e.at != "left"),
            "banish": 1,
            "return": 1,
            "protect": 1,
        }.get(e.do, 0)
        if e.do == "play" and plays:
            asks = 1 + self.card(plays - 1)
        elif e.do == "rps":
            outcomes = (sum(self.effect(x, plays) for x in side) for side in (e.win, e.lose))
            asks = 2 * self.game.rps_ties + max(outcomes)
        return int(chosen) + asks
