"""Bots (issue 40; docs/bots.md): an account becomes a bot once and for good, before any
rated game, and shows as one everywhere; its event stream and a game's stream, read as a
program reads them (newline-delimited JSON over one long response), opening with what was
there and then live, each line one of the stream's documented messages; a chat line over
HTTP; the streams end with the session and count as connections. Real server processes on
SQLite and PostgreSQL, and two over Redis."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

pytest.register_assert_rewrite("server_fixtures")

from patchwork.server.bots.messages import event_messages  # noqa: E402
from patchwork.server.http.game_socket import server_messages  # noqa: E402
from server_fixtures import (  # noqa: E402
    PASSWORD,
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
    legal_moves,
    running_server,
)

pytest_plugins = ["server_fixtures"]
END = {"type": "(the stream ended)"}


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp(f"bots-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, *TRUST_FORWARDED) as p:
        yield p


class Program(Account):
    """An account as a program uses it: with an API token (``api``), no cookie."""

    def __init__(self, server: ServerProcess) -> None:
        super().__init__(server)
        r = self.http.post("/api/account/tokens", json={"name": self.name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.token: str = r.json()["token"]
        self.api = http_client(
            base_url=server.url,
            headers={
                "authorization": f"Bearer {self.token}",
                "x-forwarded-for": self.http.headers["x-forwarded-for"],
            },
            timeout=WAIT,
        )

    def become_bot(self) -> Program:
        r = self.api.post("/api/account/bot")
        assert r.status_code == 200 and r.json()["bot"] is True, r.text
        return self

    def stream(self, path: str, **params: Any) -> Stream:
        return Stream(self.server.url, path, params, self.api.headers)

    def close(self) -> None:
        self.api.close()
        super().close()


class Stream:
    """A stream read in a thread: each line parsed into a queue (an empty line counted as a
    keep-alive), then ``END``; ``status`` and ``error`` when it was refused."""

    def __init__(
        self, url: str, path: str, params: dict[str, Any], headers: httpx.Headers | None = None
    ) -> None:
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.keep_alives = 0
        self.opened = threading.Event()
        self.status = 0
        self.error: dict[str, Any] | None = None
        self.media_type = ""
        self._client = http_client(base_url=url, headers=headers)
        timeout = httpx.Timeout(WAIT, read=None)
        self._thread = threading.Thread(
            target=self._read, args=(path, params, timeout), daemon=True
        )
        self._thread.start()
        assert self.opened.wait(WAIT), "the stream did not answer"

    def _read(self, path: str, params: dict[str, Any], timeout: httpx.Timeout) -> None:
        try:
            with self._client.stream("GET", path, params=params, timeout=timeout) as r:
                self.status = r.status_code
                self.media_type = r.headers.get("content-type", "")
                if r.status_code != 200:
                    self.error = json.loads(r.read())["error"]
                    return
                self.opened.set()
                for line in r.iter_lines():
                    if line:
                        self.lines.put(json.loads(line))
                    else:
                        self.keep_alives += 1
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.lines.put(END)

    def next(self, kind: str | None = None, timeout: float = WAIT) -> dict[str, Any]:
        """The next line (of ``kind``: others are skipped); ``END`` once it ended."""
        while True:
            line = self.lines.get(timeout=timeout)
            if line is END or kind is None or line["type"] == kind:
                return line

    def ended(self, timeout: float = WAIT) -> bool:
        """Whether the stream ends (within ``timeout``), whatever it sends until then."""
        try:
            while self.next(timeout=timeout) is not END:
                pass
        except queue.Empty:
            return False
        return True

    def close(self) -> None:
        self._client.close()
        self._thread.join(WAIT)


def challenge(by: Account, to: Account, **body: Any) -> str:
    r = by.http.post("/api/challenges", json={"to": to.name, **body})
    assert r.status_code == 201, r.text
    challenge_id: str = r.json()["id"]
    return challenge_id


def refused(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code, error
    return str(error["message"])


# -- becoming a bot ---------------------------------------------------------------------------


def test_an_account_becomes_a_bot_for_good_and_shows_as_one(server: ServerProcess) -> None:
    robo = Program(server)
    assert robo.api.get("/api/account/me").json()["bot"] is False
    robo.become_bot()
    robo.become_bot()  # again: no change, no error
    assert robo.api.get("/api/account/me").json()["bot"] is True
    assert robo.get(f"/api/players/{robo.name}")["bot"] is True
    # A game it plays shows its seat as a bot's; the other seat is a person's.
    created = robo.api.post("/api/games", json={"mode": "online", "seat": 0}).json()
    ann = Account(server)
    r = ann.http.post(
        f"/api/games/{created['game_id']}/join", json={"invite": created["invite_code"]}
    )
    assert r.status_code == 200, r.text
    seats = ann.get(f"/api/games/{created['game_id']}")["seats"]
    assert [s["bot"] for s in seats] == [True, False]
    # Paired through a challenge (the other path into a game): the same, and the challenge
    # itself says who is a bot.
    made = challenge(ann, robo)
    view = ann.get(f"/api/challenges/{made}")
    assert (view["challenger_bot"], view["challenged_bot"]) == (False, True)
    game_id = robo.api.post(f"/api/challenges/{made}/accept").json()["game_id"]
    by_name = {s["name"]: s["bot"] for s in ann.get(f"/api/games/{game_id}")["seats"]}
    assert by_name == {robo.name: True, ann.name: False}
    # Who is online (its event stream is open) says so too.
    events = robo.stream("/api/stream/event")
    try:
        events.next("welcome")
        online = {p["name"]: p["bot"] for p in ann.get("/api/people/online", limit=100)["players"]}
        assert online[robo.name] is True and online.get(ann.name, False) is False
    finally:
        events.close()
    robo.close()
    ann.close()


def test_a_rated_game_played_keeps_an_account_a_person(server: ServerProcess) -> None:
    ann, bob = Program(server), Account(server)
    game_id = ann.api.post(f"/api/challenges/{challenge(bob, ann, rated=True)}/accept").json()
    assert game_id["game_id"]
    message = refused(ann.api.post("/api/account/bot"), 403, "not_allowed")
    assert "rated game" in message
    assert ann.api.get("/api/account/me").json()["bot"] is False
    refused(fetch("POST", f"{server.url}/api/account/bot", timeout=WAIT), 401, "not_signed_in")
    ann.close()
    bob.close()


# -- the event stream -------------------------------------------------------------------------


def test_the_event_stream_opens_with_what_is_there_then_goes_on_live(
    server: ServerProcess,
) -> None:
    robo, ann, bob = Program(server).become_bot(), Account(server), Account(server)
    waiting = challenge(bob, robo)  # made before the stream opens
    under_way = robo.api.post(f"/api/challenges/{challenge(ann, robo)}/accept").json()["game_id"]
    events = robo.stream("/api/stream/event")
    try:
        assert events.media_type.startswith("application/x-ndjson")
        assert events.next()["type"] == "welcome"
        opening = [events.next(), events.next()]
        assert [m["type"] for m in opening] == ["challenge_new", "game_start"]
        assert opening[0]["challenge"]["id"] == waiting
        assert opening[1]["game"]["game_id"] == under_way
        assert opening[1]["game"]["opponent"] == ann.name
        assert opening[1]["game"]["stream_url"] == f"/api/games/{under_way}/stream"
        # Live: a new challenge, its game starting when accepted, and ending.
        fresh = challenge(ann, robo)
        assert events.next("challenge_new")["challenge"]["id"] == fresh
        game_id = robo.api.post(f"/api/challenges/{fresh}/accept").json()["game_id"]
        started = events.next("game_start")["game"]
        assert started["game_id"] == game_id and started["opponent_bot"] is False
        assert ann.http.post(f"/api/games/{game_id}/resign").status_code == 200
        finished = events.next("game_finish")
        assert finished["game"]["game_id"] == game_id
        assert finished["winner"] == started["seat"] and finished["termination"] == "resigned"
        # Declined and cancelled challenges are heard by both sides.
        r = robo.api.post(f"/api/challenges/{waiting}/decline", json={"reason": "later"})
        assert r.status_code == 200, r.text
        assert events.next("challenge_declined")["challenge"]["id"] == waiting
    finally:
        events.close()
    # Every line is one of the stream's closed set, field for field.
    seen = _drain(events)
    for line in seen:
        assert event_messages.validate_python(line).model_dump(mode="json") == line
    for account in (robo, ann, bob):
        account.close()


def _drain(stream: Stream) -> list[dict[str, Any]]:
    found = []
    while True:
        try:
            line = stream.lines.get_nowait()
        except queue.Empty:
            return found
        if line is not END:
            found.append(line)


def test_a_stream_ends_with_its_session_and_counts_as_a_connection(
    server: ServerProcess,
) -> None:
    robo = Program(server)
    events = robo.stream("/api/stream/event")
    events.next("welcome")
    # Signing out with the token ends it: the token is gone, and its stream closes.
    assert robo.api.post("/api/account/signout").status_code == 204
    assert events.ended()
    events.close()
    refused(robo.api.get("/api/account/me"), 401, "not_signed_in")
    # A guest has no event stream; an unknown game has no stream.
    r = fetch("GET", f"{server.url}/api/stream/event", timeout=WAIT)
    refused(r, 401, "not_signed_in")
    refused(
        fetch("GET", f"{server.url}/api/games/nope/stream", timeout=WAIT), 404, "game_not_found"
    )
    robo.close()


def lobby(server: ServerProcess, headers: dict[str, str]) -> ClientConnection:
    """A lobby socket, greeted (its welcome read)."""
    ws = connect(
        f"{server.ws_url}/ws/lobby",
        proxy=None,
        open_timeout=WAIT,
        close_timeout=2,
        additional_headers={"origin": server.url, **headers},
    ).__enter__()
    ws.send(json.dumps({"type": "hello", "lang": "en"}))
    return ws


def lobby_reply(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
        if message["type"] == kind:
            return message


def test_a_bot_seeks_in_the_lobby_with_its_token(server: ServerProcess) -> None:
    robo, ann = Program(server).become_bot(), Account(server)
    events = robo.stream("/api/stream/event")
    seeker = lobby(server, {"authorization": f"Bearer {robo.token}"})
    taker = lobby(server, {"cookie": f"pw_session={ann.cookie}"})
    try:
        events.next("welcome")
        you = lobby_reply(seeker, "welcome")["you"]
        assert you["signed_in"] is True and you["name"] == robo.name
        seeker.send(json.dumps({"type": "seek", "clock": None, "rated": False, "id": 1}))
        seek_id = lobby_reply(seeker, "ack")["seek_id"]
        listed = lobby_reply(taker, "welcome")["seeks"]  # (or, made just now, news after it)
        while not any(s["id"] == seek_id for s in listed):
            listed = lobby_reply(taker, "seeks_changed")["seeks"]
        mine = next(s for s in listed if s["id"] == seek_id)
        assert mine["name"] == robo.name and mine["bot"] is True
        taker.send(json.dumps({"type": "accept", "seek_id": seek_id}))
        game_id = lobby_reply(taker, "paired")["game_id"]
        assert events.next("game_start")["game"]["game_id"] == game_id
    finally:
        seeker.close()
        taker.close()
        events.close()
    robo.close()
    ann.close()


# -- a game's stream --------------------------------------------------------------------------


def test_a_game_stream_plays_a_game_with_the_token(server: ServerProcess) -> None:
    robo, ann = Program(server).become_bot(), Account(server)
    game_id = robo.api.post(f"/api/challenges/{challenge(ann, robo)}/accept").json()["game_id"]
    game = robo.stream(f"/api/games/{game_id}/stream")
    watcher = Stream(server.url, f"/api/games/{game_id}/stream", {})
    try:
        welcome = game.next()
        assert welcome["type"] == "welcome" and welcome["role"] == "player"
        seat = welcome["seats"][0]
        view = game.next("state")["game"]
        assert watcher.next()["role"] == "spectator"
        played = 0
        while played < 4:  # each side moves over HTTP; the stream tells each change
            mover = robo.api if view["to_move"] == seat else ann.http
            move = legal_moves(view)[0]
            r = mover.post(
                f"/api/games/{game_id}/moves", json={"move": move, "version": view["version"]}
            )
            assert r.status_code == 200, r.text
            update = game.next("update")
            assert update["since"] == view["version"] and update["entry"]["move"] == move
            view = {**view, **update["changes"], "version": update["version"]}
            played += 1
        assert watcher.next("update")["version"] > 1
        # A chat line over HTTP: acknowledged, and heard on the players' stream.
        r = robo.api.post(f"/api/games/{game_id}/chat", json={"preset": "gl"})
        assert r.status_code == 200 and r.json()["type"] == "chat_ack", r.text
        heard = game.next("chat")
        assert any(line["id"] == r.json()["message_id"] for line in heard["lines"])
        refused(robo.api.post(f"/api/games/{game_id}/chat", json={}), 422, "invalid_request")
        # Resumed from a version: what came since, then live again.
        again = robo.stream(f"/api/games/{game_id}/stream", since=view["version"] - 2)
        try:
            assert again.next()["type"] == "welcome"
            synced = again.next()
            assert synced["type"] == "sync" and len(synced["events"]) == 2
        finally:
            again.close()
    finally:
        game.close()
        watcher.close()
    for line in _drain(game) + _drain(watcher):
        assert server_messages.validate_python(line).model_dump(mode="json") == line
    robo.close()
    ann.close()


def test_a_game_against_the_ai_has_no_chat_and_streams_keep_alive(server: ServerProcess) -> None:
    robo = Program(server).become_bot()
    created = robo.api.post("/api/games", json={"mode": "ai", "level": 1}).json()
    refused(
        robo.api.post(f"/api/games/{created['game_id']}/chat", json={"text": "hi"}),
        403,
        "chat_closed",
    )
    game = robo.stream(f"/api/games/{created['game_id']}/stream")
    try:
        game.next("state")
        deadline = time.monotonic() + WAIT
        while game.keep_alives == 0:  # one empty line every 6 s
            assert time.monotonic() < deadline, "no keep-alive line"
            with contextlib.suppress(queue.Empty):
                game.next(timeout=0.5)
    finally:
        game.close()
    robo.close()


# -- several processes ------------------------------------------------------------------------


def test_events_reach_the_stream_on_another_process(tmp_path: Path) -> None:
    db, keys = PostgresDatabase(), RedisPrefix()
    try:
        with cluster(db.url, tmp_path, 2, "--ai-workers", "1", *keys.args()) as (a, b):
            robo, ann = Program(a).become_bot(), Account(b)
            events = Stream(b.url, "/api/stream/event", {}, robo.api.headers)  # on b...
            try:
                events.next("welcome")
                made = challenge(ann.on(a), robo)  # ...made on a
                assert events.next("challenge_new")["challenge"]["id"] == made
                game_id = robo.api.post(f"/api/challenges/{made}/accept").json()["game_id"]
                assert events.next("game_start")["game"]["game_id"] == game_id
            finally:
                events.close()
            robo.close()
            ann.close()
    finally:
        keys.clean()
        db.drop()
