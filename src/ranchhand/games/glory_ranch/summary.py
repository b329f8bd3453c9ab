"""Simulation summaries: how long games are, who wins, and which cards lift a round.

:func:`summarize_details` aggregates the ``State.details()`` of many games. The
per-card table answers the balance question "does having this card in your ranch
at round end make you win the round more often than average?".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ranchhand.games.glory_ranch.cards import Deck


def summarize_details(
    details: Sequence[Mapping[str, Any]], players: int, deck: Deck
) -> dict[str, Any]:
    games = [d for d in details if d.get("rounds") is not None]
    rounds = [r for d in games for r in d["rounds"]]
    wins = [0] * players
    for d in games:
        for seat in d.get("winners", []):
            wins[seat] += 1
    seen = {c.id: 0 for c in deck.cards}
    won = {c.id: 0 for c in deck.cards}
    player_rounds = round_wins = 0
    for r in rounds:
        for seat, ranch in enumerate(r["ranches"]):
            winner = seat in r["winners"]
            player_rounds += 1
            round_wins += winner
            for card in set(ranch):
                seen[card] += 1
                won[card] += winner
    average = round_wins / player_rounds if player_rounds else 0.0
    cards: list[dict[str, Any]] = []
    for card in deck.cards:
        count = seen[card.id]
        rate = won[card.id] / count if count else 0.0
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
    total_turns = sum(r["turns"] for r in rounds)
    return {
        "games": len(games),
        "rounds_per_game": round(len(rounds) / len(games), 3) if games else 0.0,
        "turns_per_round": round(total_turns / len(rounds), 3) if rounds else 0.0,
        "wins_per_seat": wins,
        "win_share_per_seat": [round(w / len(games), 4) if games else 0.0 for w in wins],
        "round_win_rate": round(average, 4),
        "cards": cards,
        "average": {  # the headline numbers `ranchhand compare` puts side by side
            "rounds": round(len(rounds) / len(games), 3) if games else 0.0,
            "turns_per_round": round(total_turns / len(rounds), 3) if rounds else 0.0,
            "top_card_lift_points": round(100 * float(cards[0]["lift"]), 1) if cards else 0.0,
        },
    }
