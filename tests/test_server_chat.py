"""Chat (issue 39, docs/server.md "Chat"), against real server processes on SQLite and
PostgreSQL: the players' room of a game between people, the spectators' room the players never
see, the lobby's room; history on reconnection; the limits (length, control characters, flood,
the same words twice); guests only in their own game's players' room; presets; blocks; a
site-wide mute; reports and ``patchwork admin reports``; and two processes over Redis, where a
message said on one arrives on the other exactly once and a dead process loses nothing."""

from __future__ import annotations

import datetime as dt
import json
import secrets
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from sqlalchemy import insert  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from patchwork.server import admin  # noqa: E402
from patchwork.server.http.game_socket import server_messages  # noqa: E402
from patchwork.server.lobby.messages import lobby_server_messages  # noqa: E402
from patchwork.server.storage.models import blocks  # noqa: E402
from patchwork.server.storage.store import Store  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    WAIT,
    Account,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    client_address,
    cluster,
    receive_until,
    running_server,
)

pytest_plugins = ["server_fixtures"]

ARGS = (*SHARED_ARGS, *TRUST_FORWARDED)
QUIET = 0.6  # seconds a test listens to be sure that nothing more comes


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of this module's own that believes X-Forwarded-For: each test's guests and
    accounts come from addresses of their own (the chat's limits are per address)."""
    tmp = tmp_path_factory.mktemp(f"chat-{backend}")
    with running_server(backend, tmp, *ARGS) as proc:
        yield proc


class Socket:
    """A game or lobby websocket that has said hello; every message it gets is checked
    against that socket's closed set."""

    def __init__(
        self,
        server: ServerProcess,
        path: str,
        hello: dict[str, Any],
        cookie: str | None = None,
        ip: str | None = None,
        chat: bool = True,
    ) -> None:
        headers = {"origin": server.url, "x-forwarded-for": ip or client_address()}
        if cookie is not None:
            headers["cookie"] = f"pw_session={cookie}"
        self.ws: ClientConnection = connect(
            f"{server.ws_url}{path}",
            proxy=None,
            open_timeout=WAIT,
            close_timeout=2,
            additional_headers=headers,
        ).__enter__()
        self.closed_set = lobby_server_messages if path == "/ws/lobby" else server_messages
        self.messages: list[dict[str, Any]] = []
        self.ws.send(json.dumps(hello))
        self.welcome = self.expect("welcome")
        # The room's latest messages follow the welcome (``chat``: the test expects a room).
        self.history = self.expect_chat(history=True) if chat else None

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        self.closed_set.validate_python(message)
        self.messages.append(message)
        return message

    def recv_until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        for m in self.messages:
            if pred(m) and not m.get("_taken"):
                m["_taken"] = True
                return m
        found = receive_until(self.recv, pred, timeout, lambda: self.messages[-5:])
        found["_taken"] = True
        return found

    def expect(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        return self.recv_until(lambda m: m["type"] == kind, timeout)

    def expect_chat(self, history: bool = False) -> dict[str, Any]:
        return self.recv_until(lambda m: m["type"] == "chat" and m["history"] == history)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        ref = uuid.uuid4().hex[:8]
        self.ws.send(json.dumps({**message, "id": ref}))
        return self.recv_until(lambda m: m.get("ref") == ref)

    def say(self, text: str) -> dict[str, Any]:
        return self.request({"type": "chat", "text": text})

    def said(self, reply: dict[str, Any]) -> int:
        assert reply["type"] == "chat_ack", reply
        message_id: int = reply["message_id"]
        return message_id

    def lines(self, wait: float = QUIET) -> list[dict[str, Any]]:
        """Every chat line received (live and history), after listening ``wait`` seconds more."""
        deadline = time.monotonic() + wait
        while (left := deadline - time.monotonic()) > 0:
            try:
                self.recv(left)
            except TimeoutError:
                break
        return [x for m in self.messages if m["type"] == "chat" for x in m["lines"]]

    def hears(self, message_id: int) -> dict[str, Any]:
        """The line ``message_id`` as it arrives live."""
        m = self.recv_until(
            lambda m: m["type"] == "chat" and any(x["id"] == message_id for x in m["lines"])
        )
        found: list[dict[str, Any]] = [x for x in m["lines"] if x["id"] == message_id]
        assert len(found) == 1, m
        return found[0]

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def game_socket(server: ServerProcess, game_id: str, token: str | None = None, **kw: Any) -> Socket:
    return Socket(server, f"/ws/games/{game_id}", {"type": "hello", "token": token}, **kw)


def lobby(server: ServerProcess, cookie: str | None = None, **kw: Any) -> Socket:
    return Socket(server, "/ws/lobby", {"type": "hello", "lang": "en"}, cookie, **kw)


def online_game(server: ServerProcess) -> tuple[str, str, str]:
    """An online game between two guests, Ann and Bob: its id and their seats' tokens."""
    created = server.create(mode="online", name="Ann")
    gid = created["game_id"]
    r = server.post(f"/api/games/{gid}/join", {"invite": created["invite_code"], "name": "Bob"})
    assert r.status_code == 200, r.text
    return gid, created["token"], r.json()["token"]


def sign_up(server: ServerProcess) -> tuple[str, str, str]:
    """A new account: its session cookie, id and name."""
    account = Account(server)
    account.close()
    return account.cookie, account.id, account.name


def ids(lines: list[dict[str, Any]]) -> list[int]:
    return [x["id"] for x in lines]


# -- rooms ----------------------------------------------------------------------------------


def test_players_chat_together_and_spectators_apart(server: ServerProcess) -> None:
    gid, ann_token, bob_token = online_game(server)
    with game_socket(server, gid, ann_token) as ann, game_socket(server, gid, bob_token) as bob:
        assert ann.history is not None and bob.history is not None
        assert ann.history["room"] == "players" and ann.history["can_send"] is True
        assert ann.history["lines"] == []
        first = ann.said(ann.say("  Hello   Bob!  "))
        mine = ann.hears(first)
        theirs = bob.hears(first)
        assert mine["text"] == theirs["text"] == "Hello Bob!"
        assert (mine["mine"], theirs["mine"]) == (True, False)
        assert theirs["name"] == "Ann" and theirs["account"] is False and theirs["seat"] == 0
        with game_socket(server, gid) as watcher:  # a guest watching
            assert watcher.history is not None
            assert watcher.history["room"] == "spectators"
            assert watcher.history["lines"] == [] and watcher.history["can_send"] is False
            assert "sign in" in watcher.history["refusal"]
            refused = watcher.say("hi players")
            assert refused["code"] == "account_required", refused
            cookie, _id, name = sign_up(server)
            with game_socket(server, gid, cookie=cookie) as fan:  # an account watching
                assert fan.history is not None and fan.history["can_send"] is True
                said = fan.said(fan.say("what a game"))
                assert watcher.hears(said)["name"] == name
            assert first not in ids(watcher.lines())
        # The spectators' room is never sent to the players.
        assert ids(ann.lines()) == [first] and ids(bob.lines()) == [first]


def test_a_reconnecting_player_gets_the_latest_messages_once(server: ServerProcess) -> None:
    gid, ann_token, bob_token = online_game(server)
    with game_socket(server, gid, ann_token) as ann:
        said = [ann.said(ann.say(f"message {i}")) for i in range(3)]
    with game_socket(server, gid, bob_token) as bob:
        assert bob.history is not None
        assert ids(bob.history["lines"]) == said
        assert [x["text"] for x in bob.history["lines"]] == ["message 0", "message 1", "message 2"]
        assert ids(bob.lines()) == said  # nothing sent twice


def test_a_game_against_the_ai_has_no_players_chat(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=1)
    with game_socket(server, created["game_id"], created["token"], chat=False) as player:
        assert player.lines() == [] and not [m for m in player.messages if m["type"] == "chat"]
        refused = player.say("hello AI")
        assert refused["code"] == "chat_closed", refused


# -- limits ---------------------------------------------------------------------------------


def test_length_control_characters_and_markup(server: ServerProcess) -> None:
    gid, ann_token, bob_token = online_game(server)
    with game_socket(server, gid, ann_token) as ann, game_socket(server, gid, bob_token) as bob:
        too_long = ann.say("x" * 141)
        assert too_long["code"] == "invalid_message" and "140" in too_long["message"]
        assert ann.say(" \n\t ")["code"] == "invalid_message"
        assert ann.request({"type": "chat"})["code"] == "invalid_message"
        both = ann.request({"type": "chat", "text": "a", "preset": "gg"})
        assert both["code"] == "invalid_message"
        assert ann.request({"type": "chat", "text": 5})["code"] == "invalid_message"
        exactly = ann.said(ann.say("y" * 140))
        assert bob.hears(exactly)["text"] == "y" * 140
        cleaned = ann.said(ann.say("a\x00b\nc\u202ed\x07"))
        assert bob.hears(cleaned)["text"] == "ab cd"
        markup = "<b>x</b><img src=x onerror=alert(1)>"
        stored = ann.said(ann.say(markup))
        assert bob.hears(stored)["text"] == markup  # kept as it was typed: shown as text


def test_a_flood_and_the_same_words_twice_are_refused(server: ServerProcess) -> None:
    gid, ann_token, bob_token = online_game(server)
    with game_socket(server, gid, ann_token) as ann, game_socket(server, gid, bob_token) as bob:
        ann.said(ann.say("one"))
        again = ann.say("one")
        assert again["code"] == "chat_repeated", again
        for text in ("two", "three", "four"):
            ann.said(ann.say(text))
        flood = ann.say("five")
        assert flood["code"] == "rate_limited" and flood["retry_after"] > 0, flood
        assert "5 messages in 10 seconds" in flood["message"]
        # The opponent's own allowance is theirs (another address).
        bob.said(bob.say("calm down"))


def test_presets_are_sent_by_key(server: ServerProcess) -> None:
    gid, ann_token, bob_token = online_game(server)
    with game_socket(server, gid, ann_token) as ann, game_socket(server, gid, bob_token) as bob:
        said = ann.said(ann.request({"type": "chat", "preset": "gg"}))
        line = bob.hears(said)
        assert (line["preset"], line["text"]) == ("gg", "Good game")
        assert ann.request({"type": "chat", "preset": "lol"})["code"] == "invalid_message"


# -- the lobby, guests and accounts ---------------------------------------------------------


def test_guests_read_the_lobby_but_only_accounts_write(server: ServerProcess) -> None:
    cookie, _id, name = sign_up(server)
    with lobby(server) as guest, lobby(server, cookie) as ann:
        assert guest.history is not None and ann.history is not None
        assert guest.history["room"] == "lobby" and guest.history["can_send"] is False
        assert guest.history["refusal"] == "sign in to chat in the lobby"
        refused = guest.say("anyone?")
        assert refused["code"] == "account_required", refused
        assert ann.history["can_send"] is True
        said = ann.said(ann.say("anyone for a game?"))
        line = guest.hears(said)
        assert (line["name"], line["account"], line["mine"]) == (name, True, False)
        assert ann.hears(said)["mine"] is True
        assert guest.request({"type": "chat_report", "message_id": said, "reason": "spam"})[
            "code"
        ] == ("account_required")


def test_a_blocker_never_gets_the_blocked_ones_messages(server: ServerProcess) -> None:
    (x_cookie, x_id, _x), (y_cookie, y_id, _y) = sign_up(server), sign_up(server)
    z_cookie, _z_id, _z = sign_up(server)
    db = Store(server.db_url)
    try:
        with db.engine.begin() as conn:
            conn.execute(
                insert(blocks).values(user_id=x_id, target_id=y_id, created_at=dt.datetime.now())
            )
    finally:
        db.close()
    with lobby(server, x_cookie) as x, lobby(server, y_cookie) as y, lobby(server, z_cookie) as z:
        blocked = y.said(y.say("you cannot hear me"))
        z.hears(blocked)
        fine = z.said(z.say("but this you can"))
        x.hears(fine)
        assert blocked not in ids(x.lines())
        # Blocking is one way: the blocker is heard by the one blocked.
        spoken = x.said(x.say("and I am heard"))
        y.hears(spoken)
    with lobby(server, x_cookie) as x, lobby(server, z_cookie) as z:
        assert x.history is not None and z.history is not None
        assert blocked not in ids(x.history["lines"]) and fine in ids(x.history["lines"])
        assert blocked in ids(z.history["lines"])


# -- mutes, reports and `patchwork admin reports` -------------------------------------------


def run_admin(
    capsys: pytest.CaptureFixture[str], server: ServerProcess, *args: str
) -> tuple[int, str, str]:
    code = admin.main(["reports", "--db", server.db_url, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_reports_mutes_and_the_admin_command(
    server: ServerProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    (m_cookie, _m_id, m_name), (r_cookie, _r_id, r_name) = sign_up(server), sign_up(server)
    with lobby(server, m_cookie) as rude, lobby(server, r_cookie) as reporter:
        nasty = rude.said(rude.say("<i>you are all bad</i>"))
        reporter.hears(nasty)
        report = {"type": "chat_report", "message_id": nasty, "reason": "abuse"}
        ack = reporter.request(report)
        assert ack == {**ack, "type": "chat_ack", "of": "chat_report", "message_id": nasty}
        assert reporter.request(report)["code"] == "already_reported"
        assert rude.request({**report, "reason": "spam"})["code"] == "not_allowed"
        missing = reporter.request({**report, "message_id": 2**62})
        assert missing["code"] == "not_found"
        assert reporter.request({**report, "reason": "rude"})["code"] == "invalid_message"

        code, out, _err = run_admin(capsys, server)
        assert code == 0
        (header,) = [x for x in out.splitlines() if f"by {r_name}" in x]
        assert "(open)" in header and "abuse" in header
        report_id = header.split()[1]
        at = out.index(header)
        assert m_name in out[at:] and "lobby" in out[at:] and "you are all bad" in out[at:]

        code, out, _err = run_admin(capsys, server, "--mute", m_name, "--note", "abuse")
        assert code == 0 and m_name in out
        muted = rude.say("let me speak")
        assert muted["code"] == "chat_muted", muted
        code, out, _err = run_admin(capsys, server, "--muted")
        assert m_name in out and "abuse" in out
        code, out, _err = run_admin(capsys, server, "--unmute", m_name)
        assert code == 0
        rude.said(rude.say("sorry, everyone"))

        code, out, _err = run_admin(capsys, server, "--resolve", report_id)
        assert code == 0 and report_id in out
        code, out, _err = run_admin(capsys, server)
        assert f"by {r_name}" not in out
        code, out, _err = run_admin(capsys, server, "--all")
        assert f"report {report_id} (resolved)" in out

    code, _out, err = run_admin(capsys, server, "--resolve", str(2**40))
    assert code == 1 and "there is no report" in err
    code, _out, err = run_admin(capsys, server, "--mute", "Nobody" + secrets.token_hex(3))
    assert code == 1 and "--note" in err
    code, _out, err = run_admin(capsys, server, "--mute", "Nobody42", "--note", "x")
    assert code == 1 and "there is no account 'Nobody42'" in err
    code, _out, err = run_admin(capsys, server, "--unmute", m_name)
    assert code == 1 and "was not muted" in err
    with pytest.raises(SystemExit):
        admin.main(["reports", "--help"])
    assert "--mute NAME" in capsys.readouterr().out


# -- several processes (PostgreSQL and Redis) -----------------------------------------------


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    db = PostgresDatabase()
    keys = RedisPrefix()
    try:
        tmp = tmp_path_factory.mktemp("chat-cluster")
        with cluster(db.url, tmp, 2, *ARGS, *keys.args()) as procs:
            yield procs
    finally:
        keys.clean()
        db.drop()


def test_a_message_said_on_one_process_arrives_on_the_other_once(
    two: list[ServerProcess],
) -> None:
    a, b = two
    (ann_cookie, _, _), (bob_cookie, _, _) = sign_up(a), sign_up(b)
    with lobby(a, ann_cookie) as ann, lobby(b, bob_cookie) as bob, lobby(b) as guest:
        said = [ann.said(ann.say(f"across {i}")) for i in range(3)]
        said.append(bob.said(bob.say("and back")))
        for i in said:
            bob.hears(i)
            ann.hears(i)
            guest.hears(i)
        for sock in (ann, bob, guest):
            mine = [i for i in ids(sock.lines()) if i in said]
            assert mine == said, sock.messages[-5:]  # each once, in order

    gid, ann_token, bob_token = online_game(a)
    with game_socket(a, gid, ann_token) as ann, game_socket(b, gid, bob_token) as bob:
        hello = ann.said(ann.say("hello from a"))
        assert bob.hears(hello)["text"] == "hello from a"
        assert ids(bob.lines()).count(hello) == 1


def test_a_dead_process_loses_no_message(two: list[ServerProcess]) -> None:
    a, b = two
    gid, ann_token, bob_token = online_game(a)
    with game_socket(a, gid, ann_token) as ann:
        bob = game_socket(b, gid, bob_token)
        b.kill()  # kill -9: bob's connection dies with it
        try:
            said = ann.said(ann.say("are you there?"))
        finally:
            bob.close()
        with game_socket(a, gid, bob_token) as again:
            assert again.history is not None and said in ids(again.history["lines"])
    b.start()
