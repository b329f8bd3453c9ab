"""The view's ``words``: the log told in words, one line for each line of ``log`` (folded
along the same runs), built for each viewer from ``describe_words`` as that viewer may see
it; ``log`` stays as it was. Replays show the same, and the every-seat replay view the
words of each move as its mover told it."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ranchhand.core.game import CHANCE, SIMULTANEOUS
from ranchhand.core.records import Record, Step, replay_steps
from ranchhand.core.registry import load
from ranchhand.server.live import Live, Meta
from ranchhand.server.store import make_engine, migrate
from ranchhand.server.tables import TableService
from ranchhand.server.views import table_view
from ranchhand.web.replays import Replayed

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    engine = make_engine(f"sqlite:///{tmp_path / 'tables.db'}")
    migrate(engine)
    yield TableService(engine)
    engine.dispose()


def expected(record: Record, names: list[str]) -> dict[int | None, tuple[list[str], list[str]]]:
    """Each viewer's (log, words) at the end of ``record``, worked out from the replayed
    states alone: choices at a simultaneous node held back until it is over, runs of the
    same log line folded, and their words with them."""
    viewers: list[int | None] = [None, *range(record.players)]
    entries: dict[int | None, list[tuple[str, str]]] = {v: [] for v in viewers}
    held: list[dict[int | None, tuple[str, str]]] = []
    for state, step in replay_steps(record):
        if step is None:
            break
        previous = state.clone()
        action = previous.parse_action(step.action, step.player)
        label = "chance" if step.player == CHANCE else f"P{step.player} {names[step.player]}"
        told = {
            v: (
                f"{label}: {previous.describe_for(v, action, step.player)}",
                previous.describe_words(v, action, step.player, names),
            )
            for v in viewers
        }
        before = set(previous.acting_players())
        after = previous.clone()
        after.apply(action, step.player)
        if (
            previous.current_player() == SIMULTANEOUS
            and after.current_player() == SIMULTANEOUS
            and set(after.acting_players()) == before - {step.player}
        ):
            held.append(told)
            continue
        for entry in [*held, told]:
            for v in viewers:
                entries[v].append(entry[v])
        held.clear()
    return {v: fold(entries[v]) for v in viewers}


def fold(entries: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    runs: list[list[tuple[str, str]]] = []
    for entry in entries:
        if runs and runs[-1][0][0] == entry[0]:
            runs[-1].append(entry)
        else:
            runs.append([entry])
    log, words = [], []
    for run in runs:
        said = [w for _, w in run]
        log.append(run[0][0] if len(run) == 1 else f"{run[0][0]} x{len(run)}")
        if len(set(said)) > 1:
            words.append(" ".join(said))
        else:
            words.append(said[0] if len(run) == 1 else f"{said[0]} x{len(run)}")
    return log, words


def play(service: TableService, game: str, seats: list[str], moves: int, seed: int) -> str:
    made = service.create(game, len(seats), {}, seats, NAMES[: len(seats)])
    tokens = dict(made.tokens)
    rng = random.Random(seed)
    for _ in range(moves):
        live = service.current(made.id)
        if live.finished:
            break
        seat = next(s for s in live.state.acting_players() if s in tokens)
        action = str(rng.choice(live.state.legal_actions(seat)))
        service.act(made.id, tokens[seat], action, live.step)
    return made.id


def record_of(live: Live) -> Record:
    return Record(
        game=live.meta.game,
        players=live.meta.players,
        options=dict(live.meta.options),
        version=live.game.version,
        engine="test",
        seats=list(live.meta.kinds),
        seed=live.meta.seed,
        steps=[Step(p, a) for p, a in live.moves],
    )


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("rancho", ["human", "human", "greedy"]),
        ("super-farmer", ["human", "random", "human"]),
        ("glory-ranch", ["human", "human", "greedy"]),
        ("rocket-ranchers", ["human", "greedy", "human"]),
    ],
)
def test_words_are_parallel_to_the_log_and_told_to_each_viewer(
    service: TableService, game: str, seats: list[str]
) -> None:
    table = play(service, game, seats, 60, seed=3)
    live, _ = service.view_seat(table, None)  # a spectator: its lines written from here on
    want = expected(record_of(live), NAMES[: len(seats)])
    people = [s for s, kind in enumerate(seats) if kind == "human"]
    for seat in [None, *people]:
        view: dict[str, Any] = table_view(live, seat)
        assert len(view["words"]) == len(view["log"]) > 5
        assert (view["log"], view["words"]) == want[seat], f"seat {seat}"
    if game in ("rancho", "super-farmer"):
        mine = table_view(live, people[0])["words"]
        theirs = table_view(live, people[1])["words"]
        assert any(line.startswith("You ") for line in mine)
        assert any(line.startswith("Ann ") for line in theirs)
        assert not any(line.startswith("Ann ") for line in mine)


def test_a_run_of_the_same_line_folds_its_words_with_it() -> None:
    game = load("rancho", 2)
    meta = Meta("t", "rancho", 2, {}, ("human",) * 2, ("human",) * 2, ("Ann", "Bob"), (None,) * 2,
                0, 0.0, None, "random", 0.0)  # fmt: skip
    entry = ("s: a", "0: a", "1: a", "Ann did a.", "You did a.", "Ann did a.")
    other = ("s: a", "0: a", "1: a", "Ann did b.", "You did b.", "Ann did b.")
    last = ("s: c", "0: c", "1: c", "Cy.", "Cy.", "Cy.")
    live = Live(meta, game, game.new_initial_state(), events=[entry, entry])
    assert live.log_for(0) == ["0: a x2"] and live.words_for(0) == ["You did a. x2"]
    live.events.append(entry)
    assert live.words_for(0) == ["You did a. x3"]
    live.events.append(other)
    assert live.log_for(0) == ["0: a x4"]
    assert live.words_for(0) == ["You did a. You did a. You did a. You did b."]
    live.events.append(last)
    assert live.words_for(None) == ["Ann did a. Ann did a. Ann did a. Ann did b.", "Cy."]
    assert live.words_for(1) == live.words_for(None)


def test_replays_show_the_words_and_every_seat_the_movers_words(service: TableService) -> None:
    table = play(service, "rancho", ["human", "human"], 40, seed=5)
    record = record_of(service.current(table))
    replayed = Replayed(record)
    step = len(record.steps)
    replayed.advance(step, budget=30.0, started=time.thread_time())  # this thread's CPU so far
    names = list(replayed.meta.names)
    want = expected(record, names)
    for seat in (None, 0, 1):
        view = replayed.view(step, seat)
        assert (view["log"], view["words"]) == want[seat]
    everyone = replayed.view(step, "all")
    assert len(everyone["words"]) == len(everyone["log"]) == step
    state = load("rancho", 2).new_initial_state()
    for (player, text), words in zip(replayed.moves, everyone["words"], strict=True):
        action = state.parse_action(text, player)
        viewer = None if player == CHANCE else player
        assert words == state.describe_words(viewer, action, player, names)
        state.apply(action, player)
