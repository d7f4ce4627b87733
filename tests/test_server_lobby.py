"""The lobby (``/ws/lobby``) against real server processes on SQLite and PostgreSQL: seeks
seen live by others, accepted into a game both players hear of, cancelled, gone with their
maker's connection, one winner of two acceptors, quick pairing, bad messages; accounts
(rated seeks, rating ranges, seats bound to accounts); and two processes over PostgreSQL and
Redis sharing one lobby."""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from websockets.sync.client import ClientConnection, connect  # noqa: E402

from patchwork.server.lobby.messages import lobby_server_messages  # noqa: E402
from patchwork.server.lobby.pairing import quick_partner  # noqa: E402
from patchwork.server.lobby.store import SeekRow  # noqa: E402
from server_fixtures import (  # noqa: E402
    WAIT,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    fetch,
    legal_moves,
    receive_until,
    running_server,
)

pytest_plugins = ["server_fixtures"]

FISCHER = {"kind": "fischer", "initial": 300, "increment": 2}


class Lobby:
    """A lobby websocket that has said hello; every message it gets is checked against the
    server's closed set of lobby messages."""

    def __init__(self, server: ServerProcess, cookie: str | None = None, hello: bool = True):
        headers = {"origin": server.url}
        if cookie is not None:
            headers["cookie"] = f"pw_session={cookie}"
        self.ws: ClientConnection = connect(
            f"{server.ws_url}/ws/lobby",
            proxy=None,
            open_timeout=WAIT,
            close_timeout=2,
            additional_headers=headers,
        ).__enter__()
        self.messages: list[dict[str, Any]] = []
        self._taken: set[int] = set()
        self.seeks: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None
        if hello:
            self.send({"type": "hello", "lang": "en"})
            self.welcome = self.expect("welcome")
            self.seeks = self.welcome["seeks"]

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        lobby_server_messages.validate_python(message)  # one of the closed set
        self.messages.append(message)
        if message["type"] == "seeks_changed":  # merged into the list, as the web client does
            kept = {s["id"]: s for s in self.seeks if s["id"] not in message["removed"]}
            kept.update({s["id"]: s for s in message["seeks"]})
            self.seeks = sorted(kept.values(), key=lambda s: s["created_at"])
        return message

    def recv_until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        return receive_until(self.recv, pred, timeout, lambda: self.messages[-5:])

    def seen(self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        """The first message not yet looked for (received already, perhaps while waiting
        for a reply) for which ``pred`` holds, else the next one."""
        found = next((m for m in self.messages if pred(m) and id(m) not in self._taken), None)
        if found is None:
            found = self.recv_until(pred, timeout)
        self._taken.add(id(found))
        return found

    def expect(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        return self.seen(lambda m: m["type"] == kind, timeout)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send with an id; the reply (ack, error or pong) that carries it back."""
        ref = uuid.uuid4().hex[:8]
        self.send({**message, "id": ref})
        return self.seen(lambda m: m.get("ref") == ref)

    def seek(self, **fields: Any) -> str:
        reply = self.request({"type": "seek", "rules": {}, "clock": FISCHER, **fields})
        assert reply["type"] == "ack" and reply["of"] == "seek", reply
        seek_id: str = reply["seek_id"]
        return seek_id

    def listed(self, seek_id: str) -> dict[str, Any] | None:
        return next((s for s in self.seeks if s["id"] == seek_id), None)

    def wait_listed(self, seek_id: str, present: bool = True) -> dict[str, Any] | None:
        """The list once ``seek_id`` is in it (or gone from it)."""
        if (self.listed(seek_id) is not None) != present:
            self.recv_until(
                lambda m: (
                    m["type"] == "seeks_changed" and (self.listed(seek_id) is not None) == present
                )
            )
        return self.listed(seek_id)

    def error(self, message: dict[str, Any], code: str) -> dict[str, Any]:
        reply = self.request(message)
        assert reply["type"] == "error" and reply["code"] == code, reply
        return reply

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> Lobby:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_a_move(server: ServerProcess, paired: list[dict[str, Any]]) -> None:
    """The player to move plays a legal move in the paired game with the token it was given."""
    gid = paired[0]["game_id"]
    game = server.game(gid)
    assert game["status"] == "active" and game["mode"] == "online"
    mover = next(p for p in paired if p["seat"] == game["to_move"])
    with server.client(gid, mover["token"]) as c:
        assert c.welcome is not None and c.welcome["seats"] == [mover["seat"]]
        assert c.game is not None
        reply = c.move(legal_moves(c.game)[0])
        assert reply["type"] == "ack", reply


# -- quick pairing's window ------------------------------------------------------------------------


def quick_row(seek_id: str, rating: float | None, since: float, **fields: Any) -> SeekRow:
    made = dt.datetime.fromtimestamp(since, dt.UTC)
    base: dict[str, Any] = {
        "id": seek_id,
        "created_at": made,
        "user_id": None,
        "guest_hash": "h",
        "name": seek_id,
        "rating": rating,
        "rd": None,
        "quick": True,
        "rated": False,
        "edition": "revised",
        "rotation": True,
        "flip": True,
        "clock": None,
        "rating_min": None,
        "rating_max": None,
        "game_id": None,
    }
    return SeekRow(**{**base, **fields})


def test_quick_pairing_widens_its_window_by_100_every_10_seconds() -> None:
    me = quick_row("me", 1500, since=1000.0)
    far = quick_row("far", 1850, since=1000.0)
    near = quick_row("near", 1690, since=1000.0)
    assert quick_partner(me, [me, near], 1000.0) is near  # within 200 at once
    assert quick_partner(me, [me, far], 1000.0) is None
    assert quick_partner(me, [me, far], 1019.9) is None  # 300 after 10 s
    assert quick_partner(me, [me, far], 1020.0) is far  # 400 after 20 s
    # The longer waiter's window counts; a guest counts as 1500.
    old = quick_row("old", 1850, since=970.0)
    guest = quick_row("guest", None, since=1000.0)
    assert quick_partner(guest, [guest, old], 1000.0) is old
    # Never the same account, never a rated game with a casual one, never a taken seek.
    same = quick_row("same", 1500, since=1000.0, user_id="u1")
    mine = quick_row("mine", 1500, since=1000.0, user_id="u1")
    rated = quick_row("rated", 1500, since=1000.0, rated=True)
    taken = quick_row("taken", 1500, since=1000.0, game_id="g")
    assert quick_partner(mine, [mine, same, rated, taken], 1000.0) is None


# -- guests ---------------------------------------------------------------------------------------


def test_a_seek_shows_live_and_accepting_it_starts_a_game_for_both(server: ServerProcess) -> None:
    with Lobby(server) as ann, Lobby(server) as bob:
        assert ann.welcome is not None and ann.welcome["you"]["signed_in"] is False
        assert ann.welcome["you"]["rating"] is None
        seek_id = ann.seek(rules={"edition": "original", "flip": False})
        mine = ann.wait_listed(seek_id)
        assert mine is not None and mine["mine"] is True
        theirs = bob.wait_listed(seek_id)
        assert theirs is not None and theirs["mine"] is False
        assert theirs["name"] == ann.welcome["you"]["name"] and theirs["rating"] is None
        assert theirs["rules"] == {"edition": "original", "rotation": True, "flip": False}
        assert theirs["clock"]["kind"] == "fischer" and theirs["clock"]["initial"] == 300
        assert theirs["rated"] is False

        reply = bob.request({"type": "accept", "seek_id": seek_id})
        assert reply["type"] == "ack" and reply["of"] == "accept", reply
        to_bob = bob.expect("paired")
        to_ann = ann.expect("paired")
        assert to_ann["game_id"] == to_bob["game_id"] == reply["game_id"]
        assert {to_ann["seat"], to_bob["seat"]} == {0, 1}
        assert to_ann["token"] != to_bob["token"]
        assert to_ann["seek_id"] == to_bob["seek_id"] == seek_id
        assert to_bob["ws_url"] == f"/ws/games/{reply['game_id']}"
        assert ann.wait_listed(seek_id, present=False) is None
        assert bob.wait_listed(seek_id, present=False) is None

    game = server.game(to_ann["game_id"])
    assert game["status"] == "active" and game["rules"]["edition"] == "original"
    names = {s["seat"]: s["name"] for s in game["seats"]}
    assert bob.welcome is not None
    assert names[to_ann["seat"]] == ann.welcome["you"]["name"]
    assert names[to_bob["seat"]] == bob.welcome["you"]["name"]
    assert game["clock"]["kind"] == "fischer" and game["clock"]["initial_ms"] == 300_000
    play_a_move(server, [to_ann, to_bob])


def test_cancelling_a_seek_removes_it_for_everyone(server: ServerProcess) -> None:
    with Lobby(server) as ann, Lobby(server) as bob:
        seek_id = ann.seek()
        bob.wait_listed(seek_id)
        bob.error({"type": "cancel", "seek_id": seek_id}, "seek_not_found")  # not bob's
        reply = ann.request({"type": "cancel", "seek_id": seek_id})
        assert reply["type"] == "ack" and reply["of"] == "cancel"
        assert bob.wait_listed(seek_id, present=False) is None
        assert ann.wait_listed(seek_id, present=False) is None
        bob.error({"type": "accept", "seek_id": seek_id}, "seek_not_found")
        ann.error({"type": "cancel", "seek_id": seek_id}, "seek_not_found")


def test_a_seek_goes_with_its_makers_connection(server: ServerProcess) -> None:
    with Lobby(server) as bob:
        ann = Lobby(server)
        seek_id = ann.seek()
        bob.wait_listed(seek_id)
        ann.close()
        assert bob.wait_listed(seek_id, present=False) is None
        bob.error({"type": "accept", "seek_id": seek_id}, "seek_not_found")
        with Lobby(server) as cat:  # a newcomer never sees it
            assert cat.listed(seek_id) is None


@pytest.mark.both_backends
def test_a_seek_dies_with_its_server_and_not_after_a_restart(backend: str, tmp_path: Path) -> None:
    """kill -9 of a single server: after its restart the seeks of its last run are gone, and
    accepting one starts no game its maker never sees (issue 35)."""
    with running_server(backend, tmp_path, "--ai-workers", "1") as server:
        ann = Lobby(server)
        seek_id = ann.seek()
        server.kill()
        ann.close()
        server.start()
        with Lobby(server) as bob:
            assert bob.listed(seek_id) is None
            bob.error({"type": "accept", "seek_id": seek_id}, "seek_not_found")


def test_seek_churn_from_one_address_is_limited(backend: str, tmp_path: Path) -> None:
    """Every seek made or cancelled is news to every lobby client: one address makes 10 at
    once, then 20 a minute, however many connections it opens (issue 35)."""
    with (
        running_server(backend, tmp_path, "--ai-workers", "1") as server,
        Lobby(server) as ann,
        Lobby(server) as bob,
    ):
        for i in range(10):
            maker = (ann, bob)[i % 2]
            seek_id = maker.seek()
            assert maker.request({"type": "cancel", "seek_id": seek_id})["type"] == "ack"
        refused = ann.error({"type": "seek", "rules": {}, "clock": FISCHER}, "rate_limited")
        assert "too many seeks" in refused["message"] and refused["retry_after"] > 0
        bob.error({"type": "quick"}, "rate_limited")


def test_nobody_accepts_their_own_seek(server: ServerProcess) -> None:
    with Lobby(server) as ann:
        seek_id = ann.seek()
        ann.error({"type": "accept", "seek_id": seek_id}, "own_seek")
        assert ann.wait_listed(seek_id) is not None  # still open


@pytest.mark.both_backends
def test_of_two_acceptors_at_once_one_gets_the_game(server: ServerProcess) -> None:
    with Lobby(server) as ann, Lobby(server) as bob, Lobby(server) as cat:
        seek_id = ann.seek()
        bob.wait_listed(seek_id)
        cat.wait_listed(seek_id)
        replies: dict[str, dict[str, Any]] = {}
        start = threading.Barrier(2)

        def accept(who: Lobby, key: str) -> None:
            start.wait()
            replies[key] = who.request({"type": "accept", "seek_id": seek_id})

        threads = [
            threading.Thread(target=accept, args=(who, key))
            for who, key in ((bob, "bob"), (cat, "cat"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(WAIT)
        kinds = sorted(r["type"] for r in replies.values())
        assert kinds == ["ack", "error"], replies
        lost = next(r for r in replies.values() if r["type"] == "error")
        assert lost["code"] in ("seek_taken", "seek_not_found"), lost
        won = next(r for r in replies.values() if r["type"] == "ack")
        paired = ann.expect("paired")
        assert paired["game_id"] == won["game_id"]
        ann.wait_listed(seek_id, present=False)
        with pytest.raises(TimeoutError):  # one game only
            ann.expect("paired", timeout=1.0)


def test_rated_play_needs_an_account(server: ServerProcess) -> None:
    with Lobby(server) as guest:
        guest.error(
            {"type": "seek", "rules": {}, "clock": FISCHER, "rated": True}, "account_required"
        )
        guest.error({"type": "quick", "rated": True}, "account_required")


def test_quick_pairing_pairs_two_waiting_players(server: ServerProcess) -> None:
    with Lobby(server) as ann, Lobby(server) as bob:
        first = ann.request({"type": "quick"})
        assert first["type"] == "ack" and first["of"] == "quick"
        again = ann.request({"type": "quick"})  # already waiting: the same
        assert again["seek_id"] == first["seek_id"]
        second = bob.request({"type": "quick"})
        assert second["type"] == "ack"
        to_ann, to_bob = ann.expect("paired"), bob.expect("paired")
        assert to_ann["game_id"] == to_bob["game_id"]
        assert {to_ann["seat"], to_bob["seat"]} == {0, 1}
        assert to_ann["opponent"] == (bob.welcome or {})["you"]["name"]
        assert all(s["id"] not in (first["seek_id"], second["seek_id"]) for s in ann.seeks)
    game = server.game(to_ann["game_id"])
    assert game["status"] == "active" and game["clock"]["kind"] == "fischer"
    play_a_move(server, [to_ann, to_bob])


def test_a_quick_pairing_can_be_called_off(server: ServerProcess) -> None:
    with Lobby(server) as ann:
        quick = ann.request({"type": "quick"})
        ann.seen(lambda m: m["type"] == "seeks_changed" and m["quick"] == quick["seek_id"])
        reply = ann.request({"type": "cancel", "seek_id": quick["seek_id"]})
        assert reply["type"] == "ack"
        ann.seen(lambda m: m["type"] == "seeks_changed" and m["quick"] is None)
    with Lobby(server) as bob, Lobby(server) as cat:  # the call-off left nobody waiting
        bob.request({"type": "quick"})
        cat.request({"type": "quick"})
        assert bob.expect("paired")["game_id"] == cat.expect("paired")["game_id"]


def test_bad_messages_get_errors_and_the_connection_stays(server: ServerProcess) -> None:
    early = Lobby(server, hello=False)
    with early:
        early.send({"type": "seek", "rules": {}})
        assert early.expect("error")["code"] == "hello_required"
        early.send("{not json")
        assert early.expect("error")["code"] == "bad_json"
        early.send({"type": "hello"})
        assert early.expect("welcome")["you"]["signed_in"] is False
    with Lobby(server) as ann:
        ann.error({"type": "dance"}, "invalid_message")
        ann.error({"type": "hello"}, "invalid_message")  # once only
        ann.error({"type": "seek", "rules": {"edition": "newest"}}, "invalid_message")
        ann.error({"type": "seek", "clock": {"kind": "fischer"}}, "invalid_message")
        ann.error({"type": "seek", "rated": "yes"}, "invalid_message")
        ann.error({"type": "seek", "rating_min": 1800, "rating_max": 1200}, "invalid_message")
        ann.error({"type": "seek", "rules": {"solo": {"level": 1}}}, "invalid_message")
        ann.error({"type": "accept"}, "invalid_message")
        ann.error({"type": "accept", "seek_id": 7}, "invalid_message")
        ann.error({"type": "accept", "seek_id": "x" * 200}, "invalid_message")
        ann.error({"type": "accept", "seek_id": "nosuchseek"}, "seek_not_found")
        ann.send("[1, 2]")
        assert ann.expect("error")["code"] == "invalid_message"
        ann.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert ann.expect("error")["code"] == "too_large"
        ann.send(b"\x00\x01")
        assert ann.expect("error")["code"] == "invalid_message"
        for _ in range(3):
            ann.seek()
        ann.error({"type": "seek", "rules": {}}, "too_many_seeks")
        assert ann.request({"type": "ping"})["type"] == "pong"


# -- accounts -------------------------------------------------------------------------------------


def sign_up(server: ServerProcess, prefix: str) -> tuple[str, dict[str, Any]]:
    """A new account: its session cookie and the Account answer."""
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    r = fetch(
        "POST",
        f"{server.url}/api/account/signup",
        json={"name": name, "password": "correct horse battery"},
        timeout=WAIT,
    )
    assert r.status_code == 201, r.text
    cookie = r.cookies.get("pw_session")
    assert cookie, r.headers
    account: dict[str, Any] = r.json()
    return cookie, account


def test_rated_seeks_between_accounts_bind_the_seats(server: ServerProcess) -> None:
    ann_cookie, ann = sign_up(server, "Ann")
    bob_cookie, bob = sign_up(server, "Bob")
    with (
        Lobby(server, ann_cookie) as ann_lobby,
        Lobby(server, bob_cookie) as bob_lobby,
        Lobby(server) as guest,
    ):
        assert ann_lobby.welcome is not None
        you = ann_lobby.welcome["you"]
        assert you["signed_in"] is True and you["name"] == ann["name"] and you["rating"] == 1500
        seek_id = ann_lobby.seek(rated=True)
        listed = bob_lobby.wait_listed(seek_id)
        assert listed is not None and listed["rated"] is True and listed["name"] == ann["name"]
        assert listed["rating"] == 1500 and listed["provisional"] is True  # a new account
        assert you["provisional"] is True
        guest.wait_listed(seek_id)
        guest.error({"type": "accept", "seek_id": seek_id}, "account_required")

        narrow = ann_lobby.seek(rating_min=1600, rating_max=2000)
        bob_lobby.wait_listed(narrow)
        err = bob_lobby.error({"type": "accept", "seek_id": narrow}, "out_of_range")
        assert "1500" in err["message"]

        reply = bob_lobby.request({"type": "accept", "seek_id": seek_id})
        assert reply["type"] == "ack", reply
        to_ann = ann_lobby.expect("paired")
        to_bob = bob_lobby.expect("paired")
        assert to_ann["game_id"] == to_bob["game_id"] and to_ann["rated"] is True
        assert to_ann["opponent"] == bob["name"] and to_bob["opponent"] == ann["name"]
    game = server.game(to_ann["game_id"])
    names = {s["seat"]: s["name"] for s in game["seats"]}
    assert names == {to_ann["seat"]: ann["name"], to_bob["seat"]: bob["name"]}
    # The account plays its seat without the token too: its games list has it.
    r = fetch(
        "GET",
        f"{server.url}/api/account/games",
        params={"status": "active"},
        cookies={"pw_session": ann_cookie},
        timeout=WAIT,
    )
    assert r.status_code == 200, r.text
    (mine,) = [g for g in r.json() if g["id"] == to_ann["game_id"]]
    # My games says which seat is Ann's and whose turn it is (seat 0 moves first).
    assert mine["seat"] == to_ann["seat"] and mine["to_move"] == 0 and mine["moves"] == 0
    assert mine["rated"] is True and mine["clock"] == "fischer" and mine["status"] == "active"
    play_a_move(server, [to_ann, to_bob])


def test_an_account_never_meets_itself_in_the_lobby(server: ServerProcess) -> None:
    cookie, _ = sign_up(server, "Cat")
    with Lobby(server, cookie) as here, Lobby(server, cookie) as there:
        seek_id = here.seek()
        there.wait_listed(seek_id)
        there.error({"type": "accept", "seek_id": seek_id}, "own_seek")


# -- several processes ----------------------------------------------------------------------------


@pytest.fixture
def two(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    db = PostgresDatabase()
    keys = RedisPrefix()
    try:
        with cluster(db.url, tmp_path, 2, "--ai-workers", "1", *keys.args()) as procs:
            yield procs
    finally:
        keys.clean()
        db.drop()


def test_the_lobby_is_shared_by_every_process(two: list[ServerProcess]) -> None:
    a, b = two
    with Lobby(a) as ann, Lobby(b) as bob:
        seek_id = ann.seek()
        assert bob.wait_listed(seek_id) is not None  # made on A, seen on B
        reply = bob.request({"type": "accept", "seek_id": seek_id})
        assert reply["type"] == "ack", reply
        to_ann = ann.expect("paired")  # heard on A, the game made on B
        to_bob = bob.expect("paired")
        assert to_ann["game_id"] == to_bob["game_id"]
        assert {to_ann["seat"], to_bob["seat"]} == {0, 1}
        ann.wait_listed(seek_id, present=False)
        # Quick pairing across the processes too.
        ann.request({"type": "quick"})
        bob.request({"type": "quick"})
        assert ann.expect("paired")["game_id"] == bob.expect("paired")["game_id"]
        # A seek whose maker leaves A vanishes on B.
        cat = Lobby(a)
        gone = cat.seek()
        bob.wait_listed(gone)
        cat.close()
        bob.wait_listed(gone, present=False)
    play_a_move(a, [to_ann, to_bob])


def test_a_seek_dies_with_its_makers_process(two: list[ServerProcess]) -> None:
    """kill -9 of the maker's process: its seek can no longer be accepted, at once, and leaves
    the list within seconds, not at its expiry (issue 35: it stayed 46 s, and accepting it
    started a rated game its maker lost on time)."""
    a, b = two
    with Lobby(b) as bob:
        ann = Lobby(a)
        seek_id = ann.seek()
        bob.wait_listed(seek_id)
        a.kill()
        ann.close()
        deadline = time.monotonic() + 7.0  # Redis forgets a process 6 s after its last word
        while time.monotonic() < deadline:
            reply = bob.request({"type": "accept", "seek_id": seek_id})
            assert reply["type"] == "error", reply  # never a game
            if reply["code"] == "seek_not_found":
                break
            time.sleep(0.5)  # the dead process's word ages in Redis: no event to await
        assert reply["code"] == "seek_not_found", reply
        assert bob.wait_listed(seek_id, present=False) is None


def test_a_change_sends_only_the_news(server: ServerProcess) -> None:
    """Not the whole list after every change (issue 35: seek churn sent every lobby client
    0.6 MB/s of full lists): a new seek comes alone, a cancelled one as its id."""
    with Lobby(server) as ann, Lobby(server) as bob:
        first = ann.seek()
        bob.wait_listed(first)
        second = ann.seek()
        news = bob.seen(lambda m: m["type"] == "seeks_changed" and any(
            s["id"] == second for s in m["seeks"]))  # fmt: skip
        assert [s["id"] for s in news["seeks"]] == [second] and news["removed"] == []
        assert ann.request({"type": "cancel", "seek_id": first})["type"] == "ack"
        gone = bob.seen(lambda m: m["type"] == "seeks_changed" and first in m["removed"])
        assert gone["seeks"] == [] and gone["removed"] == [first]
        assert [s["id"] for s in bob.seeks if s["id"] in (first, second)] == [second]
