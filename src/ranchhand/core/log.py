"""Logs as people read them, shared by every front end (terminal, server, browser)."""

from __future__ import annotations


def collapse(lines: list[str]) -> list[str]:
    """Fold runs of the same line into one, e.g. sixteen hidden draws into ``... x16``.

    >>> collapse(["draw a card", "draw a card", "roll"])
    ['draw a card x2', 'roll']
    """
    folded: list[tuple[str, int]] = []
    for line in lines:
        if folded and folded[-1][0] == line:
            folded[-1] = (line, folded[-1][1] + 1)
        else:
            folded.append((line, 1))
    return [line if count == 1 else f"{line} x{count}" for line, count in folded]
