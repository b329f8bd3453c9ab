"""The ranchhand server: tables where friends and bots play over HTTP and WebSockets.

``run`` is what ``ranchhand serve`` calls: it checks the database URL, creates or
upgrades the schema once, then serves the app with uvicorn (in one process, or
in ``workers`` processes that share a PostgreSQL database).
"""

from __future__ import annotations

import copy
import logging
import logging.config
import math
import os
import re
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ranchhand.core.errors import OptionError, shorten

if TYPE_CHECKING:
    from ranchhand.server.supervise import StopSignals

__all__ = ["RedactTokens", "check_options", "check_public_url", "run"]

STARTUP_FAILURE = 3
"""uvicorn's exit status when the app or the socket failed at start."""

_TOKEN = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


class RedactTokens(logging.Filter):
    """Blank out ``token=...`` in log lines (uvicorn logs the query string of requests)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN.sub(r"\1***", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub(r"\1***", record.msg)
        return True


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, plus ranchhand's own logger, with tokens kept out of every line."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact": {"()": RedactTokens}}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    config["formatters"]["default"]["fmt"] = "%(asctime)s %(levelprefix)s %(message)s"
    config["formatters"]["access"]["fmt"] = (
        '%(asctime)s %(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'
    )
    config["loggers"]["ranchhand"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    config["loggers"]["uvicorn"]["level"] = level.upper()
    return config


LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
MAX_WORKERS = 64
MAX_BOT_DELAY = 60.0


def check_options(
    host: str,
    port: int,
    workers: int,
    bot_delay: float,
    log_level: str,
    public_url: str | None,
) -> None:
    """Refuse, with one line naming the flag and what is allowed, what ``serve`` cannot use."""
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise OptionError(f"--port must be 1 to 65535, got {port}")
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise OptionError(f"--workers must be a whole number, got {workers!r}")
    if not 1 <= workers <= MAX_WORKERS:
        raise OptionError(f"--workers must be 1 to {MAX_WORKERS}, got {workers}")
    if not math.isfinite(bot_delay) or not 0 <= bot_delay <= MAX_BOT_DELAY:
        raise OptionError(f"--bot-delay must be 0 to {MAX_BOT_DELAY:g} seconds, got {bot_delay}")
    if log_level not in LOG_LEVELS:
        raise OptionError(
            f"--log-level must be one of {', '.join(LOG_LEVELS)}, got {shorten(repr(log_level))}"
        )
    check_host(host, port)
    if public_url is not None:
        check_public_url(public_url)


def check_host(host: str, port: int) -> None:
    """``host`` names an address of this machine that ``port`` can be listened on."""
    if not host or not host.isascii() or not host.isprintable() or " " in host:
        raise OptionError(
            f"--host must be an address such as 127.0.0.1, 0.0.0.0 or ::, got {shorten(repr(host))}"
        )
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        why = error.strerror if isinstance(error, socket.gaierror) else "not a host name"
        raise OptionError(
            f"--host {shorten(repr(host))} is not an address here ({why}); "
            "e.g. 127.0.0.1, 0.0.0.0 or ::"
        ) from None
    family, kind, proto, _name, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as error:
            raise OptionError(
                f"cannot listen on {host} port {port}: {error.strerror or error} "
                "(another server there? choose another --port or --host)"
            ) from None


def check_public_url(url: str) -> str:
    """``url`` if it is an http(s) address with a host and nothing a link must not carry.

    It is the base of the links a new table hands out (each seat's token rides in
    its ``#fragment``), so it may have a path but no user, password, query or fragment,
    and only printable ASCII (internationalised host names in their ``xn--`` form).
    """
    problem = None
    if not url.isascii() or not url.isprintable() or " " in url:
        problem = "only printable ASCII without spaces is allowed"
    else:
        parts = urlsplit(url)
        try:
            parts.port  # noqa: B018 - raises ValueError for a port out of range
        except ValueError:
            problem = "its port is not 1 to 65535"
        if problem is not None:
            pass
        elif parts.scheme.lower() not in ("http", "https"):
            problem = "only http:// and https:// addresses are allowed"
        elif not parts.hostname:
            problem = "it names no host"
        elif parts.username is not None or parts.password is not None:
            problem = "a user or password in the address would be shown to everyone"
        elif parts.query or parts.fragment or url.endswith(("?", "#")):
            problem = "it may not have a ?query or #fragment (the links add their own)"
    if problem is not None:
        raise OptionError(
            f"--public-url {shorten(repr(url))}: {problem}; e.g. https://games.example.org"
        )
    return url


def _open_database(url: str) -> None:
    """Create or upgrade the schema; a database that cannot be opened is one line, not a
    traceback (a missing folder, no permission, nothing listening, a refused login)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from ranchhand.server.store import make_engine, migrate, safe_url

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).expanduser().absolute().parent
        if not folder.is_dir():
            raise OptionError(f"--db {safe_url(url)}: the folder {folder} does not exist")
    engine = make_engine(url)
    try:
        migrate(engine)
    except SQLAlchemyError as error:
        lines = str(getattr(error, "orig", None) or error).strip().splitlines()
        reason = shorten(lines[0], 200) if lines else type(error).__name__
        raise OptionError(f"--db {safe_url(url)}: cannot open the database: {reason}") from None
    finally:
        engine.dispose()


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    workers: int = 1,
    *,
    bot_delay: float = 0.0,
    log_level: str = "info",
    access_log: bool = True,
    proxy_headers: bool = False,
    forwarded_allow_ips: str | None = None,
    root_path: str = "",
    public_url: str | None = None,
    limits: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    prepare_bots: bool | None = None,
) -> None:
    """Serve tables until SIGINT or SIGTERM, then drain and return (the process exits 0).

    ``limits`` are ``NAME=VALUE`` items (``serve --limit``, :meth:`Settings.with_limits`);
    ``allowed_origins`` the other sites whose pages may act here (``--allowed-origin``);
    ``prepare_bots`` makes the tables bots read in a process apart while serving
    (:mod:`ranchhand.server.prepare`; None: unless ``$RANCHHAND_PREPARE_BOTS`` says no).

    Every flag is checked first (:func:`check_options`, the database opened and
    migrated): a bad one raises OptionError before anything listens. A stop signal
    before the server serves returns at once, without serving.
    """
    from ranchhand.server.supervise import Stopped, StopSignals

    with StopSignals() as stop:
        try:
            _serve(
                stop,
                host,
                port,
                db,
                workers,
                bot_delay=bot_delay,
                log_level=log_level,
                options={
                    "access_log": access_log,
                    "proxy_headers": proxy_headers,
                    "forwarded_allow_ips": forwarded_allow_ips,
                    "root_path": root_path,
                },
                public_url=public_url,
                limits=limits,
                allowed_origins=allowed_origins,
                prepare_bots=prepare_bots,
            )
        except Stopped as signal_name:
            logging.getLogger("ranchhand.server").info("%s before serving: stopped", signal_name)


def _serve(
    stop: StopSignals,
    host: str,
    port: int,
    db: str | None,
    workers: int,
    *,
    bot_delay: float,
    log_level: str,
    options: dict[str, Any],
    public_url: str | None,
    limits: Sequence[str],
    allowed_origins: Sequence[str],
    prepare_bots: bool | None,
) -> None:
    """:func:`run`'s work, with SIGINT and SIGTERM handled by ``stop``."""
    from ranchhand.server import prepare
    from ranchhand.server.app import Settings
    from ranchhand.server.limits import uvicorn_options
    from ranchhand.server.notify import is_postgres
    from ranchhand.server.security import allowed_origins as check_allowed_origins
    from ranchhand.server.store import DEFAULT_DB, check_url

    url = check_url(db or DEFAULT_DB)
    check_options(host, port, workers, bot_delay, log_level, public_url)
    if workers > 1 and not is_postgres(url):
        raise OptionError(
            "--workers above 1 needs PostgreSQL (--db postgresql+psycopg://...): with SQLite "
            "a move made in one process would not reach WebSockets held by another"
        )
    settings = Settings(
        db=url,
        bot_delay=bot_delay,
        public_url=public_url,
        migrate=False,
        allowed_origins=tuple(allowed_origins),
    ).with_limits(limits)
    check_allowed_origins(settings.allowed_origins, public_url)
    logging.config.dictConfig(log_config(log_level))
    _open_database(url)
    options = {
        "host": host,
        "port": port,
        "log_config": log_config(log_level),
        "log_level": log_level,
        **options,
        "ws_max_size": 64 * 1024,
        "timeout_graceful_shutdown": 10,
        "server_header": False,
        **uvicorn_options(settings.limits),  # head deadline (slowloris), connection cap
    }
    preparing = prepare.start() if prepare.wanted(prepare_bots) else None
    try:
        _listen(stop, settings, options, workers)
    finally:
        prepare.stop(preparing)


def _listen(stop: StopSignals, settings: Any, options: dict[str, Any], workers: int) -> None:
    """Serve with uvicorn: ``workers`` processes under its supervisor, or this one."""
    import uvicorn

    from ranchhand.server.app import SETTINGS_ENV, create_app, tune_garbage_collector

    if workers > 1:
        os.environ[SETTINGS_ENV] = settings.to_env()
        # uvicorn's supervisor: its signal handlers replace ours for good, and it returns
        # once every worker has drained. Each worker follows it (server/supervise.py) so
        # that none outlives it.
        uvicorn.run(
            "ranchhand.server.supervise:worker_app", factory=True, workers=workers, **options
        )
        return
    server = uvicorn.Server(uvicorn.Config(create_app(settings), **options))
    stop.server = server
    tune_garbage_collector()
    server.run()
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)
