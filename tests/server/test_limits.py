"""Per-client rate limits: token buckets, 429 with Retry-After naming the limit, bounded
memory, and the settings' text forms (``serve --limit NAME=VALUE``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse

from ranchhand.core.errors import OptionError
from ranchhand.server.app import Settings, create_app
from ranchhand.server.limits import Limiter, LimitSettings, Rate, client_key, kind_of
from tests.server.helpers import auth, create, tokens_of


def test_rates_read_from_text() -> None:
    assert Rate.parse("10/min") == Rate(10, 60, 10)
    assert Rate.parse("20/s:60") == Rate(20, 1, 60)
    assert Rate.parse("0.5/s") == Rate(0.5, 1, 1)
    assert Rate.parse("off") is None
    assert str(Rate(10, 60, 5)) == "10/min:5"
    for bad in ("10", "ten/min", "10/fortnight", "0/s", "10/s:0", "1e9/s", "٣/s", "nan/s"):
        with pytest.raises(OptionError):
            Rate.parse(bad)


def test_settings_take_overrides_and_refuse_bad_ones() -> None:
    limits = LimitSettings().with_overrides(["tables=5/min", "actions=off", "body-timeout=20"])
    assert limits.tables == Rate(5, 60, 5) and limits.actions is None
    assert limits.body_timeout == 20
    for bad in ("nosuch=1", "body_timeout=nan", "body_timeout=0", "clients=٣٠٠", "clients=1.5"):
        with pytest.raises(OptionError):
            LimitSettings().with_overrides([bad])
    assert LimitSettings.from_json(limits.to_json()) == limits
    settings = Settings(db="sqlite://", limits=limits, allowed_origins=("https://a.example",))
    assert json.loads(settings.to_env())["limits"]["tables"] == "5/min:5"


def test_a_bucket_refills_at_its_rate_and_says_how_long_to_wait() -> None:
    limiter = Limiter(LimitSettings(tables=Rate(6, 60, 3)))
    assert [limiter.allow("a", "tables", now=0.0) for _ in range(3)] == [None] * 3
    wait = limiter.allow("a", "tables", now=0.0)
    assert wait == pytest.approx(10.0)  # one token every 10 s
    assert limiter.allow("b", "tables", now=0.0) is None  # another client has its own
    assert limiter.allow("a", "tables", now=10.0) is None
    assert limiter.allow("a", "tables", now=10.0) is not None
    assert limiter.allow("a", "actions", now=10.0) is None  # another limit, its own bucket


def test_memory_is_bounded_by_the_clients_remembered() -> None:
    limiter = Limiter(LimitSettings(clients=100))
    for i in range(1000):
        limiter.allow(f"10.0.{i // 250}.{i % 250}", "requests", now=0.0)
    assert limiter.tracked == 100


def test_clients_are_addresses_and_ipv6_networks() -> None:
    assert client_key({"client": ("192.0.2.1", 5)}) == "192.0.2.1"
    one = client_key({"client": ("2001:db8::1", 5)})
    assert one == client_key({"client": ("2001:db8::ffff:1", 6)}) == "2001:db8::/64"
    assert client_key({"client": None}) == "local"


def test_requests_are_sorted_into_their_limits() -> None:
    assert kind_of("POST", "/api/tables") == "tables"
    assert kind_of("POST", "/api/tables/abc/again") == "tables"
    assert kind_of("POST", "/api/tables/abc/actions") == "actions"
    assert kind_of("PUT", "/api/tables/abc/seats/1") == "actions"
    assert kind_of("POST", "/api/tables/abc/seats/1/claim") == "actions"
    assert kind_of("POST", "/api/replays") == "replays"
    assert kind_of("GET", "/api/tables") is None


def client_with(url: str, **limits: Any) -> TestClient:
    return TestClient(create_app(Settings(db=url, limits=LimitSettings(**limits))))


def test_table_creations_past_the_limit_get_429_naming_it(sqlite_url: str) -> None:
    with client_with(sqlite_url, tables=Rate(3, 60, 3)) as client:
        for _ in range(3):
            create(client, "rocket-ranchers", ["human", "greedy"], players=2)
        refused = client.post("/api/tables", json={"game": "rancho"})
        assert refused.status_code == 429
        assert 15 <= int(refused.headers["Retry-After"]) <= 20  # a token every 20 s
        message = refused.json()["error"]
        assert "too many new tables" in message and "3 per minute" in message
        assert client.get("/api/tables").status_code == 200  # other requests go on
        other = TestClient(client.app, client=("192.0.2.9", 1))
        assert other.post("/api/tables", json={"game": "rancho"}).status_code == 201


def test_actions_past_the_limit_get_429(sqlite_url: str) -> None:
    with client_with(sqlite_url, actions=Rate(2, 1, 4)) as client:
        table = create(client, "rancho", ["human", "human"], players=2)
        url = f"/api/tables/{table['id']}/actions"
        token = tokens_of(table)[1]  # not this seat's turn: 409, but counted
        statuses = [
            client.post(url, json={"action": "roll"}, headers=auth(token)).status_code
            for _ in range(6)
        ]
        assert statuses[:4] == [409] * 4 and statuses[4:] == [429, 429]
        claim = client.post(f"/api/tables/{table['id']}/seats/1/claim")
        assert claim.status_code == 429 and "actions" in claim.json()["error"]


def test_every_request_counts_and_a_websocket_handshake_past_it_is_refused(
    sqlite_url: str,
) -> None:
    with client_with(sqlite_url, requests=Rate(5, 60, 5)) as client:
        table = create(client, "rancho", ["human", "human"], players=2)
        for _ in range(4):
            assert client.get("/api/health").status_code == 200
        assert client.get("/api/health").status_code == 429
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect(f"/ws/tables/{table['id']}"),
        ):
            pass
        assert denied.value.status_code == 429
        assert "too many requests" in denied.value.json()["error"]


def test_limits_off_let_everything_through(sqlite_url: str) -> None:
    with client_with(sqlite_url, requests=None, tables=None) as client:
        for _ in range(15):  # past the default 10 a minute (under the open tables' cap)
            assert client.post("/api/tables", json={"game": "rancho"}).status_code == 201


def test_a_flood_of_refusals_is_one_log_line_a_minute(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with client_with(sqlite_url, tables=Rate(1, 60, 1)) as client:
        caplog.set_level("INFO", logger="ranchhand.server")
        statuses = [
            client.post("/api/tables", json={"game": "rancho"}).status_code for _ in range(50)
        ]
        assert statuses.count(429) == 49
    refusals = [r for r in caplog.records if "too many new tables" in r.getMessage()]
    assert len(refusals) == 1
