"""Accounts hardened: look-alike keys made anew, and the addresses each account signed in from.

A "w" is now spelt "vv" before the pairs are read, so that "xvw" and "xvvv" share a key
(accounts/names.py). Every account's key is computed again; an account whose new key an older
account already holds (a look-alike made before this fix) keeps its old key, and is logged.
``sign_in_addresses`` keeps the (hashed) addresses an account signed in from: the failures of
strangers never hold back a sign-in from one of them (accounts/limits.py).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("patchwork.server")

# The look-alike key as accounts/names.py makes it at this revision. A migration is a snapshot:
# it must make the keys of its own time even after the rule changes again (a later migration
# would then make them anew), and the storage layer never imports a domain.
_SINGLE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "-": "_", "w": "vv"})
_PAIRS = (("rn", "m"), ("vv", "w"))


def name_key(name: str) -> str:
    key = name.lower().translate(_SINGLE)
    for pair, letter in _PAIRS:
        key = key.replace(pair, letter)
    return key


users = sa.table(
    "users",
    sa.column("id", sa.String(24)),
    sa.column("name", sa.String(20)),
    sa.column("name_key", sa.String(20)),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    op.create_table(
        "sign_in_addresses",
        sa.Column("user_id", sa.String(24), nullable=False),
        sa.Column("address_hash", sa.String(64), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_sign_in_addresses_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "address_hash", name="pk_sign_in_addresses"),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(users.c.id, users.c.name, users.c.name_key).order_by(
            users.c.created_at, users.c.id
        )
    ).all()
    held = {key for _, _, key in rows}
    for user_id, name, old in rows:
        new = name_key(name)
        if new == old:
            continue
        if new in held:
            log.warning(
                "account %s (%s) keeps its key %r: an older account has %r", user_id, name, old, new
            )
            continue
        conn.execute(sa.update(users).where(users.c.id == user_id).values(name_key=new))
        held.discard(old)
        held.add(new)


def downgrade() -> None:
    """The old keys are not kept: the new ones stay (they are as unique)."""
    op.drop_table("sign_in_addresses")
