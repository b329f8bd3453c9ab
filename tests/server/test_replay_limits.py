"""Replays cost bounded CPU and memory: a record is checked only as far as asked, within a
CPU budget per request (the rest on the next request), states are kept every
CHECKPOINT_EVERY steps, the cache is bounded in bytes, and replay work runs on its own
few threads while the server answers others."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ranchhand.core.game import CHANCE
from ranchhand.core.records import Record, parse_step
from ranchhand.core.registry import game_class
from ranchhand.server.errors import BadRequest
from ranchhand.server.limits import LimitSettings, RetryLater
from ranchhand.server.live import Live
from ranchhand.server.views import table_view
from ranchhand.web.replays import CHECKPOINT_EVERY, ReplayCache, Replayed, ReplayWorkers
from tests.server.procs import Server

FIELDS = ("step", "status", "to_act", "observation", "legal_actions", "log", "outcome", "turn")


def random_record(game_id: str, steps: int, seed: int, *, endless: bool = False) -> Record:
    """A game of random moves (``endless``: the moves that would end it avoided, trades
    preferred, so a Rancho game runs as long as asked)."""
    options = {"max_turns": 100_000} if game_id == "rancho" else {}
    game = game_class(game_id)(4, **options)
    rng = random.Random(seed)
    record = Record.start(game, ["random"] * 4, seed)
    state = game.new_initial_state()
    while len(record.steps) < steps and not state.is_terminal():
        player = CHANCE if state.is_chance_node() else state.acting_players()[0]
        choices = [] if player == CHANCE else state.legal_actions(player)
        if endless and player != CHANCE:
            trades = [a for a in choices if str(a).startswith(("buy", "trade"))]
            choices = trades if trades and rng.random() < 0.9 else choices
        for _ in range(50 if endless else 1):
            action = state.sample_chance(rng) if player == CHANCE else rng.choice(choices)
            after = state.clone()
            after.apply(action, player)
            if not after.is_terminal():
                break
        record.add(player, action)
        state.apply(action, player)
    if state.is_terminal():
        record.finish(state)
    return record


FRESH = "RANCHHAND_FRESH_PROCESS"


def fresh_process(test: Any) -> Any:
    """Run ``test`` in a fresh interpreter: it measures one process's CPU and memory, which
    in a long test session also pay for what earlier tests left (a heap that garbage
    collection walks, memos that grew), whatever the code under test does."""
    if os.environ.get(FRESH) == test.__name__:
        return test

    def in_a_fresh_process() -> None:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
             f"{__file__}::{test.__name__}"],
            env={**os.environ, FRESH: test.__name__},
            capture_output=True,
            text=True,
            timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]

    in_a_fresh_process.__name__ = test.__name__
    in_a_fresh_process.__doc__ = test.__doc__
    return in_a_fresh_process


@pytest.fixture(scope="module")
def glory() -> Record:
    return random_record("glory-ranch", 5000, 3)


@pytest.fixture(scope="module")
def long_rancho() -> Record:
    return random_record("rancho", 3000, 1, endless=True)


@pytest.fixture(scope="module")
def longer_rancho() -> Record:
    return random_record("rancho", 10_000, 2, endless=True)  # this seed runs that long


def test_views_match_a_replay_from_the_start_at_every_step(glory: Record) -> None:
    """Checkpoints and the kept log give what replaying every step from the start gives,
    simultaneous choices (released to the log together) included."""
    cache = ReplayCache(LimitSettings())
    data = glory.to_json()
    game = glory.load_game(allow_files=False)
    first, _ = cache.view(data, 0, None)
    meta = cache._kept[next(iter(cache._kept))].meta
    live = Live(meta, game, game.new_initial_state())
    total = len(glory.steps)
    for index in range(total + 1):
        if index == total:
            live.events.extend(live.pending)
        if index % 5 == 0 or index == total:
            for seat in (None, 0, 3):
                got, _ = cache.view(data, index, seat)
                want = table_view(live, seat)
                assert {k: got[k] for k in FIELDS} == {k: want[k] for k in FIELDS}, (index, seat)
        if index < total:
            step = glory.steps[index]
            live.apply(step.player, parse_step(live.state, step, index))
    everything, _ = cache.view(data, total, "all")
    assert len(everything["log"]) == total and len(everything["seat_views"]) == 4
    assert first["replay"]["steps"] == total


def test_a_record_is_checked_only_as_far_as_asked(long_rancho: Record) -> None:
    cache = ReplayCache(LimitSettings())
    view, _ = cache.view(long_rancho.to_json(), 10, 0)
    assert view["step"] == 10 and view["replay"]["steps"] == len(long_rancho.steps)
    entry = next(iter(cache._kept.values()))
    assert entry.checked == 10


def test_a_step_that_breaks_the_rules_is_named_and_steps_before_it_still_show(
    long_rancho: Record,
) -> None:
    data = long_rancho.to_json()
    data["actions"][500] = [data["actions"][500][0], "buy the moon"]
    cache = ReplayCache(LimitSettings())
    assert cache.view(data, 400, None)[0]["step"] == 400
    with pytest.raises(BadRequest, match=r"step 500: .*'buy the moon'"):
        cache.view(data, 600, None)
    at = cache.view(data, 500, None)[0]
    assert at["step"] == 500 and at["replay"]["next"] == "buy the moon"
    with pytest.raises(BadRequest, match="step 500"):
        cache.view(data, 501, None)


@fresh_process
def test_each_request_spends_at_most_its_cpu_budget_and_progress_is_kept(
    longer_rancho: Record,
) -> None:
    # The smallest budget allowed, against a record that takes several times it to
    # check (7 refusals here): 3,000 steps were once checked in two requests, the first
    # paying for the warm-up and the second checking the other 1,640 within its 0.1 s.
    budget = 0.1
    cache = ReplayCache(LimitSettings(replay_cpu=budget))
    data, total = longer_rancho.to_json(), len(longer_rancho.steps)
    assert total == 10_000
    done: list[int] = []
    for _ in range(200):
        started = time.thread_time()
        try:
            view, _ = cache.view(data, total, "all")
        except RetryLater as refused:
            assert refused.status == 503 and refused.headers == {"Retry-After": "1"}
            assert "ask again" in refused.message
            done.append(next(iter(cache._kept.values())).checked)
            assert time.thread_time() - started < budget + 0.5  # generous: a slow machine
            continue
        break
    assert view["step"] == total and len(done) >= 2, done
    further = all(a < b for a, b in itertools.pairwise(done))  # each request went further
    assert further and done[-1] < total, done


@fresh_process
def test_checkpoints_not_states_per_step_and_the_cache_is_bounded_in_bytes(
    long_rancho: Record,
) -> None:
    data = long_rancho.to_json()
    data["actions"] = data["actions"][:1000]
    total = 1000
    cache = ReplayCache(LimitSettings())
    cache.view(data, total, None)
    entry: Replayed = next(iter(cache._kept.values()))
    assert len(entry.checkpoints) == total // CHECKPOINT_EVERY + 1
    assert entry.record is None  # every step checked: the moves keep the record's text
    one = cache.size
    assert 0 < one < 20_000_000
    small = ReplayCache(LimitSettings(replay_cache_bytes=max(1_000_000, int(one * 2.5))))
    for seed in range(4):
        other = dict(data, seed=seed)  # the same moves: a distinct record by content
        small.view(other, total, None)
        assert small.size <= small.limits.replay_cache_bytes
    assert len(small) == 2


def test_replay_work_waits_for_a_worker_then_is_refused() -> None:
    async def scenario() -> list[Any]:
        workers = ReplayWorkers(LimitSettings(replay_workers=1, replay_wait=0.3))
        release = threading.Event()
        first = asyncio.create_task(workers.run(release.wait))
        await asyncio.sleep(0.05)
        second = await asyncio.gather(workers.run(lambda: "late"), return_exceptions=True)
        release.set()
        return [await first, *second, await workers.run(lambda: "free again")]

    first, second, third = asyncio.run(scenario())
    assert first is True and third == "free again"
    assert isinstance(second, RetryLater) and second.status == 503


def test_replays_do_not_starve_the_rest_of_the_server(
    long_rancho: Record, sqlite_url: str, tmp_path: Path
) -> None:
    """Four long replays at once on a real server: health stays quick, and the replays
    that find the worker busy are told to retry (503, Retry-After) or finish."""
    data = long_rancho.to_json()
    bodies = [{"record": dict(data, seed=i), "step": len(data["actions"])} for i in range(4)]
    statuses: list[int] = []
    with Server(sqlite_url, tmp_path) as server:

        def post(body: dict[str, Any]) -> None:
            with httpx.Client(timeout=60, trust_env=False) as client:
                reply = client.post(f"{server.base}/api/replays", json=body)
                statuses.append(reply.status_code)
                if reply.status_code != 200:
                    assert reply.headers["Retry-After"]

        threads = [threading.Thread(target=post, args=(body,)) for body in bodies]
        for thread in threads:
            thread.start()
        slowest = 0.0
        with httpx.Client(timeout=10, trust_env=False) as client:
            while any(thread.is_alive() for thread in threads):
                start = time.monotonic()
                assert client.get(f"{server.base}/api/health").status_code == 200
                slowest = max(slowest, time.monotonic() - start)
                time.sleep(0.05)
        for thread in threads:
            thread.join()
        assert "Traceback" not in server.tail(200)
    assert set(statuses) <= {200, 429, 503} and 200 in statuses
    print(f"slowest /api/health during 4 replays: {slowest:.3f} s; replies {statuses}")
    assert slowest < 1.5, f"/api/health took {slowest:.2f} s during replays"
