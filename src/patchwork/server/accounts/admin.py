"""What the ``patchwork admin`` subcommands share (server/admin/ puts them together): the
error said in one line, the ``--db`` option, the database opened and closed, times in UTC,
an account found by its name. Here, below the domains whose subcommands use it."""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from ...i18n import _, fmt
from ..common.config import Settings
from ..storage.models import UserData, as_utc
from ..storage.store import Store
from .names import name_key
from .store import AccountStore


class AdminError(Exception):
    """Something the person asked for cannot be done (said in words, exit status 1)."""


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=Settings().db_url,
        help=_("the server's SQLAlchemy database URL, as 'patchwork serve --db' takes it"),
    )


@contextmanager
def database(url: str) -> Iterator[Engine]:
    """The server's database, opened (not created: a missing SQLite file is an error) and
    closed after; a database error inside is an :class:`AdminError` in one line."""
    try:
        parsed = make_url(url)
        path = parsed.database or ""
        sqlite_file = parsed.get_backend_name() == "sqlite" and path not in ("", ":memory:")
        if sqlite_file and not Path(path).expanduser().exists():
            raise AdminError(fmt(_("there is no database at {path}"), path=path))
        db = Store(url)
    except (SQLAlchemyError, ImportError, ValueError) as e:
        raise AdminError(fmt(_("cannot open the database: {error}"), error=e)) from None
    try:
        yield db.engine
    except SQLAlchemyError as e:
        first = str(getattr(e, "orig", None) or e).strip().splitlines()[:1]
        raise AdminError(
            fmt(_("cannot use the database: {error}"), error=first[0] if first else e)
        ) from None
    finally:
        db.close()


def when(at: dt.datetime) -> str:
    """A time as the commands print it: in UTC, to the minute (a naive one, as SQLite hands
    it back, was written as UTC)."""
    return as_utc(at).astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def account(engine: Engine, name: str) -> UserData:
    """The account named ``name`` (as signing in finds it: case and look-alikes folded)."""
    user = AccountStore(engine).user_by_key(name_key(name))
    if user is None:
        raise AdminError(fmt(_("there is no account {name!r}"), name=name))
    return user
