"""Mail about correspondence games (issue 39; docs/accounts.md, "Mail"): a real SMTP server
(aiosmtpd) runs in the test process and the tests read what arrives. An address is confirmed
by its link before anything else goes to it; "your turn" goes once per game and version to a
player not seen for a while, "game over" once; every mail's stop link (the page, and the
one-click POST of RFC 8058) stops all mail; a guest cannot give an address; nobody else ever
sees one. Real server processes on SQLite and PostgreSQL, and two over Redis; the outbox's
claims and retries are also checked directly on both databases."""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import secrets
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

pytest.register_assert_rewrite("server_fixtures", "mail_fixtures")


from mail_fixtures import Mailbox, body, link, smtp_server  # noqa: E402
from patchwork.i18n import translator  # noqa: E402
from patchwork.server.common.config import Settings  # noqa: E402
from patchwork.server.common.errors import ServerError  # noqa: E402
from patchwork.server.games.creation import new_game_data  # noqa: E402
from patchwork.server.games.requests import CreateGame  # noqa: E402
from patchwork.server.mail import addresses, outbox  # noqa: E402
from patchwork.server.mail.address import address_key, normalize  # noqa: E402
from patchwork.server.mail.service import Mailer  # noqa: E402
from patchwork.server.mail.smtp import SmtpTarget  # noqa: E402
from patchwork.server.run import build_parser, settings_from  # noqa: E402
from patchwork.server.storage.models import UserData, users  # noqa: E402
from patchwork.server.storage.store import InsertGame, Store  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    WAIT,
    Account,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    fetch,
    http_client,
    running_server,
)

pytest_plugins = ["server_fixtures"]
SCAN = "0.3"  # seconds between the servers' mail rounds here
CORRESPONDENCE = {"kind": "correspondence", "days": 3}


# -- the SMTP server ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Mailbox, int]]:
    with smtp_server() as found:
        yield found


@pytest.fixture(scope="module")
def mailbox(smtp: tuple[Mailbox, int]) -> Mailbox:
    return smtp[0]


@pytest.fixture(scope="module")
def server(
    backend: str, smtp: tuple[Mailbox, int], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp(f"mail-{backend}")
    args = ("--smtp", f"smtp://127.0.0.1:{smtp[1]}", "--mail-scan", SCAN)
    with running_server(backend, tmp, *SHARED_ARGS, *TRUST_FORWARDED, *args) as p:
        yield p


# -- people ---------------------------------------------------------------------------------------


class Addressee(Account):
    """An account with a mail address of its own (its name at example.org)."""

    def __init__(self, server: ServerProcess, name: str | None = None) -> None:
        super().__init__(server, name)
        self.address = f"{self.name.lower()}@example.org"

    def settings(self) -> dict[str, Any]:
        r = self.http.get("/api/account/mail")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def set_address(self, address: str | None = None) -> httpx.Response:
        return self.http.put(
            "/api/account/mail", json={"address": self.address if address is None else address}
        )

    def confirmed(self, mailbox: Mailbox) -> Addressee:
        """Give the account its address and open the confirmation link it got."""
        r = self.set_address()
        assert r.status_code == 200, r.text
        mail = mailbox.wait(self.address, lambda m: "/mail/confirm" in body(m))
        found = urlsplit(link(mail, "/mail/confirm"))  # (its host may be a --public-url's)
        page = fetch("GET", f"{self.server.url}{found.path}?{found.query}", timeout=WAIT)
        assert page.status_code == 200, page.text
        assert self.settings()["confirmed"] is True
        return self

    def seen_now(self) -> None:
        """Open a page of the site (its /ws/me socket) and leave: seen just now."""
        self.me().close()

    def move(self, game_id: str, move: str = "A") -> dict[str, Any]:
        version = self.http.get(f"/api/games/{game_id}").json()["version"]
        r = self.http.post(f"/api/games/{game_id}/moves", json={"move": move, "version": version})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data


def correspondence_game(first: Addressee, second: Addressee) -> str:
    """An online correspondence game: ``first`` in seat 0 (to move), ``second`` in seat 1."""
    r = first.http.post("/api/games", json={"mode": "online", "seat": 0, "clock": CORRESPONDENCE})
    assert r.status_code == 201, r.text
    created = r.json()
    r = second.http.post(
        f"/api/games/{created['game_id']}/join", json={"invite": created["invite_code"]}
    )
    assert r.status_code == 200, r.text
    game_id: str = created["game_id"]
    return game_id


def turn_mails(mailbox: Mailbox, account: Addressee, game_id: str) -> list[EmailMessage]:
    return [
        m
        for m in mailbox.to(account.address)
        if "Your turn" in str(m["subject"]) and f"/play/{game_id}" in body(m)
    ]


def rounds(n: int = 4) -> None:
    """Let the server run a few more mail rounds (what must not come would have come)."""
    time.sleep(n * float(SCAN) + 0.3)


# -- the round trip -------------------------------------------------------------------------------


def test_an_address_is_confirmed_by_the_link_of_its_mail(
    server: ServerProcess, mailbox: Mailbox
) -> None:
    ann = Addressee(server)
    assert ann.settings() == {
        "enabled": True,
        "address": None,
        "confirmed": False,
        "stopped": False,
        "lang": None,
        "mail_after": 3600.0,
    }
    r = ann.http.put(
        "/api/account/mail",
        json={"address": f"  {ann.name}@Example.ORG "},
        headers={"accept-language": "de"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["address"] == ann.address.replace(ann.name.lower(), ann.name)
    assert r.json()["confirmed"] is False and r.json()["lang"] == "de"
    mail = mailbox.wait(ann.name + "@example.org")
    assert mail["To"] == f"{ann.name}@example.org"
    assert mail["Content-Language"] == "de"
    assert ann.name in body(mail)
    confirm = link(mail, "/mail/confirm")
    assert confirm.startswith(f"{server.url}/mail/confirm?token=")
    stop = link(mail, "/mail/stop")
    assert mail["List-Unsubscribe"] == f"<{stop}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    page = fetch("GET", confirm, timeout=WAIT)  # in the mail's language, as its link says
    german = translator("de")
    assert page.status_code == 200 and 'lang="de"' in page.text
    assert html.escape(german.gettext("Address confirmed")) in page.text
    assert ann.settings()["confirmed"] is True
    again = fetch("GET", confirm.replace("lang=de", "lang=en"), timeout=WAIT)  # used: says so
    assert again.status_code == 400 and "used already" in again.text
    # The same address again changes nothing and sends nothing.
    assert ann.http.put("/api/account/mail", json={"address": ann.address}).json()["confirmed"]
    rounds(1)
    assert len(mailbox.to(mail["To"])) == 1


def test_your_turn_is_mailed_once_per_turn_with_the_game_and_stop_links(
    server: ServerProcess, mailbox: Mailbox
) -> None:
    ann, bob = Addressee(server).confirmed(mailbox), Addressee(server)
    game_id = correspondence_game(ann, bob)
    mail = mailbox.wait(ann.address, lambda m: "Your turn" in str(m["subject"]))
    assert mail["Subject"] == f"Your turn against {bob.name}"
    assert link(mail, "/play/") == f"{server.url}/play/{game_id}"
    assert "3 days for each move" in body(mail)
    assert mail["List-Unsubscribe"] == f"<{link(mail, '/mail/stop')}>"
    rounds()  # many rounds, each finding the same turn: still one mail
    assert len(turn_mails(mailbox, ann, game_id)) == 1

    ann.move(game_id)  # advancing past Bob: his turn (he takes no mail), then hers again
    bob.move(game_id)
    deadline = time.monotonic() + WAIT
    while len(turn_mails(mailbox, ann, game_id)) < 2:
        assert time.monotonic() < deadline, mailbox.subjects(ann.address)
        time.sleep(0.1)
    rounds()
    assert len(turn_mails(mailbox, ann, game_id)) == 2
    assert not mailbox.to(bob.address)


def test_a_player_seen_recently_gets_no_turn_mail(server: ServerProcess, mailbox: Mailbox) -> None:
    cid, dan = Addressee(server).confirmed(mailbox), Addressee(server).confirmed(mailbox)
    other = Addressee(server)
    cid.seen_now()
    seen_game = correspondence_game(cid, other)
    control = correspondence_game(dan, other)  # Dan was never seen: his mail comes
    mailbox.wait(dan.address, lambda m: f"/play/{control}" in body(m))
    rounds()
    assert turn_mails(mailbox, cid, seen_game) == []


def test_the_end_of_a_game_is_mailed_once_to_each_player(
    server: ServerProcess, mailbox: Mailbox
) -> None:
    ann, bob = Addressee(server).confirmed(mailbox), Addressee(server).confirmed(mailbox)
    game_id = correspondence_game(ann, bob)
    r = bob.http.post(f"/api/games/{game_id}/resign")
    assert r.status_code == 200, r.text
    won = mailbox.wait(ann.address, lambda m: "is over" in str(m["subject"]))
    lost = mailbox.wait(bob.address, lambda m: "is over" in str(m["subject"]))
    assert won["Subject"] == f"Your game against {bob.name} is over"
    assert "You won" in body(won) and "You lost" in body(lost)
    assert link(won, "/play/") == f"{server.url}/play/{game_id}"
    rounds()
    for account in (ann, bob):
        assert sum("is over" in s for s in mailbox.subjects(account.address)) == 1


def test_the_stop_link_stops_all_mail(server: ServerProcess, mailbox: Mailbox) -> None:
    eve, fay = Addressee(server).confirmed(mailbox), Addressee(server).confirmed(mailbox)
    other = Addressee(server)
    correspondence_game(eve, other)
    correspondence_game(fay, other)
    to_eve = mailbox.wait(eve.address, lambda m: "Your turn" in str(m["subject"]))
    to_fay = mailbox.wait(fay.address, lambda m: "Your turn" in str(m["subject"]))

    page = fetch("GET", link(to_eve, "/mail/stop"), timeout=WAIT)  # the link in the text
    assert page.status_code == 200 and "No more mail will go to this address" in page.text
    one_click = to_fay["List-Unsubscribe"].strip("<>")  # what a mail program posts
    r = fetch(
        "POST",
        one_click,
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded"},
        timeout=WAIT,
    )
    assert r.status_code == 200 and "Mail stopped" in r.text
    for account in (eve, fay):
        assert account.settings()["stopped"] is True
        assert account.settings()["confirmed"] is True

    before = {a.address: len(mailbox.to(a.address)) for a in (eve, fay)}
    games = [correspondence_game(eve, other), correspondence_game(fay, other)]
    r = other.http.post(f"/api/games/{games[0]}/resign")
    assert r.status_code == 200, r.text
    control = Addressee(server).confirmed(mailbox)
    control_game = correspondence_game(control, other)
    mailbox.wait(control.address, lambda m: f"/play/{control_game}" in body(m))
    rounds()
    assert {a.address: len(mailbox.to(a.address)) for a in (eve, fay)} == before

    bad = fetch("GET", f"{server.url}/mail/stop", params={"token": "12.nope"}, timeout=WAIT)
    assert bad.status_code == 400 and "does not work" in bad.text
    # Setting the address again asks for a new confirmation; then mail goes again.
    assert eve.set_address().json() == {**eve.settings(), "confirmed": False, "stopped": False}
    assert sum("Confirm" in s for s in mailbox.subjects(eve.address)) == 2


def test_an_unconfirmed_address_gets_only_the_confirmation(
    server: ServerProcess, mailbox: Mailbox
) -> None:
    gus, other = Addressee(server), Addressee(server)
    assert gus.set_address().status_code == 200
    mailbox.wait(gus.address)
    game_id = correspondence_game(gus, other)
    other.http.post(f"/api/games/{game_id}/resign")
    control = Addressee(server).confirmed(mailbox)
    control_game = correspondence_game(control, other)
    mailbox.wait(control.address, lambda m: f"/play/{control_game}" in body(m))
    rounds()
    assert mailbox.subjects(gus.address) == ["Confirm your address for Patchwork"]


def test_a_guest_cannot_give_an_address(server: ServerProcess) -> None:
    guest = http_client(base_url=server.url, timeout=WAIT)
    for r in (
        guest.get("/api/account/mail"),
        guest.put("/api/account/mail", json={"address": "guest@example.org"}),
        guest.post("/api/account/mail/confirmation"),
    ):
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in", r.text
    # A seat's token is no account either.
    created = server.create(mode="online", clock=CORRESPONDENCE)
    r = guest.put(
        "/api/account/mail",
        json={"address": "guest@example.org"},
        headers={"authorization": f"Bearer {created['token']}"},
    )
    assert r.status_code == 401, r.text


def test_bad_addresses_and_links_are_told_clearly(server: ServerProcess, mailbox: Mailbox) -> None:
    ivy = Addressee(server)
    for address, words in (
        ("", "enter a mail address"),
        ("ivy", "is not a mail address"),
        ("ivy@localhost", "is not a mail address"),
        ("iv y@example.org", "is not a mail address"),
        ("a" * 250 + "@example.org", "at most 254 characters"),
        ("ivé@example.org", "only Latin letters"),
    ):
        r = ivy.set_address(address)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_address"
        assert words in r.json()["error"]["message"], r.text
    r = ivy.http.put("/api/account/mail", json={"address": 7})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = ivy.http.put("/api/account/mail", json={"address": "ivy@example.org", "extra": 1})
    assert r.status_code == 422
    r = ivy.http.put(
        "/api/account/mail", json={"address": "ivy@example.org"}, headers={"x-csrf-token": "no"}
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    r = ivy.http.post("/api/account/mail/confirmation")
    assert r.status_code == 404 and "no mail address" in r.json()["error"]["message"]
    assert ivy.settings()["address"] is None
    for token in ("", "x", "y" * 500, secrets.token_urlsafe(32)):
        page = fetch("GET", f"{server.url}/mail/confirm", params={"token": token}, timeout=WAIT)
        assert page.status_code == 400 and "does not work" in page.text, token
    page = fetch("GET", f"{server.url}/mail/confirm", params={"token": "z", "lang": "fa"})
    assert 'lang="fa" dir="rtl"' in page.text


def test_confirmation_mails_are_limited_per_account_and_per_address(
    server: ServerProcess, mailbox: Mailbox
) -> None:
    jo = Addressee(server)
    for _ in range(addresses.PER_ACCOUNT):
        assert jo.set_address(f"{secrets.token_hex(4)}@example.org").status_code == 200
    r = jo.set_address()
    assert r.status_code == 429 and "try again tomorrow" in r.json()["error"]["message"]
    assert int(r.headers["retry-after"]) > 80_000
    # Strangers cannot bomb one address from many accounts.
    target = f"victim-{secrets.token_hex(4)}@example.org"
    for _ in range(addresses.PER_ADDRESS):
        assert Addressee(server).set_address(target).status_code == 200
    r = Addressee(server).set_address(target.upper())
    assert r.status_code == 429 and "this address got" in r.json()["error"]["message"]
    assert len(mailbox.to(target)) == addresses.PER_ADDRESS


def test_nobody_else_sees_an_address(server: ServerProcess, mailbox: Mailbox) -> None:
    kim, lee = Addressee(server).confirmed(mailbox), Addressee(server)
    game_id = correspondence_game(kim, lee)
    mailbox.wait(kim.address, lambda m: f"/play/{game_id}" in body(m))
    seen = [
        lee.http.get(path).text
        for path in (
            f"/api/games/{game_id}",
            f"/api/games/{game_id}/replay",
            f"/api/games/{game_id}/events?since=0",
            f"/api/players/{kim.name}",
            f"/api/players/{kim.name}/standing",
            "/api/account/mail",
            "/api/account/games",
            "/api/people/online",
        )
    ]
    with server.client(game_id) as ws:
        seen += ws.received
    assert all(kim.address not in text for text in seen)
    assert any(game_id in text for text in seen)
    assert lee.settings()["address"] is None


def test_two_processes_send_each_mail_once(smtp: tuple[Mailbox, int], tmp_path: Path) -> None:
    """Both processes find the same turns and ends; each mail goes once. A process killed
    the moment the turn began loses nothing: the other sends it."""
    mailbox, port = smtp
    db, keys = PostgresDatabase(), RedisPrefix()
    args = (
        "--ai-workers",
        "1",
        "--smtp",
        f"smtp://127.0.0.1:{port}",
        "--mail-scan",
        "0.2",
        "--public-url",
        "https://play.example.org/",
        "--mail-from",
        "Patchwork test <games@play.example.org>",
        *keys.args(),
    )
    try:
        with cluster(db.url, tmp_path, 2, *args) as (a, b):
            ann, bob = Addressee(a).confirmed(mailbox), Addressee(b).confirmed(mailbox)
            games = [correspondence_game(ann, bob) for _ in range(3)]
            bob.http.post(f"/api/games/{games[0]}/resign")
            for game_id in games:
                mailbox.wait(ann.address, lambda m, g=game_id: f"/play/{g}" in body(m))
            mail = mailbox.wait(ann.address, lambda m: "is over" in str(m["subject"]))
            assert mail["From"] == "Patchwork test <games@play.example.org>"
            assert link(mail, "/play/") == f"https://play.example.org/play/{games[0]}"

            dan = Addressee(b).confirmed(mailbox)
            games.append(correspondence_game(ann, dan))  # made on a: Ann's turn begins...
            a.kill()  # ...and a dies with no goodbye: b finds the turn and mails it
            mailbox.wait(ann.address, lambda m: f"/play/{games[-1]}" in body(m))
            time.sleep(1.5)
            # Each turn mailed once; the first game's may never be: Bob resigned it at once,
            # and a round that comes after the resignation finds no turn in it.
            per_game = {g: len(turn_mails(mailbox, ann, g)) for g in games[1:]}
            assert per_game == {g: 1 for g in games[1:]}
            assert len(turn_mails(mailbox, ann, games[0])) <= 1
            assert sum("is over" in s for s in mailbox.subjects(ann.address)) == 1
            assert sum("is over" in s for s in mailbox.subjects(bob.address)) == 1
    finally:
        keys.clean()
        db.drop()


# -- the outbox, directly -------------------------------------------------------------------------


@pytest.fixture
def store(fresh_db: str) -> Iterator[Store]:
    s = Store(fresh_db)
    s.migrate()
    try:
        yield s
    finally:
        s.close()


def _user(store: Store) -> str:
    user_id = secrets.token_hex(12)
    with store.engine.begin() as conn:
        conn.execute(
            users.insert().values(
                id=user_id,
                name=user_id[:20],
                name_key=user_id[:20],
                password_hash="-",
                created_at=dt.datetime.now(dt.UTC),
                rating=1500.0,
                rd=350.0,
                volatility=0.06,
                people_games=0,
            )
        )
    return user_id


@pytest.mark.both_backends
def test_a_queued_mail_is_queued_once_claimed_once_and_retried_with_backoff(
    store: Store,
) -> None:
    engine, now = store.engine, dt.datetime.now(dt.UTC)
    user = _user(store)
    row = {"user_id": user, "key": "turn:g1:7", "kind": "turn", "data": {"game": "g1", "seat": 0}}
    assert outbox.queue(engine, [row], now) == 1
    assert outbox.queue(engine, [row, row], now) == 0  # the same key again: nothing
    [mail] = outbox.due(engine, now)
    to = address_key("a@example.org")
    first = outbox.claim(engine, mail, to, now)
    assert first is not None
    assert outbox.claim(engine, mail, to, now) is None  # a second process, same read: loses
    assert outbox.due(engine, now) == []
    # The SMTP server refused it: not again before the backoff, then claimed anew.
    outbox.mark_failed(engine, mail.id, 1, now)
    assert outbox.due(engine, now + dt.timedelta(seconds=59)) == []
    later = now + dt.timedelta(seconds=61)
    [again] = outbox.due(engine, later)
    assert again.attempts == 1
    second = outbox.claim(engine, again, to, later)
    assert second is not None and second.token != first.token
    # Killed while sending: the claim lapses, another process sends it (the one window).
    lapsed = later + outbox.CLAIM + dt.timedelta(seconds=1)
    [after_kill] = outbox.due(engine, lapsed)
    assert outbox.claim(engine, after_kill, to, lapsed) is not None
    outbox.mark_sent(engine, mail.id, lapsed)
    assert outbox.due(engine, lapsed + dt.timedelta(days=1)) == []
    assert outbox.queue(engine, [row], lapsed) == 0  # sent: its key is never queued again


def test_a_mail_is_given_up_after_its_attempts(store: Store) -> None:
    engine, now = store.engine, dt.datetime.now(dt.UTC)
    user = _user(store)
    row = {"user_id": user, "key": "end:g2:1", "kind": "end", "data": {"game": "g2", "seat": 1}}
    outbox.queue(engine, [row], now)
    for attempt in range(outbox.MAX_ATTEMPTS):
        [mail] = outbox.due(engine, now)
        assert mail.attempts == attempt
        assert outbox.claim(engine, mail, "h", now) is not None
        outbox.mark_failed(engine, mail.id, attempt + 1, now)
        now += dt.timedelta(hours=3)
    assert outbox.due(engine, now) == []


def test_the_stop_link_of_an_old_address_does_not_stop_a_new_one(store: Store) -> None:
    engine, now = store.engine, dt.datetime.now(dt.UTC)
    user = _user(store)
    old = addresses.set_address(engine, user, normalize("old@example.org"), "en", now)
    assert old is not None
    assert addresses.confirm(engine, old.secret, now) == "confirmed"
    assert addresses.confirm(engine, old.secret, now) == "unknown"
    new = addresses.set_address(engine, user, normalize("new@example.org"), "fi", now)
    assert new is not None
    assert addresses.confirm(engine, new.secret, now + dt.timedelta(days=8)) == "expired"
    assert addresses.stop(engine, old.stop.token, now) is True  # the old address: nothing goes
    found = addresses.read(engine, user)
    assert found is not None and found.address == "new@example.org" and not found.stopped
    assert addresses.stop(engine, new.stop.token, now) is True
    found = addresses.read(engine, user)
    assert found is not None and found.stopped
    forged = new.stop.token[:-1] + ("y" if new.stop.token.endswith("x") else "x")
    assert addresses.stop(engine, forged, now) is False
    assert addresses.stop(engine, "not a token", now) is False


def test_without_smtp_no_mail_is_queued_or_sent(store: Store) -> None:
    user_id = _user(store)
    mailer = Mailer(Settings(db_url=store.url), store, _nobody_online)
    user = UserData(
        id=user_id,
        name="Ann",
        name_key="ann",
        password_hash="-",
        created_at=dt.datetime.now(dt.UTC),
    )

    async def run() -> None:
        assert (await mailer.view(user_id)).enabled is False
        with pytest.raises(ServerError) as refused:
            await mailer.set_address(user, "ann@example.org", "en")
        assert refused.value.code == "mail_off"
        assert refused.value.text("en") == "this server sends no mail"
        assert await mailer.round() == (0, 0)
        await mailer.start()
        await mailer.close()

    asyncio.run(run())
    assert addresses.read(store.engine, user_id) is None


async def _nobody_online() -> set[str]:
    return set()


# -- settings and addresses, without a server -----------------------------------------------------


def test_the_mail_options() -> None:
    args = build_parser().parse_args(
        ["--smtp", "smtp+starttls://me%40x.org:p%2Fw@mail.x.org", "--mail-after", "600"]
    )
    s = settings_from(args)
    assert s.smtp_url == "smtp+starttls://me%40x.org:p%2Fw@mail.x.org" and s.mail_after == 600
    assert s.public_url == "http://127.0.0.1:8000"  # derived from --host and --port
    assert s.mail_sender == "Patchwork <patchwork@localhost>"
    target = SmtpTarget.parse(s.smtp_url)
    assert (target.host, target.port, target.security) == ("mail.x.org", 587, "starttls")
    assert (target.user, target.password) == ("me@x.org", "p/w")
    assert "p/w" not in repr(target) and "p/w" not in target.shown
    assert SmtpTarget.parse("smtps://h").port == 465 and SmtpTarget.parse("smtp://h").port == 25
    s = settings_from(
        build_parser().parse_args(
            ["--host", "0.0.0.0", "--port", "9000", "--public-url", "https://play.example.org/"]
        )
    )
    assert s.public_url == "https://play.example.org"
    assert s.mail_sender == "Patchwork <patchwork@play.example.org>"
    assert settings_from(build_parser().parse_args(["--port", "9000"])).smtp_url is None
    for bad in (
        ["--smtp", "http://mail.x.org"],
        ["--smtp", "smtp://"],
        ["--smtp", "smtp://h:notaport"],
        ["--smtp", "smtp://h/path"],
        ["--mail-after", "-1"],
        ["--mail-scan", "0"],
        ["--public-url", "play.example.org"],
    ):
        with pytest.raises(SystemExit):
            build_parser().parse_args(bad)


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("ann@example.org", "ann@example.org"),
        ("  Ann.B+games@Example.ORG ", "Ann.B+games@example.org"),
        ("ann@bücher.example", "ann@xn--bcher-kva.example"),
    ],
)
def test_plausible_addresses_are_stored_with_their_domain_in_lower_case(
    text: str, stored: str
) -> None:
    assert normalize(text) == stored
    assert address_key(stored) == address_key(stored.upper())


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ann",
        "@example.org",
        "ann@",
        "ann@example",
        "a..b@example.org",
        "ann@-x.org",
        "ann@example.o",
        "ann@exa_mple.org",
        "a<b>@example.org",
        "ann@example.org\nBcc: eve@example.org",
        "x" * 65 + "@example.org",
    ],
)
def test_implausible_addresses_are_refused(text: str) -> None:
    with pytest.raises(ServerError) as refused:
        normalize(text)
    assert refused.value.code == "bad_address"


@pytest.mark.both_backends
def test_two_mailers_over_one_database_send_a_turn_once(
    store: Store, smtp: tuple[Mailbox, int]
) -> None:
    """Two processes' mailers (each its own engine) running their rounds at the same time
    over one database: the turn is queued once and sent once."""
    mailbox, port = smtp
    ann, bob = _user(store), _user(store)
    now = dt.datetime.now(dt.UTC)
    address = f"two-{secrets.token_hex(4)}@example.org"
    pending = addresses.set_address(store.engine, ann, address, "en", now)
    assert pending is not None
    assert addresses.confirm(store.engine, pending.secret, now) == "confirmed"
    data = new_game_data(
        CreateGame.model_validate({"mode": "online", "clock": CORRESPONDENCE})
    ).data
    data.update({"status": "active", "seat0_user": ann, "seat1_user": bob, "seat1_kind": "human"})
    store.write([InsertGame(data)])
    settings = Settings(db_url=store.url, smtp_url=f"smtp://127.0.0.1:{port}", mail_scan=0.1)
    other = Store(store.url)
    mailers = [Mailer(settings, s, _nobody_online) for s in (store, other)]

    async def run() -> list[tuple[int, int]]:
        done = []
        for _ in range(3):
            done += await asyncio.gather(*(m.round() for m in mailers))
        return done

    try:
        done = asyncio.run(run())
    finally:
        other.close()
    assert sum(q for q, _ in done) == 1 and sum(s for _, s in done) == 1, done
    [mail] = mailbox.to(address)  # (the confirmation was never sent: set here directly)
    assert f"/play/{data.id}" in body(mail)
