"""Positions from outside: state JSON checked field by field, and positions set up by hand."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ranchhand.core import CHANCE, StateError
from ranchhand.games.glory_ranch import GloryRanch, GloryState

PAGE = Path(__file__).resolve().parents[3] / "docs" / "games" / "glory-ranch.md"


def _page_example() -> str:
    match = re.search(r"<!-- setup example -->\n```toml\n(.*?)```", PAGE.read_text(), re.DOTALL)
    assert match, "the docs page lost its setup example"
    return match[1]


def _round_trips(state: GloryState) -> None:
    data = json.loads(json.dumps(state.to_json()))
    assert state.game.state_from_json(data).to_json() == data


# ------------------------------------------------------------------ setup
def test_the_docs_example_sets_up_the_position_it_describes() -> None:
    game = GloryRanch(3)
    state = game.setup(_page_example())
    assert (state.round, state.first, state.current, state.direction) == (2, 1, 1, 1)
    assert [str(a) for a in state.legal_actions()] == ["play lindworm", "play phoenix"]
    assert state.totals == [12, 30, 7]
    assert state.shields[1] == [1, 0]
    assert state.discard[game.index["pixie"]] == 1
    assert sum(state.deck) == game.deck.size - 8 - 4 - 1
    _round_trips(state)
    state.apply_text("play lindworm")
    assert state.current_player() == CHANCE
    _round_trips(state)


def test_a_mapping_spec_and_defaults() -> None:
    spec = {"player": [{"hand": ["roc"]}, {"hand": ["wyvern", "wyvern"]}]}
    state = GloryRanch(2).setup(spec)
    assert (state.round, state.current, state.totals) == (1, 0, [0, 0])
    assert state.ranches == [[], []]
    _round_trips(state)


def _spec() -> dict[str, Any]:
    return {
        "round": 2,
        "player": [
            {"hand": ["roc", "pixie"], "ranch": ["selkie"], "total": 3},
            {"hand": ["wyvern"]},
        ],
    }


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        (lambda s: s.update(colour="red"), "setup.colour", "unknown field"),
        (lambda s: s.pop("player"), "setup.player", "missing"),
        (lambda s: s["player"].pop(), "setup.player", "expected 2 entries"),
        (lambda s: s["player"][0].update(hand=["dragon"]), "setup.player[0].hand[0]", "card id"),
        (lambda s: s["player"][0].update(hand="roc"), "setup.player[0].hand", "a list"),
        (lambda s: s["player"][1].update(hand=[]), "setup.player[1].hand", "empty"),
        (lambda s: s["player"][1].update(ranch=["roc"] * 7), "setup.player[1].ranch", "at most 6"),
        (lambda s: s["player"][1].update(ranch=["kraken"], hand=["kraken"]),
         "setup.player[1].ranch", "2 copies of 'kraken' are out, the box has 1"),
        (lambda s: s["player"][0].update(total=-1), "setup.player[0].total", "0..1000000"),
        (lambda s: s.update(round=2) or s["player"][0].update(total=50), "setup.player[0].total",
         "reached the target 50"),
        (lambda s: s.update(round=1), "setup.player[0].total", "round 1 starts"),
        (lambda s: s["player"][0].update(protected=[2]), "setup.player[0].protected[0]", "1..1"),
        (lambda s: s["player"][0].update(cards=[]), "setup.player[0].cards", "unknown field"),
        (lambda s: s.update(round=0), "setup.round", "1..100000"),
        (lambda s: s.update(round=True), "setup.round", "whole number"),
        (lambda s: s.update(current=2), "setup.current", "0..1"),
        (lambda s: s.update(direction="left"), "setup.direction", "clockwise"),
        (lambda s: s.update(discard=["roc", "roc", "roc"]), "setup.discard", "3 copies"),
    ],
)  # fmt: skip
def test_bad_specs_are_refused_naming_the_key(
    change: Callable[[dict[str, Any]], Any], where: str, problem: str
) -> None:
    spec = _spec()
    change(spec)
    with pytest.raises(StateError) as caught:
        GloryRanch(2).setup(spec)
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_setup_text_that_is_not_toml_is_refused() -> None:
    with pytest.raises(StateError, match=r"setup: not TOML"):
        GloryRanch(2).setup("player = [")


# ------------------------------------------------------- loading JSON
def _contest() -> GloryState:
    """Player 0 played a Griffin against player 2 and has shown a sign; 2 has not."""
    spec = {
        "player": [{"hand": ["griffin", "roc"]}, {"hand": ["pixie"]}, {"hand": ["wyvern"]}],
    }
    state = GloryRanch(3).setup(spec)
    state.apply_text("play griffin")
    state.apply_text("target 2")
    state.apply_text("choose rock", 0)
    return state


def _second_round() -> GloryState:
    """A random game just past its first round, with a full history."""
    state = GloryRanch(3).new_initial_state()
    rng = random.Random(4)
    while state.round == 1 or state.is_chance_node():
        player = CHANCE if state.is_chance_node() else state.acting_players()[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
    return state


def _base(name: str) -> GloryState:
    return {"setup": lambda: GloryRanch(3).setup(_page_example()), "contest": _contest,
            "history": _second_round}[name]()  # fmt: skip


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set ``data.a.b[1]`` style ``path`` (below ``data``) to ``value``."""

    def change(data: dict[str, Any]) -> None:
        keys = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key)


CASES: list[tuple[str, Callable[[dict[str, Any]], Any], str, str]] = [
    ("setup", _drop("log"), "data.log", "missing"),
    ("setup", _set("colour", 1), "data.colour", "unknown field"),
    ("setup", _set("deck.dragon", 1), "data.deck.dragon", "card id"),
    ("setup", _set("deck.roc", -1), "data.deck.roc", "0..2"),
    ("setup", _set("deck.roc", "1"), "data.deck.roc", "whole number"),
    ("setup", _set("hands.1.kraken", 5), "data.hands[1].kraken", "0..1"),
    (
        "setup",
        _set("hands.2.kraken", 1),
        "data.hands[2]",
        "2 copies of 'kraken' in play, the box has 1",
    ),
    ("setup", _set("deck.wyvern", 0), "data.deck", "copies of 'wyvern' are nowhere"),
    ("setup", _set("hands", [{}, {}]), "data.hands", "expected 3 entries"),
    ("setup", _set("ranches.2", ["roc"] * 8), "data.ranches[2]", "at most 7"),
    ("setup", _set("ranches.0.0", 7), "data.ranches[0][0]", "card id"),
    ("setup", _set("shields.1", [1]), "data.shields[1]", "one mark per ranch card (2)"),
    ("setup", _set("shields.1.0", 2), "data.shields[1][0]", "0..1"),
    (
        "setup",
        lambda d: d["deck"].pop("wyvern") and d["passing"][2].append("wyvern"),
        "data.passing",
        "no delivery",
    ),
    ("setup", _set("totals.0", -4), "data.totals[0]", "0..1000000"),
    (
        "setup",
        lambda d: _set("totals.0", 60)(d) or _set("history_from.totals.0", 60)(d),
        "data.totals",
        "reached the target",
    ),
    ("setup", _drop("history_from"), "data.rounds", "0 round records, but 1 rounds are over"),
    (
        "setup",
        _set("history_from", {"round": 1, "totals": [0, 0, 0]}),
        "data.rounds",
        "0 round records, but 1 rounds are over",
    ),
    ("setup", _set("history_from.round", 1), "data.history_from.totals", "every total at 0"),
    (
        "setup",
        _set("history_from.round", 3),
        "data.history_from.round",
        "the history starts in round 3, after the current round 2",
    ),
    (
        "setup",
        _set("history_from.totals.0", 11),
        "data.totals",
        "the totals [11, 30, 7] before round 2 and the rounds played add up to [11, 30, 7]",
    ),
    ("setup", _set("history_from.totals", [1, 2]), "data.history_from.totals", "3 entries"),
    ("setup", _set("history_from", {"round": 2}), "data.history_from.totals", "missing"),
    ("setup", _set("history_from.round", 0), "data.history_from.round", "1..100000"),
    ("setup", _set("round", 0), "data.round", "1..100000"),
    ("setup", _set("first", 0), "data.first", "round 2 starts with seat 1"),
    ("setup", _set("current", 3), "data.current", "0..2"),
    ("setup", _set("direction", 0), "data.direction", "1 or -1"),
    ("setup", _set("skips", 1), "data.skips", "between turns"),
    ("setup", _set("skips", -1), "data.skips", "whole number"),
    ("setup", _set("playing", "yes"), "data.playing", "true or false"),
    ("setup", _set("playing", True), "data.playing", "nothing left to do"),
    ("setup", _set("exhausted", True), "data.exhausted", "between turns"),
    ("setup", _set("seventh", True), "data.seventh", "between turns"),
    ("setup", _set("round_turns", 1), "data.round_turns", "1 turns this round, but 0"),
    ("setup", _set("signs", {"0": "rock"}), "data.signs", "only while a contest"),
    ("setup", _set("stack", [["do", 1, -1, 0]]), "data.stack", "only the deal"),
    ("setup", _set("stack", [["fly", 1]]), "data.stack[0][0]", "step kind"),
    ("setup", _set("log", ["\x1b[2J"]), "data.log[0]", "printable"),
    ("setup", _set("log", [5]), "data.log[0]", "printable"),
    (
        "setup",
        _set(
            "rounds", [{"ranches": [[], [], []], "points": [1, 2, 3], "winners": [2], "turns": 0}]
        ),
        "data.rounds[0].turns",
        "1..1000000000",
    ),
    (  # a result in round 1, whose record is there: but nobody reached the target
        "history",
        lambda d: d.update(
            round=1,
            first=0,
            result={"winners": [1], "scores": d["totals"], "reason": "target reached"},
        ),
        "data.result",
        "no total decides it",
    ),
    (  # a result needs the record of the round that ended the game
        "setup",
        _set("result", {"winners": [1], "scores": [12, 30, 7], "reason": "target reached"}),
        "data.rounds",
        "0 round records, but 1 rounds are over since round 2",
    ),
    (
        "setup",
        _set("hands.1", {"phoenix": 1, "lindworm": 1, "wyvern": 1}),
        "data.hands[1]",
        "3 copies of 'wyvern' in play, the box has 2",
    ),
    ("contest", _set("signs", {"0": "rock", "2": "paper"}), "data.signs", "both signs are in"),
    ("contest", _set("signs", {"1": "rock"}), "data.signs.1", "not in the contest of 0 and 2"),
    ("contest", _set("signs", {"²": "rock"}), "data.signs.²", "seat number 0..2"),
    ("contest", _set("signs", {"0": "lizard"}), "data.signs.0", "rock, paper or scissors"),
    ("contest", _set("stack.0.4", 10), "data.stack[0][4]", "tie count 0..9"),
    ("contest", _set("stack.0.1", 7), "data.stack[0][1]", "seat number 0..2"),
    ("contest", _set("stack.0.2", 0), "data.stack[0][2]", "two players"),
    ("contest", _set("stack.0.3", 999), "data.stack[0][3]", "action number"),
    ("contest", _set("stack.0.3", 0), "data.stack[0][3]", "not a contest"),
    ("contest", _set("stack.0", ["rps", 0, 2, 0, True]), "data.stack[0][4]", "a number or a word"),
    (
        "contest",
        lambda d: d.update(signs={}, stack=[["do", 0, -1, 0]]),
        "data.stack[0]",
        "would have been carried out",
    ),
    ("contest", _set("stack", [["pick", 0, "eat", "any"]]), "data.stack[0][2]", "banish"),
    ("contest", _set("stack", [["steal", 0, 2]]), "data.signs", "only while a contest"),
    ("contest", _set("playing", False), "data.stack", "only the deal"),
    ("history", _set("totals.0", 99), "data.totals", "the rounds played add up to"),
    # the state: round 2, no record of round 1, totals that come from nowhere
    ("history", _set("rounds", []), "data.rounds", "0 round records, but 1 rounds are over"),
    (
        "history",
        _set("history_from", {"round": 1, "totals": [5, 0, 0]}),
        "data.history_from.totals",
        "round 1 starts with every total at 0",
    ),
    (
        "history",
        lambda d: d.update(history_from={"round": 2, "totals": [0, 0, 0]}, rounds=[]),
        "data.totals",
        "the totals [0, 0, 0] before round 2 and the rounds played add up to [0, 0, 0]",
    ),
    ("history", _set("rounds.0.winners", [9]), "data.rounds[0].winners", "highest points"),
    (
        "history",
        lambda d: d["rounds"].append(d["rounds"][0]),
        "data.rounds",
        "2 round records, but 1 rounds are over",
    ),
]


@pytest.mark.parametrize(("base", "change", "where", "problem"), CASES)
def test_impossible_state_json_is_refused_naming_the_field(
    base: str, change: Callable[[dict[str, Any]], Any], where: str, problem: str
) -> None:
    state = _base(base)
    data = json.loads(json.dumps(state.to_json()))
    state.game.state_from_json(copy.deepcopy(data))  # the untouched JSON loads
    change(data["data"])
    with pytest.raises(StateError) as caught:
        state.game.state_from_json(data)
    assert caught.value.where == where, str(caught.value)
    assert problem in caught.value.problem, str(caught.value)
    assert str(caught.value).startswith(f"state JSON: {where}: ")


def test_a_full_history_must_add_up_to_the_totals() -> None:
    state = _second_round()
    data = json.loads(json.dumps(state.to_json()))
    points = data["data"]["rounds"][0]["points"]
    best = max(points)
    data["data"]["rounds"][0]["points"] = [p - 1 if p != best else p for p in points]
    data["data"]["rounds"][0]["winners"] = [p for p, x in enumerate(points) if x == best]
    with pytest.raises(StateError, match=r"rounds\[0\]\.points\[\d\]: glory \+ bonus - penalty"):
        state.game.state_from_json(data)
    for part in ("glory", "bonus", "penalty"):  # a record written before parts were kept
        del data["data"]["rounds"][0][part]
    with pytest.raises(StateError, match=r"data.totals: the rounds played add up to"):
        state.game.state_from_json(data)


def test_a_round_record_keeps_its_score_parts_together_and_true() -> None:
    state = _second_round()
    data = json.loads(json.dumps(state.to_json()))
    record = data["data"]["rounds"][0]
    assert set(record) >= {"glory", "bonus", "penalty"}
    partial = json.loads(json.dumps(data))
    del partial["data"]["rounds"][0]["bonus"]
    with pytest.raises(StateError, match=r"rounds\[0\]\.bonus: missing"):
        state.game.state_from_json(partial)
    record["glory"][0] += 1
    record["penalty"][0] += 1
    with pytest.raises(StateError, match=r"rounds\[0\]\.glory\[0\]: the cards of that ranch"):
        state.game.state_from_json(data)


def test_a_finished_game_loads_and_its_result_must_match() -> None:
    state = GloryRanch(2, target=10).setup(
        {"round": 2, "current": 0, "player": [{"hand": ["roc"], "total": 8}, {"hand": ["wyvern"]}]}
    )
    state.apply_text("play roc")
    assert state.is_terminal()
    data = json.loads(json.dumps(state.to_json()))
    _round_trips(state)
    data["data"]["result"]["winners"] = [1]
    with pytest.raises(StateError, match=r"^state JSON: data.result: expected"):
        state.game.state_from_json(data)


def test_a_decision_with_one_choice_is_not_a_position_at_rest() -> None:
    state = _contest()
    data = json.loads(json.dumps(state.to_json()))
    data["data"]["signs"] = {}
    data["data"]["stack"] = [["target", 0, -1, state.game.effect_number[
        state.game.deck.cards[state.game.index["wyvern"]].actions[0]]]]  # fmt: skip
    state.game.state_from_json(data)  # two other players to choose from: a real question
    two = GloryRanch(2).setup({"player": [{"hand": ["wyvern", "roc"]}, {"hand": ["pixie"]}]})
    data = json.loads(json.dumps(two.to_json()))
    data["data"]["playing"] = True
    data["data"]["stack"] = [["target", 0, -1, 0]]
    data["data"]["ranches"][0] = ["wyvern"]
    data["data"]["shields"][0] = [0]
    data["data"]["hands"][0] = {"roc": 1}
    with pytest.raises(StateError, match="fewer than two choices"):
        two.game.state_from_json(data)


def test_state_json_without_a_history_start_is_a_whole_game() -> None:
    """A game played from its start writes no ``history_from`` (its JSON is as before it
    was kept), and JSON without one loads as a game played from round 1."""
    state = _second_round()
    data = json.loads(json.dumps(state.to_json()))
    assert "history_from" not in data["data"]
    assert state.game.state_from_json(data).history_from == (1, (0, 0, 0))
    data["data"]["history_from"] = {"round": 1, "totals": [0, 0, 0]}
    assert state.game.state_from_json(data).to_json() == state.to_json()


def test_a_set_up_position_keeps_its_history_start_as_it_plays_on() -> None:
    """Round 2 set up with totals: its rounds from there on add to those totals."""
    game = GloryRanch(2, target=30)
    state = game.setup(
        {"round": 2, "player": [{"hand": ["wyvern"], "total": 9}, {"hand": ["roc"], "total": 4}]}
    )
    assert state.history_from == (2, (9, 4))
    rng = random.Random(3)
    while not state.is_terminal() and state.round < 5:
        player = CHANCE if state.is_chance_node() else state.acting_players()[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
        _round_trips(state)
    assert state.history_from == (2, (9, 4)) and len(state.rounds) >= 3


def test_any_history_that_disagrees_with_the_game_is_refused() -> None:
    """Random games stopped at random steps: the JSON loads as it is; without one of its
    round records, or with a total moved, it is refused naming rounds or totals."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        seed=st.integers(0, 2**32),
        steps=st.integers(0, 400),
        drop=st.integers(0, 50),
        seat=st.integers(0, 2),
        delta=st.integers(-20, 20).filter(bool),
    )
    def check(seed: int, steps: int, drop: int, seat: int, delta: int) -> None:
        game = GloryRanch(3, target=20)
        state = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            player = CHANCE if state.is_chance_node() else state.acting_players()[0]
            state.apply(rng.choice(state.legal_actions(player)), player)
        data = json.loads(json.dumps(state.to_json()))
        assert game.state_from_json(copy.deepcopy(data)).to_json() == data
        if data["data"]["rounds"]:
            short = copy.deepcopy(data)
            short["data"]["rounds"].pop(drop % len(data["data"]["rounds"]))
            with pytest.raises(StateError, match=r"data.rounds: \d+ round records, but"):
                game.state_from_json(short)
        moved = copy.deepcopy(data)
        moved["data"]["totals"][seat] = max(0, moved["data"]["totals"][seat] + delta)
        if moved["data"]["totals"] != data["data"]["totals"]:
            with pytest.raises(StateError, match=r"data\.(totals|result)"):
                game.state_from_json(moved)

    check()
