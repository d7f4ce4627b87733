"""The game server: ``patchwork serve``. FastAPI over uvicorn, games kept in a database.

Layers: ``store`` (SQLAlchemy tables, repository, Alembic migrations) < ``live``/``views``
(games in memory, rendered from the engine) < ``service`` (every change: validate with the
engine, store, broadcast) < ``routes``/``ws`` (HTTP and websockets) < ``app`` (the factory).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common.config import Settings
from .run import main

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI application (imported on first use: ``main --help`` stays quick)."""
    from .http.app import create_app as factory

    return factory(settings)


__all__ = ["Settings", "create_app", "main"]
