"""Playing whole games through the server's API, and what each view should hold."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from ranchhand.core.game import CHANCE, SIMULTANEOUS, State
from ranchhand.core.log import collapse
from ranchhand.core.records import Record, replay_steps
from ranchhand.core.undo import Trail, is_undo

GAMES = {
    "rancho": {"players": 3, "options": {"max_turns": 24}},
    "rocket-ranchers": {"players": 3, "options": {}},
    "glory-ranch": {"players": 3, "options": {}},
}
"""Each game as the tests play it (Rancho cut short: random play can wander for long)."""


def wait_for(check: Any, timeout: float, what: str) -> Any:
    """Poll ``check()`` until it returns something true (liveness, generous bounds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s")


def wait_finished(client: Any, table: str, timeout: float = 30.0) -> None:
    """Until the table's game is over. A bots-only game ends inside the request that made
    it as a rule; when a pause of the collector used up the inline budget (about 1 table
    in 1,000), the server's runner ends it a moment later."""
    url = f"/api/tables/{table}"
    wait_for(lambda: client.get(url).json()["status"] == "finished", timeout, "the game's end")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: Any, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"game": game, "seats": seats, "options": GAMES[game]["options"], **extra}
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def play_out(
    client: Any,
    created: dict[str, Any],
    rng: random.Random,
    views: list[tuple[int | None, dict[str, Any]]] | None = None,
    limit: int = 5000,
) -> dict[str, Any]:
    """Play random legal moves for every human seat until the game ends; return the last view.

    Every view received (GETs of each seat and the spectator, and each move's reply)
    is appended to ``views`` with the seat it was for.
    """
    table, tokens = created["id"], tokens_of(created)
    for _ in range(limit):
        spectator = client.get(f"/api/tables/{table}").json()
        if views is not None:
            views.append((None, spectator))
        if spectator["status"] == "finished":
            return spectator
        movers = []
        for seat, token in tokens.items():
            view = client.get(f"/api/tables/{table}", headers=auth(token)).json()
            if views is not None:
                views.append((seat, view))
            if view["legal_actions"]:
                movers.append((seat, view))
        assert movers, f"nobody can move at step {spectator['step']}: {spectator['to_act']}"
        seat, view = rng.choice(movers)
        action = rng.choice(view["legal_actions"])
        reply = client.post(
            f"/api/tables/{table}/actions",
            json={"action": action, "step": view["step"]},
            headers=auth(tokens[seat]),
        )
        assert reply.status_code == 200, reply.text
        if views is not None:
            views.append((seat, reply.json()))
    raise AssertionError(f"table {table} did not finish in {limit} moves")


def expected_views(record: Record, names: list[str]) -> list[dict[int | None, dict[str, Any]]]:
    """For each step of ``record``: what each viewer (None: a spectator) may be shown.

    Worked out from the replayed states alone: the viewer's observation, its legal
    actions when it is to act, and the log written with ``describe_for`` for that
    viewer, choices at a simultaneous node held back until the node is over; an undo
    step's line is "P0 Ann took back: " and the line each viewer was given for the action.
    """
    players = record.players
    viewers: list[int | None] = [None, *range(players)]
    logs: dict[int | None, list[str]] = {v: [] for v in viewers}
    held: list[dict[int | None, str]] = []
    out = []
    previous: State | None = None
    trail = Trail()
    for index, (state, step) in enumerate(replay_steps(record)):
        out.append({v: _expected(state, v, logs[v]) for v in viewers})
        if step is None:
            break
        if is_undo(step.player):
            _seat, undone, kept = trail.take()
            assert kept is not None and not held, "an undo never comes amid hidden choices"
            was = record.steps[undone]
            action = kept.parse_action(was.action, was.player)
            for v in viewers:
                told = kept.describe_for(v, action, was.player)
                logs[v].append(f"P{was.player} {names[was.player]} took back: {told}")
            continue
        previous = state.clone()
        trail.before(previous, step.player, index)
        action = state.parse_action(step.action, step.player)
        label = "chance" if step.player == CHANCE else f"P{step.player} {names[step.player]}"
        lines = {v: f"{label}: {previous.describe_for(v, action, step.player)}" for v in viewers}
        before = set(previous.acting_players())
        after = previous.clone()
        after.apply(action, step.player)
        if (
            previous.current_player() == SIMULTANEOUS
            and after.current_player() == SIMULTANEOUS
            and set(after.acting_players()) == before - {step.player}
        ):
            held.append(lines)
        else:
            for entry in [*held, lines]:
                for v in viewers:
                    logs[v].append(entry[v])
            held.clear()
    return out


def _expected(state: State, viewer: int | None, log: list[str]) -> dict[str, Any]:
    to_act = list(state.acting_players())
    try:
        observation = state.observe(viewer).to_json()  # type: ignore[arg-type]
    except TypeError:
        observation = None  # a game not yet able to show a spectator's table
    return {
        "observation": json.loads(json.dumps(observation)),
        "legal_actions": [str(a) for a in state.legal_actions(viewer)]
        if viewer is not None and viewer in to_act
        else [],
        "log": collapse(list(log)),
        "to_act": to_act,
        "turn": state.turn,
        "secrets": secrets_hidden_from(state, viewer),
    }


def secrets_hidden_from(state: State, viewer: int | None) -> set[str]:
    """Texts another seat holds in secret (Glory: cards in hand; Rocket Ranchers: founding
    cards) that ``viewer``'s own observation does not contain."""
    found: set[str] = set()
    others = [p for p in range(state.game.players) if p != viewer]
    if state.game.id == "glory-ranch":
        hands = state.to_json()["data"]["hands"]
        for p in others:
            found.update(hands[p])
    elif state.game.id == "rocket-ranchers":
        for p in others:
            for corral in state.observe(p).to_json()["corrals"][p]:
                found.add(corral["founder"])
    return found
