"""Shared pieces of the fuzz tests that mutate JSON-like data (state JSON, records, data files)."""

from __future__ import annotations

import copy
import json
from collections.abc import Hashable, Sequence
from typing import Any

from hypothesis import strategies as st

Place = tuple[Hashable, ...]


def places(value: Any, most: int | None = None, at: Place = ()) -> list[Place]:
    """Every place below ``value``: keys of tables and positions in lists, as paths.

    ``most`` caps how many entries of each list are visited (long lists of alike
    entries add time, not cases). The value itself (the path ``()``) is not listed.
    """
    found: list[Place] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += [(*at, key), *places(item, most, (*at, key))]
    elif isinstance(value, list):
        for index, item in enumerate(value[:most]):
            found += [(*at, index), *places(item, most, (*at, index))]
    return found


def replaced(value: Any, place: Place, new: Any) -> Any:
    """A deep copy of ``value`` with what stands at ``place`` replaced by ``new``."""
    if not place:
        return new
    copy = json.loads(json.dumps(value))
    holder = copy
    for key in place[:-1]:
        holder = holder[key]
    holder[place[-1]] = new
    return copy


@st.composite
def mutated(
    draw: st.DrawFn,
    original: Any,
    junk: st.SearchStrategy[Any],
    extra_keys: Sequence[str] = ("extra",),
) -> Any:
    """``original`` after one to three random edits, each at a random place: a value
    dropped, replaced by ``junk``, copied beside itself, or an unexpected key added."""
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        spots = places(data)
        if not spots:
            break
        place = draw(st.sampled_from(spots))
        parent = data
        for key in place[:-1]:
            parent = parent[key]
        last = place[-1]
        how = draw(st.sampled_from(["drop", "replace", "replace", "copy", "extra"]))
        if how == "drop":
            del parent[last]
        elif how == "replace":
            parent[last] = draw(junk)
        elif how == "copy":
            twin = copy.deepcopy(parent[last])
            if isinstance(parent, list):
                parent.append(twin)
            else:
                parent[f"{last}-copy"] = twin
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(list(extra_keys)))] = draw(junk)
        else:
            parent.append(draw(junk))
    return data
