"""Bounded costs: who created a table, its bots' CPU, the lease on its next search, and
the secret that keys client hashes.

- ``tables.creator``: a keyed hash of the address that created the table (never the
  address itself), to count a client's open tables; null for tables made before;
- ``tables.bot_cpu``: CPU seconds the table's search bots have used, for its cap;
- ``tables.bot_lease_step`` / ``bot_lease_until``: which step's search decision a
  server process is computing, and until when, so that with several processes only one
  computes it (another takes over once the lease runs out);
- ``server_keys``: named server secrets; ``client`` keys the client hashes. It is made
  here, at random, so every process serving the database hashes alike, across restarts.

Every table in progress goes on unchanged: no creator, no CPU used, no lease.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite does it in place): rebuilding ``tables``, as batch mode
    # would for the index, is refused while seats and moves refer to it.
    op.add_column("tables", sa.Column("creator", sa.String(64), nullable=True))
    op.add_column(
        "tables", sa.Column("bot_cpu", sa.Double, nullable=False, server_default=sa.text("0"))
    )
    op.add_column("tables", sa.Column("bot_lease_step", sa.Integer, nullable=True))
    op.add_column("tables", sa.Column("bot_lease_until", sa.Double, nullable=True))
    op.create_index("ix_tables_creator_status", "tables", ["creator", "status"])
    keys = op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.bulk_insert(keys, [{"name": "client", "value": secrets.token_hex(32)}])


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_index("ix_tables_creator_status", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bot_lease_until")
        batch.drop_column("bot_lease_step")
        batch.drop_column("bot_cpu")
        batch.drop_column("creator")
