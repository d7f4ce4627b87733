"""Alembic environment: the server hands over an open connection (see ``migrate.upgrade``);
the ``alembic`` command line can be used too, with ``-x url=...`` or sqlalchemy.url set."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from patchwork.server.storage import tournament_tables  # noqa: F401 (its tables)
from patchwork.server.storage.models import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise RuntimeError("give a database URL: alembic -x url=sqlite:///patchwork.db ...")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


run_migrations()
