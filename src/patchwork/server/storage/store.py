"""The repository: every read and write of the database, run off the event loop.

Writes come as a list of operations applied in one transaction, so a move, the game row's
new version and the event that announces it are stored together or not at all. The game
row's update is guarded by its version (optimistic locking): a stale writer changes nothing.
Lists submitted while the database thread is busy are committed together (group commit): one
transaction, one trip to the thread, for every game that moved meanwhile; should that
transaction fail, each list is tried again alone, so one refused write never sinks another.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url

from .models import (
    EventData,
    GameData,
    MoveData,
    ReviewData,
    challenges,
    events,
    games,
    moves,
    reviews,
    seeks,
)

T = TypeVar("T")
log = logging.getLogger("patchwork.server")
CHECKPOINT_SECONDS = 0.5  # how often SQLite's write-ahead log is copied into the database


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


@dataclass(frozen=True)
class AddReview:
    review: ReviewData


@dataclass(frozen=True)
class ClaimSeek:
    """Take an open lobby seek for the game ``game_id`` (lobby/service.py): only a seek still open
    and alive (else StaleWrite), so that of two acceptors one wins. It stays until
    ``keep_until`` to tell its creator which game it became."""

    seek_id: str
    game_id: str
    now: dt.datetime
    keep_until: dt.datetime


@dataclass(frozen=True)
class ClaimChallenge:
    """Accept an open challenge to a named player with the game ``game_id``
    (challenges/service.py): only one still open and not lapsed (else StaleWrite), so that a
    challenge accepted twice, on any processes, makes one game."""

    challenge_id: str
    game_id: str
    now: dt.datetime


@dataclass(frozen=True)
class Execute:
    """Rows of a domain above games written in the same transaction as a game's change (a
    notification of a move: games/changes.py ``Changes.hooks``): ``run(conn)`` executes its
    statements. It may run more than once (a group commit that failed is retried list by
    list: see above); whatever it remembers of a run must be replaced by the next."""

    run: Callable[[Connection], None]


Write = (
    InsertGame
    | UpdateGame
    | AddMoves
    | DeleteMoves
    | AddEvent
    | AddReview
    | ClaimSeek
    | ClaimChallenge
    | Execute
)

# Statements built once: the columns to set come with the parameters of each execution, so
# SQLAlchemy compiles each shape once and a write builds no statement (a move's writes cost
# about a third of what building them anew did).
_UPDATE_GAME = update(games).where(
    games.c.id == bindparam("where_id"), games.c.version == bindparam("where_version")
)
_INSERT_GAME = insert(games)
_INSERT_MOVES = insert(moves)
_INSERT_EVENT = insert(events)
_INSERT_REVIEW = insert(reviews)


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


def reading_engine(url: str) -> Engine:
    """An engine that only reads an existing database (``patchwork puzzles generate
    --from-db``): SQLite's file opened read-only, so that a wrong path is an error rather than
    a new empty database; PostgreSQL's transactions read-only."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, execution_options={"postgresql_readonly": True})
    if not parsed.database or parsed.database == ":memory:":
        raise ValueError("an SQLite database to read is a file: sqlite:///path/games.db")
    path = Path(parsed.database).expanduser().resolve()
    return create_engine(parsed.set(database=path.as_uri(), query={"mode": "ro", "uri": "true"}))


class Checkpointer:
    """Copies a SQLite database's write-ahead log into the database every ``interval``
    seconds, on a thread of its own, without blocking writers or readers (``PASSIVE``).

    The writer still checkpoints every 1,000 pages (which also starts the log afresh), but
    finds little left to copy and sync: done by the writer alone, checkpoints held up every
    game's moves for up to half a second."""

    def __init__(self, engine: Engine, interval: float = CHECKPOINT_SECONDS) -> None:
        self.engine = engine
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="patchwork-db-checkpoint")
        self._thread.daemon = True
        self._thread.start()

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        with self.engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.checkpoint()
            except Exception:  # the next round tries again; writes go on meanwhile
                log.exception("checkpointing the SQLite log failed")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        with contextlib.suppress(Exception):
            self.checkpoint("TRUNCATE")  # leave the database whole and the log empty


class Store:
    """The database behind the server. Blocking methods run on a small thread pool. With
    ``read_only`` it only reads (``reading_engine``): a tool's look at a server's games."""

    def __init__(self, url: str, read_only: bool = False) -> None:
        self.url = url
        self.engine = reading_engine(url) if read_only else make_engine(url)
        sqlite = self.engine.dialect.name == "sqlite"
        # SQLite has one writer at a time: one thread serialises every access cleanly.
        self._executor = ThreadPoolExecutor(1 if sqlite else 4, thread_name_prefix="patchwork-db")
        database = self.engine.url.database
        self._checkpointer = (
            Checkpointer(self.engine)
            if sqlite and not read_only and database and database != ":memory:"
            else None
        )
        self._queued: list[tuple[Sequence[Write], asyncio.Future[None]]] = []
        self._flushing = False
        self._flusher: asyncio.Task[None] | None = None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args))

    async def commit(self, writes: Sequence[Write]) -> None:
        """:meth:`write` ``writes`` in one transaction, off the event loop, together with the
        lists other callers submit meanwhile (see the module's docstring)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queued.append((writes, done))
        if not self._flushing:
            self._flushing = True
            self._flusher = loop.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                try:
                    errors = await self.call(self._write_batch, [w for w, _ in batch])
                except BaseException as e:  # the thread pool itself is gone
                    errors = [e] * len(batch)
                for (_, done), error in zip(batch, errors, strict=True):
                    if done.done():  # the caller was cancelled
                        continue
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        finally:
            self._flushing = False

    def _write_batch(self, batch: list[Sequence[Write]]) -> list[BaseException | None]:
        """Every list in one transaction; if that fails, each in its own (its error, or None)."""
        if len(batch) > 1:
            try:
                with self.engine.begin() as conn:
                    for writes in batch:
                        for w in writes:
                            self._write_one(conn, w)
                return [None] * len(batch)
            except Exception:
                pass  # rolled back: find out which list it was, one at a time
        errors: list[BaseException | None] = []
        for writes in batch:
            try:
                self.write(writes)
                errors.append(None)
            except Exception as e:
                errors.append(e)
        return errors

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        if self._checkpointer is not None:
            self._checkpointer.stop()
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
            conn.execute(_INSERT_GAME, w.game.to_row())
        elif isinstance(w, UpdateGame):
            result = conn.execute(
                _UPDATE_GAME,
                {**w.fields, "where_id": w.game_id, "where_version": w.expected_version},
            )
            if result.rowcount != 1:
                raise StaleWrite(f"game {w.game_id} is not at version {w.expected_version}")
        elif isinstance(w, AddMoves):
            if w.rows:
                conn.execute(
                    _INSERT_MOVES,
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
        elif isinstance(w, AddReview):
            conn.execute(_INSERT_REVIEW, w.review.to_row())
        elif isinstance(w, ClaimSeek):
            taken = conn.execute(
                update(seeks)
                .where(
                    seeks.c.id == w.seek_id,
                    seeks.c.game_id.is_(None),
                    seeks.c.expires_at > w.now,
                )
                .values(game_id=w.game_id, expires_at=w.keep_until)
            )
            if taken.rowcount != 1:
                raise StaleWrite(f"seek {w.seek_id} is gone or taken")
        elif isinstance(w, Execute):
            w.run(conn)
        elif isinstance(w, ClaimChallenge):
            taken = conn.execute(
                update(challenges)
                .where(
                    challenges.c.id == w.challenge_id,
                    challenges.c.status == "open",
                    challenges.c.expires_at > w.now,
                )
                .values(status="accepted", game_id=w.game_id, answered_at=w.now)
            )
            if taken.rowcount != 1:
                raise StaleWrite(f"challenge {w.challenge_id} is no longer open")
        else:
            e = w.event
            conn.execute(
                _INSERT_EVENT,
                {
                    "game_id": e.game_id,
                    "version": e.version,
                    "kind": e.kind,
                    "data": e.data,
                    "created_at": e.created_at,
                },
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

    def version_of(self, game_id: str) -> int | None:
        """The game's stored version (None: there is no such game)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.version).where(games.c.id == game_id)).first()
        return None if row is None else int(row[0])

    def catch_up(
        self, game_id: str, since: int, after_ply: int, limit: int
    ) -> tuple[GameData, list[MoveData], list[EventData]] | None:
        """What a process whose copy is at version ``since`` with ``after_ply`` moves lacks:
        the row, the moves after that ply, the events after that version (at most
        ``limit``), all read from one snapshot (PostgreSQL: repeatable read)."""
        options = (
            {"isolation_level": "REPEATABLE READ"}
            if self.engine.dialect.name == "postgresql"
            else {}
        )
        with self.engine.connect().execution_options(**options) as conn, conn.begin():
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            rows = conn.execute(
                select(moves)
                .where(moves.c.game_id == game_id, moves.c.ply > after_ply)
                .order_by(moves.c.ply)
            ).mappings()
            line = [MoveData(**dict(r)) for r in rows]
            missed = _events_after(conn, game_id, since, limit)
        return GameData.from_row(row), line, missed

    def load_review(self, game_id: str) -> ReviewData | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(reviews).where(reviews.c.game_id == game_id)).mappings()
            first = row.first()
        return None if first is None else ReviewData.from_row(first)

    def finished(self) -> list[str]:
        """The finished games, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id)
                .where(games.c.status == "finished")
                .order_by(games.c.created_at, games.c.id)
            )
            return [r[0] for r in rows]

    def unfinished(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id).where(games.c.status != "finished"))
            return [r[0] for r in rows]

    def events_since(self, game_id: str, version: int, limit: int) -> list[EventData]:
        """The events after ``version`` (at most ``limit``), oldest first."""
        with self.engine.connect() as conn:
            return _events_after(conn, game_id, version, limit)

    def waiting_since(self, before: dt.datetime) -> list[str]:
        """The games still waiting for a second player, unchanged since ``before``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id).where(games.c.status == "waiting", games.c.updated_at < before)
            )
            return [r[0] for r in rows]

    def delete_waiting(self, game_id: str) -> bool:
        """Delete a game (its events with it) if it is still waiting; whether it was."""
        with self.engine.begin() as conn:
            waiting = conn.execute(
                select(games.c.id)
                .where(games.c.id == game_id, games.c.status == "waiting")
                .with_for_update()
            ).first()
            if waiting is None:
                return False
            conn.execute(delete(events).where(events.c.game_id == game_id))
            conn.execute(delete(games).where(games.c.id == game_id))
            return True

    def recent(self, status: str | None, limit: int) -> list[GameData]:
        with self.engine.connect() as conn:
            q = select(games).order_by(games.c.updated_at.desc()).limit(limit)
            if status is not None:
                q = q.where(games.c.status == status)
            return [GameData.from_row(r) for r in conn.execute(q).mappings()]


def _events_after(conn: Connection, game_id: str, version: int, limit: int) -> list[EventData]:
    """A game's events after ``version`` (at most ``limit``), oldest first."""
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
