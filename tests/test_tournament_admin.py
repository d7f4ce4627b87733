"""``patchwork admin tournament`` on a migrated SQLite database, run in-process: the list, one
event's terms and entrants, removing a player before and during an event, cancelling (once),
the log in words, and the errors (an unknown event or account, a closed event) as one line and
exit status 1. Also ``patchwork admin`` itself: both subcommands under one parser."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, insert

from patchwork import cli
from patchwork.server import admin
from patchwork.server.storage.models import users, utcnow
from patchwork.server.storage.store import Store
from patchwork.server.tournaments import store
from patchwork.server.tournaments.store import PairingRow

NAMES = {"u1": "Ann", "u2": "Bob", "u3": "Cy", "u4": "Dee", "u5": "Eve"}
START = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    s = Store(url)
    s.migrate()
    now = utcnow()
    with s.engine.begin() as conn:
        for uid, name in NAMES.items():
            conn.execute(
                insert(users),
                {"id": uid, "name": name, "name_key": name.lower(), "password_hash": "x"}
                | {"created_at": now, "rating": 1500.0, "rd": 350.0}
                | {"volatility": 0.06, "people_games": 0},
            )
    yield url, s.engine
    s.close()


def event(engine: Engine, tid: str, name: str, players: list[str], **terms: Any) -> None:
    """An open Swiss event made by Ann, the ``players`` in it (as the server makes them)."""
    row = {
        "id": tid,
        "name": name,
        "kind": "swiss",
        "created_by": "u1",
        "created_at": START - dt.timedelta(days=1),
        "starts_at": START,
        "rounds": 3,
        "minutes": None,
        "entry": "everyone",
        "edition": "revised",
        "rotation": True,
        "flip": True,
        "clock": None,
        "rated": False,
        "bots_allowed": False,
        "status": "open",
        "round": 0,
    }
    store.insert_tournament(engine, row | terms, max_open=10)
    for uid in players:
        store.join(engine, tid, uid, START - dt.timedelta(hours=1))


def run(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    code = admin.main(["tournament", "--db", url, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_show_remove_cancel_and_the_log(
    db: tuple[str, Engine], capsys: pytest.CaptureFixture[str]
) -> None:
    url, engine = db
    event(engine, "t-open", "Winter Swiss", ["u1", "u2", "u3"])
    event(engine, "t-run", "Evening Swiss", ["u1", "u2", "u3", "u4", "u5"])
    assert store.begin(engine, "t-run", START) == "running"
    round1 = [
        PairingRow(1, "u1", "u2", "g1", None),
        PairingRow(1, "u3", "u4", "g2", None),
        PairingRow(1, "u5", None, None, 1.0),
    ]
    assert store.write_round(engine, "t-run", 1, round1, lambda conn: None)
    with engine.begin() as conn:  # (with the end of the game, in the server)
        store.absent(conn, "t-run", "u4", "g2", START + dt.timedelta(minutes=31))

    code, out, _err = run(capsys, url)
    assert code == 0
    (winter,) = [x for x in out.splitlines() if x.startswith("t-open ")]
    assert "'Winter Swiss'" in winter and "Swiss, 3 rounds" in winter and "; open;" in winter
    assert "2026-12-05 10:00 UTC" in winter and "3 entrants" in winter and "round 0" in winter
    (evening,) = [x for x in out.splitlines() if x.startswith("t-run ")]
    assert "running" in evening and "round 1" in evening and "4 entrants" in evening
    code, out, _err = run(capsys, url, "--status", "running")
    assert code == 0 and "t-run" in out and "t-open" not in out
    code, out, _err = run(capsys, url, "--status", "finished")
    assert code == 0 and out.strip() == "No tournaments."

    code, out, _err = run(capsys, url, "t-open")
    assert code == 0
    assert "created 2026-12-04 10:00 UTC by Ann" in out and "clock: none" in out
    assert "entrants (3):" in out
    assert [x.split()[0] for x in out.splitlines() if x.startswith("  ") and "joined" in x] == [
        "Ann",
        "Bob",
        "Cy",
    ]
    code, out, _err = run(capsys, url, "t-run")
    (dee,) = [x for x in out.splitlines() if x.strip().startswith("Dee")]
    assert "withdrawn 2026-12-05 10:31 UTC" in dee  # the no-show

    # Before the start a removed player is forgotten; during the event, withdrawn.
    code, out, _err = run(capsys, url, "t-open", "--remove", "bob")
    assert code == 0 and "Bob is out of tournament t-open" in out
    assert [e.name for e in store.entrants(engine, "t-open")] == ["Ann", "Cy"]
    code, out, _err = run(capsys, url, "t-run", "--remove", "Cy")
    assert code == 0 and "Cy is withdrawn from tournament t-run" in out
    (cy,) = [e for e in store.entrants(engine, "t-run") if e.name == "Cy"]
    assert cy.withdrawn_at is not None
    code, _out, err = run(capsys, url, "t-run", "--remove", "Cy")
    assert code == 1 and err.strip() == "patchwork admin: that player is not in this tournament"

    code, out, _err = run(capsys, url, "t-open", "--cancel")
    assert code == 0 and "Tournament t-open ('Winter Swiss') is cancelled" in out
    t = store.read(engine, "t-open")
    assert t is not None and t.status == "cancelled" and t.finished_at is not None
    code, _out, err = run(capsys, url, "t-open", "--cancel")
    assert code == 1 and err.strip() == "patchwork admin: this tournament was cancelled"
    code, _out, err = run(capsys, url, "t-open", "--remove", "Ann")
    assert code == 1 and "this tournament was cancelled" in err
    code, out, _err = run(capsys, url, "--status", "cancelled")
    assert "t-open" in out and "cancelled" in out

    code, out, _err = run(capsys, url, "t-open", "--log")
    assert code == 0
    said = [x.split("UTC  ", 1)[1] for x in out.splitlines()]
    assert said == [
        "created by Ann",
        "Ann joined",
        "Bob joined",
        "Cy joined",
        "Bob removed by whoever runs the server",
        "cancelled by whoever runs the server",
    ]
    assert out.startswith("2026-12-04 10:00 UTC  created by Ann\n")
    code, out, _err = run(capsys, url, "t-run", "--log")
    said = [x.split("UTC  ", 1)[1] for x in out.splitlines()]
    assert said[6:] == [
        "started",
        "round 1: Ann – Bob, Cy – Dee; bye: Eve",
        "no-show: Dee lost game g2 in round 1",
        "Cy removed by whoever runs the server",
    ]
    assert "2026-12-05 10:31 UTC  no-show: Dee" in out
    # An event its creator called off says who did.
    event(engine, "t-mine", "Mine", ["u2"])
    store.cancel(engine, "t-mine", START, "u1")
    code, out, _err = run(capsys, url, "t-mine", "--log")
    assert out.splitlines()[-1].endswith("UTC  cancelled by its creator, Ann")


def test_errors_are_one_line_and_exit_1(
    db: tuple[str, Engine], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url, engine = db
    code, out, _err = run(capsys, url)
    assert code == 0 and out.strip() == "No tournaments."
    event(engine, "t1", "Spring", ["u1"])
    code, _out, err = run(capsys, url, "nope")
    assert (code, err) == (1, "patchwork admin: there is no tournament 'nope'\n")
    code, _out, err = run(capsys, url, "nope", "--cancel")
    assert (code, err) == (1, "patchwork admin: there is no tournament 'nope'\n")
    code, _out, err = run(capsys, url, "t1", "--remove", "Nobody42")
    assert (code, err) == (1, "patchwork admin: there is no account 'Nobody42'\n")
    code, _out, err = run(capsys, url, "t1", "--remove", "Eve")  # an account, not an entrant
    assert (code, err) == (1, "patchwork admin: that player is not in this tournament\n")
    code, _out, err = run(capsys, url, "--cancel")
    assert code == 1 and "give the tournament's ID" in err
    code, _out, err = run(capsys, url, "t1", "--status", "open")
    assert code == 1 and "--status" in err
    missing = tmp_path / "missing.db"
    code, _out, err = run(capsys, f"sqlite:///{missing}")
    assert code == 1 and "there is no database at" in err and not missing.exists()
    with pytest.raises(SystemExit):
        run(capsys, url, "--status", "paused")
    with pytest.raises(SystemExit):
        admin.main(["tournament", "--help"])
    assert "--remove NAME" in capsys.readouterr().out


def test_patchwork_admin_has_both_subcommands(
    db: tuple[str, Engine], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _engine = db
    assert cli.COMMANDS["admin"][0] == "patchwork.server.admin"
    with pytest.raises(SystemExit):
        cli.main(["admin", "--help"])
    out = capsys.readouterr().out
    assert "reports" in out and "tournament" in out
    assert cli.main(["admin", "reports", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == "No open reports."
    assert cli.main(["admin", "tournament", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == "No tournaments."
