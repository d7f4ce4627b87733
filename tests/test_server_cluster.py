"""Several server processes, one service (``patchwork serve --redis``): real processes over
one real PostgreSQL database and a real Redis (keys of each test's own prefix, deleted after)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from patchwork.server.cluster.redis_cluster import PRESENCE_STALE, Cluster  # noqa: E402
from server_fixtures import (  # noqa: E402
    Client,
    PostgresDatabase,
    RedisPrefix,
    RedisServer,
    ServerProcess,
    cluster,
    fetch,
    legal_moves,
)

ARGS = (
    "--ai-workers",
    "1",
    "--grace",
    "1.5",
    "--ws-rate",
    "100",
    "--ws-burst",
    "100",
    "--http-rate",
    "100",
    "--http-burst",
    "200",
)


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    db = PostgresDatabase()
    try:
        yield db.url
    finally:
        db.drop()


@pytest.fixture(scope="module")
def keys() -> Iterator[RedisPrefix]:
    prefix = RedisPrefix()
    try:
        yield prefix
    finally:
        prefix.clean()


@pytest.fixture(scope="module")
def three(
    pg: str, keys: RedisPrefix, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    # --ai-delay: an AI turn lasts long enough to kill the process running it.
    tmp = tmp_path_factory.mktemp("cluster")
    with cluster(pg, tmp, 3, *ARGS, "--ai-delay", "2", *keys.args()) as procs:
        yield procs


def _online(procs: list[ServerProcess], **body: Any) -> tuple[str, dict[int, str]]:
    """An online game made on the first process and joined on the second."""
    created = procs[0].create(mode="online", name="Ann", seed=11, **body)
    gid = created["game_id"]
    r = procs[1].post(f"/api/games/{gid}/join", {"invite": created["invite_code"], "name": "Bob"})
    assert r.status_code == 200, r.text
    return gid, {created["seat"]: created["token"], r.json()["seat"]: r.json()["token"]}


def _events(client: Client) -> list[dict[str, Any]]:
    """Every event the client was told of, in the order it heard them."""
    seen: list[dict[str, Any]] = []
    for m in client.messages:
        if m["type"] in ("update", "state") and m.get("event") is not None:
            seen.append(m["event"])
        elif m["type"] == "sync":
            seen.extend(m["events"])
    return seen


def _assert_heard_once_in_order(client: Client, final: dict[str, Any], since: int) -> None:
    versions = [e["version"] for e in _events(client) if e["version"] > since]
    assert versions == list(range(since + 1, final["version"] + 1)), client.tail()
    moves = [(e["ply"], e["move"]) for e in _events(client) if e["kind"] == "move"]
    assert moves == [(h["ply"], h["move"]) for h in final["history"]]
    assert client.game is not None and client.game["history"] == final["history"]


def test_players_on_different_processes_hear_every_move_once_in_order(
    three: list[ServerProcess],
) -> None:
    a, b, c = three
    gid, tokens = _online(three)
    start = a.game(gid)["version"]
    with (
        a.client(gid, tokens[0]) as p0,
        b.client(gid, tokens[1]) as p1,
        c.client(gid) as watcher,
    ):
        # Presence is counted across the processes: each seat is connected somewhere.
        watcher.recv_until(
            lambda m: m["type"] == "presence" and all(s["connected"] for s in m["seats"])
        )
        for player in (p0, p1):  # and so are the spectators
            player.recv_until(lambda m: m["type"] == "presence" and m["spectators"] == 1)
        players = {0: p0, 1: p1}
        game = a.game(gid)
        for i in range(24):
            seat = game["to_move"]
            if seat is None:
                break
            moves = legal_moves(game)
            move = moves[i % len(moves)]
            via = three[i % 3]
            if i % 2:  # over HTTP, through each process in turn
                r = via.post(
                    f"/api/games/{gid}/moves",
                    {"move": move, "version": game["version"]},
                    tokens[seat],
                )
                assert r.status_code == 200, r.text
                version = r.json()["version"]
            else:  # over the player's own websocket
                ack = players[seat].move(move, game["version"])
                assert ack["type"] == "ack", ack
                version = ack["version"]
            for client in (p0, p1, watcher):
                client.state_at(version)
            game = three[(i + 1) % 3].game(gid)  # any process answers with the latest
            assert game["version"] == version
        assert p0.request({"type": "ping"})["type"] == "pong"
        final = c.game(gid)
        for client in (p0, p1, watcher):
            client.state_at(final["version"])
            _assert_heard_once_in_order(client, final, start)


def test_two_processes_given_the_same_move_at_once_accept_one(
    three: list[ServerProcess],
) -> None:
    a, b, c = three
    gid, tokens = _online(three)
    with c.client(gid) as watcher:
        for _ in range(4):
            game = c.game(gid)
            seat = game["to_move"]
            body = {"move": legal_moves(game)[0], "version": game["version"]}
            path, token = f"/api/games/{gid}/moves", tokens[seat]
            with ThreadPoolExecutor(2) as pool:
                sent = [pool.submit(p.post, path, body, token) for p in (a, b)]
                answers = [f.result() for f in sent]
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 409], [r.text for r in answers]
            loser = next(r for r in answers if r.status_code == 409)
            # Refused on the version (or, when it read the winner's move first, the turn).
            assert loser.json()["error"]["code"] in ("stale_version", "not_your_turn")
            watcher.state_at(game["version"] + 1)
        final = c.game(gid)
        assert len(final["history"]) == 4  # one move for each pair sent
        watcher.request({"type": "ping"})
        _assert_heard_once_in_order(watcher, final, watcher.first["game"]["version"])  # type: ignore[index]


def _holder(three: list[ServerProcess], keys: RedisPrefix, gid: str) -> ServerProcess:
    deadline = time.monotonic() + 10
    nodes = {p.get("/healthz").json()["node"]: p for p in three if p.proc and p.proc.poll() is None}
    while time.monotonic() < deadline:
        node = keys.get("lease", gid)
        if node in nodes:
            return nodes[node]
        time.sleep(0.02)  # the lease is taken just after the commit: nothing to await
    raise AssertionError("nobody took the game's lease")


def test_killing_the_process_running_an_ai_turn_hands_the_turn_to_another(
    three: list[ServerProcess], keys: RedisPrefix
) -> None:
    created = three[0].create(mode="ai", level=1, seat=0, first_player=0, seed=5, name="Ann")
    gid, token = created["game_id"], created["token"]
    holder = _holder_after_move(three, keys, gid, token)
    survivors = [p for p in three if p is not holder]
    with survivors[0].client(gid, token) as me:
        last = me.game
        assert last is not None and last["to_move"] == 1  # the AI's turn, 2 s long
        holder.kill()
        try:
            # Another process takes the lease within a few seconds and the AI moves.
            game = me.wait_game(lambda g: g["to_move"] == 0, timeout=15)
            assert [h["seat"] for h in game["history"]][:2] == [0, 1]
        finally:
            holder.start()
    # A client reconnecting from its last version gets the rest, once.
    with survivors[1].client(gid, token, last_version=last["version"]) as again:
        assert again.first is not None and again.first["type"] == "sync"
        stored = survivors[1].game(gid)
        versions = [e["version"] for e in again.first["events"]]
        assert versions == list(range(last["version"] + 1, stored["version"] + 1))
        plies = [h["ply"] for h in stored["history"]]
        assert plies == list(range(1, len(plies) + 1))


def _holder_after_move(
    three: list[ServerProcess], keys: RedisPrefix, gid: str, token: str
) -> ServerProcess:
    game = three[1].game(gid)
    r = three[1].post(
        f"/api/games/{gid}/moves",
        {"move": _advance_or_first(game), "version": game["version"]},
        token,
    )
    assert r.status_code == 200, r.text
    return _holder(three, keys, gid)


def _advance_or_first(game: dict[str, Any]) -> str:
    moves = legal_moves(game)
    return "A" if "A" in moves else moves[0]


def test_killing_the_process_holding_a_clock_lets_another_flag_it(
    three: list[ServerProcess], keys: RedisPrefix
) -> None:
    gid, _tokens = _online(three, clock={"kind": "fischer", "initial": 4, "increment": 0})
    holder = _holder(three, keys, gid)
    watcher_on = next(p for p in three if p is not holder)
    with watcher_on.client(gid) as watcher:
        holder.kill()
        try:
            game = watcher.wait_game(lambda g: g["status"] == "finished", timeout=15)
            assert game["result"]["termination"] == "time"
            flags = [e for e in _events(watcher) if e["kind"] == "flag"]
            assert len(flags) == 1
        finally:
            holder.start()
    assert [e["kind"] for e in _stored_events(watcher_on, gid)].count("flag") == 1


def _stored_events(proc: ServerProcess, gid: str) -> list[dict[str, Any]]:
    r = proc.get(f"/api/games/{gid}/events?since=0")
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


# -- Redis going away --------------------------------------------------------------------------


def test_play_goes_on_while_redis_restarts_and_clients_catch_up(pg: str, tmp_path: Path) -> None:
    redis_server = RedisServer(tmp_path).start()
    prefix = RedisPrefix(redis_server.url)
    try:
        # Rate limits are shared: 4 requests at once across both processes, not 4 each.
        args = (*ARGS[:6], "--http-rate", "0.5", "--http-burst", "4", *prefix.args())
        with cluster(pg, tmp_path, 2, *args) as procs:
            a, b = procs
            codes = [p.post("/api/games/nosuchgame/resign").status_code for p in (a, b) * 4]
            assert codes.count(429) >= 3, codes
            created = a.create(mode="local", seed=3)
            gid, token = created["game_id"], created["token"]
            with a.client(gid, token) as player, b.client(gid) as watcher:
                _play(player, watcher, 2)
                redis_server.stop()
                assert a.get("/healthz").json()["redis"] == "down"
                _play(player, None, 2)  # moves still commit: the database decides
                assert a.game(gid)["version"] == player.game["version"]  # type: ignore[index]
                redis_server.start()  # an empty Redis on the same port
                # The other process catches up as soon as it is back.
                watcher.state_at(player.game["version"])  # type: ignore[index]
                _wait_redis_up(a)
                _play(player, watcher, 2)
                final = b.game(gid)
                _assert_heard_once_in_order(watcher, final, created["game"]["version"])
    finally:
        prefix.clean()
        redis_server.stop()


def _play(player: Client, watcher: Client | None, n: int) -> None:
    for _ in range(n):
        game = player.game
        assert game is not None
        ack = player.move(_advance_or_first(game))
        assert ack["type"] == "ack", ack
        if watcher is not None:
            watcher.state_at(ack["version"])


def _wait_redis_up(proc: ServerProcess) -> None:
    deadline = time.monotonic() + 10
    while proc.get("/healthz").json()["redis"] != "ok":
        assert time.monotonic() < deadline, "Redis is back, but the server does not say so"
        time.sleep(0.1)  # polling a health check: there is no event to await


def test_a_process_that_loses_its_database_refuses_rather_than_answer_from_memory(
    tmp_path: Path, keys: RedisPrefix
) -> None:
    db = PostgresDatabase()
    try:
        with cluster(db.url, tmp_path, 1, *ARGS, *keys.args()) as (proc,):
            created = proc.create(mode="local", seed=3)
            gid, token = created["game_id"], created["token"]
            game = proc.game(gid)  # in the process's memory now
            db.drop()  # the database is gone for good
            r = proc.post(
                f"/api/games/{gid}/moves",
                {"move": _advance_or_first(game), "version": game["version"]},
                token,
            )
            assert (r.status_code, r.json()["error"]["code"]) == (503, "unavailable")
            r = proc.get(f"/api/games/{gid}")
            assert (r.status_code, r.json()["error"]["code"]) == (503, "unavailable")
            assert proc.get("/healthz").status_code == 503
    finally:
        db.drop()


def test_a_dead_processs_connections_vanish_from_presence(keys: RedisPrefix) -> None:
    async def check() -> None:
        alive, dead, reader = (Cluster(keys.url, keys.prefix) for _ in range(3))
        try:
            await alive.set_presence({"g1": ([0], 0)})
            await dead.set_presence({"g1": ([1], 2)})
            assert await reader.presence("g1") == (frozenset({0, 1}), 2)
            # The dead process's heartbeat stops: its entry ages past the limit.
            old = json.dumps({"seats": [1], "spectators": 2, "t": time.time() - PRESENCE_STALE})
            await dead.redis.hset(dead.key("presence", "g1"), dead.node, old)
            assert await reader.presence("g1") == (frozenset({0}), 0)
            await alive.set_presence({"g1": ([], 0)})  # its last client left
            assert await reader.presence("g1") == (frozenset(), 0)
        finally:
            for c in (alive, dead, reader):
                await c.close()

    asyncio.run(check())


# -- starting ----------------------------------------------------------------------------------


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "patchwork.server", "--port", "1", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def test_a_server_that_cannot_reach_redis_says_so_and_exits(pg: str) -> None:
    run = _serve("--db", pg, "--redis", "redis://127.0.0.1:1/0")
    assert run.returncode != 0
    assert "cannot reach Redis at redis://127.0.0.1:1/0" in run.stderr


def test_redis_with_a_sqlite_database_is_refused(tmp_path: Path) -> None:
    run = _serve("--db", f"sqlite:///{tmp_path / 'g.db'}", "--redis", "redis://127.0.0.1:6379/0")
    assert run.returncode != 0
    assert "--redis needs a database that every server shares" in run.stderr
    assert not (tmp_path / "g.db").exists()


def test_without_redis_the_health_check_is_as_before(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", tmp_path, "--ai-workers", "1")
    server.start()
    try:
        health = fetch("GET", f"{server.url}/healthz").json()
        assert "redis" not in health and "node" not in health
    finally:
        server.stop()
