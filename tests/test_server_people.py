"""People (issue 39): an account's own socket (/ws/me) makes it online on every process and
lapses when it closes, or within seconds of its process being killed; follows and blocks;
a player's standing with the viewer; the socket ends with the session. Real server
processes on SQLite and PostgreSQL, and two over Redis."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("server_fixtures")

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    WAIT,
    Account,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    eventually,
    fetch,
    running_server,
)

pytest_plugins = ["server_fixtures"]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp(f"people-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, *TRUST_FORWARDED) as p:
        yield p


def online_names(server: ServerProcess) -> set[str]:
    r = fetch("GET", f"{server.url}/api/people/online", params={"limit": 100}, timeout=WAIT)
    assert r.status_code == 200, r.text
    return {p["name"] for p in r.json()["players"]}


def test_an_account_is_online_while_its_socket_is_open(server: ServerProcess) -> None:
    ann = Account(server)
    assert ann.name not in online_names(server)
    ws = ann.me()
    try:
        assert ann.name in online_names(server)
        ws.send(json.dumps({"type": "ping", "id": 7}))
        pong = json.loads(ws.recv(timeout=WAIT))
        assert pong["type"] == "pong" and pong["ref"] == 7
        ws.send(json.dumps({"type": "follow"}))  # not a message of this socket
        assert json.loads(ws.recv(timeout=WAIT))["code"] == "invalid_message"
    finally:
        ws.close()
    eventually(lambda: ann.name not in online_names(server))
    standing = ann.get(f"/api/players/{ann.name}/standing")
    assert standing["online"] is False and standing["last_seen"] is not None


def test_a_guest_is_told_to_sign_in(server: ServerProcess) -> None:
    with connect(f"{server.ws_url}/ws/me", proxy=None, open_timeout=WAIT) as ws:
        reply = json.loads(ws.recv(timeout=WAIT))
        assert reply["code"] == "not_signed_in"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=WAIT)


def test_signing_out_closes_the_socket(server: ServerProcess) -> None:
    ann = Account(server)
    ws = ann.me()
    assert ann.http.post("/api/account/signout").status_code in (200, 204)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    eventually(lambda: ann.name not in online_names(server))


def test_follow_shows_who_is_online_and_block_ends_follows(server: ServerProcess) -> None:
    ann, bob, cat = Account(server), Account(server), Account(server)
    for target in (bob, cat):
        assert ann.http.put(f"/api/players/{target.name.lower()}/follow").status_code == 204
    assert ann.http.put(f"/api/players/{bob.name}/follow").status_code == 204  # twice: once
    ws = bob.me()
    try:
        following = ann.get("/api/me/following")
        assert sorted(p["name"] for p in following) == sorted([bob.name, cat.name])
        assert {p["name"]: p["online"] for p in following} == {bob.name: True, cat.name: False}
        assert ann.get(f"/api/players/{bob.name}/standing")["following"] is True
    finally:
        ws.close()
    # Bob blocks Ann: her follow of him ends, and she cannot follow him again.
    assert bob.http.put(f"/api/players/{ann.name}/block").status_code == 204
    assert [p["name"] for p in ann.get("/api/me/following")] == [cat.name]
    assert bob.get("/api/me/blocked") == [ann.name]
    assert bob.get(f"/api/players/{ann.name}/standing")["blocked"] is True
    r = ann.http.put(f"/api/players/{bob.name}/follow")
    assert r.status_code == 403 and r.json()["error"]["code"] == "blocked", r.text
    assert bob.http.delete(f"/api/players/{ann.name}/block").status_code == 204
    assert ann.http.put(f"/api/players/{bob.name}/follow").status_code == 204
    assert ann.http.delete(f"/api/players/{cat.name}/follow").status_code == 204
    assert [p["name"] for p in ann.get("/api/me/following")] == [bob.name]


def test_bad_requests_are_refused_in_words(server: ServerProcess) -> None:
    ann = Account(server)
    r = ann.http.put(f"/api/players/{ann.name}/follow")
    assert r.status_code == 422 and "your own account" in r.json()["error"]["message"]
    r = ann.http.put("/api/players/nobody-here/block")
    assert r.status_code == 404 and "nobody-here" in r.json()["error"]["message"]
    r = fetch("GET", f"{server.url}/api/me/following", timeout=WAIT)
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    r = fetch("GET", f"{server.url}/api/people/online", params={"limit": 1000}, timeout=WAIT)
    assert r.status_code == 422


def test_online_on_every_process_and_lapses_when_one_is_killed(tmp_path: Path) -> None:
    db, keys = PostgresDatabase(), RedisPrefix()
    try:
        with cluster(db.url, tmp_path, 2, "--ai-workers", "1", *keys.args()) as (a, b):
            ann = Account(a)
            ws = ann.me(a)
            try:
                eventually(lambda: ann.name in online_names(b))
                a.kill()  # no goodbye: Ann lapses from the online set on her own
                eventually(lambda: ann.name not in online_names(b), timeout=40)
            finally:
                ws.close()
    finally:
        keys.clean()
        db.drop()
