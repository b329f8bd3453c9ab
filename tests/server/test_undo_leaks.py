"""An undo tells nobody anything new (issue 19): at tables with hidden cards (Glory
Ranch's hands, Rocket Ranchers' founding cards) people play random moves and undo
where they may; every view any seat or spectator receives is checked, as in
test_leaks.py, against what that viewer's own observation gives, the undo's log line
being "P0 ... took back: " and the line that viewer was given for the action."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ranchhand.core.game import CHANCE, SIMULTANEOUS, State
from ranchhand.core.records import Record, replay, replay_steps
from ranchhand.core.undo import UNDO_PLAYER, Trail, is_undo
from tests.server.helpers import _expected, create, tokens_of
from tests.server.test_leaks import check
from tests.server.test_undo import play_with_undos

SEATS = {
    "rocket-ranchers": ["human", "greedy", "human"],
    "glory-ranch": ["human", "human", "random"],
}


def expected_views(record: Record, names: list[str]) -> list[dict[int | None, dict[str, Any]]]:
    """helpers.expected_views with undo steps: for each step, what each viewer may be
    shown, the undo's line built from the state before the action it took back."""
    viewers: list[int | None] = [None, *range(record.players)]
    logs: dict[int | None, list[str]] = {v: [] for v in viewers}
    held: list[dict[int | None, str]] = []
    trail = Trail()
    out = []

    def label(player: int) -> str:
        return "chance" if player == CHANCE else f"P{player} {names[player]}"

    for index, (state, step) in enumerate(replay_steps(record)):
        out.append({v: _expected(state, v, logs[v]) for v in viewers})
        if step is None:
            break
        if is_undo(step.player):
            _seat, undone, kept = trail.take()
            assert kept is not None
            was = record.steps[undone]
            action = kept.parse_action(was.action, was.player)
            lines = {
                v: f"{label(was.player)} took back: {kept.describe_for(v, action, was.player)}"
                for v in viewers
            }
            assert not held, "an undo never comes amid hidden choices"
            for v in viewers:
                logs[v].append(lines[v])
            continue
        previous: State = state.clone()
        action = state.parse_action(step.action, step.player)
        trail.before(previous, step.player, index)
        lines = {
            v: f"{label(step.player)}: {previous.describe_for(v, action, step.player)}"
            for v in viewers
        }
        after = previous.clone()
        after.apply(action, step.player)
        if (
            previous.current_player() == SIMULTANEOUS
            and after.current_player() == SIMULTANEOUS
            and set(after.acting_players()) == set(previous.acting_players()) - {step.player}
        ):
            held.append(lines)
        else:
            for entry in [*held, lines]:
                for v in viewers:
                    logs[v].append(entry[v])
            held.clear()
    return out


@pytest.mark.parametrize("game", list(SEATS))
def test_an_undo_reveals_nothing_hidden(sqlite_client: Any, game: str) -> None:
    client = sqlite_client
    created = create(client, game, SEATS[game])
    tokens, table = tokens_of(created), created["id"]
    client.get(f"/api/tables/{table}")  # watched from the start: spectator lines too
    undos, views = play_with_undos(client, table, tokens, random.Random(f"undo leaks {game}"))
    assert undos >= 3, f"only {undos} undos: the test would show little"
    record = Record.from_json(client.get(f"/api/tables/{table}/record").json())
    assert sum(s.player == UNDO_PLAYER for s in record.steps) == undos
    replay(record)
    names = [s["name"] for s in created["seats"]]
    expected = expected_views(record, names)
    secret_texts = [*tokens.values(), str(record.seed)]
    for viewer, view in views:
        check(view, viewer, expected[view["step"]][viewer], secret_texts)
        if viewer is None or viewer not in view["to_act"]:
            assert view["undo"] == 0
    seen_undo = [v for _, v in views if any(" took back: " in line for line in v["log"])]
    assert seen_undo, "the undos were in the logs"
