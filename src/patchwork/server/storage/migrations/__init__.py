"""Alembic migrations of the server's schema (run by ``patchwork.server.migrate``)."""
