"""The adapters' render modes: the terminal view as ANSI text, printed, or as a picture.

Every mode draws the same thing: ``ranchhand play``'s board for one player's observation
(or a spectator's), 80 columns wide, so hot-seat play through an environment shows nobody
else's hand. ``rgb_array`` turns that text into an image with numpy alone: each character
cell is a ``CELL_WIDTH x CELL_HEIGHT`` block of its background colour, and a printed
character a smaller block of its foreground colour inside it. The picture keeps the
layout and the colours of the screen (who owns what, where the animals stand), not the
glyphs: read the text with ``ansi``. A video recorder (Gymnasium's ``RecordVideo``) gets
frames of one size for a game, since the screen is a fixed width and its height is padded
to :data:`ROWS`.
"""

from __future__ import annotations

import io
import sys

import numpy as np
from rich.color import Color
from rich.console import Console
from rich.text import Text

from ranchhand.core.view import SCREEN_WIDTH

RENDER_MODES = ("ansi", "human", "rgb_array")
"""What ``render_mode`` may be (or None, no rendering)."""
CELL_WIDTH = 6
CELL_HEIGHT = 12
ROWS = 40
"""Text rows in a picture: the largest screen (Rocket Ranchers at 5 players) fits; longer
text is cut, shorter padded, so every frame of a game has one size."""
FOREGROUND = (200, 200, 200)
BACKGROUND = (0, 0, 0)


def check_mode(render_mode: str | None) -> None:
    """Refuse an unknown ``render_mode`` by name, before anything is built."""
    if render_mode not in (None, *RENDER_MODES):
        allowed = ", ".join(repr(mode) for mode in RENDER_MODES)
        raise ValueError(f"render_mode must be one of {allowed} or None, got {render_mode!r}")


def show(text: str, render_mode: str | None) -> str | np.ndarray | None:
    """What ``render()`` returns for the ANSI ``text`` in ``render_mode``."""
    if render_mode == "ansi":
        return text
    if render_mode == "human":
        sys.stdout.write(text)
        sys.stdout.flush()
        return None
    if render_mode == "rgb_array":
        return picture(text)
    return None


def picture(text: str) -> np.ndarray:
    """The ANSI ``text`` as an ``(ROWS * CELL_HEIGHT, SCREEN_WIDTH * CELL_WIDTH, 3)`` uint8
    image: one cell a character, in its colours (see the module docstring)."""
    image = np.zeros((ROWS * CELL_HEIGHT, SCREEN_WIDTH * CELL_WIDTH, 3), dtype=np.uint8)
    console = Console(file=io.StringIO(), width=SCREEN_WIDTH, color_system="truecolor")
    for row, line in enumerate(text.splitlines()[:ROWS]):
        column = 0
        for segment in Text.from_ansi(line).render(console):
            style = segment.style
            front = _rgb(style.color if style else None, FOREGROUND)
            back = _rgb(style.bgcolor if style else None, BACKGROUND)
            if style is not None and style.reverse:
                front, back = back, front
            if style is not None and style.dim:
                front = (front[0] // 2, front[1] // 2, front[2] // 2)
            for char in segment.text:
                if column >= SCREEN_WIDTH:
                    break
                top, left = row * CELL_HEIGHT, column * CELL_WIDTH
                image[top : top + CELL_HEIGHT, left : left + CELL_WIDTH] = back
                if not char.isspace():
                    image[top + 2 : top + CELL_HEIGHT - 2, left + 1 : left + CELL_WIDTH - 1] = front
                column += 1
    return image


def _rgb(color: Color | None, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if color is None or color.is_default:
        return default
    triplet = color.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)
