"""Open seats: a human seat free for anyone to claim from the lobby.

``seats.open`` is true while a seat created open waits for someone; such a seat has
no token hash (the column was already nullable, for bots). Claiming it sets the
hash and clears the flag in one conditional UPDATE, after which it is an ordinary
seat. Every existing seat was handed out at creation, so it gets ``false``: tables
in progress upgrade in place, nothing else changes.

Revision ID: 0002
Revises: 0001
Create Date: 2025-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("open")
