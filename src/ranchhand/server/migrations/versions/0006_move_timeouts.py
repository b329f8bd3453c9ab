"""Turn clocks (issue 19): which moves the clock's bot made for a seat that ran out of time.

- ``moves.timeout``: the name of the clock's bot (``greedy``, ...) that made this move
  because its seat had not moved within the table's clock; null for every other move
  (a person's, a bot seat's, chance, an undo). The log says so in words to every viewer
  ("Ann ran out of time: greedy played for them: ..."), and every server process, and a
  restarted one, rebuilds the same log from the stored moves.

Every table in progress goes on unchanged: no earlier move is marked.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN of a nullable column (SQLite does it in place, no rebuild).
    op.add_column("moves", sa.Column("timeout", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("timeout")
