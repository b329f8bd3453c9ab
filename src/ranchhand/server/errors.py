"""What the server refuses, each with the HTTP status that says why (the domain raises
these; the routes turn them into ``{"error": ...}`` replies)."""

from __future__ import annotations


class TableError(Exception):
    """A request the server refuses; ``status`` is the HTTP code that says why."""

    status = 400

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class BadRequest(TableError):
    status = 400


class NeedsToken(TableError):
    status = 401


class WrongToken(TableError):
    status = 403


class NoSuchTable(TableError):
    status = 404


class Conflict(TableError):
    status = 409
