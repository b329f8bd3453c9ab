"""A short soak (issue 23): ``benchmarks/server_load.py --soak`` for 8 seconds, its checks
as assertions.

A real ``uvicorn`` serves 50 tables, each a scripted WebSocket player in seat 0 against
a random bot, as fast as views come back, while two WebSockets that never read sit on
a busy table (blocked before the run starts), ten spectators read, and one address
floods table creations. Every player, each from an address of its own, must have each
move answered by one view of a later step and nothing else; every spectator must see
every step its player saw, in increasing order up to the player's last, each within a
bound (a spectator that keeps up gets every view; one that fell behind would get the
newest); the flood must be refused with 429; the stuck sockets must be dropped by the
server's send timeout. ``make bench-server`` with ``SOAK=1`` runs the long version.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from benchmarks import server_load

from tests.server.procs import Server

SEND_TIMEOUT = 4.0
"""The server's send timeout: the stuck sockets are dropped during the 8 s run."""
BOUND = 10.0
"""Seconds within which each reader gets each view: a liveness bound on a shared 2-core
machine (measured here, p99 is well under a second)."""


def test_fifty_tables_beside_stuck_sockets_and_a_flood(tmp_path: Path) -> None:
    if sys.platform != "linux":
        pytest.skip("watches the server's end of each connection in Linux's /proc/net/tcp")
    # The default limits, but for the per-client rate of moves: the players are scripts
    # that move the instant a view arrives, on a fast machine 26 moves a second each
    # (10,556 in 8 s over 50 tables in a CI run), past that rate, which the soak does not
    # test (the servers ``server_load`` starts lift it the same way). The flood meets
    # the table rate.
    settings = {"ws_send_timeout": SEND_TIMEOUT, "limits": {"actions": "off"}}
    with Server(f"sqlite:///{tmp_path / 'soak.db'}", tmp_path, settings=settings) as server:
        argv = ["--url", server.base, "--tables", "50", "--seconds", "8", "--soak"]
        args = server_load.parse_args(argv)
        assert server.proc is not None
        result = asyncio.run(server_load.load(server.base, args, "soak", server.proc.pid))
        log = server.tail(60)
    soak = result.soak
    assert soak is not None
    print("\n".join([f"moves {len(result.stats.latencies)}", *server_load.report(result)]))

    # Every player: each move answered by one later view, nothing else, in time.
    assert not result.stats.errors, result.stats.errors[:5]
    assert result.stats.stalls == 0
    assert len(result.stats.latencies) >= 50
    assert max(result.stats.latencies) <= BOUND
    # Every spectator: its table's steps in order, up to the player's last, in time.
    assert len(soak.watches) == 10 and not soak.faults(), soak.faults()[:5]
    lags = soak.lags()
    assert lags and max(lags) <= BOUND
    missed, total = soak.skipped()  # they keep up, so they see every step, none merged
    assert total >= 10 and missed == 0, (missed, total)
    # The stuck sockets blocked before the run and were dropped by the send timeout.
    assert len(soak.stuck) == 2
    for sock in soak.stuck:
        assert sock.blocked is not None, "a stuck socket never filled"
        assert sock.dropped is not None, f"the server kept a stuck socket\n{log}"
        assert sock.dropped - sock.blocked <= SEND_TIMEOUT + 2 + 5
    # The flood: some tables, then 429 (the per-client table rate), never a failure.
    assert soak.flood[201] >= 1 and soak.flood[429] >= 1, soak.flood
    assert all(code in (201, 429) for code in soak.flood), soak.flood
