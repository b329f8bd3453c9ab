"""Chat and presence (issue 19): a table's chat lines, who is connected, and the chat's
options.

- ``chat``: one row per line, keyed by (table, seq); ``seat`` is null for a spectator
  or the server's own line (``system``: a seat handed to a bot); the text as stored is
  already cleaned (no control characters) and bounded.
- ``presence``: one row per WebSocket holding a seat's token, written by the process
  that holds it: ``state`` (online, away, offline once it closed), ``since`` (when that
  state began) and ``seen`` (the process's last heartbeat, or when it closed). A row not
  seen for a few heartbeats belongs to a process that died: it counts as offline since
  then. Several processes on PostgreSQL thus agree on who is there.
- ``tables.chat_spectators``: spectators may write (else they only read);
  ``tables.chat_record``: the chat is part of the finished table's record.

Every table in progress goes on unchanged: no chat, nobody present, both options off.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, as in 0004: batch mode would rebuild ``tables``.
    op.add_column(
        "tables",
        sa.Column("chat_spectators", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "tables", sa.Column("chat_record", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("system", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created", sa.Double, nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("conn", sa.String(32), primary_key=True),
        sa.Column("process", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("since", sa.Double, nullable=False),
        sa.Column("seen", sa.Double, nullable=False),
    )
    op.create_index("ix_presence_table", "presence", ["table_id", "seat"])
    op.create_index("ix_presence_process", "presence", ["process", "state"])


def downgrade() -> None:
    op.drop_index("ix_presence_process", table_name="presence")
    op.drop_index("ix_presence_table", table_name="presence")
    op.drop_table("presence")
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("chat_record")
        batch.drop_column("chat_spectators")
