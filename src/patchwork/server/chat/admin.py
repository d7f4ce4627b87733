"""``patchwork admin reports`` (``patchwork admin`` is server/admin/): the chat reports, for
whoever runs the server (docs/deploy.md, "Chat reports"). Lists the open reports (the message,
its room and author, who reported it, why and when); resolves a report; mutes an account
site-wide with a note (it may then not chat anywhere: every message it sends is refused) and
unmutes it. Reads and writes the server's database directly (``--db``, as ``patchwork serve``
takes it); nothing else needs to run."""

from __future__ import annotations

import argparse
import datetime as dt

from sqlalchemy import Engine

from ...i18n import _, fmt
from ...i18n.commandline import HelpFormatter
from ..accounts.admin import AdminError, account, add_db_option, database, when
from . import store

__all__ = ["add_parser", "run"]

NOTE_LIMIT = 200


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``reports``, added to ``patchwork admin``'s subcommands (server/admin/)."""
    r = sub.add_parser(
        "reports",
        formatter_class=HelpFormatter,
        help=_("list the chat reports; resolve one; mute or unmute an account"),
        description=_(
            "List the open chat reports (the message, its room, its author, who reported it, "
            "why and when), oldest first. With an option, do that instead."
        ),
    )
    add_db_option(r)
    r.add_argument("--all", action="store_true", help=_("list resolved reports too"))
    r.add_argument("--limit", type=int, default=100, help=_("list at most this many (100)"))
    act = r.add_mutually_exclusive_group()
    act.add_argument("--resolve", type=int, metavar="ID", help=_("mark report ID resolved"))
    act.add_argument(
        "--mute",
        metavar="NAME",
        help=_("mute the account NAME site-wide: it may not chat anywhere (give --note)"),
    )
    act.add_argument("--unmute", metavar="NAME", help=_("let the account NAME chat again"))
    act.add_argument("--muted", action="store_true", help=_("list the muted accounts"))
    r.add_argument("--note", default="", help=_("why an account is muted (kept with the mute)"))
    r.set_defaults(run=run)


def _room(room: str) -> str:
    kind, _sep, game = room.partition(":")
    if kind == "game":
        return fmt(_("game {id}, players"), id=game)
    if kind == "watch":
        return fmt(_("game {id}, spectators"), id=game)
    return _("lobby")


def _list(engine: Engine, everything: bool, limit: int) -> None:
    found = store.reports(engine, everything, limit)
    if not found:
        print(_("No reports.") if everything else _("No open reports."))
        return
    for r in found:
        state = _("open") if r.resolved_at is None else _("resolved")
        author = r.line.name + ("" if r.line.user_id is not None else " " + _("(guest)"))
        if r.author_muted:
            author += " " + _("(muted)")
        print(
            fmt(
                _("report {id} ({state}) {when}: {reason}, by {reporter}"),
                id=r.id,
                state=state,
                when=when(r.created_at),
                reason=r.reason,
                reporter=r.reporter,
            )
        )
        print(
            "  "
            + fmt(
                _("message {id} in {room}, {when}, from {author}:"),
                id=r.line.id,
                room=_room(r.line.room),
                when=when(r.line.created_at),
                author=author,
            )
        )
        print(f"  {r.line.text!r}")


def run(args: argparse.Namespace) -> str | None:
    """Carry out the command; what to print when it is not a listing."""
    with database(args.db) as engine:
        now = dt.datetime.now(dt.UTC)
        if args.resolve is not None:
            if not store.resolve(engine, args.resolve, now):
                raise AdminError(fmt(_("there is no report {id}"), id=args.resolve))
            return fmt(_("Report {id} is resolved."), id=args.resolve)
        if args.mute is not None:
            note = args.note.strip()
            if not note or len(note) > NOTE_LIMIT:
                raise AdminError(
                    fmt(_("give --note: why (1 to {limit} characters)"), limit=NOTE_LIMIT)
                )
            user = account(engine, args.mute)
            store.mute(engine, user.id, note, now)
            return fmt(_("{name} is muted: they may not chat anywhere."), name=user.name)
        if args.unmute is not None:
            user = account(engine, args.unmute)
            if not store.unmute(engine, user.id):
                raise AdminError(fmt(_("{name} was not muted"), name=user.name))
            return fmt(_("{name} may chat again."), name=user.name)
        if args.muted:
            shown = store.mutes(engine)
            lines = [f"{m.name}  {when(m.created_at)}  {m.note}" for m in shown]
            return "\n".join(lines) if lines else _("No muted accounts.")
        if not 1 <= args.limit <= 10_000:
            raise AdminError(_("--limit is 1 to 10000"))
        _list(engine, args.all, args.limit)
        return None
