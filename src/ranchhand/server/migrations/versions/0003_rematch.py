"""Rematches: "play again" links kept in the database, not in one process's memory.

``tables.next_table`` names the table made by "play again" from a finished one (set
once, by a conditional UPDATE, so two players asking together make one table);
``tables.rematch_of`` names the finished table a rematch came from. A rematch's seats
that belonged to people wait for their owners: such a seat has no token hash until
the holder of the old seat's token asks, and its token is derived from that old
token, so only its owner can ever learn it (see ``ranchhand.server.rematch``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("next_table", sa.String(32), nullable=True))
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rematch_of")
        batch.drop_column("next_table")
