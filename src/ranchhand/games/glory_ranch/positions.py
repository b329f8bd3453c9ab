"""Positions from outside: state JSON read field by field, checked, and set up by hand.

Nothing here trusts its input. :func:`state_from_json` reads every field of a
state's JSON with its type and range, naming the field in a :class:`StateError`
(``state JSON: data.hands[1]: 5 copies of 'kraken', the box has 1``).
:func:`validate` then refuses positions that could not arise in a game: cards not
conserved against the box, a turn left half done, a pending step that names no
one, a sign outside a contest, totals that disagree with the rounds played or a
result that disagrees with the totals. :func:`setup` builds a position from a
short description (see "Setting up a position" in docs/games/glory-ranch.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ranchhand.core import Outcome
from ranchhand.core.errors import StateError, shorten
from ranchhand.core.notation import is_number
from ranchhand.games.glory_ranch.actions import SIGNS
from ranchhand.games.glory_ranch.game import RANCH_LIMIT, GloryRanch
from ranchhand.games.glory_ranch.scoring import add_round
from ranchhand.games.glory_ranch.state import LOG_LENGTH, GloryState

KEYS = (
    "deck",
    "discard",
    "hands",
    "ranches",
    "shields",
    "passing",
    "totals",
    "round",
    "first",
    "current",
    "direction",
    "skips",
    "playing",
    "exhausted",
    "seventh",
    "played_slot",
    "round_turns",
    "signs",
    "stack",
    "rounds",
    "history_from",
    "log",
    "result",
)
OPTIONAL_KEYS = ("history_from",)
"""Missing in state JSON written before it was kept: then the history is the whole game."""
PARTS = ("glory", "bonus", "penalty")
"""A round record's score parts: printed Glory, Hour Glass bonuses, hand penalties."""
ROUND_KEYS = ("ranches", "points", *PARTS, "winners", "turns")
MAX_TOTAL = 10**6
"""No total of Glory comes near this; a larger number is a broken file."""
MAX_ROUNDS = 10**5
MAX_STACK = 5_000
MAX_LOG_TEXT = 300
PICKS = ("banish", "return", "protect")
SCOPES = ("opponent", "yours", "any")
SETUP_KEYS = ("current", "round", "direction", "discard", "player")
PLAYER_KEYS = ("hand", "ranch", "total", "protected")


# ------------------------------------------------------------------ reading
def _show(value: Any) -> str:
    return shorten(repr(value))


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StateError(where, f"expected a whole number {low}..{high}, got {_show(value)}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(where, f"expected true or false, got {_show(value)}")
    return value


def _list(value: Any, where: str, length: int | None = None, most: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise StateError(where, f"expected a list, got {_show(value)}")
    if length is not None and len(value) != length:
        raise StateError(where, f"expected {length} entries (one per player), got {len(value)}")
    if most is not None and len(value) > most:
        raise StateError(where, f"expected at most {most} entries, got {len(value)}")
    return value


def _table(
    value: Any, where: str, keys: Sequence[str], required: Sequence[str]
) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise StateError(where, f"expected a table, got {_show(value)}")
    for key in value:
        if key not in keys:
            raise StateError(f"{where}.{key}", f"unknown field; fields are {', '.join(keys)}")
    for key in required:
        if key not in value:
            raise StateError(f"{where}.{key}", "missing")
    return value


def _card(game: GloryRanch, value: Any, where: str) -> int:
    if not isinstance(value, str) or value not in game.index:
        raise StateError(where, f"expected a card id of this deck, got {_show(value)}")
    return game.index[value]


def _cards(game: GloryRanch, value: Any, where: str, most: int) -> list[int]:
    return [_card(game, c, f"{where}[{i}]") for i, c in enumerate(_list(value, where, most=most))]


def _counts(game: GloryRanch, value: Any, where: str) -> list[int]:
    """A pile as ``{card id: copies}``; each count at most the copies in the box."""
    if not isinstance(value, Mapping):
        raise StateError(where, f"expected a table of card id: count, got {_show(value)}")
    counts = [0] * game.kinds
    for name, count in value.items():
        k = _card(game, name, f"{where}.{shorten(str(name))}")
        counts[k] = _whole(count, f"{where}.{name}", 0, game.deck.cards[k].copies)
    return counts


def _per_player(
    game: GloryRanch, value: Any, where: str, read: Callable[[Any, str], Any]
) -> list[Any]:
    items = _list(value, where, length=game.players)
    return [read(item, f"{where}[{p}]") for p, item in enumerate(items)]


def _seat_key(game: GloryRanch, key: Any, where: str) -> int:
    if not isinstance(key, str) or not is_number(key) or int(key) >= game.players:
        raise StateError(where, f"expected a seat number 0..{game.players - 1}, got {_show(key)}")
    return int(key)


def state_from_json(game: GloryRanch, data: Mapping[str, Any]) -> GloryState:
    """The state ``data`` describes, every field read with its type and range."""
    _table(data, "data", KEYS, [key for key in KEYS if key not in OPTIONAL_KEYS])
    n = game.players
    state = GloryState(game)
    state.deck = _counts(game, data["deck"], "data.deck")
    state.discard = _counts(game, data["discard"], "data.discard")
    state.hands = _per_player(game, data["hands"], "data.hands", lambda v, w: _counts(game, v, w))
    state.ranches = _per_player(
        game, data["ranches"], "data.ranches", lambda v, w: _cards(game, v, w, RANCH_LIMIT)
    )
    state.shields = _per_player(
        game,
        data["shields"],
        "data.shields",
        lambda v, w: [_whole(s, f"{w}[{i}]", 0, 1) for i, s in enumerate(_list(v, w))],
    )
    state.passing = _per_player(
        game, data["passing"], "data.passing", lambda v, w: _cards(game, v, w, game.deck.size)
    )
    state.totals = _per_player(
        game, data["totals"], "data.totals", lambda v, w: _whole(v, w, 0, MAX_TOTAL)
    )
    state.round = _whole(data["round"], "data.round", 1, MAX_ROUNDS)
    state.first = _whole(data["first"], "data.first", 0, n - 1)
    state.current = _whole(data["current"], "data.current", 0, n - 1)
    direction = data["direction"]
    if direction not in (1, -1) or isinstance(direction, bool):
        raise StateError("data.direction", f"expected 1 or -1, got {_show(direction)}")
    state.direction = direction
    state.skips = _whole(data["skips"], "data.skips", 0, game.deck.size)
    state.playing = _flag(data["playing"], "data.playing")
    state.exhausted = _flag(data["exhausted"], "data.exhausted")
    state.seventh = _flag(data["seventh"], "data.seventh")
    state.played_slot = _whole(data["played_slot"], "data.played_slot", 0, RANCH_LIMIT)
    state.round_turns = _whole(data["round_turns"], "data.round_turns", 0, 10**9)
    signs = data["signs"]
    if not isinstance(signs, Mapping):
        raise StateError("data.signs", f"expected a table of seat: sign, got {_show(signs)}")
    state.signs = {}
    for key, sign in signs.items():
        seat = _seat_key(game, key, f"data.signs.{shorten(str(key))}")
        if sign not in SIGNS:
            raise StateError(
                f"data.signs.{key}", f"expected rock, paper or scissors, got {_show(sign)}"
            )
        state.signs[seat] = sign
    state.stack = [
        _entry(entry, f"data.stack[{i}]")
        for i, entry in enumerate(_list(data["stack"], "data.stack", most=MAX_STACK))
    ]
    state.rounds = [
        _round(game, record, f"data.rounds[{i}]")
        for i, record in enumerate(_list(data["rounds"], "data.rounds", most=MAX_ROUNDS))
    ]
    if "history_from" in data:
        state.history_from = _history_from(game, data["history_from"], "data.history_from")
    state.log = [
        _log_line(line, f"data.log[{i}]")
        for i, line in enumerate(_list(data["log"], "data.log", most=LOG_LENGTH))
    ]
    state.result = _result(game, data["result"], "data.result")
    return state


def _entry(value: Any, where: str) -> tuple[Any, ...]:
    """A pending step: a kind and seat numbers, effect numbers or words (checked later)."""
    entry = _list(value, where, most=5)
    if not entry or not isinstance(entry[0], str):
        raise StateError(where, f"expected [kind, ...], got {_show(value)}")
    for i, part in enumerate(entry[1:], 1):
        if isinstance(part, bool) or not isinstance(part, int | str):
            raise StateError(f"{where}[{i}]", f"expected a number or a word, got {_show(part)}")
    return tuple(entry)


def _round(game: GloryRanch, value: Any, where: str) -> dict[str, Any]:
    """A round record; its score parts (``glory``, ``bonus``, ``penalty``) come all or none
    (records written before they were kept have none) and add up to the points."""
    record = _table(value, where, ROUND_KEYS, ("ranches", "points", "winners", "turns"))
    ranches = _per_player(
        game, record["ranches"], f"{where}.ranches", lambda v, w: _cards(game, v, w, RANCH_LIMIT)
    )
    points = _per_player(
        game, record["points"], f"{where}.points", lambda v, w: _whole(v, w, -MAX_TOTAL, MAX_TOTAL)
    )
    winners = [p for p, x in enumerate(points) if x == max(points)]
    if record["winners"] != winners:
        raise StateError(
            f"{where}.winners",
            f"the round's highest points were scored by {winners}, got {_show(record['winners'])}",
        )
    turns = _whole(record["turns"], f"{where}.turns", 1, 10**9)
    ids = game.ids
    checked: dict[str, Any] = {
        "ranches": [[ids[k] for k in r] for r in ranches],
        "points": points,
    }
    given = [key for key in PARTS if key in record]
    if given and len(given) < len(PARTS):
        missing = next(key for key in PARTS if key not in record)
        together = ", ".join(PARTS)
        raise StateError(f"{where}.{missing}", f"missing (the parts {together} go together)")
    if given:
        for key in PARTS:
            checked[key] = _per_player(
                game, record[key], f"{where}.{key}", lambda v, w: _whole(v, w, 0, MAX_TOTAL)
            )
        for p, ranch in enumerate(ranches):
            glory = sum(game.tables.glory[k] for k in ranch)
            if checked["glory"][p] != glory:
                raise StateError(
                    f"{where}.glory[{p}]",
                    f"the cards of that ranch show {glory} Glory, got {checked['glory'][p]}",
                )
            parts = checked["glory"][p] + checked["bonus"][p] - checked["penalty"][p]
            if parts != points[p]:
                raise StateError(
                    f"{where}.points[{p}]",
                    f"glory + bonus - penalty make {parts}, got {points[p]}",
                )
    checked["winners"] = winners
    checked["turns"] = turns
    return checked


def _history_from(game: GloryRanch, value: Any, where: str) -> tuple[int, tuple[int, ...]]:
    record = _table(value, where, ("round", "totals"), ("round", "totals"))
    totals = _per_player(
        game, record["totals"], f"{where}.totals", lambda v, w: _whole(v, w, 0, MAX_TOTAL)
    )
    return _whole(record["round"], f"{where}.round", 1, MAX_ROUNDS), tuple(totals)


def _log_line(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_LOG_TEXT or not value.isprintable():
        raise StateError(where, f"expected a line of at most {MAX_LOG_TEXT} printable characters")
    return value


def _result(game: GloryRanch, value: Any, where: str) -> Outcome | None:
    if value is None:
        return None
    record = _table(value, where, ("winners", "scores", "reason"), ("winners", "scores", "reason"))
    winners = _list(record["winners"], f"{where}.winners", most=game.players)
    scores = _list(record["scores"], f"{where}.scores", length=game.players)
    for i, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, int | float):
            raise StateError(f"{where}.scores[{i}]", f"expected a number, got {_show(score)}")
    return Outcome(
        tuple(
            _whole(w, f"{where}.winners[{i}]", 0, game.players - 1) for i, w in enumerate(winners)
        ),
        tuple(float(s) for s in scores),
        str(record["reason"]),
    )


# --------------------------------------------------------------- checking
def validate(state: GloryState) -> None:
    """Raise StateError, naming the field, if ``state`` could not arise in a game."""
    game = state.game
    n = game.players
    for p, (ranch, shields) in enumerate(zip(state.ranches, state.shields, strict=True)):
        if len(shields) != len(ranch):
            raise StateError(
                f"data.shields[{p}]",
                f"expected one mark per ranch card ({len(ranch)}), got {len(shields)}",
            )
    _check_conserved(state)
    _check_stack(state)
    if state.first != (state.round - 1) % n:
        raise StateError(
            "data.first",
            f"round {state.round} starts with seat {(state.round - 1) % n} (seat 0 first in "
            f"round 1, then the next seat clockwise), got {state.first}",
        )
    if state.round_turns > state.turn:
        raise StateError(
            "data.round_turns",
            f"{state.round_turns} turns this round, but {state.turn} in the game",
        )
    _check_rest(state)
    _check_history(state)
    _check_result(state)


def _check_conserved(state: GloryState) -> None:
    """deck + discard + hands + ranches + passing hold every card of the box, once."""
    game = state.game
    box = game.deck.copies
    counts = [0] * game.kinds
    places: list[tuple[str, list[int]]] = [
        ("data.deck", state.deck),
        ("data.discard", state.discard),
    ]
    places += [(f"data.hands[{p}]", h) for p, h in enumerate(state.hands)]
    for label, piles in (("ranches", state.ranches), ("passing", state.passing)):
        for p, cards in enumerate(piles):
            pile = [0] * game.kinds
            for k in cards:
                pile[k] += 1
            places.append((f"data.{label}[{p}]", pile))
    for where, pile in places:
        for k, c in enumerate(pile):
            if c < 0:
                raise StateError(where, f"a negative count of {game.ids[k]!r}")
            counts[k] += c
            if counts[k] > box[k]:
                raise StateError(
                    where, f"{counts[k]} copies of {game.ids[k]!r} in play, the box has {box[k]}"
                )
    for k, c in enumerate(counts):
        if c != box[k]:
            raise StateError(
                "data.deck",
                f"{box[k] - c} of the box's {box[k]} copies of {game.ids[k]!r} are nowhere "
                "(deck, discard, hands, ranches and passing must hold the whole box)",
            )


def _check_stack(state: GloryState) -> None:
    """Every pending step well formed: its kind, seats in range, effect numbers known."""
    game = state.game
    n = game.players
    effects = game.effects
    for i, step in enumerate(state.stack):
        where = f"data.stack[{i}]"
        kind, args = step[0], step[1:]
        shapes: dict[str, int] = {
            "draw": 1, "discard": 1, "play": 1, "place": 1, "deliver": 1,
            "steal": 2, "give": 2, "pass": 2, "trade": 2,
            "target": 3, "do": 3, "pick": 3, "rps": 4,
        }  # fmt: skip
        if kind not in shapes:
            raise StateError(
                f"{where}[0]", f"expected a step kind ({', '.join(shapes)}), got {_show(kind)}"
            )
        if len(args) != shapes[kind]:
            raise StateError(
                where, f"a {kind} step has {shapes[kind]} fields after its kind, got {len(args)}"
            )
        if kind == "deliver":
            if args[0] not in (1, -1):
                raise StateError(f"{where}[1]", f"expected 1 or -1, got {_show(args[0])}")
            continue
        if kind == "pick":
            _seat(args[0], f"{where}[1]", n)
            if args[1] not in PICKS:
                raise StateError(
                    f"{where}[2]", f"expected one of {', '.join(PICKS)}, got {_show(args[1])}"
                )
            if args[2] not in SCOPES:
                raise StateError(
                    f"{where}[3]", f"expected one of {', '.join(SCOPES)}, got {_show(args[2])}"
                )
            continue
        actor = _seat(args[0], f"{where}[1]", n)
        if kind in ("steal", "give", "trade", "rps"):
            other = _seat(args[1], f"{where}[2]", n)
            if other == actor:
                raise StateError(
                    f"{where}[2]", f"a {kind} step needs two players, got {actor} twice"
                )
        if kind == "pass":
            receiver = _seat(args[1], f"{where}[2]", n)
            if receiver not in ((actor + 1) % n, (actor - 1) % n):
                raise StateError(
                    f"{where}[2]", f"a card is passed to a neighbour of {actor}, got {receiver}"
                )
            if not any(s[0] == "deliver" for s in state.stack[:i]):
                raise StateError(where, "a pass step with no delivery under it")
        if kind in ("target", "do") and args[1] != -1:
            _seat(args[1], f"{where}[2]", n)
        if kind in ("target", "do", "rps"):
            number = args[2]
            if (
                isinstance(number, bool)
                or not isinstance(number, int)
                or not 0 <= number < len(effects)
            ):
                raise StateError(
                    f"{where}[3]",
                    f"expected an action number 0..{len(effects) - 1}, got {_show(number)}",
                )
            effect = effects[number]
            if kind == "rps" and effect.do != "rps":
                raise StateError(f"{where}[3]", f"action {number} is {effect.do}, not a contest")
            if kind == "target" and "chosen" not in (effect.who, effect.to, effect.target):
                raise StateError(f"{where}[3]", f"action {number} ({effect.do}) asks for no player")
        if kind == "rps":
            ties = args[3]
            if isinstance(ties, bool) or not isinstance(ties, int) or not 0 <= ties < game.rps_ties:
                raise StateError(
                    f"{where}[4]", f"expected a tie count 0..{game.rps_ties - 1}, got {_show(ties)}"
                )
    _check_signs(state)
    if any(state.passing) and not any(s[0] == "deliver" for s in state.stack):
        raise StateError("data.passing", "cards are being passed but no delivery is pending")


def _seat(value: Any, where: str, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise StateError(where, f"expected a seat number 0..{players - 1}, got {_show(value)}")
    return value


def _check_signs(state: GloryState) -> None:
    """Signs only in a contest under way, by its players, and never both (it would be over)."""
    if not state.signs:
        return
    top = state.stack[-1] if state.stack else None
    if top is None or top[0] != "rps":
        raise StateError("data.signs", "signs are chosen only while a contest is pending")
    for seat in state.signs:
        if seat not in (top[1], top[2]):
            raise StateError(
                f"data.signs.{seat}",
                f"player {seat} is not in the contest of {top[1]} and {top[2]}",
            )
    if len(state.signs) > 1:
        raise StateError("data.signs", "both signs are in: the contest would have been decided")


def _check_rest(state: GloryState) -> None:
    """The position is one where someone must act: no half-done step is left."""
    stack = state.stack
    if state.result is not None:
        if stack or state.playing:
            raise StateError("data.result", "the game is over, yet a turn is under way")
        return
    if not state.playing:
        if state.exhausted or state.seventh or state.skips:
            field = "exhausted" if state.exhausted else "seventh" if state.seventh else "skips"
            raise StateError(f"data.{field}", "set between turns (it only lasts during a turn)")
        if any(s[0] != "draw" for s in stack):
            raise StateError(
                "data.stack", "between turns only the deal (draw steps) may be pending"
            )
        if stack:
            if any(state.ranches) or any(state.discard) or any(state.passing):
                raise StateError(
                    "data.stack",
                    "a deal is under way, yet cards are in ranches or the discard pile",
                )
            if state.round_turns:
                raise StateError(
                    "data.round_turns", "a deal is under way, yet turns were played this round"
                )
        else:
            for p, hand in enumerate(state.hands):
                if not any(hand):
                    raise StateError(
                        f"data.hands[{p}]",
                        "empty at the start of a turn: the round would have ended",
                    )
            for p, ranch in enumerate(state.ranches):
                if len(ranch) >= RANCH_LIMIT:
                    raise StateError(
                        f"data.ranches[{p}]",
                        f"{RANCH_LIMIT} cards at the start of a turn: the round would have ended",
                    )
    elif not stack:
        raise StateError(
            "data.playing", "a turn is under way with nothing left to do: it would have ended"
        )
    elif state.played_slot > len(state.ranches[state.current]):
        raise StateError(
            "data.played_slot",
            f"expected a position in player {state.current}'s ranch "
            f"0..{len(state.ranches[state.current])}, got {state.played_slot}",
        )
    if not stack:
        return
    top = stack[-1]
    where = f"data.stack[{len(stack) - 1}]"
    kind = top[0]
    if kind == "draw":
        if not any(state.deck):
            raise StateError(
                where, "a draw from an empty deck (the discard pile would have been shuffled in)"
            )
    elif kind == "steal":
        if not any(state.hands[top[2]]):
            raise StateError(where, f"a steal from player {top[2]}, whose hand is empty")
    elif kind in ("do", "deliver", "trade"):
        raise StateError(where, f"a {kind} step needs no one and would have been carried out")
    elif kind != "rps" and len(state._options(top)) < 2:
        raise StateError(
            where, f"a {kind} step with fewer than two choices would have been made without asking"
        )


def _check_history(state: GloryState) -> None:
    """The round records are those of every round over since the history began (round 1,
    or where a set-up or sampled position's history starts), agree with the turns, and
    added to the history's first totals make the totals."""
    start, base = state.history_from
    if start > state.round:
        raise StateError(
            "data.history_from.round",
            f"the history starts in round {start}, after the current round {state.round}",
        )
    if start == 1 and any(base):
        raise StateError("data.history_from.totals", "round 1 starts with every total at 0")
    finished = state.round - start + (1 if state.result is not None else 0)
    if len(state.rounds) != finished:
        since = f" since round {start}" if start > 1 else ""
        raise StateError(
            "data.rounds",
            f"{len(state.rounds)} round records, but {finished} rounds are over{since} "
            "(one record per round over)",
        )
    this_round = state.round_turns if state.result is None else 0  # else in the last record
    if sum(r["turns"] for r in state.rounds) + this_round > state.turn:
        raise StateError("data.rounds", f"more turns in the rounds than the game's {state.turn}")
    totals = list(base)
    for record in state.rounds:
        totals = add_round(totals, record["points"])
    if totals != state.totals:
        since = f"the totals {list(base)} before round {start} and " if start > 1 else ""
        raise StateError(
            "data.totals", f"{since}the rounds played add up to {totals}, got {state.totals}"
        )


def _check_result(state: GloryState) -> None:
    """A result only at the target, for the highest total; none while the game must go on."""
    game = state.game
    top = max(state.totals)
    leaders = tuple(p for p, t in enumerate(state.totals) if t == top)
    decided = top >= game.target and (len(leaders) == 1 or game.share_ties)
    result = state.result
    if result is None:
        if decided:
            raise StateError(
                "data.totals",
                f"a total of {top} reached the target {game.target}: the game would be over",
            )
        return
    if not decided:
        raise StateError(
            "data.result", f"the game is over, but no total decides it at target {game.target}"
        )
    expected = Outcome(leaders, tuple(float(t) for t in state.totals), "target reached")
    if result != expected:
        raise StateError(
            "data.result", f"expected {expected.to_json()} from the totals, got {result.to_json()}"
        )


# ------------------------------------------------------------------ setup
def setup(game: GloryRanch, spec: Mapping[str, Any]) -> GloryState:
    """The start of a turn as ``spec`` describes it; the deck is the box minus what is out."""
    _table(spec, "setup", SETUP_KEYS, ("player",))
    n = game.players
    players = _list(spec["player"], "setup.player", length=n)
    state = GloryState(game)
    state.stack = []
    state.round = _whole(spec.get("round", 1), "setup.round", 1, MAX_ROUNDS)
    state.first = (state.round - 1) % n
    state.current = _whole(spec.get("current", state.first), "setup.current", 0, n - 1)
    direction = spec.get("direction", "clockwise")
    if direction not in ("clockwise", "counter-clockwise"):
        raise StateError(
            "setup.direction", f"expected clockwise or counter-clockwise, got {_show(direction)}"
        )
    state.direction = 1 if direction == "clockwise" else -1
    out = [0] * game.kinds

    def take(cards: list[int], where: str) -> None:
        for k in cards:
            out[k] += 1
            if out[k] > game.deck.cards[k].copies:
                raise StateError(
                    where,
                    f"{out[k]} copies of {game.ids[k]!r} are out, "
                    f"the box has {game.deck.cards[k].copies}",
                )

    discard = _cards(game, spec.get("discard", []), "setup.discard", game.deck.size)
    take(discard, "setup.discard")
    state.discard = [discard.count(k) for k in range(game.kinds)]
    for p, raw in enumerate(players):
        where = f"setup.player[{p}]"
        table = _table(raw, where, PLAYER_KEYS, ("hand",))
        hand = _cards(game, table["hand"], f"{where}.hand", game.deck.size)
        if not hand:
            raise StateError(
                f"{where}.hand", "empty: the round would have ended with the last turn"
            )
        ranch = _cards(game, table.get("ranch", []), f"{where}.ranch", RANCH_LIMIT - 1)
        take(hand, f"{where}.hand")
        take(ranch, f"{where}.ranch")
        state.hands[p] = [hand.count(k) for k in range(game.kinds)]
        state.ranches[p] = ranch
        state.totals[p] = _whole(table.get("total", 0), f"{where}.total", 0, MAX_TOTAL)
        if state.totals[p] and state.round == 1:
            raise StateError(f"{where}.total", "round 1 starts with every total at 0; give a round")
        shields = [0] * len(ranch)
        for i, position in enumerate(_list(table.get("protected", []), f"{where}.protected")):
            slot = _whole(position, f"{where}.protected[{i}]", 1, max(1, len(ranch)))
            if not ranch:
                raise StateError(f"{where}.protected", "the ranch is empty")
            shields[slot - 1] = 1
        state.shields[p] = shields
    state.deck = [c - o for c, o in zip(game.deck.copies, out, strict=True)]
    state.history_from = (state.round, tuple(state.totals))  # no record of earlier rounds
    state.log = []
    top = max(state.totals)
    leaders = [p for p, t in enumerate(state.totals) if t == top]
    if top >= game.target and (len(leaders) == 1 or game.share_ties):
        raise StateError(
            f"setup.player[{leaders[0]}].total",
            f"{top} reached the target {game.target}: the game would be over",
        )
    return state
