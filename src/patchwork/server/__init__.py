"""The game server: ``patchwork serve``. FastAPI over uvicorn, games kept in a database.

One package per domain (docs/architecture.md, "The server"), in layers: ``common`` and
``storage`` at the bottom, then ``cluster``, ``accounts`` and ``aipool``, ``games``,
``ratings``, ``lobby`` and ``reviews``, and the HTTP and websocket layer ``http`` on top.
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
