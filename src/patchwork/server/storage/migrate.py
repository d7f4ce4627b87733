"""Bring the database schema up to date with Alembic, programmatically, at startup."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Any constant: PostgreSQL servers starting at once take turns migrating.
_PG_LOCK_KEY = 7_290_316_253


def alembic_config(url: str | None = None) -> Config:
    """Alembic's configuration for the server's migrations (``url``: for autogenerate)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # New revisions are v0002_<message>.py: module names that tools accept.
    cfg.set_main_option("file_template", "v%%(rev)s_%%(slug)s")
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Create or migrate the schema to ``revision`` in one transaction."""
    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK_KEY})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
