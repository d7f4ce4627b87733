"""``patchwork admin tournament`` (``patchwork admin`` is server/admin/): the tournaments, for
whoever runs the server (docs/deploy.md, "Running a tournament"). Lists the events (by status);
shows one event's terms and entrants; cancels an event; takes a player out of one (forgotten
before the start, withdrawn during it); prints an event's log, one line per thing that
happened to it (log.py). Reads and writes the server's database directly (``--db``, as
``patchwork serve`` takes it), through the functions the server uses (store.py), so a change
is the same guarded write the server makes; nothing else needs to run."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from sqlalchemy import Engine

from ...i18n import _, error_text, fmt, ngettext, pgettext
from ...i18n.commandline import HelpFormatter
from ..accounts.admin import AdminError, account, add_db_option, database, when
from ..common.errors import ServerError
from . import store
from .log import LogLine, lines
from .store import EntrantRow, TournamentRow

STATUSES = ("open", "running", "finished", "cancelled")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tournament``, added to ``patchwork admin``'s subcommands (server/admin/)."""
    t = sub.add_parser(
        "tournament",
        formatter_class=HelpFormatter,
        help=_("list the tournaments; show, cancel or read the log of one; remove a player"),
        description=_(
            "List the tournaments (id, name, kind, status, start, entrants, round), newest "
            "first, or show the one with this ID: its terms and entrants. With an option, "
            "do that to it instead."
        ),
    )
    add_db_option(t)
    t.add_argument("id", nargs="?", metavar="ID", help=_("the tournament to show or change"))
    t.add_argument(
        "--status",
        choices=STATUSES,
        help=_("list only the tournaments in this status (default: every status)"),
    )
    t.add_argument(
        "--page",
        type=int,
        metavar="N",
        default=1,
        help=fmt(_("list page N, {count} tournaments a page (1)"), count=store.LISTED),
    )
    act = t.add_mutually_exclusive_group()
    act.add_argument(
        "--cancel",
        action="store_true",
        help=_("cancel tournament ID: nothing more is paired; games under way are played on"),
    )
    act.add_argument(
        "--remove",
        metavar="NAME",
        help=_(
            "take the account NAME out of tournament ID: forgotten before the start, "
            "withdrawn during it"
        ),
    )
    act.add_argument("--log", action="store_true", help=_("print tournament ID's log"))
    t.set_defaults(run=run)


# -- words -------------------------------------------------------------------------------------


def _status(status: str) -> str:
    words = {
        # TRANSLATORS: a tournament's status, in 'patchwork admin tournament'.
        "open": pgettext("tournament", "open"),
        "running": pgettext("tournament", "running"),
        "finished": pgettext("tournament", "finished"),
        "cancelled": pgettext("tournament", "cancelled"),
    }
    return words.get(status, status)


def _kind(t: TournamentRow) -> str:
    if t.minutes is not None:
        return fmt(ngettext("arena, {n} minute", "arena, {n} minutes", t.minutes), n=t.minutes)
    return fmt(ngettext("Swiss, {n} round", "Swiss, {n} rounds", t.rounds), n=t.rounds)


def _summary(t: TournamentRow) -> str:
    return fmt(
        _("{id}  {name!r}  {kind}; {status}; starts {start}; {entrants}; round {round}"),
        id=t.id,
        name=t.name,
        kind=_kind(t),
        status=_status(t.status),
        start=when(t.starts_at),
        entrants=fmt(ngettext("{n} entrant", "{n} entrants", t.entrants), n=t.entrants),
        round=t.round,
    )


def _yes(flag: bool) -> str:
    return _("yes") if flag else _("no")


def _clock(clock: dict[str, Any] | None) -> str:
    if not clock:
        return _("none")
    if clock.get("kind") == "correspondence":
        days = int(clock.get("days") or 0)
        return fmt(ngettext("{n} day a move", "{n} days a move", days), n=days)
    return fmt(
        _("{initial} s each, plus {increment} s a move"),
        initial=clock.get("initial") or 0,
        increment=clock.get("increment") or 0,
    )


def _entrant(e: EntrantRow) -> str:
    said = fmt(
        _("{name}  rating {rating}  joined {when}"),
        name=e.name + (" " + _("(bot)") if e.bot else ""),
        rating=round(e.rating),
        when=when(e.joined_at),
    )
    if e.withdrawn_at is not None:
        said += "; " + fmt(_("withdrawn {when}"), when=when(e.withdrawn_at))
    elif e.paused_at is not None:
        said += "; " + fmt(_("taking a break since {when}"), when=when(e.paused_at))
    return said


def _show(engine: Engine, t: TournamentRow) -> str:
    out = [_summary(t)]
    if t.creator is not None:
        made = fmt(_("created {when} by {name}"), when=when(t.created_at), name=t.creator)
    else:
        made = fmt(_("created {when} by an account since deleted"), when=when(t.created_at))
    out.append("  " + made)
    if t.ends_at is not None:
        out.append("  " + fmt(_("ends {when}"), when=when(t.ends_at)))
    if t.finished_at is not None:
        done = _("ended early {when}") if t.ended_early else _("ended {when}")
        out.append("  " + fmt(done, when=when(t.finished_at)))
    entry = _("everyone") if t.entry == "everyone" else _("established ratings only")
    games = [
        (_("edition"), t.edition),
        (_("rotation"), _yes(t.rotation)),
        (_("flip"), _yes(t.flip)),
        (_("clock"), _clock(t.clock)),
    ]
    who = [(_("rated"), _yes(t.rated)), (_("entry"), entry), (_("bots"), _yes(t.bots_allowed))]
    for terms in (games, who):
        said = (fmt(_("{term}: {value}"), term=k, value=v) for k, v in terms)
        out.append("  " + "; ".join(said))
    joined = store.entrants(engine, t.id)
    if not joined:
        out.append(_("No entrants."))
    else:
        out.append(fmt(_("entrants ({count}):"), count=len(joined)))
        out += ["  " + _entrant(e) for e in joined]
    return "\n".join(out)


def _line(line: LogLine, names: dict[str, str]) -> str:
    """One line of an event's log, in words: the accounts by name (their id if gone)."""
    d = line.data

    def name(key: str) -> str:
        uid = str(d.get(key) or "")
        return names.get(uid, uid)

    what = line.what
    if what == "created":
        said = fmt(_("created by {name}"), name=name("by"))
    elif what == "joined":
        said = fmt(_("{name} joined"), name=name("user"))
    elif what == "withdrew":
        said = fmt(_("{name} withdrew"), name=name("user"))
    elif what == "paused":
        said = fmt(_("{name} took a break"), name=name("user"))
    elif what == "resumed":
        said = fmt(_("{name} came back"), name=name("user"))
    elif what == "started":
        said = _("started")
    elif what == "round":
        pairs = pgettext("list separator", ", ").join(
            fmt(_("{first} – {second}"), first=names.get(a, a), second=names.get(b, b))
            for a, b in d.get("pairs", [])
        )
        if d.get("bye"):
            said = fmt(
                _("round {round}: {pairs}; bye: {name}"),
                round=d.get("round", 0),
                pairs=pairs or _("no games"),
                name=name("bye"),
            )
        else:
            said = fmt(_("round {round}: {pairs}"), round=d.get("round", 0), pairs=pairs)
    elif what == "no_show":
        said = fmt(
            _("no-show: {name} lost game {game} in round {round}"),
            name=name("user"),
            game=d.get("game", ""),
            round=d.get("round", 0),
        )
    elif what == "finished":
        said = _("finished early: no pairing left") if d.get("early") else _("finished")
    elif what == "cancelled":
        if d.get("by") == "entrants":
            said = _("cancelled: fewer than 2 entrants at the start")
        elif d.get("by") == "admin":
            said = _("cancelled by whoever runs the server")
        else:
            said = fmt(_("cancelled by its creator, {name}"), name=name("by"))
    elif what == "removed":
        said = fmt(_("{name} removed by whoever runs the server"), name=name("user"))
    else:  # a line a later version wrote
        said = f"{what} {d}"
    return f"{when(line.at)}  {said}"


# -- the command -------------------------------------------------------------------------------


def _event(engine: Engine, tournament_id: str) -> TournamentRow:
    t = store.read(engine, tournament_id)
    if t is None:
        raise AdminError(error_text(store.not_found(tournament_id)))
    return t


def _list(engine: Engine, status: str | None, page: int) -> str:
    found = [t for s in ([status] if status else STATUSES) for t in store.listing(engine, s, page)]
    return "\n".join(_summary(t) for t in found) if found else _("No tournaments.")


def run(args: argparse.Namespace) -> str | None:
    """Carry out the command; what to print."""
    if args.id is None and (args.cancel or args.remove is not None or args.log):
        raise AdminError(_("give the tournament's ID"))
    if args.id is not None and args.status is not None:
        raise AdminError(_("--status lists the tournaments: give it without an ID"))
    if not 1 <= args.page <= 10_000:
        raise AdminError(_("--page is 1 to 10000"))
    with database(args.db) as engine:
        if args.id is None:
            return _list(engine, args.status, args.page - 1)
        t = _event(engine, args.id)
        now = dt.datetime.now(dt.UTC)
        try:
            if args.cancel:
                store.cancel(engine, t.id, now)
                return fmt(
                    _(
                        "Tournament {id} ({name!r}) is cancelled: nothing more is paired; "
                        "games under way are played on as ordinary games."
                    ),
                    id=t.id,
                    name=t.name,
                )
            if args.remove is not None:
                user = account(engine, args.remove)
                if store.remove(engine, t.id, user.id, now) == "forgotten":
                    said = _("{name} is out of tournament {id}: it had not started.")
                else:
                    said = _(
                        "{name} is withdrawn from tournament {id}: not paired again; "
                        "a game under way goes on."
                    )
                return fmt(said, name=user.name, id=t.id)
        except ServerError as e:
            raise AdminError(error_text(e)) from None
        if args.log:
            found, names = lines(engine, t.id)
            return "\n".join(_line(x, names) for x in found) if found else _("Nothing logged.")
        return _show(engine, t)
