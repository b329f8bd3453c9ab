r"""Text from users and files, made safe to print: no Rich markup, no terminal escapes.

Anything a person typed (a seat name, an option, a path) or a file supplied (a
record's action texts) may hold ``[/x]`` (Rich markup, which would raise or
restyle the screen) or ``\x1b]0;...`` (an escape sequence that retitles or
rewrites the terminal). Every such text goes through :func:`plain` before it is
printed; markup is only ever written by our own code around it.

>>> print(plain("[bold]hi[/] \x1b]0;owned\x07"))
\[bold]hi\[/] \x1b]0;owned\x07
"""

from __future__ import annotations

import unicodedata

from rich.markup import escape

_UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn")


def printable(text: str) -> str:
    """``text`` with control and unprintable characters shown as ``\\xNN`` escapes."""
    if text.isprintable():
        return text
    return "".join(
        ascii(c)[1:-1] if unicodedata.category(c) in _UNPRINTABLE and c != "\n" else c for c in text
    )


def plain(text: object) -> str:
    """``str(text)`` safe to hand to Rich: markup escaped, control characters shown."""
    return escape(printable(str(text)))
