"""Transactions with the herd: checking any deal, and the finite list offered to bots.

A deal is legal when the player holds what they give, the herd holds what they
take, the values in rabbits are exactly equal (no change beyond equal value),
every pasture bought is free and joins the player's land (or, for a blocked
player, is reached through other players' pastures paying tolls), the player keeps
at most the board's pasture limit, and afterwards every animal can still stand.
:func:`deal_problem` is the one check; the offered list is built from it.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from ranchhand.games.rancho.actions import Counts, Deal, animals_text
from ranchhand.games.rancho.board import iter_bits
from ranchhand.games.rancho.tables import (
    COW,
    FARM,
    HORSE,
    LARGE_DOG,
    RABBIT,
    SHEEP,
    SMALL_DOG,
    SPECIES,
)

if TYPE_CHECKING:
    from ranchhand.games.rancho.state import RanchoState

MAX_PASTURES = 12
"""Each colour has 12 markers (rules README), so a player owns at most 12 pastures."""


def ladder(values: tuple[int, ...]) -> tuple[tuple[Counts, Counts], ...]:
    """The single-step trades up and down the value ladder (rabbit .. horse, dogs)."""
    steps = ((RABBIT, SMALL_DOG), (RABBIT, SHEEP), (SHEEP, LARGE_DOG), (SHEEP, COW), (COW, HORSE))
    out: list[tuple[Counts, Counts]] = []
    for low, high in steps:
        if values[high] % values[low]:
            continue
        give = [0] * 6
        give[low] = values[high] // values[low]
        take = [0] * 6
        take[high] = 1
        out.append((tuple(give), tuple(take)))  # type: ignore[arg-type]
        out.append((tuple(take), tuple(give)))  # type: ignore[arg-type]
    return tuple(out)


def value(counts: tuple[int, ...], values: tuple[int, ...]) -> int:
    return sum(n * v for n, v in zip(counts, values, strict=True))


def frontier(state: RanchoState, player: int) -> int:
    """The free pastures adjacent to the player's pen or pastures."""
    return state.game.around(state.region(player)) & ~state.taken


def limit_reached(state: RanchoState) -> str:
    """The reason no deal is allowed once ``deals_per_turn`` deals were made this turn."""
    limit = state.game.deal_limit
    return (
        f"you have made {state.deals} deals this turn, the most deals_per_turn={limit} "
        "allows; roll the dice"
    )


def deal_problem(state: RanchoState, player: int, deal: Deal) -> str | None:
    """Why ``deal`` is not allowed for ``player`` now, or None if it is."""
    game = state.game
    if game.deal_limit and state.deals >= game.deal_limit:
        return limit_reached(state)
    board, values = game.board, game.values
    give, take = deal.give, deal.take
    mine, herd = state.animals[player], state.herd
    if not any(give) and not any(take) and not deal.pastures:
        return "the deal exchanges nothing"
    for kind in range(6):
        if give[kind] and take[kind]:
            return f"{SPECIES[kind]} is both given and taken; give or take the difference only"
        if give[kind] > mine[kind]:
            return f"you give {give[kind]} {SPECIES[kind]} but have {mine[kind]}"
        if take[kind] > herd[kind]:
            return f"the herd has {herd[kind]} {SPECIES[kind]}, you take {take[kind]}"
    new_land = 0
    price = 0
    for space_id in deal.pastures:
        index = board.space_of(space_id)
        if index is None:
            return f"{space_id} is not a space of the board"
        space = board.spaces[index]
        if space.is_pen:
            return f"{space_id} is a pen, not a pasture"
        if state.taken >> index & 1:
            return f"{space_id} already belongs to player {state.owner[index]}"
        if new_land >> index & 1:
            return f"{space_id} is named twice"
        new_land |= 1 << index
        price += space.price
    paid, got = value(give, values), value(take, values) + price
    if paid != got:
        return (
            f"values differ: you give {paid} rabbits' worth ({animals_text(give)}) and "
            f"take {got} ({_taken_text(deal, price)}); the herd gives no change"
        )
    owned = state.land[player].bit_count()
    if new_land and owned + new_land.bit_count() > MAX_PASTURES:
        return f"you own {owned} pastures and may own at most {MAX_PASTURES}"
    tolls = 0
    if deal.via:
        problem, tolls = _via_problem(state, player, deal, new_land)
        if problem:
            return problem
        if mine[RABBIT] - give[RABBIT] < tolls:
            return (
                f"the tolls cost {tolls} rabbits, paid in rabbits to the owners crossed, and you "
                f"keep {mine[RABBIT] - give[RABBIT]} after the deal; trade for rabbits first"
            )
    elif new_land:
        problem = _joined_problem(state, player, new_land)
        if problem:
            return problem
    after = [mine[k] - give[k] + take[k] for k in FARM]
    after[RABBIT] -= tolls
    region = state.region(player) | new_land
    if not game.grazing.fits(region, after):
        return "after this your animals cannot all be placed: " + game.grazing.why_not(
            region, after
        )
    return None


def _taken_text(deal: Deal, price: int) -> str:
    parts = [f"{' + '.join(deal.pastures)} for {price}"] if deal.pastures else []
    if any(deal.take):
        parts.append(animals_text(deal.take))
    return " + ".join(parts) or "nothing"


def _joined_problem(state: RanchoState, player: int, new_land: int) -> str | None:
    """New pastures must join the player's land (one area with the pen)."""
    board = state.game.board
    reached = state.region(player)
    left = new_land
    grew = True
    while left and grew:
        grew = False
        for space in iter_bits(left):
            if board.neighbour_mask[space] & reached:
                reached |= 1 << space
                left ^= 1 << space
                grew = True
    if left:
        ids = ", ".join(board.ids(left))
        hint = (
            "; you are blocked: buy through other players' pastures with 'via'"
            if not frontier(state, player)
            else ""
        )
        return f"{ids} does not touch your pen or pastures{hint}"
    return None


def _via_problem(
    state: RanchoState, player: int, deal: Deal, new_land: int
) -> tuple[str | None, int]:
    """Check a blocked purchase's route and return its toll in rabbits."""
    board = state.game.board
    if len(deal.pastures) != 1:
        return "a purchase through other players' pastures buys one pasture", 0
    if frontier(state, player):
        ids = ", ".join(board.ids(frontier(state, player)))
        return f"you are not blocked ({ids} touch your land); buy without 'via'", 0
    previous = state.region(player)
    tolls = 0
    for space_id in deal.via:
        index = board.space_of(space_id)
        if index is None:
            return f"via: {space_id} is not a space of the board", 0
        owner = state.owner[index]
        if board.spaces[index].is_pen or owner < 0 or owner == player:
            return f"via: {space_id} is not another player's pasture", 0
        if not board.neighbour_mask[index] & previous:
            return f"via: {space_id} does not touch the space before it on the route", 0
        previous = 1 << index
        tolls += board.spaces[index].price
    if not board.neighbour_mask[iter_bits(new_land)[0]] & previous:
        return f"via: the route does not reach {deal.pastures[0]}", 0
    return None, tolls


def tolls_of(state: RanchoState, via: tuple[str, ...]) -> dict[int, int]:
    """Rabbits owed to each owner for the spaces crossed."""
    board = state.game.board
    owed: dict[int, int] = {}
    for space_id in via:
        index = board.by_id[space_id]
        owner = state.owner[index]
        owed[owner] = owed.get(owner, 0) + board.spaces[index].price
    return owed


def blocked_routes(state: RanchoState, player: int) -> dict[int, list[tuple[str, ...]]]:
    """For a blocked player: each reachable free pasture with its cheapest routes.

    A route crosses other players' pastures, starting next to the player's land and
    ending next to the target; its toll is the sum of the prices crossed. Among the
    cheapest routes one per distinct payment (who gets how much) is kept, so where
    two owners could be crossed the player may choose whom to pay (FAQ, space D).

    The routes depend only on who owns which pasture, which changes only when one is
    bought, while a blocked player asks at every expand step: so they are memoised on the
    game by the player and everyone's land. The mapping returned is shared: read it only.
    """
    memo = state.game.routes
    key = (player, *state.land)
    known = memo.get(key)
    if known is None:
        known = _search_routes(state, player)
        if len(memo) > 20_000:
            memo.clear()
        memo[key] = known
    return known


def _search_routes(state: RanchoState, player: int) -> dict[int, list[tuple[str, ...]]]:
    """The cheapest-route search behind :func:`blocked_routes` (Dijkstra over tolls)."""
    board = state.game.board
    region = state.region(player)
    foreign = state.taken & ~state.land[player]
    start = 0
    for space in iter_bits(region):
        start |= board.neighbour_mask[space]
    start &= foreign
    best: dict[int, int] = {}
    parents: dict[int, list[int]] = {}
    queue = [(board.spaces[s].price, s) for s in iter_bits(start)]
    for cost, s in queue:
        best[s] = cost
        parents[s] = []
    heapq.heapify(queue)
    while queue:
        cost, s = heapq.heappop(queue)
        if cost > best[s]:
            continue
        for n in iter_bits(board.neighbour_mask[s] & foreign):
            new = cost + board.spaces[n].price
            if new < best.get(n, 1 << 30):
                best[n] = new
                parents[n] = [s]
                heapq.heappush(queue, (new, n))
            elif new == best[n] and s not in parents[n]:
                parents[n].append(s)
    targets: dict[int, int] = {}
    for s in best:
        for t in iter_bits(board.neighbour_mask[s] & board.pasture_mask & ~state.taken):
            targets[t] = min(targets.get(t, 1 << 30), best[s])
    routes: dict[int, list[tuple[str, ...]]] = {}
    for t, cost in sorted(targets.items()):
        ends = [s for s in iter_bits(board.neighbour_mask[t] & foreign) if best.get(s) == cost]
        seen: set[tuple[tuple[int, int], ...]] = set()
        found: list[tuple[str, ...]] = []
        for path in _paths(ends, parents):
            ids = tuple(board.spaces[s].id for s in path)
            payment = tuple(sorted(tolls_of(state, ids).items()))
            if payment not in seen:
                seen.add(payment)
                found.append(ids)
        routes[t] = found
    return routes


def _paths(ends: list[int], parents: dict[int, list[int]]) -> list[list[int]]:
    """Every cheapest path (start first) ending in one of ``ends``, capped for safety."""
    out: list[list[int]] = []
    stack = [[e] for e in ends]
    while stack and len(out) < 64:
        path = stack.pop()
        before = parents[path[0]]
        if not before:
            out.append(path)
        for p in before:
            stack.append([p, *path])
    return out


def payment_for(state: RanchoState, player: int, price: int, rabbits_kept: int = 0) -> Deal | None:
    """The simplest payment of ``price`` rabbits' worth (change in rabbits), or None.

    Rabbits first; otherwise the smallest single animal worth at least the price,
    with the change taken from the herd in rabbits.
    """
    paid = payment_kind(state.animals[player], state.herd, state.game.values, price, rabbits_kept)
    if paid is None:
        return None
    kind, change = paid
    give = [0] * 6
    give[kind] = price if kind == RABBIT else 1
    take = [0] * 6
    take[RABBIT] = change
    return Deal(tuple(give), tuple(take))  # type: ignore[arg-type]


_PAY_ORDER = (SMALL_DOG, SHEEP, LARGE_DOG, COW, HORSE)


def payment_kind(
    mine: list[int], herd: list[int], values: tuple[int, ...], price: int, rabbits_kept: int = 0
) -> tuple[int, int] | None:
    """(kind paid, rabbits of change) for :func:`payment_for`, without building a deal."""
    if mine[RABBIT] - rabbits_kept >= price:
        return RABBIT, 0
    for kind in _PAY_ORDER:
        change = values[kind] - price
        if mine[kind] and change >= 0 and herd[RABBIT] >= change:
            return kind, change
    return None


def offered_deals(state: RanchoState, player: int) -> list[Deal]:
    """The finite list of deals offered: ladder trades and one payment per pasture.

    Every deal here passes :func:`deal_problem` (the tests check it); the checks are
    inlined because this list is built at every expand decision of every game.
    """
    game = state.game
    if game.deal_limit and state.deals >= game.deal_limit:
        return []
    mine, herd = state.animals[player], state.herd
    region = state.region(player)
    full = state.land[player].bit_count() >= MAX_PASTURES
    near = 0 if full else game.around(region) & ~state.taken
    # The list depends on nothing else, so it is memoised; a blocked player's list also
    # depends on the others' land: not kept.
    key = (region, near, *mine, *herd)  # "full" is a function of the region
    known = game.offers.get(key)
    if known is not None:
        return list(known)
    out = _offers(state, player, region, near, full)
    if near or full:
        if len(game.offers) > 50_000:
            game.offers.clear()
        game.offers[key] = tuple(out)
    return out


def _offers(state: RanchoState, player: int, region: int, near: int, full: bool) -> list[Deal]:
    game = state.game
    mine, herd = state.animals[player], state.herd
    grazing = game.grazing
    room = region.bit_count()
    per_space = grazing.per_space
    out: list[Deal] = []
    for deal, give_kind, give_n, take_kind, take_n in game.ladder_deals:
        if mine[give_kind] < give_n or herd[take_kind] < take_n:
            continue
        if take_kind < 4:
            after = mine[:4]
            after[take_kind] += take_n
            if give_kind < 4:
                after[give_kind] -= give_n
            if take_kind >= 2:  # a cow or a horse: its shape matters
                if not grazing.fits(region, after):
                    continue
            elif -(-after[0] // per_space) + after[1] + 2 * after[2] + 3 * after[3] > room:
                continue
        out.append(deal)
    if full:
        return out
    if not near:
        return out + _blocked_offers(state, player)
    prices, values, rabbit_buys = game.prices, game.values, game.rabbit_buys
    rabbits = mine[RABBIT]
    rest = near
    while rest:
        low = rest & -rest
        rest ^= low
        space = low.bit_length() - 1
        price = prices[space]
        if rabbits >= price:
            out.append(rabbit_buys[space])
            continue
        paid = payment_kind(mine, herd, values, price)
        if paid is None:
            continue
        kind, change = paid
        after = mine[:4]
        after[RABBIT] += change
        if kind < 4:
            after[kind] -= 1
        if grazing.fits(region | 1 << space, after):
            out.append(game.purchase(space, kind, 1, change))
    return out


def _blocked_offers(state: RanchoState, player: int) -> list[Deal]:
    board = state.game.board
    out = []
    for target, routes in blocked_routes(state, player).items():
        for via in routes:
            toll = sum(tolls_of(state, via).values())
            pay = payment_for(state, player, board.spaces[target].price, toll)
            if pay is not None:
                deal = Deal(pay.give, pay.take, (board.spaces[target].id,), via)
                if deal_problem(state, player, deal) is None:
                    out.append(deal)
    return out
