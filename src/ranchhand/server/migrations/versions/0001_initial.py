"""The first schema: tables, seats and the append-only moves log.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("to_act", sa.JSON, nullable=False),
        sa.Column("outcome", sa.JSON, nullable=True),
        sa.Column("bot_delay", sa.Double, nullable=False),
        sa.Column("clock", sa.Double, nullable=True),
        sa.Column("clock_bot", sa.String(64), nullable=False),
        sa.Column("created", sa.Double, nullable=False),
        sa.Column("updated", sa.Double, nullable=False),
    )
    op.create_index("ix_tables_status_updated", "tables", ["status", "updated"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("step", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("created", sa.Double, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_index("ix_tables_status_updated", table_name="tables")
    op.drop_table("tables")
