"""Browser-side defences: security headers on every response, ``Origin`` checks, JSON only.

A page of another site must not be able to act with a visitor's browser on a
table: it cannot read our responses (no CORS headers), but without these checks it
could still post a form or a ``text/plain`` fetch, open a WebSocket, or frame our
pages. So:

- every response carries a strict Content-Security-Policy (scripts, styles,
  connections only from this server; no inline script or style attribute; no
  framing), ``X-Frame-Options``, ``nosniff``, ``Referrer-Policy: no-referrer`` and
  the cross-origin isolation headers (:data:`HEADERS`);
- a WebSocket handshake or a state-changing request (POST, PUT, PATCH, DELETE)
  whose ``Origin`` header is not the server's own (or one allowed in the
  settings) gets 403; requests without ``Origin`` (scripts, curl) pass, as no
  browser sends such a request cross-origin without one;
- JSON endpoints refuse other content types with 415 (:func:`require_json`): a
  cross-origin ``text/plain`` POST needs no CORS preflight, a JSON one does.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ranchhand.core.errors import OptionError
from ranchhand.server.errors import TableError
from ranchhand.server.limits import QuietLog, client_key, refuse, refuse_handshake

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""Everything from this server only; ``connect-src 'self'`` covers same-origin
WebSockets (``ws:``/``wss:``) in current browsers."""
HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}
"""Added to every HTTP response (a route's own value of a header is kept)."""
_RAW_HEADERS = [(name.encode(), value.encode()) for name, value in HEADERS.items()]
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL, lower case, default port left out;
    None if ``url`` is not one (``null``, ``file://``, garbage)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    shown = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{shown}"


def allowed_origins(listed: Iterable[str], public_url: str | None) -> frozenset[str]:
    """The origins besides the server's own (its Host) that may act: ``listed`` and
    ``public_url``'s. OptionError names an entry that is not an origin."""
    found = set()
    for entry in listed:
        origin = origin_of(entry)
        if origin is None:
            raise OptionError(
                f"an allowed origin is scheme://host[:port] (http or https), got {entry!r}"
            )
        found.add(origin)
    if public_url:
        origin = origin_of(public_url)
        if origin is not None:
            found.add(origin)
    return frozenset(found)


def own_origin(scope: Scope) -> str | None:
    """The origin the request was addressed to: its scheme and ``Host`` header."""
    host = next((v for k, v in scope.get("headers", []) if k == b"host"), None)
    if host is None:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme"))
    return origin_of(f"{scheme}://{host.decode('latin-1')}")


class BrowserDefences:
    """ASGI middleware: :data:`HEADERS` on every HTTP response; 403 for a WebSocket
    handshake or state-changing request from another site's page."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str] = frozenset()) -> None:
        self.app, self.allowed = app, allowed
        self.quiet = QuietLog()

    def foreign(self, scope: Scope) -> str | None:
        """The request's ``Origin`` if it is one that may not act here, else None."""
        sent = next((v for k, v in scope.get("headers", []) if k == b"origin"), None)
        if sent is None:
            return None
        text = sent.decode("latin-1")
        origin = origin_of(text)
        if origin is not None and (origin in self.allowed or origin == own_origin(scope)):
            return None
        return text

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            origin = self.foreign(scope)
            if origin is not None:
                client, message = client_key(scope), "%s: WebSocket from origin %r refused"
                self.quiet.info(client, "origin", message, client, origin[:100])
                await refuse_handshake(scope, send, 403, _refusal(origin))
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in _RAW_HEADERS if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if scope.get("method") in CHANGING:
            origin = self.foreign(scope)
            if origin is not None:
                client, method = client_key(scope), scope["method"]
                message = "%s: %s from origin %r refused"
                self.quiet.info(client, "origin", message, client, method, origin[:100])
                await refuse(with_headers, 403, _refusal(origin), {})
                return
        await self.app(scope, receive, with_headers)


def _refusal(origin: str) -> str:
    return (
        f"requests from the page of another site ({origin[:100]}) are refused: "
        "only this server's own pages (and allowed origins) may act"
    )


class NotJSON(TableError):
    status = 415


def require_json(request: Request) -> None:
    """Refuse (415) a body whose Content-Type is not JSON (``application/json`` or
    ``application/*+json``, any charset)."""
    sent = request.headers.get("content-type", "")
    media = sent.split(";", 1)[0].strip().lower()
    if media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    ):
        return
    shown = f"Content-Type {sent[:60]!r}" if sent else "no Content-Type"
    raise NotJSON(f"this endpoint reads JSON: send Content-Type: application/json (got {shown})")
