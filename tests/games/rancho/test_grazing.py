"""Fitting animals into a region, checked against a brute-force search on small regions."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from ranchhand.games.rancho.board import iter_bits, load_board
from ranchhand.games.rancho.grazing import grazing_for

BOARD = load_board("hex-rings")
GRAZING = grazing_for("hex-rings", (1, 1, 1, 2, 2, 4))


@st.composite
def regions(draw: st.DrawFn) -> int:
    """A connected region grown from a pen, like a player's land."""
    pen = draw(st.sampled_from(sorted(BOARD.pens.values())))
    region = pen
    for _ in range(draw(st.integers(0, 6))):
        near = 0
        for space in iter_bits(region):
            near |= BOARD.neighbour_mask[space]
        near &= BOARD.pasture_mask & ~region
        region |= 1 << draw(st.sampled_from(iter_bits(near)))
    return region


def brute_force(region: int, horses: int, cows: int) -> bool:
    triples = [t for t in BOARD.triples if t & region == t]
    pairs = [p for p in BOARD.pairs if p & region == p]
    for chosen in combinations(triples, horses):
        used = 0
        for t in chosen:
            if used & t:
                break
            used |= t
        else:
            for others in combinations(pairs, cows):
                taken = used
                for p in others:
                    if taken & p:
                        break
                    taken |= p
                else:
                    return True
    return False


@settings(max_examples=400, deadline=None)
@given(regions(), st.integers(0, 2), st.integers(0, 3))
def test_packable_agrees_with_brute_force(region: int, horses: int, cows: int) -> None:
    assert GRAZING.packable(region, horses, cows) == brute_force(region, horses, cows)


@settings(max_examples=150, deadline=None)
@given(regions(), st.integers(0, 20), st.integers(0, 3), st.integers(0, 2), st.integers(0, 2))
def test_safest_places_everything_exactly_when_it_fits(
    region: int, rabbits: int, sheep: int, cows: int, horses: int
) -> None:
    counts = [rabbits, sheep, cows, horses]
    pieces = GRAZING.safest(region, counts)
    fits = GRAZING.fits(region, counts)
    assert (pieces is not None) == fits
    if pieces is not None:
        assert GRAZING.check(region, counts, pieces) is None
    else:
        assert GRAZING.why_not(region, counts)
