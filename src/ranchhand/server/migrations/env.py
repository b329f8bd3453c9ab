"""Alembic's environment: migrations run on the connection ``store.migrate`` hands over."""

from __future__ import annotations

from alembic import context

from ranchhand.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through ranchhand.server.store.migrate (or ranchhand serve)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
