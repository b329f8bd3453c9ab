"""The ranchhand server: tables where friends and bots play over HTTP and WebSockets.

``run`` is what ``ranchhand serve`` calls: it checks the database URL, creates or
upgrades the schema once, then serves the app with uvicorn (in one process, or
in ``workers`` processes that share a PostgreSQL database).
"""

from __future__ import annotations

import copy
import logging
import logging.config
import os
import re
from typing import Any

from ranchhand.core.errors import OptionError

__all__ = ["RedactTokens", "run"]

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
) -> None:
    """Serve tables until SIGINT or SIGTERM (then close sockets and stop cleanly)."""
    import uvicorn

    from ranchhand.server.app import SETTINGS_ENV, Settings, create_app
    from ranchhand.server.limits import uvicorn_options
    from ranchhand.server.notify import is_postgres
    from ranchhand.server.store import DEFAULT_DB, check_url, make_engine, migrate

    url = check_url(db or DEFAULT_DB)
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, got {workers}")
    if workers > 1 and not is_postgres(url):
        raise OptionError(
            "--workers above 1 needs PostgreSQL (--db postgresql+psycopg://...): with SQLite "
            "a move made in one process would not reach WebSockets held by another"
        )
    if bot_delay < 0 or bot_delay > 60:
        raise OptionError(f"--bot-delay must be 0 to 60 seconds, got {bot_delay}")
    logging.config.dictConfig(log_config(log_level))
    engine = make_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()
    settings = Settings(db=url, bot_delay=bot_delay, public_url=public_url, migrate=False)
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_config": log_config(log_level),
        "log_level": log_level,
        "access_log": access_log,
        "proxy_headers": proxy_headers,
        "forwarded_allow_ips": forwarded_allow_ips,
        "root_path": root_path,
        "ws_max_size": 64 * 1024,
        "timeout_graceful_shutdown": 10,
        "server_header": False,
        **uvicorn_options(settings.limits),  # head deadline (slowloris), connection cap
    }
    if workers > 1:
        os.environ[SETTINGS_ENV] = settings.to_env()
        uvicorn.run("ranchhand.server.app:app_from_env", factory=True, workers=workers, **options)
    else:
        uvicorn.run(create_app(settings), **options)
