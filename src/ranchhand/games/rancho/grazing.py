"""Where animals stand: fitting, checking and choosing arrangements of a player's animals.

A rabbit stack (up to 6 rabbits) and a sheep take one space, a cow two adjacent
spaces, a horse three connected spaces; dogs take none. A player's *region* is
the mask of their pen and pastures; an *arrangement* is a tuple of pieces
``(kind, count, mask)`` sorted by their first space, where ``count`` is the
number of rabbits in a stack (1 for the other kinds).

Whether animals fit only depends on the region and the counts, so the answers
(and the engine's safest arrangement) are memoised for the whole process: a game
asks the same few questions thousands of times.
"""

from __future__ import annotations

from functools import cache

from ranchhand.games.rancho.board import Board, load_board
from ranchhand.games.rancho.tables import COW, FOX, HORSE, RABBIT, SHEEP, SPECIES, load_tables

Piece = tuple[int, int, int]
"""(kind, count, mask): a rabbit stack of ``count``, or one sheep, cow or horse."""
Arrangement = tuple[Piece, ...]
_MEMO_LIMIT = 100_000


def first_space(piece: Piece) -> int:
    mask = piece[2]
    return (mask & -mask).bit_length()


class Grazing:
    """Arrangement rules for one board and one six-sided die (for risk)."""

    def __init__(self, board: Board, d6: tuple[int, ...]) -> None:
        self.board = board
        self.per_space = load_tables().rabbits_per_space
        self.pairs = frozenset(board.pairs)
        self.triples = frozenset(board.triples)
        self.faces = {price: d6.count(price) for price in set(d6)}
        risks = [self.risk(1 << s.index) for s in board.spaces]
        self.space_risk = tuple(risks)
        self.spaces_by_risk = tuple(sorted(range(len(risks)), key=lambda s: (risks[s], s)))
        """Every space, least struck first (ties by index): where single pieces go."""
        pens = sum(board.pens.values())
        self.triples_by_risk = tuple(
            sorted(board.triples, key=lambda t: (self.risk(t), (t & pens).bit_count(), t))
        )
        self.pairs_by_risk = tuple(
            sorted(board.pairs, key=lambda t: (self.risk(t), (t & pens).bit_count(), t))
        )
        self._packable: dict[tuple[int, int, int], bool] = {}
        self._safest: dict[tuple[int, int, int, int, int], Arrangement | None] = {}

    # ------------------------------------------------------------ risk
    def risk(self, mask: int) -> int:
        """Faces of the six-sided die (of 6) whose strike touches any space of ``mask``."""
        return sum(n for price, n in self.faces.items() if self.board.price_mask(price) & mask)

    # --------------------------------------------------------- fitting
    def spaces_needed(self, counts: tuple[int, ...] | list[int]) -> int:
        rabbits = counts[RABBIT]
        return -(-rabbits // self.per_space) + counts[SHEEP] + 2 * counts[COW] + 3 * counts[HORSE]

    def fits(self, region: int, counts: tuple[int, ...] | list[int]) -> bool:
        """Whether every farm animal of ``counts`` can stand in ``region`` at once.

        Negative cows or horses never fit (see :meth:`packable`); loaded and set-up
        states never hold a negative count (``checks.validate``), so the hot path
        checks nothing more.
        """
        if self.spaces_needed(counts) > region.bit_count():
            return False
        return self.packable(region, counts[HORSE], counts[COW])

    def packable(self, region: int, horses: int, cows: int) -> bool:
        """Whether ``horses`` connected triples and ``cows`` adjacent pairs fit disjointly."""
        if not horses and not cows:
            return True
        if horses < 0 or cows < 0:
            # No position holds -1 cows; searching for one would try every way of
            # taking pairs out of the region (hours, not an answer).
            return False
        if 3 * horses + 2 * cows > region.bit_count():
            return False
        key = (region, horses, cows)
        known = self._packable.get(key)
        if known is not None:
            return known
        result = False
        if horses:
            for triple in self.board.triples:
                if triple & region == triple and self.packable(region ^ triple, horses - 1, cows):
                    result = True
                    break
        else:
            for pair in self.board.pairs:
                if pair & region == pair and self.packable(region ^ pair, 0, cows - 1):
                    result = True
                    break
        if len(self._packable) > _MEMO_LIMIT:
            self._packable.clear()
        self._packable[key] = result
        return result

    # ---------------------------------------------------- arrangements
    def safest(self, region: int, counts: tuple[int, ...] | list[int]) -> Arrangement | None:
        """The engine's arrangement: valuable animals where predators strike least.

        Horses first, then cows (each on the least struck group that still lets the
        rest fit, preferring pastures over the pen so that sheep can have it), then
        sheep, then full rabbit stacks, then the last partial stack, each on the
        least struck free space. None if the animals cannot all be placed.
        """
        key = (region, counts[RABBIT], counts[SHEEP], counts[COW], counts[HORSE])
        if key in self._safest:
            return self._safest[key]
        result = self._place(region, counts) if self.fits(region, counts) else None
        if len(self._safest) > _MEMO_LIMIT:
            self._safest.clear()
        self._safest[key] = result
        return result

    def _place(self, region: int, counts: tuple[int, ...] | list[int]) -> Arrangement:
        pieces: list[Piece] = []
        free = region
        horses, cows = counts[HORSE], counts[COW]
        for left in range(horses - 1, -1, -1):
            for triple in self.triples_by_risk:
                if triple & free == triple and self.packable(free ^ triple, left, cows):
                    pieces.append((HORSE, 1, triple))
                    free ^= triple
                    break
        for left in range(cows - 1, -1, -1):
            for pair in self.pairs_by_risk:
                if pair & free == pair and self.packable(free ^ pair, 0, left):
                    pieces.append((COW, 1, pair))
                    free ^= pair
                    break
        rabbits = counts[RABBIT]
        wanted = counts[SHEEP] + -(-rabbits // self.per_space)
        singles: list[int] = []  # the least struck free spaces, as many as the pieces need
        for space in self.spaces_by_risk:
            if len(singles) == wanted:
                break
            if free >> space & 1:
                singles.append(space)
        at = 0
        for _ in range(counts[SHEEP]):
            pieces.append((SHEEP, 1, 1 << singles[at]))
            at += 1
        while rabbits:
            stack = min(rabbits, self.per_space)
            pieces.append((RABBIT, stack, 1 << singles[at]))
            at += 1
            rabbits -= stack
        return tuple(sorted(pieces, key=first_space))

    def why_not(self, region: int, counts: tuple[int, ...] | list[int]) -> str:
        """Why ``counts`` cannot stand in ``region`` (assumes they cannot)."""
        need, have = self.spaces_needed(counts), region.bit_count()
        if need > have:
            return f"they need {need} spaces and the pen and pastures have {have}"
        return (
            f"{counts[HORSE]} horse(s) and {counts[COW]} cow(s) cannot all find connected "
            "spaces in the pen and pastures"
        )

    def check(
        self, region: int, counts: tuple[int, ...] | list[int], pieces: Arrangement
    ) -> str | None:
        """Why ``pieces`` is not a valid arrangement of ``counts`` in ``region``, or None."""
        used = 0
        totals = [0, 0, 0, 0]
        ids = self.board.ids
        for kind, count, mask in pieces:
            where = "-".join(ids(mask))
            if mask & ~region:
                outside = ", ".join(ids(mask & ~region))
                return f"{outside} is not your pen or pasture"
            if mask & used:
                return f"{', '.join(ids(mask & used))} holds two pieces"
            used |= mask
            if kind == RABBIT and not (mask.bit_count() == 1 and 1 <= count <= self.per_space):
                return f"a rabbit stack is 1 to {self.per_space} rabbits on one space ({where})"
            if kind != RABBIT and count != 1:
                return f"only rabbits stack; {count} {SPECIES[kind]} on {where} must be one each"
            if kind == SHEEP and mask.bit_count() != 1:
                return f"a sheep stands on one space, not {where}"
            if kind == COW and mask not in self.pairs:
                return f"a cow needs two adjacent spaces; {where} are not"
            if kind == HORSE and mask not in self.triples:
                return f"a horse needs three connected spaces; {where} are not"
            totals[kind] += count
        names = ("rabbits", "sheep", "cows", "horses")
        for kind in (RABBIT, SHEEP, COW, HORSE):
            if totals[kind] != counts[kind]:
                return (
                    f"you have {counts[kind]} {names[kind]}, the arrangement places {totals[kind]}"
                )
        return None

    def add_rabbits(
        self, pieces: Arrangement, region: int, rabbits: int
    ) -> tuple[Arrangement, int]:
        """Add rabbits to existing stacks, then to the least struck free spaces.

        Nothing else moves (another player's arrangement is theirs to change);
        returns the new arrangement and how many rabbits found room.
        """
        out = list(pieces)
        placed = 0
        for i, (kind, count, mask) in enumerate(out):
            if kind == RABBIT and count < self.per_space and rabbits > placed:
                more = min(self.per_space - count, rabbits - placed)
                out[i] = (kind, count + more, mask)
                placed += more
        used = 0
        for piece in out:
            used |= piece[2]
        free = region & ~used
        for space in self.spaces_by_risk:
            if placed == rabbits:
                break
            if not free >> space & 1:
                continue
            more = min(self.per_space, rabbits - placed)
            out.append((RABBIT, more, 1 << space))
            placed += more
        return tuple(sorted(out, key=first_space)), placed

    # -------------------------------------------------------- predators
    def struck(self, pieces: Arrangement, predator: int, price: int) -> Arrangement:
        """The pieces a predator takes when the six-sided die strikes ``price``."""
        ring = self.board.price_mask(price)
        if predator == FOX:
            return tuple(p for p in pieces if p[0] == RABBIT and p[2] & ring)
        return tuple(p for p in pieces if p[0] != RABBIT and p[2] & ring)

    def exposure(self, pieces: Arrangement, values: tuple[int, ...]) -> int:
        """Expected value lost to one predator of each kind, in rabbits x 6 (integer)."""
        return sum(values[k] * n * self.risk(mask) for k, n, mask in pieces)


@cache
def grazing_for(board: str, dice_d6: tuple[int, ...]) -> Grazing:
    """One shared Grazing per board and six-sided die, so memos serve every game."""
    return Grazing(load_board(board), dice_d6)


def counts_of(pieces: Arrangement) -> list[int]:
    """The farm animals an arrangement places, as [rabbits, sheep, cows, horses]."""
    totals = [0, 0, 0, 0]
    for kind, count, _mask in pieces:
        totals[kind] += count
    return totals
