"""The repository: every read and write of the database, run off the event loop.

Writes come as a list of operations applied in one transaction, so a move, the game row's
new version and the event that announces it are stored together or not at all. The game
row's update is guarded by its version (optimistic locking): a stale writer changes nothing.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url

from .models import EventData, GameData, MoveData, events, games, moves

T = TypeVar("T")


class StaleWrite(Exception):
    """The game row's version was not the one expected: someone else wrote first."""


@dataclass(frozen=True)
class InsertGame:
    game: GameData


@dataclass(frozen=True)
class UpdateGame:
    game_id: str
    expected_version: int
    fields: dict[str, Any]


@dataclass(frozen=True)
class AddMoves:
    rows: Sequence[MoveData]


@dataclass(frozen=True)
class DeleteMoves:
    game_id: str
    from_ply: int


@dataclass(frozen=True)
class AddEvent:
    event: EventData


Write = InsertGame | UpdateGame | AddMoves | DeleteMoves | AddEvent


def make_engine(url: str) -> Engine:
    """An engine for any SQLAlchemy URL; SQLite gets WAL mode and a busy timeout."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, pool_size=8, max_overflow=4)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # WAL: a commit is in the file (the OS has it) before it returns, so a killed
        # process loses nothing; NORMAL skips the fsync that only power loss needs.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


class Store:
    """The database behind the server. Blocking methods run on a small thread pool."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        # SQLite has one writer at a time: one thread serialises every access cleanly.
        threads = 1 if self.engine.dialect.name == "sqlite" else 4
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="patchwork-db")

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args))

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.engine.dispose()

    # -- schema ---------------------------------------------------------------------------

    def migrate(self) -> None:
        from .migrate import upgrade

        upgrade(self.engine)

    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    # -- writing --------------------------------------------------------------------------

    def write(self, writes: Sequence[Write]) -> None:
        """Apply the operations in one transaction (all or nothing)."""
        with self.engine.begin() as conn:
            for w in writes:
                self._write_one(conn, w)

    @staticmethod
    def _write_one(conn: Connection, w: Write) -> None:
        if isinstance(w, InsertGame):
            conn.execute(insert(games).values(**w.game.to_row()))
        elif isinstance(w, UpdateGame):
            result = conn.execute(
                update(games)
                .where(games.c.id == w.game_id, games.c.version == w.expected_version)
                .values(**w.fields)
            )
            if result.rowcount != 1:
                raise StaleWrite(f"game {w.game_id} is not at version {w.expected_version}")
        elif isinstance(w, AddMoves):
            if w.rows:
                conn.execute(
                    insert(moves),
                    [
                        {
                            "game_id": m.game_id,
                            "ply": m.ply,
                            "seat": m.seat,
                            "move": m.move,
                            "played_at": m.played_at,
                            "remaining": m.remaining,
                        }
                        for m in w.rows
                    ],
                )
        elif isinstance(w, DeleteMoves):
            conn.execute(
                delete(moves).where(moves.c.game_id == w.game_id, moves.c.ply >= w.from_ply)
            )
        else:
            e = w.event
            conn.execute(
                insert(events).values(
                    game_id=e.game_id,
                    version=e.version,
                    kind=e.kind,
                    data=e.data,
                    created_at=e.created_at,
                )
            )

    # -- reading --------------------------------------------------------------------------

    def load(self, game_id: str) -> tuple[GameData, list[MoveData]] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            rows = conn.execute(
                select(moves).where(moves.c.game_id == game_id).order_by(moves.c.ply)
            ).mappings()
            line = [MoveData(**dict(r)) for r in rows]
        return GameData.from_row(row), line

    def unfinished(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id).where(games.c.status != "finished"))
            return [r[0] for r in rows]

    def events_since(self, game_id: str, version: int, limit: int) -> list[EventData]:
        """The events after ``version`` (at most ``limit``), oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events)
                .where(events.c.game_id == game_id, events.c.version > version)
                .order_by(events.c.version)
                .limit(limit)
            ).mappings()
            return [
                EventData(
                    game_id=r["game_id"],
                    version=r["version"],
                    kind=r["kind"],
                    data=r["data"],
                    created_at=r["created_at"],
                )
                for r in rows
            ]

    def recent(self, status: str | None, limit: int) -> list[GameData]:
        with self.engine.connect() as conn:
            q = select(games).order_by(games.c.updated_at.desc()).limit(limit)
            if status is not None:
                q = q.where(games.c.status == status)
            return [GameData.from_row(r) for r in conn.execute(q).mappings()]
