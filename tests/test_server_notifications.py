"""Notifications (issue 39): a correspondence game between two accounts makes "your turn" for
the player whose turn it became, "game over" for the players, "follow_started" for the
followers, each stored with the game's change and delivered live on /ws/me; the list is
read and marked read over HTTP; old ones are pruned; guests are told to sign in. Real
server processes on SQLite and PostgreSQL, two over Redis, and one killed with kill -9."""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from sqlalchemy import insert  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from patchwork.server.notifications import store as notes  # noqa: E402
from patchwork.server.notifications.schemas import YourTurnAbout  # noqa: E402
from patchwork.server.storage.models import users  # noqa: E402
from patchwork.server.storage.store import Store  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    WAIT,
    Account,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    database_url,
    eventually,
    fetch,
    running_server,
)

pytest_plugins = ["server_fixtures"]
CORRESPONDENCE = {"kind": "correspondence", "days": 3}


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp(f"notifications-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, *TRUST_FORWARDED) as p:
        yield p


class Reader(Account):
    """An account that reads its notifications."""

    def notes(self, **params: Any) -> dict[str, Any]:
        r = self.http.get("/api/notifications", params=params)
        assert r.status_code == 200, r.text
        page: dict[str, Any] = r.json()
        return page

    def about(self, game_id: str) -> list[dict[str, Any]]:
        """What this account was told of the game, oldest first."""
        found = [n["about"] for n in self.notes(limit=50)["notifications"]]
        return [a for a in reversed(found) if a.get("game_id") == game_id]


class Game:
    """An online correspondence game between two accounts: ``ann`` created it in seat 1,
    ``bob`` took seat 0 (he moves first)."""

    def __init__(self, ann: Reader, bob: Reader, clock: dict[str, Any] = CORRESPONDENCE):
        r = ann.http.post(
            "/api/games", json={"mode": "online", "seat": 1, "first_player": 0, "clock": clock}
        )
        assert r.status_code == 201, r.text
        created = r.json()
        self.id: str = created["game_id"]
        self.tokens = {ann.name: created["token"]}
        r = bob.http.post(f"/api/games/{self.id}/join", json={"invite": created["invite_code"]})
        assert r.status_code == 200, r.text
        self.tokens[bob.name] = r.json()["token"]

    def act(self, who: Reader, what: str, body: dict[str, Any] | None = None) -> Any:
        r = who.http.post(
            f"/api/games/{self.id}/{what}",
            json=body,
            headers={"authorization": f"Bearer {self.tokens[who.name]}"},
        )
        assert r.status_code == 200, r.text
        return r.json()

    def advance(self, who: Reader) -> dict[str, Any]:
        """``who`` advances (the turn passes to the other: the one behind moves)."""
        version = who.get(f"/api/games/{self.id}")["version"]
        return self.act(who, "moves", {"move": "A", "version": version})


def lobby_pair(ann: Reader, bob: Reader, clock: dict[str, Any] = CORRESPONDENCE) -> str:
    """The game the lobby starts when ``bob`` accepts ``ann``'s seek."""

    def lobby(who: Reader) -> ClientConnection:
        ws = connect(
            f"{who.server.ws_url}/ws/lobby",
            proxy=None,
            open_timeout=WAIT,
            close_timeout=2,
            additional_headers={"origin": who.server.url, "cookie": f"pw_session={who.cookie}"},
        ).__enter__()
        ws.send(json.dumps({"type": "hello", "lang": "en"}))
        return ws

    def reply(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
        ws.send(json.dumps({**message, "id": "r"}))
        while True:
            answer: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
            if answer.get("ref") == "r":
                assert answer["type"] == "ack", answer
                return answer

    with lobby(ann) as mine, lobby(bob) as theirs:
        seek = reply(mine, {"type": "seek", "rules": {}, "clock": clock})["seek_id"]
        game_id: str = reply(theirs, {"type": "accept", "seek_id": seek})["game_id"]
    return game_id


def heard(ws: ClientConnection, kind: str, game_id: str, wait: float = WAIT) -> list[dict]:
    """The ``notification`` messages of ``kind`` about the game ``ws`` hears within ``wait``
    seconds after the first (it waits at most WAIT for that one)."""
    found: list[dict[str, Any]] = []
    deadline = time.monotonic() + WAIT
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return found
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            return found
        if message["type"] != "notification":
            continue
        about = message["notification"]["about"]
        if about["kind"] == kind and about.get("game_id") == game_id:
            found.append(message["notification"])
            deadline = min(deadline, time.monotonic() + wait)


# -- one process, SQLite and PostgreSQL -------------------------------------------------------


def test_a_move_tells_the_other_player_it_is_their_turn_live(server: ServerProcess) -> None:
    ann, bob = Reader(server), Reader(server)
    game = Game(ann, bob)
    assert ann.about(game.id) == [] and bob.about(game.id) == []  # bob moves first: his act
    ws = ann.me()
    try:
        game.advance(bob)
        live = heard(ws, "your_turn", game.id, wait=1.0)
    finally:
        ws.close()
    assert len(live) == 1 and live[0]["read"] is False
    assert live[0]["about"] == {"kind": "your_turn", "game_id": game.id, "opponent": bob.name}
    page = ann.notes()
    assert page["unread"] == 1 and page["more"] is False
    assert [n["id"] for n in page["notifications"]] == [live[0]["id"]]
    assert bob.about(game.id) == []  # never told of his own move
    # Ann advances: now it is Bob's turn; and each move that hands the turn over tells once.
    game.advance(ann)
    assert [a["kind"] for a in bob.about(game.id)] == ["your_turn"]
    assert bob.about(game.id)[0]["opponent"] == ann.name


def test_game_over_tells_the_players_but_not_of_their_own_act(server: ServerProcess) -> None:
    ann, bob = Reader(server), Reader(server)
    game = Game(ann, bob)
    game.act(bob, "resign")
    [over] = ann.about(game.id)
    assert over["kind"] == "game_over" and over["result"] == "won" and over["opponent"] == bob.name
    assert over["termination"] == "resigned" and len(over["scores"]) == 2
    assert bob.about(game.id) == []  # he resigned himself
    # A real-time game that ends on time: nobody's act, so both are told (and no "your turn").
    cat, dan = Reader(server), Reader(server)
    fast = Game(cat, dan, {"kind": "fischer", "initial": 1})
    told = eventually(lambda: cat.about(fast.id) and dan.about(fast.id))
    assert told
    assert [a["kind"] for a in cat.about(fast.id)] == ["game_over"]
    [lost] = dan.about(fast.id)  # dan was to move, and ran out of time
    assert (lost["result"], lost["termination"]) == ("lost", "time")
    assert cat.about(fast.id)[0]["result"] == "won"


def test_followers_are_told_a_game_started_once(server: ServerProcess) -> None:
    ann, bob, fan, both = Reader(server), Reader(server), Reader(server), Reader(server)
    assert fan.http.put(f"/api/players/{ann.name}/follow").status_code == 204
    for target in (ann, bob):  # follows both players: told once
        assert both.http.put(f"/api/players/{target.name}/follow").status_code == 204
    assert bob.http.put(f"/api/players/{ann.name}/follow").status_code == 204  # a player: not
    ws = fan.me()
    try:
        game = Game(ann, bob)
        [live] = heard(ws, "follow_started", game.id, wait=1.0)
    finally:
        ws.close()
    assert live["about"] == {
        "kind": "follow_started",
        "game_id": game.id,
        "player": ann.name,
        "opponent": bob.name,
    }
    assert len(both.about(game.id)) == 1 and both.about(game.id)[0]["kind"] == "follow_started"
    assert bob.about(game.id) == []
    # A game the lobby pairs starts at once: the followers hear of it too, and in a
    # correspondence game its first player is told it is their turn.
    paired = lobby_pair(ann, bob)
    assert [a["kind"] for a in fan.about(paired)] == ["follow_started"]
    first = server.game(paired)["first_player"]
    seated = {s["name"]: s["seat"] for s in server.game(paired)["seats"]}
    for who in (ann, bob):
        told = [a["kind"] for a in who.about(paired)]
        assert told == (["your_turn"] if seated[who.name] == first else []), who.name


def test_marking_read_and_paging(server: ServerProcess) -> None:
    ann, bob = Reader(server), Reader(server)
    games = [Game(ann, bob) for _ in range(3)]
    for g in games:
        g.advance(bob)
    page = ann.notes()
    assert page["unread"] == 3
    ids = [n["id"] for n in page["notifications"]]
    assert ids == sorted(ids, reverse=True) and len(ids) == 3  # newest first
    first = ann.notes(limit=2)
    assert [n["id"] for n in first["notifications"]] == ids[:2] and first["more"] is True
    rest = ann.notes(limit=2, before=ids[1])
    assert [n["id"] for n in rest["notifications"]] == ids[2:] and rest["more"] is False
    # Marking one read is heard on the account's sockets; others' ids change nothing.
    ws = ann.me()
    try:
        r = ann.http.post("/api/notifications/read", json={"ids": [ids[0]]})
        assert r.status_code == 200 and r.json() == {"unread": 2}, r.text
        told = json.loads(ws.recv(timeout=WAIT))
        assert told == {"type": "notifications_read", "ids": [ids[0]], "unread": 2}
    finally:
        ws.close()
    r = bob.http.post("/api/notifications/read", json={"ids": ids})
    assert r.status_code == 200 and r.json() == {"unread": 0}
    assert ann.notes()["unread"] == 2
    assert [n["read"] for n in ann.notes()["notifications"]] == [True, False, False]
    r = ann.http.post("/api/notifications/read", json={"all": True})
    assert r.status_code == 200 and r.json() == {"unread": 0}
    assert not any(n["read"] is False for n in ann.notes()["notifications"])


def test_guests_and_bad_requests_are_refused_in_words(server: ServerProcess) -> None:
    r = fetch("GET", f"{server.url}/api/notifications", timeout=WAIT)
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    r = fetch("POST", f"{server.url}/api/notifications/read", json={"all": True}, timeout=WAIT)
    assert r.status_code in (401, 403), r.text
    ann = Reader(server)
    refused = {
        "neither": {},
        "both": {"ids": [1], "all": True},
        "none listed": {"ids": []},
        "not numbers": {"ids": ["1"]},
        "too many": {"ids": list(range(1, 300))},
        "unknown field": {"all": True, "every": True},
    }
    for why, body in refused.items():
        r = ann.http.post("/api/notifications/read", json=body)
        assert r.status_code == 422, (why, r.text)
        assert r.json()["error"]["message"], why
    r = ann.http.post("/api/notifications/read", json={})
    assert "ids" in r.json()["error"]["message"] and "all" in r.json()["error"]["message"]
    for params in ({"limit": 0}, {"limit": 51}, {"before": "x"}, {"before": 0}):
        r = ann.http.get("/api/notifications", params=params)
        assert r.status_code == 422, (params, r.text)


@pytest.mark.both_backends
def test_an_account_keeps_its_newest_notifications(backend: str, tmp_path: Path) -> None:
    url, drop = database_url(backend, tmp_path)
    store = Store(url)
    try:
        store.migrate()
        now = dt.datetime.now(dt.UTC)
        row = {"name_key": "", "password_hash": "-", "created_at": now, "rating": 1500.0}
        row |= {"rd": 350.0, "volatility": 0.06, "people_games": 0}
        with store.engine.begin() as conn:
            for who in ("u1", "u2"):
                conn.execute(insert(users).values(id=who, name=who, **{**row, "name_key": who}))
        about = YourTurnAbout(game_id="g1", opponent="Ann")
        with store.engine.begin() as conn:
            notes.add(conn, [("u2", about)], now)
            for _ in range(notes.KEEP // 50 + 1):  # 250 in batches of 50
                made = notes.add(conn, [("u1", about)] * 50, now)
        assert len(made) == 50 and made[-1][1].id > made[0][1].id
        found, unread, more = notes.page(store.engine, "u1", None, notes.PAGE)
        assert unread == notes.KEEP and more is True
        assert found[0].id == made[-1][1].id  # the newest kept
        kept, before = 0, None
        while True:
            found, _, more = notes.page(store.engine, "u1", before, notes.PAGE)
            kept += len(found)
            if not more:
                break
            before = found[-1].id
        assert kept == notes.KEEP
        assert notes.page(store.engine, "u2", None, 10)[1] == 1  # another's list untouched
    finally:
        store.close()
        drop()


# -- two processes over Redis; kill -9 ----------------------------------------------------------


def test_heard_once_on_another_process_and_kept_when_one_is_killed(
    tmp_path: Path,
) -> None:
    db, keys = PostgresDatabase(), RedisPrefix()
    try:
        with cluster(db.url, tmp_path, 2, *SHARED_ARGS, *keys.args()) as (a, b):
            ann, bob = Reader(a), Reader(a)
            game = Game(ann, bob)
            on_b, on_a = ann.me(b), ann.me(a)
            try:
                game.advance(bob)  # made on a, heard on b (and a) exactly once
                [heard_b] = heard(on_b, "your_turn", game.id, wait=2.0)
                [heard_a] = heard(on_a, "your_turn", game.id, wait=0.5)
                assert heard_b == heard_a
            finally:
                on_b.close()
                on_a.close()
            # Ann moves on b, which is killed at once: her move, and with it Bob's
            # notification, was committed before the answer came.
            game.advance(ann.on(b))
            b.kill()
            ann.on(a)
            page = bob.notes()
            assert [n["about"]["kind"] for n in page["notifications"]] == ["your_turn"]
            assert page["notifications"][0]["about"]["game_id"] == game.id
            assert [a["kind"] for a in ann.about(game.id)] == ["your_turn"]
    finally:
        keys.clean()
        db.drop()
