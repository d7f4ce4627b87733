"""Bad input and unkind clients against a real server process (SQLite and PostgreSQL): numbers
too large for the database, names a record cannot carry, bodies of the wrong type or nesting,
values of the wrong JSON type; slow and greedy clients, and memory that stays bounded."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.register_assert_rewrite("server_fixtures")

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

import patchwork as pw  # noqa: E402
from server_fixtures import Client, ServerProcess, fetch, http_client, legal_moves, running_server  # noqa: E402

pytest_plugins = ["server_fixtures"]


def code_of(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


# -- numbers, names, bodies, types (the shared server) ------------------------------------------


@pytest.mark.both_backends
def test_numbers_beyond_the_database_columns_are_refused(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=1)
    gid, token = created["game_id"], created["token"]
    for since in (2**31, 2**63, 2**64, -1):
        r = server.get(f"/api/games/{gid}/events?since={since}")
        assert r.status_code == 422 and code_of(r) == "invalid_request", (since, r.text)
    r = server.get(f"/api/games/{gid}/events?since={2**31 - 1}")
    assert r.status_code == 200 and r.json()["events"] == []
    for version in (2**31, 2**63, -1):
        r = server.post(f"/api/games/{gid}/moves", {"move": "A", "version": version}, token)
        assert r.status_code == 422 and code_of(r) == "invalid_request", r.text
        r = server.post(f"/api/games/{gid}/undo", {"version": version}, token)
        assert r.status_code == 422, r.text
    with server.client(gid, token) as c:
        assert c.request({"type": "move", "move": "A", "version": 2**63})["code"] == (
            "invalid_message"
        )
        assert c.request({"type": "analysis", "ply": 2**40})["code"] == "invalid_message"
    raw = Client.raw(f"{server.ws_url}/ws/games/{gid}")
    raw.send({"type": "hello", "token": token, "last_version": 2**63})
    assert "last_version" in raw.error("invalid_message")["message"]
    raw.close()
    assert server.game(gid)["version"] == 1


def post_json(server: ServerProcess, path: str, body: Any) -> httpx.Response:
    """POST ``body`` as ASCII JSON (a lone surrogate escaped, as a careless client sends it)."""
    headers = {"content-type": "application/json"}
    return fetch("POST", f"{server.url}{path}", content=json.dumps(body), headers=headers)


BAD_NAMES = ["a\x00b", "Ann\nBob", "tab\there", "a\u2028b", "\x1f", "lone \ud800"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_names_a_record_cannot_carry_are_refused(server: ServerProcess, name: str) -> None:
    r = post_json(server, "/api/games", {"mode": "online", "name": name})
    assert r.status_code == 422 and code_of(r) == "invalid_request", r.text
    message = r.json()["error"]["message"]
    assert message.startswith("name:"), message
    assert "control characters" in message or "unicode" in message  # lone surrogate: not text
    r = post_json(server, "/api/games", {"mode": "local", "opponent_name": name})
    assert r.status_code == 422, r.text
    created = server.create(mode="online")
    join = f"/api/games/{created['game_id']}/join"
    r = post_json(server, join, {"invite": created["invite_code"], "name": name})
    assert r.status_code == 422 and code_of(r) == "invalid_request", r.text
    assert server.game(created["game_id"])["status"] == "waiting"


@pytest.mark.parametrize(
    ("name", "said"),
    [("\u200b\u200b", "can be seen"), (" ", "can be seen"), ("Eve\u202e", "text direction")],
)
def test_names_that_hide_or_turn_text_are_refused(
    server: ServerProcess, name: str, said: str
) -> None:
    """A guest's name that shows nothing, or reverses the text after it (issue 35)."""
    for body in ({"mode": "online", "name": name}, {"mode": "local", "opponent_name": name}):
        r = post_json(server, "/api/games", body)
        assert r.status_code == 422 and code_of(r) == "invalid_request", r.text
        assert said in r.json()["error"]["message"]


@pytest.mark.both_backends
def test_every_record_the_server_writes_loads_again(server: ServerProcess) -> None:
    # Persian with a zero-width non-joiner, quotes and brackets: allowed, and kept.
    names = ["\u0645\u06cc\u200c\u0631\u0627", 'a "quoted" [name]']
    created = server.create(mode="local", name=names[0], opponent_name=names[1])
    gid, token = created["game_id"], created["token"]
    game = created["game"]
    for _ in range(3):
        r = server.post(
            f"/api/games/{gid}/moves",
            {"move": legal_moves(game)[0], "version": game["version"]},
            token,
        )
        assert r.status_code == 200, r.text
        game = r.json()["game"]
    text = server.get(f"/api/games/{gid}/record.txt").text
    record = pw.Record.from_text(text)
    assert record.players == tuple(names) and len(record.moves) == 3
    loaded = pw.Record.from_json(server.get(f"/api/games/{gid}/record.json").text)
    assert loaded.players == tuple(names)


def test_bodies_of_another_type_or_nested_too_deeply(server: ServerProcess) -> None:
    url = f"{server.url}/api/games"
    body = json.dumps({"mode": "ai", "level": 1})
    for headers in (
        {"content-type": "text/plain"},
        {},
        {"content-type": "application/x-www-form-urlencoded"},
    ):
        r = fetch("POST", url, content=body, headers=headers)
        assert r.status_code == 415 and code_of(r) == "unsupported_media_type", r.text
        assert "Content-Type: application/json" in r.json()["error"]["message"]
    r = fetch(
        "POST", url, content=body, headers={"content-type": "application/json; charset=utf-8"}
    )
    assert r.status_code == 201, r.text
    deep = "[" * 5000 + "]" * 5000
    r = fetch("POST", url, content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and code_of(r) == "bad_json", r.text
    deep_object = '{"mode": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}"
    r = fetch("POST", url, content=deep_object, headers={"content-type": "application/json"})
    assert r.status_code == 400 and code_of(r) == "bad_json", r.text


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"mode": "ai", "level": True}, "level"),
        ({"mode": "ai", "level": "3"}, "level"),
        ({"mode": "ai", "level": 3.0}, "level"),
        ({"mode": "ai", "seat": True}, "seat"),
        ({"mode": "ai", "first_player": False}, "first_player"),
        ({"mode": "ai", "seed": "42"}, "seed"),
        ({"mode": "ai", "circle": [str(i) for i in range(33)]}, "circle"),
        ({"mode": "ai", "rules": {"rotation": 1}}, "rules.rotation"),
        ({"mode": "ai", "clock": {"kind": "fischer", "initial": "60"}}, "clock.initial"),
        ({"mode": "ai", "name": 7}, "name"),
    ],
)
def test_values_of_the_wrong_json_type_are_refused(
    server: ServerProcess, body: dict[str, Any], field: str
) -> None:
    r = server.post("/api/games", body)
    assert r.status_code == 422 and code_of(r) == "invalid_request", r.text
    assert r.json()["error"]["message"].startswith(field), r.text


def test_moves_of_the_wrong_json_type_are_refused(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=1, clock={"kind": "fischer", "initial": 60})
    gid, token = created["game_id"], created["token"]
    move = legal_moves(created["game"])[0]
    for version in ("1", True, 1.0):
        r = server.post(f"/api/games/{gid}/moves", {"move": move, "version": version}, token)
        assert r.status_code == 422 and code_of(r) == "invalid_request", r.text
    with server.client(gid, token) as c:
        for version in ("1", True, 1.0):
            reply = c.request({"type": "move", "move": move, "version": version})
            assert reply["code"] == "invalid_message", reply
        assert c.request({"type": "rematch", "action": 1})["code"] == "invalid_message"
    assert server.game(gid)["version"] == 1


# -- slow and greedy clients, memory (a server of their own, small limits) ----------------------

GUARDED_ARGS = (
    "--ai-workers",
    "1",
    "--games-cache",
    "4",
    "--waiting-expiry",
    "6",
    "--max-ws-per-address",
    "4",
    "--header-timeout",
    "1",
    "--body-timeout",
    "1",
    "--http-rate",
    "50",
    "--http-burst",
    "100",
    "--http-read-rate",
    "1",
    "--http-read-burst",
    "60",
)


@pytest.fixture(scope="module")
def guarded(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(
        backend, tmp_path_factory.mktemp(f"guarded-{backend}"), *GUARDED_ARGS
    ) as proc:
        yield proc


def _seconds_until_closed(sock: socket.socket, limit: float = 8.0) -> tuple[float, bytes]:
    """How long the server kept the socket open, and what it sent before closing it."""
    t0 = time.monotonic()
    sock.settimeout(limit)
    received = b""
    try:
        while chunk := sock.recv(4096):
            received += chunk
    except TimeoutError:
        pass
    return time.monotonic() - t0, received


def test_partial_headers_are_cut_off(guarded: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", guarded.port)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        seconds, received = _seconds_until_closed(sock)
    assert seconds < 4 and received == b""
    # And on a kept-alive connection, after a first request was answered.
    with socket.create_connection(("127.0.0.1", guarded.port)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        seconds, _ = _seconds_until_closed(sock)
    assert seconds < 4


def test_a_partial_body_times_out(guarded: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", guarded.port)) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"mode": '
        )
        seconds, received = _seconds_until_closed(sock)
    assert seconds < 4
    assert received.startswith(b"HTTP/1.1 408") and b'"timeout"' in received


def test_websockets_per_address_are_capped(guarded: ServerProcess) -> None:
    created = guarded.create(mode="ai", level=1)
    url = f"{guarded.ws_url}/ws/games/{created['game_id']}"
    # A client naming other addresses in X-Forwarded-For is still one address: no proxy is
    # trusted unless --forwarded-allow-ips names it.
    held = [
        connect(url, additional_headers={"x-forwarded-for": f"10.0.0.{i}"}, proxy=None).__enter__()
        for i in range(4)
    ]
    try:
        with connect(url, additional_headers={"x-forwarded-for": "10.0.0.9"}, proxy=None) as ws:
            refused = json.loads(ws.recv(timeout=10))
            assert refused["type"] == "error" and refused["code"] == "too_many_connections"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        held.pop().close()
        with guarded.client(created["game_id"]) as c:  # a place was freed
            assert c.welcome is not None and c.welcome["role"] == "spectator"
    finally:
        for ws in held:
            ws.close()


def _in_memory(server: ServerProcess) -> int:
    count: int = server.get("/healthz").json()["games_in_memory"]
    return count


def test_memory_stays_bounded_as_games_are_left(guarded: ServerProcess) -> None:
    first = guarded.create(mode="online", name="W")
    playing = [guarded.create(mode="ai", level=1) for _ in range(8)]
    assert _in_memory(guarded) <= 4
    # Evicted games come back from the database as they were, and play on (the invitation
    # is joined well within its expiry).
    r = guarded.post(f"/api/games/{first['game_id']}/join", {"invite": first["invite_code"]})
    assert r.status_code == 200, r.text
    assert r.json()["game"]["status"] == "active"
    local = [guarded.create(mode="local") for _ in range(4)]
    waiting = [guarded.create(mode="online") for i in range(8)]
    assert _in_memory(guarded) <= 4 and waiting
    ai = playing[0]
    assert guarded.game(ai["game_id"])["position"] == ai["game"]["position"]
    with guarded.client(ai["game_id"], ai["token"]) as c:
        assert c.move(legal_moves(ai["game"])[0])["type"] == "ack"
        c.wait_game(lambda g: g["to_move"] == 0 or g["status"] == "finished")  # the AI answered
    game = local[0]
    for _ in range(2):
        view = guarded.game(game["game_id"])
        r = guarded.post(
            f"/api/games/{game['game_id']}/moves",
            {"move": legal_moves(view)[0], "version": view["version"]},
            game["token"],
        )
        assert r.status_code == 200, r.text
    more = [guarded.create(mode="online") for _ in range(6)]
    assert _in_memory(guarded) <= 4
    assert guarded.game(more[0]["game_id"])["status"] == "waiting"


@pytest.mark.both_backends
def test_waiting_games_nobody_joins_expire(guarded: ServerProcess) -> None:
    left = guarded.create(mode="online")
    kept = guarded.create(mode="online")
    with guarded.client(kept["game_id"], kept["token"]) as c:  # its creator waits, connected
        time.sleep(8)  # past the 6 s expiry, and a sweep (every 2 s)
        r = guarded.get(f"/api/games/{left['game_id']}")
        assert r.status_code == 404 and code_of(r) == "game_not_found"
        assert c.request({"type": "ping"})["type"] == "pong"
        assert guarded.game(kept["game_id"])["status"] == "waiting"


def test_costly_reads_are_rate_limited(guarded: ServerProcess) -> None:
    # Last in the module: it spends the address's read budget.
    created = guarded.create(mode="ai", level=1)
    with http_client(base_url=guarded.url, timeout=15) as http:
        codes = [
            http.get(f"/api/games/{created['game_id']}/replay").status_code for _ in range(120)
        ]
        assert 429 in codes and set(codes) <= {200, 429}
        r = http.get("/api/games")
        assert r.status_code == 429 and code_of(r) == "rate_limited" and "retry-after" in r.headers
        assert http.get("/healthz").status_code == 200  # cheap reads are not limited
