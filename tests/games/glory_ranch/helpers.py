"""Building Glory Ranch positions by hand for rule tests."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ranchhand.games.glory_ranch import GloryRanch, GloryState

VOCABULARY_DECK = str(Path(__file__).with_name("vocabulary.toml"))


def table(
    players: int = 2,
    hands: Mapping[int, Iterable[str]] | None = None,
    ranches: Mapping[int, Iterable[str]] | None = None,
    stock: Iterable[str] | None = None,
    discard: Iterable[str] = (),
    current: int = 0,
    vocabulary: bool = True,
    **options: Any,
) -> GloryState:
    """A position at the start of ``current``'s turn.

    Players not named in ``hands`` hold two 'plain' cards (so nobody is out); the
    deck holds what is left of the full deck unless ``stock`` lists it.
    """
    if vocabulary:
        options.setdefault("deck", VOCABULARY_DECK)
    game = GloryRanch(players, **options)
    state = game.new_initial_state()
    index = game.index
    hands = dict(hands or {})
    state.stack = []
    state.hands = [[0] * game.kinds for _ in range(players)]
    filler = "plain" if vocabulary else "roc"
    for p in range(players):
        for card in hands.get(p, [filler, filler]):
            state.hands[p][index[card]] += 1
    state.ranches = [[index[c] for c in (ranches or {}).get(p, [])] for p in range(players)]
    state.shields = [[0] * len(r) for r in state.ranches]
    state.discard = [0] * game.kinds
    for card in discard:
        state.discard[index[card]] += 1
    if stock is None:
        used = [sum(h[k] for h in state.hands) + state.discard[k] for k in range(game.kinds)]
        for ranch in state.ranches:
            for k in ranch:
                used[k] += 1
        state.deck = [max(0, c - u) for c, u in zip(game.deck.copies, used, strict=True)]
    else:
        state.deck = [0] * game.kinds
        for card in stock:
            state.deck[index[card]] += 1
    state.current = current
    state.first = current
    return state


def hand(state: GloryState, player: int) -> list[str]:
    """A player's hand as sorted card ids."""
    ids = state.game.ids
    return sorted(ids[k] for k, c in enumerate(state.hands[player]) for _ in range(c))


def ranch(state: GloryState, player: int) -> list[str]:
    return [state.game.ids[k] for k in state.ranches[player]]


def texts(actions: Iterable[Hashable]) -> list[str]:
    return [str(a) for a in actions]


def do(state: GloryState, *moves: str, player: int | None = None) -> GloryState:
    """Apply action texts in order (each by whoever acts, or ``player``)."""
    for move in moves:
        state.apply_text(move, player)
    return state
