"""Browser-side defences: security headers on every response, Origin checks on
state-changing requests and WebSocket handshakes, JSON-only bodies, no CDN docs."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse

from ranchhand.core.errors import OptionError
from ranchhand.server.security import CSP, HEADERS, allowed_origins, origin_of
from tests.server.conftest import client_for
from tests.server.helpers import auth, create, tokens_of

EVIL = {"Origin": "http://evil.example"}


@pytest.mark.parametrize(
    "path", ["/", "/replay", "/tables/abc", "/rules/rancho", "/static/common.js", "/api/health"]
)
def test_every_response_carries_the_headers(sqlite_client: Any, path: str) -> None:
    reply = sqlite_client.get(path)
    assert reply.status_code == 200
    for name, value in HEADERS.items():
        assert reply.headers.get_list(name) == [value], name
    for directive in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'"):
        assert directive in CSP


def test_refusals_carry_them_too(sqlite_client: Any) -> None:
    for reply in (
        sqlite_client.get("/no/such/page"),
        sqlite_client.post("/api/tables", json={"game": "rancho"}, headers=EVIL),
        sqlite_client.post("/api/tables", content=b"{}", headers={"Content-Type": "text/plain"}),
    ):
        assert reply.headers["X-Frame-Options"] == "DENY"
        assert reply.headers["Content-Security-Policy"] == CSP


def test_docs_from_a_cdn_are_off_but_the_schema_stays(sqlite_client: Any) -> None:
    assert sqlite_client.get("/docs").status_code == 404
    assert sqlite_client.get("/redoc").status_code == 404
    assert "/api/tables" in sqlite_client.get("/openapi.json").json()["paths"]


def test_a_cross_origin_text_plain_post_is_refused(sqlite_client: Any) -> None:
    body = b'{"game": "rancho"}'
    reply = sqlite_client.post(
        "/api/tables", content=body, headers={**EVIL, "Content-Type": "text/plain"}
    )
    assert reply.status_code == 403 and "evil.example" in reply.json()["error"]
    plain = sqlite_client.post("/api/tables", content=body, headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415 and "application/json" in plain.json()["error"]
    form = sqlite_client.post("/api/tables", data={"game": "rancho"})
    assert form.status_code == 415
    for media in ("application/json", "application/json; charset=utf-8", "application/x+json"):
        made = sqlite_client.post("/api/tables", content=body, headers={"Content-Type": media})
        assert made.status_code == 201, made.text


def test_origins_are_checked_on_every_state_changing_request(sqlite_client: Any) -> None:
    client = sqlite_client
    table = create(client, "rancho", ["human", "human"], players=2, open=[1])
    base = f"/api/tables/{table['id']}"
    token = auth(tokens_of(table)[0])
    move = {"action": "roll", "step": 0}
    refused = [
        client.post(f"{base}/actions", json=move, headers={**token, **EVIL}),
        client.put(f"{base}/seats/0", json={"kind": "greedy"}, headers={**token, **EVIL}),
        client.post(f"{base}/seats/1/claim", headers=EVIL),
        client.post(f"{base}/again", headers={**token, **EVIL}),
        client.post("/api/replays", json={"record": {}}, headers={"Origin": "null"}),
    ]
    assert [r.status_code for r in refused] == [403] * 5
    assert client.get(base, headers=EVIL).status_code == 200  # reading is not acting
    own = {"Origin": "http://testserver"}  # the Host TestClient sends
    assert client.post(f"{base}/actions", json=move, headers={**token, **own}).status_code == 200
    assert client.post(f"{base}/seats/1/claim", headers=own).status_code == 200


def test_a_websocket_from_another_origin_is_refused(sqlite_client: Any) -> None:
    table = create(sqlite_client, "rancho", ["human", "human"], players=2)
    url = f"/ws/tables/{table['id']}"
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        sqlite_client.websocket_connect(url, headers=EVIL),
    ):
        pass
    assert denied.value.status_code == 403
    with sqlite_client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["id"] == table["id"]
    with sqlite_client.websocket_connect(url) as ws:  # no Origin: a script
        assert ws.receive_json()["id"] == table["id"]


def test_allowed_origins_and_the_public_url_may_act(sqlite_url: str) -> None:
    settings = {"allowed_origins": ("https://friends.example:8443",)}
    with client_for(sqlite_url, public_url="https://games.example/x", **settings) as client:
        for origin in (
            "https://friends.example:8443",
            "https://games.example",
            "HTTPS://Games.Example:443",
        ):
            made = client.post("/api/tables", json={"game": "rancho"}, headers={"Origin": origin})
            assert made.status_code == 201, (origin, made.text)
        other = client.post(
            "/api/tables", json={"game": "rancho"}, headers={"Origin": "https://friends.example"}
        )
        assert other.status_code == 403


def test_origins_are_normalised_and_bad_settings_refused() -> None:
    assert origin_of("HTTP://Example.ORG:80/path") == "http://example.org"
    assert origin_of("https://[::1]:8443") == "https://[::1]:8443"
    assert origin_of("null") is None and origin_of("file:///x") is None
    assert origin_of("http://x:99999") is None
    assert allowed_origins([], "https://a.example/games") == {"https://a.example"}
    with pytest.raises(OptionError, match="scheme://host"):
        allowed_origins(["evil.example"], None)
    with pytest.raises(OptionError):  # the app refuses the setting at creation too
        client_for("sqlite://", allowed_origins=("javascript:alert(1)",))
