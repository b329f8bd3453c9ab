"""The server prepares its bots' tables in a process apart (``ranchhand.server.prepare``).

The server never solves on demand, so Super Farmer's racer (the ``normal`` level) would
play ``optimal``'s exchanges for ever on a machine whose cache lacks its race table. A real
``ranchhand serve`` with an empty cache makes the table once, at the lowest priority,
while it serves; a racer seated after that races.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from ranchhand.core import Record
from ranchhand.core.records import replay_steps
from ranchhand.games.super_farmer.actions import Trade
from ranchhand.games.super_farmer.bots import after
from ranchhand.games.super_farmer.levels import ExactRacerBot
from ranchhand.games.super_farmer.racer import RacerBot
from ranchhand.games.super_farmer.solver import race
from ranchhand.games.super_farmer.tables import FARM
from ranchhand.server import prepare
from tests.server.procs import Server, create_table, get_view, http_client

FALLBACK = "it plays optimal's exchanges"
"""The racer's one warning when it has no race table (``RacerBot.act``)."""
HARD_FALLBACK = "it reads the deadline as normal does"
"""The hard racer's one warning when it has no law table (``RacerBot.reading``)."""


def play_out(server: Server, seats: list[str]) -> None:
    """Two-player Super Farmer tables of these bots, each played to its end, until one
    in which the racer in seat 0 came to weigh a choice by the race (its race table
    consulted, or its fallback taken): a racer whose rival wins before it can make any
    exchange never does (about 3 games in 100 against greedy), so up to five tables."""
    with http_client() as client:
        for _ in range(5):
            body = {"game": "super-farmer", "players": 2, "seats": seats}
            table = create_table(client, server.base, body)
            finished = time.monotonic() + 120
            while get_view(client, server.base, table["id"], None)["status"] != "finished":
                assert time.monotonic() < finished, f"{seats} did not finish in 120 s"
                time.sleep(0.2)
            reply = client.get(f"{server.base}/api/tables/{table['id']}/record")
            assert reply.status_code == 200, reply.text
            if raced(Record.from_json(reply.json())):
                return
    raise AssertionError(f"in five tables of {seats} the racer never had a choice to weigh")


def raced(record: Record) -> bool:
    """Whether seat 0 ever had an exchange to weigh that does not finish its farm, before
    exchanging in its turn: where the racer consults its race table."""
    for state, step in replay_steps(record):
        if step is None or step.player != 0 or state.traded:
            continue
        trades = [a for a in state.legal_actions() if isinstance(a, Trade)]
        mine = tuple(state.animals[0])
        if trades and not any(all(after(mine, t)[k] for k in FARM) for t in trades):
            return True
    return False


def test_the_racer_is_prepared_once_for_both_levels() -> None:
    preparers = prepare.preparers()
    assert RacerBot in preparers and ExactRacerBot not in preparers  # it inherits it
    assert all(cls.prepare.__func__ is not prepare.Bot.prepare.__func__ for cls in preparers)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("flag", "env", "wanted"),
    [
        (None, None, True),
        (None, "0", False),
        (None, "off", False),
        (True, "0", True),
        (False, None, False),
        (None, "1", True),
    ],
)
def test_whether_to_prepare(
    flag: bool | None, env: str | None, wanted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if env is None:
        monkeypatch.delenv(prepare.ENV, raising=False)
    else:
        monkeypatch.setenv(prepare.ENV, env)
    assert prepare.wanted(flag) is wanted


def test_a_table_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    """The race table goes to a file of its own, then is renamed over the old one: a
    reader meanwhile sees the old table or the new, and nothing is left beside it."""
    path = tmp_path / "super-farmer-race-default.npz"
    path.write_bytes(b"an older table")
    keys, turns = np.arange(3, dtype=np.int64), np.ones(3, np.float32)
    powers = np.full((3, len(race.GAMMAS)), 0.5, np.float32)
    race.RaceTable(keys, turns, powers, np.array(race.GAMMAS)).save(path)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    with np.load(path) as data:
        assert list(data["turns"]) == [1.0, 1.0, 1.0]


def test_a_cache_that_cannot_be_written_is_an_error_not_a_table_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The racer's table tabled but not cached (here the cache folder's parent is a file):
    ``prepare`` says so (``main`` prints it as a table that could not be prepared) instead of
    reporting a table made. The tabling itself is stood in for by a small table."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("RANCHHAND_CACHE", str(blocker / "cache"))
    monkeypatch.delenv(race.SOLVE_ENV, raising=False)  # an app made earlier set it: never
    monkeypatch.setattr(race, "_LOADED", {})
    small = race.RaceTable(
        np.arange(2, dtype=np.int64),
        np.ones(2, np.float32),
        np.full((2, len(race.GAMMAS)), 0.5, np.float32),
        np.array(race.GAMMAS),
    )
    monkeypatch.setattr(race, "compute", lambda solution, box=None: small)
    with pytest.raises(OSError, match="could not be cached"):
        race.prepare()


def test_prepare_reads_each_cached_table_once_and_remakes_a_stale_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On an empty cache both tables are made; then both are there and nothing is; a law
    table of another format is read once, found stale, and made again. The tabling is
    stood in for by tables of the right size (the real one takes 25 to 50 CPU s)."""
    monkeypatch.setenv("RANCHHAND_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(race.SOLVE_ENV, raising=False)
    for memory in ("_LOADED", "_LAWS"):
        monkeypatch.setattr(race, memory, {})
    farms = len(race.cached({}).keys)
    table = race.RaceTable(
        np.arange(farms, dtype=np.int64),
        np.ones(farms, np.float32),
        np.full((farms, len(race.GAMMAS)), 0.5, np.float32),
        np.array(race.GAMMAS),
    )
    monkeypatch.setattr(race, "compute", lambda solution, box=None: table)
    law = np.zeros((race.HEAD, farms), np.float32)
    monkeypatch.setattr(race, "compute_law", lambda solution, box=None: law)
    reads: list[Path] = []
    load_law = race._load_law
    monkeypatch.setattr(race, "_load_law", lambda path, s: reads.append(path) or load_law(path, s))
    race_file, law_file = race.race_path({}), race.law_path({})

    assert race.prepare() == f"{race_file} and {law_file}"
    assert reads == []  # nothing to read yet
    assert race.prepare() is None
    assert reads == [law_file]
    np.savez(law_file, format=np.array(race.FORMAT + 1), law=law)  # another format
    reads.clear()
    assert race.prepare() == str(law_file)
    assert reads == [law_file]
    with np.load(law_file) as data:
        assert int(data["format"]) == race.FORMAT


def test_stopping_ends_a_preparing_process() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    started = time.monotonic()
    prepare.stop(sleeper)
    assert sleeper.poll() is not None and time.monotonic() - started < prepare.GRACE + 5
    prepare.stop(None)  # nothing started: nothing to do


def test_a_server_prepares_the_racer_and_its_racers_then_race(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --prepare-bots`` on an empty cache: the race and law tables appear (one
    line in the log says so), and a Super Farmer table of racers seated after it, the
    ``hard`` one first, plays without either fallback warning."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RANCHHAND_CACHE", str(cache))
    path = cache / "super-farmer-race-default.npz"
    law = cache / "super-farmer-law-default.npz"
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    with Server(db, tmp_path, flags=("--prepare-bots",)) as server:
        deadline = time.monotonic() + 300  # about 25 CPU s, at the lowest priority
        while not law.exists():
            assert time.monotonic() < deadline, f"no law table after 300 s\n{server.tail()}"
            time.sleep(0.5)
        for _ in range(100):  # the line comes as the process ends
            if "made Super Farmer's race tables" in server.tail(200):
                break
            time.sleep(0.1)
        made = f"made Super Farmer's race tables for the racer: {path} and {law}"
        assert made in server.tail(200)
        before = len(server.log_path.read_text())
        play_out(server, ["hard", "normal"])
        assert FALLBACK not in server.log_path.read_text()[before:]
        assert HARD_FALLBACK not in server.log_path.read_text()[before:]
        assert "Traceback" not in server.tail(200)
    assert sorted(p.name for p in cache.iterdir() if p.name.startswith(".")) == []


def test_without_the_flag_nothing_is_prepared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-prepare-bots``: no preparing process, so a racer seated on an empty cache
    plays its fallback (and says so once in the log)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RANCHHAND_CACHE", str(cache))
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    with Server(db, tmp_path, flags=("--no-prepare-bots",)) as server:
        play_out(server, ["racer", "greedy"])
        assert FALLBACK in server.tail(400)
    assert not cache.exists() or not any(cache.iterdir())


def test_ctrl_c_stops_the_server_and_its_preparing_process_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C at a terminal reaches the whole process group while the table is being
    made: the server drains and exits 0, the preparing process goes with it (the server
    stops it), no traceback, and no half-written table is left in the cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RANCHHAND_CACHE", str(cache))
    server = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path, flags=("--prepare-bots",))
    with server:
        deadline = time.monotonic() + 60
        while "tabling the solitaire policy's law of turns" not in server.tail(200):
            assert time.monotonic() < deadline, f"nothing was being prepared\n{server.tail()}"
            time.sleep(0.2)
        assert server.proc is not None
        group = server.proc.pid
        os.killpg(group, signal.SIGINT)
        assert server.proc.wait(30) == 0, server.tail()
        gone = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in in_group(group)):
            assert time.monotonic() < gone, f"left running: {in_group(group)}"
            time.sleep(0.1)
    assert "Traceback" not in server.tail(200)
    assert not cache.exists() or not any(cache.iterdir()), list(cache.iterdir())


def in_group(group: int) -> list[int]:
    """The processes of process group ``group``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == group:
                found.append(int(entry.name))
    return found
