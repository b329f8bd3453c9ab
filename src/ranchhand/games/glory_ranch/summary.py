"""Simulation summaries: how long games are, who wins, and which cards lift a round.

:class:`GlorySummary` adds up the ``State.details()`` of finished games one at a
time, keeping a few counts per card, so a simulation of any length holds a small
table. The per-card table answers the balance question "does having this card in
your ranch at round end make you win the round more often than average?".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ranchhand.core.game import Summary
from ranchhand.games.glory_ranch.cards import Deck


class GlorySummary(Summary):
    """Round, turn and win counts, and per card the rounds it was in a ranch and won."""

    def __init__(self, players: int, deck: Deck) -> None:
        self.deck = deck
        self.games = 0
        self.rounds = 0
        self.total_turns = 0
        self.wins = [0] * players
        self.seen = {c.id: 0 for c in deck.cards}
        self.won = {c.id: 0 for c in deck.cards}
        self.player_rounds = 0
        self.round_wins = 0

    def add(self, details: Mapping[str, Any]) -> None:
        if "counted" in details:
            self._add_counted(details)
            return
        if details.get("rounds") is None:
            return
        self.games += 1
        for seat in details.get("winners", []):
            self.wins[seat] += 1
        for r in details["rounds"]:
            self.rounds += 1
            self.total_turns += r["turns"]
            for seat, ranch in enumerate(r["ranches"]):
                winner = seat in r["winners"]
                self.player_rounds += 1
                self.round_wins += winner
                for card in set(ranch):
                    self.seen[card] += 1
                    self.won[card] += winner

    def _add_counted(self, details: Mapping[str, Any]) -> None:
        """A game the fast engine played: it sends this summary's counts, added up over the
        game's rounds in the kernel, instead of every round's ranches (``counted``: rounds,
        turns, player rounds, round wins, and per card of the deck, in order, the rounds it
        was in a ranch and in a round winner's)."""
        counted = details["counted"]
        self.games += 1
        for seat in details.get("winners", []):
            self.wins[seat] += 1
        self.rounds += counted["rounds"]
        self.total_turns += counted["turns"]
        self.player_rounds += counted["player_rounds"]
        self.round_wins += counted["round_wins"]
        for card, seen, won in zip(self.deck.cards, counted["seen"], counted["won"], strict=True):
            self.seen[card.id] += seen
            self.won[card.id] += won

    def result(self) -> dict[str, Any]:
        games, rounds, wins = self.games, self.rounds, self.wins
        average = self.round_wins / self.player_rounds if self.player_rounds else 0.0
        cards: list[dict[str, Any]] = []
        for card in self.deck.cards:
            count = self.seen[card.id]
            rate = self.won[card.id] / count if count else 0.0
            cards.append(
                {
                    "card": card.id,
                    "name": card.name,
                    "rounds": count,
                    "win_rate": round(rate, 4),
                    "lift": round(rate - average, 4) if count else 0.0,
                }
            )
        cards.sort(key=lambda row: -float(row["lift"]))
        per_game = round(rounds / games, 3) if games else 0.0
        per_round = round(self.total_turns / rounds, 3) if rounds else 0.0
        return {
            "games": games,
            "rounds_per_game": per_game,
            "turns_per_round": per_round,
            "wins_per_seat": list(wins),
            "win_share_per_seat": [round(w / games, 4) if games else 0.0 for w in wins],
            "round_win_rate": round(average, 4),
            "cards": cards,
            "average": {  # the headline numbers `ranchhand compare` puts side by side
                "rounds": per_game,
                "turns_per_round": per_round,
                "top_card_lift_points": round(100 * float(cards[0]["lift"]), 1) if cards else 0.0,
            },
        }


def summarize_details(
    details: Iterable[Mapping[str, Any]], players: int, deck: Deck
) -> dict[str, Any]:
    """The summary of many games' details at once (kept for scripts written against it)."""
    summary = GlorySummary(players, deck)
    for one in details:
        summary.add(one)
    return summary.result()
