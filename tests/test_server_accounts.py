"""Accounts (docs/accounts.md) against a real server process, on SQLite and PostgreSQL:
signing up, in and out; one error for an unknown name and a wrong password; names unique
regardless of case and look-alikes; forged cross-site requests; rate limits (shared between
processes over Redis); password changes; deleting an account; API tokens; seats bound to an
account played from another device over HTTP and the websocket; rated games against the AI.
Plus the look-alike key itself."""

from __future__ import annotations

import itertools
import json
import time
import unicodedata
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

import httpx  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from patchwork.server.accounts.names import is_valid, name_key  # noqa: E402
from server_fixtures import (  # noqa: E402
    WAIT,
    Client,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    http_client,
    legal_moves,
    running_server,
)

pytest_plugins = ["server_fixtures"]

PASSWORD = "correct horse battery"
# The tests' server believes the loopback's X-Forwarded-For, so that each test comes from an
# address of its own and the per-address limits of one test leave the others alone.
ARGS = (
    "--ai-workers",
    "1",
    "--hint-seconds",
    "0.2",
    "--analysis-seconds",
    "0.3",
    "--http-rate",
    "50",
    "--http-burst",
    "200",
    "--forwarded-allow-ips",
    "127.0.0.1",
)
_addresses = itertools.count(1)


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(backend, tmp_path_factory.mktemp(f"accounts-{backend}"), *ARGS) as proc:
        yield proc


def unique_name(prefix: str = "u") -> str:
    return f"{prefix}{uuid.uuid4().hex[:12]}"


class Device:
    """A browser (or script) of its own: a cookie jar, an address, the CSRF token it was told."""

    def __init__(self, server: ServerProcess, address: str | None = None) -> None:
        self.server = server
        n = next(_addresses)
        self.address = address or f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
        self.http = http_client(
            base_url=server.url, timeout=WAIT, headers={"x-forwarded-for": self.address}
        )
        self.csrf: str | None = None
        self.account: dict[str, Any] | None = None

    def request(
        self, method: str, path: str, body: Any = None, csrf: bool = True, **headers: str
    ) -> httpx.Response:
        if csrf and self.csrf is not None:
            headers.setdefault("x-csrf-token", self.csrf)
        return self.http.request(method, path, json=body, headers=headers)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.request("POST", path, body, **kw)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def sign_up(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self._signed(self.post("/api/account/signup", {"name": name, "password": password}))

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self._signed(self.post("/api/account/signin", {"name": name, "password": password}))

    def _signed(self, r: httpx.Response) -> httpx.Response:
        if r.status_code in (200, 201):
            self.account = r.json()
            self.csrf = r.json()["csrf_token"]
        return r

    @property
    def cookie(self) -> str:
        value = self.http.cookies.get("pw_session")
        assert value
        return str(value)

    def socket(self, game_id: str, origin: str | None = None, token: str | None = None) -> Client:
        """The game's websocket as this browser opens it: its cookie, and its page's origin
        (this server's, unless another is given)."""
        headers = {"cookie": f"pw_session={self.cookie}", "origin": origin or self.server.url}
        c = Client.__new__(Client)
        c.ws = connect(
            f"{self.server.ws_url}/ws/games/{game_id}",
            proxy=None,
            open_timeout=WAIT,
            close_timeout=2,
            max_size=None,
            additional_headers=headers,
        ).__enter__()
        c.messages, c.received, c.game, c.welcome, c.first = [], [], None, None, None
        c.send({"type": "hello", "token": token})
        c.welcome = c.expect("welcome")
        c.first = c.recv_until(lambda m: m["type"] in ("state", "sync"))
        return c

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def devices(server: ServerProcess) -> Iterator[Any]:
    made: list[Device] = []

    def make(address: str | None = None) -> Device:
        d = Device(server, address)
        made.append(d)
        return d

    yield make
    for d in made:
        d.close()


def error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()["error"]
    assert body["code"] == code, body
    return body


def wait_turn(server: ServerProcess, game_id: str, seat: int) -> dict[str, Any]:
    """The game once it is ``seat``'s turn (the AI moves in its own time)."""
    deadline = time.monotonic() + WAIT
    while True:
        g = server.game(game_id)
        if g["to_move"] == seat or g["status"] == "finished":
            return g
        assert time.monotonic() < deadline, "the AI did not move"
        time.sleep(0.05)  # polling another process: there is no event to await


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Anna", "ANNA"),
        ("Bill", "BiII"),  # capital i reads as l
        ("Bill", "Bi11"),
        ("Corn", "Com"),  # rn reads as m
        ("Vivvy", "Viwy"),  # vv reads as w
        ("xvw", "xvvv"),  # wherever the w falls in a run of v's
        ("kvwk", "kvvvk"),
        ("vwv", "wvv"),
        ("Olga", "0lga"),
        ("mary-ann", "Mary_Ann"),
    ],
)
def test_look_alike_names_share_a_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(("a", "b"), [("Anna", "Anne"), ("Bob", "Rob"), ("max1", "max2")])
def test_different_names_have_different_keys(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("Ann", True),
        ("a_b-c9", True),
        ("A" * 20, True),
        ("An", False),
        ("A" * 21, False),
        ("9lives", False),
        ("_ann", False),
        ("ann smith", False),
        ("Ännä", False),
        ("ann|", False),
        ("", False),
    ],
)
def test_the_form_of_a_name(name: str, valid: bool) -> None:
    assert is_valid(name) is valid


# -- signing up, in and out ------------------------------------------------------------------------


def test_sign_up_in_and_out(devices: Any) -> None:
    d = devices()
    name = unique_name("Ann")
    r = d.sign_up(name)
    assert r.status_code == 201, r.text
    account = r.json()
    assert set(account) == {"id", "name", "rating", "rd", "provisional", "bot", "csrf_token"}
    assert account["name"] == name and account["provisional"] is True
    assert (account["rating"], account["rd"]) == (1500, 350)
    cookie = r.headers["set-cookie"].lower()
    assert "pw_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert "secure" not in cookie  # plain HTTP: a Secure cookie would never come back
    me = d.get("/api/account/me")
    assert me.status_code == 200 and me.json() == account

    assert d.post("/api/account/signout").status_code == 204
    error(d.get("/api/account/me"), 401, "not_signed_in")
    assert d.sign_in(name).status_code == 200
    assert d.get("/api/account/me").json()["id"] == account["id"]
    # Another device signs in to the same account with a session of its own.
    other = devices()
    assert other.sign_in(name.upper()).status_code == 200  # the name's case does not matter
    assert other.cookie != d.cookie and other.csrf != d.csrf


def test_a_secure_cookie_over_https(devices: Any) -> None:
    d = devices()
    r = d.post(
        "/api/account/signup",
        {"name": unique_name(), "password": PASSWORD},
        **{"x-forwarded-proto": "https"},
    )
    assert r.status_code == 201, r.text
    assert "secure" in r.headers["set-cookie"].lower()


def test_unknown_name_and_wrong_password_get_one_answer(devices: Any) -> None:
    d = devices()
    name = unique_name()
    assert d.sign_up(name).status_code == 201
    wrong = error(devices().sign_in(name, "not the password"), 401, "bad_credentials")
    unknown = error(devices().sign_in(unique_name(), PASSWORD), 401, "bad_credentials")
    malformed = error(devices().sign_in("no such name!", PASSWORD), 401, "bad_credentials")
    assert wrong == unknown == malformed


@pytest.mark.both_backends
def test_names_are_unique_regardless_of_case_and_look_alikes(devices: Any) -> None:
    base = uuid.uuid4().hex[:8].replace("0", "a").replace("1", "b")
    name = f"Corn{base}"
    assert devices().sign_up(name).status_code == 201
    same = error(devices().sign_up(name.upper()), 409, "name_taken")
    assert name in same["message"]
    alike = error(devices().sign_up(f"Com{base}"), 409, "name_taken")
    assert f"Com{base}" in alike["message"] and name in alike["message"]


@pytest.mark.parametrize("name", ["ab", "9lives", "x" * 21, "ann smith", "Ännä", ""])
def test_bad_names_are_refused(devices: Any, name: str) -> None:
    body = error(devices().sign_up(name), 422, "bad_name")
    assert "3 to 20" in body["message"]


@pytest.mark.parametrize("password", ["", "seven77", "x" * 201])
def test_weak_passwords_are_refused(devices: Any, password: str) -> None:
    name = unique_name()
    body = error(devices().sign_up(name, password), 422, "weak_password")
    assert "8 to 200" in body["message"]
    error(devices().sign_in(name, password), 401, "bad_credentials")  # nothing was made


def test_requests_that_do_not_validate(devices: Any) -> None:
    d = devices()
    error(d.post("/api/account/signup", {"name": "Ann"}), 422, "invalid_request")
    error(d.post("/api/account/signup", {"name": 5, "password": PASSWORD}), 422, "invalid_request")
    error(
        d.post("/api/account/signin", {"name": "Ann", "password": "x" * 5000}),
        422,
        "invalid_request",
    )


# -- forged requests, rate limits --------------------------------------------------------------


def test_forged_cross_site_requests_are_refused_and_change_nothing(devices: Any) -> None:
    d = devices()
    name = unique_name()
    assert d.sign_up(name).status_code == 201
    new_password = {"old": PASSWORD, "new": "another good password"}
    for headers in ({}, {"x-csrf-token": "forged"}, {"x-csrf-token": ""}):
        r = d.post("/api/account/password", new_password, csrf=False, **headers)
        error(r, 403, "csrf_failed")
        error(
            d.request("DELETE", "/api/account", {"password": PASSWORD}, csrf=False, **headers),
            403,
            "csrf_failed",
        )
        error(
            d.post("/api/games", {"mode": "ai", "level": 1}, csrf=False, **headers),
            403,
            "csrf_failed",
        )
        error(d.post("/api/account/signout", csrf=False, **headers), 403, "csrf_failed")
    # Nothing changed: the password, the account, its session, its games.
    assert devices().sign_in(name).status_code == 200
    assert d.get("/api/account/me").status_code == 200
    assert d.get("/api/account/games").json() == []
    # With its token the same request goes through (given the right password).
    wrong = {"old": "wrong password", "new": "x" * 10}
    error(d.post("/api/account/password", wrong), 401, "bad_credentials")
    assert d.post("/api/account/password", new_password).status_code == 200
    assert devices().sign_in(name, new_password["new"]).status_code == 200


def test_too_many_sign_ins_are_refused_for_a_while(devices: Any) -> None:
    name = unique_name()
    home = devices()
    assert home.sign_up(name).status_code == 201
    # Per name, from addresses that never signed in to it: 5 failures a minute.
    for _ in range(5):
        error(devices().sign_in(name, "wrong password"), 401, "bad_credentials")
    r = devices().sign_in(name)  # even the right password, from a new address, now
    error(r, 429, "rate_limited")
    assert 1 <= int(r.headers["retry-after"]) <= 60
    # But the strangers' failures never lock the owner out where it signed in before.
    assert home.sign_in(name).status_code == 200
    # Per address, whichever names: 20 a minute.
    # (The bucket refills one attempt every 3 s meanwhile: argon2 takes its time.)
    d = devices()
    start = time.monotonic()
    codes = [d.sign_in(unique_name(), "wrong password").status_code for _ in range(20)]
    while codes[-1] != 429 and len(codes) < 40:
        codes.append(d.sign_in(unique_name()).status_code)
    assert codes[:20] == [401] * 20
    assert codes[-1] == 429 and len(codes) <= 21 + (time.monotonic() - start) / 3, codes


def test_a_stranger_cannot_lock_the_owner_out(devices: Any) -> None:
    """One wrong password a second from rotating addresses (issue 35): the owner, on a
    device it signed in from before, signs in every time; its own typos count per address
    only."""
    name = unique_name()
    laptop, phone = devices(), devices()
    assert laptop.sign_up(name).status_code == 201
    assert phone.sign_in(name).status_code == 200  # a new address: now a known one
    for i in range(11):
        error(
            devices().sign_in(name, f"guess {i}"),
            401 if i < 5 else 429,
            ("bad_credentials" if i < 5 else "rate_limited"),
        )
        who = (laptop, phone)[i % 2]
        assert who.sign_in(name).status_code == 200
    # The owner's own wrong passwords from its known address are not a stranger's failures.
    for _ in range(3):
        error(phone.sign_in(name, "my typo"), 401, "bad_credentials")
    assert phone.sign_in(name).status_code == 200


def test_too_many_sign_ups_from_one_address(devices: Any) -> None:
    d = devices()
    for _ in range(5):
        assert d.sign_up(unique_name()).status_code == 201
    r = d.sign_up(unique_name())
    error(r, 429, "rate_limited")
    assert int(r.headers["retry-after"]) > 60  # 5 an hour
    assert devices().sign_up(unique_name()).status_code == 201  # another address may


def test_sign_in_limits_hold_across_processes(tmp_path: Path) -> None:
    db = PostgresDatabase()
    keys = RedisPrefix()
    try:
        with cluster(db.url, tmp_path, 2, *ARGS, *keys.args()) as procs:
            name = unique_name()
            first = Device(procs[0])
            assert first.sign_up(name).status_code == 201
            for i in range(5):
                error(Device(procs[i % 2]).sign_in(name, "wrong password"), 401, "bad_credentials")
            for proc in procs:
                error(Device(proc).sign_in(name), 429, "rate_limited")
            # A session made on one process is good on the other.
            other = Device(procs[1])
            other.http.cookies.set("pw_session", first.cookie)
            assert other.get("/api/account/me").json()["name"] == name

            # An account deleted on one process: a game watched on the other shows it.
            leaver = Device(procs[0])
            assert leaver.sign_up(unique_name()).status_code == 201
            made = leaver.post("/api/games", {"mode": "online"}).json()
            gid, seat = made["game_id"], made["seat"]
            with procs[1].client(gid) as watcher:
                watcher.wait_game(lambda g: g["seats"][seat]["account"] is True)
                r = leaver.request("DELETE", "/api/account", {"password": PASSWORD})
                assert r.status_code == 204
                g = watcher.wait_game(lambda g: g["seats"][seat]["name"] == "Deleted player")
                assert g["seats"][seat]["account"] is False
            events = procs[1].get(f"/api/games/{gid}/events").json()["events"]
            assert events[-1] == {
                "version": 2,
                "kind": "renamed",
                "seat": seat,
                "name": "Deleted player",
            }
    finally:
        keys.clean()
        db.drop()


# -- sessions: password change, deletion, API tokens --------------------------------------------


def test_a_password_change_ends_the_other_sessions(devices: Any) -> None:
    a, b = devices(), devices()
    name = unique_name()  # (5 password checks a minute per name: this test makes 5)
    assert a.sign_up(name).status_code == 201
    assert b.sign_in(name).status_code == 200
    token = a.post("/api/account/tokens", {"name": name, "password": PASSWORD}).json()["token"]
    error(a.post("/api/account/password", {"old": PASSWORD, "new": "short"}), 422, "weak_password")
    r = a.post("/api/account/password", {"old": PASSWORD, "new": "the new password"})
    assert r.status_code == 200 and r.json()["name"] == name
    assert a.get("/api/account/me").status_code == 200  # this session stays
    error(b.get("/api/account/me"), 401, "not_signed_in")
    bearer = {"authorization": f"Bearer {token}"}
    error(a.http.get("/api/account/me", headers=bearer), 401, "not_signed_in")
    error(devices().sign_in(name), 401, "bad_credentials")
    assert devices().sign_in(name, "the new password").status_code == 200


@pytest.mark.both_backends
def test_a_password_is_one_password_however_its_accents_are_typed(devices: Any) -> None:
    """Composed at sign-up ("é" one character), decomposed at sign-in ("e" and an accent), as
    two systems may send it (issue 35)."""
    name = unique_name()
    composed = unicodedata.normalize("NFC", "crème brûlée à la café")
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    assert devices().sign_up(name, composed).status_code == 201
    assert devices().sign_in(name, decomposed).status_code == 200
    assert devices().sign_in(name, composed).status_code == 200


def test_api_tokens_need_no_csrf_token(server: ServerProcess, devices: Any) -> None:
    d = devices()
    name = unique_name()
    assert d.sign_up(name).status_code == 201
    error(
        d.post("/api/account/tokens", {"name": name, "password": "nope nope"}),
        401,
        "bad_credentials",
    )
    r = d.post("/api/account/tokens", {"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    assert token.startswith("pwa_")
    script = http_client(base_url=server.url, timeout=WAIT)  # no cookies at all
    bearer = {"authorization": f"Bearer {token}"}
    try:
        me = script.get("/api/account/me", headers=bearer).json()
        assert me["name"] == name and me["csrf_token"] is None
        created = script.post("/api/games", json={"mode": "ai", "level": 1}, headers=bearer)
        assert created.status_code == 201, created.text
        game = created.json()
        seat = game["seat"]
        assert game["game"]["seats"][seat]["account"] is True
        assert game["game"]["seats"][seat]["name"] == name
        g = wait_turn(server, game["game_id"], seat)
        move = script.post(
            f"/api/games/{game['game_id']}/moves",
            json={"move": legal_moves(g)[0], "version": g["version"]},
            headers=bearer,
        )
        assert move.status_code == 200, move.text
        bad = {"authorization": "Bearer pwa_not-a-token"}
        error(script.get("/api/account/me", headers=bad), 401, "not_signed_in")
        error(script.post("/api/games", json={"mode": "ai"}, headers=bad), 401, "not_signed_in")
        # The token in a websocket's hello plays the account's seats too.
        with server.client(game["game_id"], token) as c:
            assert c.welcome is not None and c.welcome["seats"] == [seat]
        c = Client.raw(f"{server.ws_url}/ws/games/{game['game_id']}")
        with c:
            c.send({"type": "hello", "token": "pwa_not-a-token"})
            c.error("not_signed_in")
    finally:
        script.close()


@pytest.mark.both_backends
def test_a_deleted_account_leaves_its_games_to_a_deleted_player(
    server: ServerProcess, devices: Any
) -> None:
    d, phone = devices(), devices()
    name = unique_name()
    assert d.sign_up(name).status_code == 201
    assert phone.sign_in(name).status_code == 200
    ai = d.post("/api/games", {"mode": "ai", "level": 1}).json()
    online = d.post("/api/games", {"mode": "online"}).json()
    joined = server.post(f"/api/games/{online['game_id']}/join", {"invite": online["invite_code"]})
    assert joined.status_code == 200
    # A finished game, read back from the database by the list of finished games.
    done = d.post("/api/games", {"mode": "ai", "level": 1}).json()
    assert d.post(f"/api/games/{done['game_id']}/resign").status_code == 200

    with server.client(online["game_id"]) as watcher:
        error(
            d.request("DELETE", "/api/account", {"password": "wrong password"}),
            401,
            "bad_credentials",
        )
        assert d.request("DELETE", "/api/account", {"password": PASSWORD}).status_code == 204
        # The watcher is told the new name at once.
        g = watcher.wait_game(lambda g: g["seats"][online["seat"]]["name"] == "Deleted player")
        assert g["seats"][online["seat"]]["account"] is False

    for device in (d, phone):
        error(device.get("/api/account/me"), 401, "not_signed_in")
    error(devices().sign_in(name), 401, "bad_credentials")
    for created in (ai, online, done):
        seat = server.game(created["game_id"])["seats"][created["seat"]]
        assert (seat["name"], seat["account"]) == ("Deleted player", False)
    finished = [s for s in server.get("/api/games?limit=200").json() if s["id"] == done["game_id"]]
    assert finished[0]["players"][done["seat"]] == "Deleted player"
    # The seat token still plays (the device that made the game keeps it).
    assert server.post(f"/api/games/{ai['game_id']}/resign", token=ai["token"]).status_code == 200
    # The name is free again.
    assert devices().sign_up(name).status_code == 201


# -- seats bound to accounts ---------------------------------------------------------------------


def test_an_accounts_seat_is_played_from_another_device(
    server: ServerProcess, devices: Any
) -> None:
    laptop, phone = devices(), devices()
    name = unique_name()
    assert laptop.sign_up(name).status_code == 201
    assert phone.sign_in(name).status_code == 200
    first = laptop.post("/api/games", {"mode": "ai", "level": 1, "name": "Someone else"}).json()
    created = laptop.post("/api/games", {"mode": "ai", "level": 1, "seat": 1}).json()
    game_id, seat = created["game_id"], created["seat"]
    assert seat == 1
    view = created["game"]
    assert view["seats"][seat] == {**view["seats"][seat], "name": name, "account": True}
    assert view["seats"][1 - seat]["account"] is False and view["rated"] is False
    assert server.game(first["game_id"])["seats"][0]["name"] == name  # the account's name

    # The phone has no seat token: its account plays the seat, over HTTP...
    g = wait_turn(server, game_id, seat)
    error(
        server.post(f"/api/games/{game_id}/moves", {"move": "A", "version": g["version"]}),
        401,
        "missing_token",
    )
    r = phone.post(
        f"/api/games/{game_id}/moves", {"move": legal_moves(g)[0], "version": g["version"]}
    )
    assert r.status_code == 200, r.text
    # ... and over the websocket (the cookie, from this server's own page).
    with phone.socket(game_id) as c:
        assert c.welcome is not None and c.welcome["seats"] == [seat]
        g = c.wait_game(lambda g: g["to_move"] == seat)
        assert c.move(legal_moves(g)[0])["type"] == "ack"
    # A page of another site gets a spectator's connection (cross-site websocket hijacking).
    with phone.socket(game_id, origin="https://evil.example") as c:
        assert c.welcome is not None and c.welcome["seats"] == []
        assert c.request({"type": "resign"})["code"] == "read_only"
    # A guest's websocket is a spectator's too; a wrong token is refused as before.
    with server.client(game_id) as c:
        assert c.welcome is not None and c.welcome["role"] == "spectator"

    # My games: the latest first, by status.
    mine = phone.get("/api/account/games").json()
    assert [s["id"] for s in mine] == [game_id, first["game_id"]]
    assert mine[0]["players"][seat] == name and mine[0]["status"] == "active"
    assert phone.post(f"/api/games/{first['game_id']}/resign").status_code == 200
    assert [s["id"] for s in phone.get("/api/account/games?status=finished").json()] == [
        first["game_id"]
    ]
    assert [s["id"] for s in phone.get("/api/account/games?status=active").json()] == [game_id]
    error(devices().get("/api/account/games"), 401, "not_signed_in")
    error(phone.get("/api/account/games?status=lost"), 422, "invalid_request")


def test_joining_signed_in_binds_the_seat(server: ServerProcess, devices: Any) -> None:
    host, guest = devices(), devices()
    name = unique_name()
    assert guest.sign_up(name).status_code == 201
    created = host.post("/api/games", {"mode": "online", "name": "Host"}).json()
    path = f"/api/games/{created['game_id']}/join"
    r = guest.post(path, {"invite": created["invite_code"], "name": "ignored"})
    assert r.status_code == 200, r.text
    seat = r.json()["seat"]
    assert r.json()["game"]["seats"][seat] == {
        **r.json()["game"]["seats"][seat],
        "name": name,
        "account": True,
    }
    assert r.json()["game"]["seats"][1 - seat]["name"] == "Host"
    assert [s["id"] for s in guest.get("/api/account/games").json()] == [created["game_id"]]
    # A signed-in creator cannot take the other seat of its own game with its account.
    own = guest.post("/api/games", {"mode": "online"}).json()
    r = guest.post(f"/api/games/{own['game_id']}/join", {"invite": own["invite_code"]})
    error(r, 403, "not_allowed")


# -- rated games -------------------------------------------------------------------------------


def test_rated_games_need_an_account_and_get_no_help(server: ServerProcess, devices: Any) -> None:
    guest = devices()
    error(guest.post("/api/games", {"mode": "ai", "rated": True}), 403, "account_required")
    d = devices()
    assert d.sign_up(unique_name()).status_code == 201
    error(d.post("/api/games", {"mode": "online", "rated": True}), 422, "invalid_request")
    error(d.post("/api/games", {"mode": "ai", "rated": "yes"}), 422, "invalid_request")
    created = d.post("/api/games", {"mode": "ai", "level": 1, "rated": True}).json()
    game_id, seat = created["game_id"], created["seat"]
    assert created["game"]["rated"] is True
    g = wait_turn(server, game_id, seat)
    assert (
        d.post(f"/api/games/{game_id}/moves", {"move": "A", "version": g["version"]}).status_code
        == 200
    )
    for action in ("undo", "hint", "analysis", "review"):
        body = error(d.post(f"/api/games/{game_id}/{action}"), 403, "not_allowed")
        assert "rated" in body["message"]
    with d.socket(game_id) as c:
        assert c.request({"type": "undo"})["code"] == "not_allowed"
        assert c.request({"type": "hint"})["code"] == "not_allowed"
    # An unrated game against the AI keeps its help.
    free = d.post("/api/games", {"mode": "ai", "level": 1}).json()
    assert free["game"]["rated"] is False
    error(d.post(f"/api/games/{free['game_id']}/undo"), 409, "nothing_to_undo")
    # A rematch stays rated, its seat bound to the account.
    assert d.post(f"/api/games/{game_id}/resign").status_code == 200
    r = d.post(f"/api/games/{game_id}/rematch")
    assert r.status_code == 200, r.text
    again = server.game(r.json()["game_id"])
    assert again["rated"] is True and again["seats"][seat]["account"] is True


# -- an ended session ends on its open websockets too -----------------------------------------


def close_code(ws: Any, seconds: float = WAIT) -> int | None:
    """Read until the server closes the websocket: its close code."""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=max(0.01, deadline - time.monotonic()))
    except ConnectionClosed as e:
        return None if e.rcvd is None else e.rcvd.code
    except TimeoutError:
        pass
    return None


def lobby_socket(server: ServerProcess, cookie: str) -> Any:
    ws = connect(
        f"{server.ws_url}/ws/lobby",
        proxy=None,
        open_timeout=WAIT,
        close_timeout=2,
        additional_headers={"cookie": f"pw_session={cookie}", "origin": server.url},
    ).__enter__()
    ws.send(json.dumps({"type": "hello", "lang": "en"}))
    welcome = json.loads(ws.recv(timeout=WAIT))
    assert welcome["type"] == "welcome" and welcome["you"]["signed_in"] is True, welcome
    return ws


def test_a_password_change_closes_the_other_sessions_sockets(
    server: ServerProcess, devices: Any
) -> None:
    laptop, phone = devices(), devices()
    name = unique_name()
    assert laptop.sign_up(name).status_code == 201
    assert phone.sign_in(name).status_code == 200
    created = laptop.post("/api/games", {"mode": "ai", "level": 1, "seat": 0}).json()
    game_id = created["game_id"]
    with phone.socket(game_id) as game, lobby_socket(server, phone.cookie) as lobby:
        assert game.welcome is not None and game.welcome["seats"] == [0]
        with laptop.socket(game_id) as mine:  # the session that changes the password
            r = laptop.post("/api/account/password", {"old": PASSWORD, "new": "the new password"})
            assert r.status_code == 200
            assert close_code(game.ws) == 4401
            assert close_code(lobby) == 4401
            g = wait_turn(server, game_id, 0)  # the session that stays plays on
            assert mine.move(legal_moves(g)[0])["type"] == "ack"


def test_signing_out_or_deleting_the_account_closes_its_sockets(
    server: ServerProcess, devices: Any
) -> None:
    d = devices()
    assert d.sign_up(unique_name()).status_code == 201
    game_id = d.post("/api/games", {"mode": "ai", "level": 1}).json()["game_id"]
    with d.socket(game_id) as game, lobby_socket(server, d.cookie) as lobby:
        assert d.post("/api/account/signout").status_code == 204
        assert close_code(game.ws) == 4401 and close_code(lobby) == 4401

    # A deleted account's lobby socket neither seeks nor lingers as signed in.
    gone = devices()
    assert gone.sign_up(unique_name()).status_code == 201
    with lobby_socket(server, gone.cookie) as lobby:
        assert gone.request("DELETE", "/api/account", {"password": PASSWORD}).status_code == 204
        assert close_code(lobby) == 4401


def test_a_session_ended_unannounced_acts_no_more(server: ServerProcess, devices: Any) -> None:
    """A session whose end no process announced (Redis away, or it expired) is refused at
    the socket's next message: each one is checked against the database."""
    d = devices()
    assert d.sign_up(unique_name()).status_code == 201
    game_id = d.post("/api/games", {"mode": "ai", "level": 1}).json()["game_id"]
    with d.socket(game_id) as game, lobby_socket(server, d.cookie) as lobby:
        # Each socket answers a message first: it is past the check made as it opens (which
        # would close it at once), so what follows shows the check made at every message.
        assert game.request({"type": "ping"})["type"] == "pong"
        lobby.send(json.dumps({"type": "cancel", "seek_id": "none", "id": 0}))
        reply = {"type": "seeks_changed"}
        while reply.get("ref") != 0:  # (a list of seeks may come first)
            reply = json.loads(lobby.recv(timeout=WAIT))
        assert reply["code"] == "seek_not_found", reply
        engine = create_engine(server.db_url)
        try:
            with engine.begin() as conn:  # the session's row goes, as an expiry would
                conn.execute(text("DELETE FROM sessions"))
        finally:
            engine.dispose()
        reply = game.request({"type": "resign"})
        assert reply["type"] == "error" and reply["code"] == "not_signed_in", reply
        assert close_code(game.ws) == 4401
        lobby.send(json.dumps({"type": "seek", "id": 1}))
        reply = {"type": "seeks_changed"}
        while reply["type"] != "error":  # (a list of seeks may come first)
            reply = json.loads(lobby.recv(timeout=WAIT))
        assert reply["code"] == "not_signed_in" and reply["ref"] == 1, reply
        assert close_code(lobby) == 4401
    assert server.game(game_id)["status"] == "active"


def test_an_ended_session_closes_its_sockets_on_every_process(tmp_path: Path) -> None:
    db = PostgresDatabase()
    keys = RedisPrefix()
    try:
        with cluster(db.url, tmp_path, 2, *ARGS, *keys.args()) as procs:
            here = Device(procs[0])
            assert here.sign_up(unique_name()).status_code == 201
            game_id = here.post("/api/games", {"mode": "ai", "level": 1}).json()["game_id"]
            there = Device(procs[1])
            there.http.cookies.set("pw_session", here.cookie)
            there.csrf = here.csrf
            with there.socket(game_id) as game, lobby_socket(procs[1], here.cookie) as lobby:
                assert game.welcome is not None and game.welcome["seats"] == [0]
                assert here.post("/api/account/signout").status_code == 204
                assert close_code(game.ws) == 4401 and close_code(lobby) == 4401
            here.close()
            there.close()
    finally:
        keys.clean()
        db.drop()


def test_migration_0005_keys_are_todays_keys() -> None:
    """Migration 0005 keeps a snapshot of the look-alike rule (storage never imports a domain):
    it must agree with accounts/names.py as long as the rule stands."""
    import importlib

    migration = importlib.import_module(
        "patchwork.server.storage.migrations.versions.v0005_name_keys"
    )
    for name in ("xvw", "xvvv", "Corn", "Bi11", "mary-ann", "vwvwv", "Vivvy", "rnrnm"):
        assert migration.name_key(name) == name_key(name)
