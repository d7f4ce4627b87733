"""Takeback requests in online games between people (issue 39; docs/server.md, "Takebacks"),
against real server processes on SQLite and PostgreSQL and across two processes over Redis:
a player asks to take back their last move, the opponent accepts (the moves go back and the
asker plays again) or declines; the asker may cancel; a move or the game's end closes the
request. A rated game allows takebacks only if both players agreed when it was made; against
the AI or at one screen a player undoes instead. One request at a time, and none again after a
decline until a move is made. Every refusal is an error in words."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from patchwork.engine import Rules  # noqa: E402
from patchwork.server.common.tokens import token_hash  # noqa: E402
from patchwork.server.games.creation import PairedPlayer, paired_game_data  # noqa: E402
from patchwork.server.http import game_socket  # noqa: E402
from patchwork.server.storage.models import EventData  # noqa: E402
from patchwork.server.storage.store import AddEvent, InsertGame, Store  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    Client,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    running_server,
)

pytest_plugins = ["server_fixtures"]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(
        backend, tmp_path_factory.mktemp(f"takebacks-{backend}"), *SHARED_ARGS
    ) as p:
        yield p


# -- helpers ---------------------------------------------------------------------------------


def online_game(server: ServerProcess, **options: Any) -> tuple[str, str, str]:
    """A casual online game with both seats taken: (id, seat 0's token, seat 1's token)."""
    created = server.create(mode="online", name="Ann", seat=0, **options)
    r = server.post(
        f"/api/games/{created['game_id']}/join", {"invite": created["invite_code"], "name": "Bob"}
    )
    assert r.status_code == 200, r.text
    return created["game_id"], created["token"], r.json()["token"]


def stored_game(server: ServerProcess, *, rated: bool, takebacks: bool) -> tuple[str, str, str]:
    """An online game written straight to the database, as the lobby or a challenge would
    (rated, and the ``takebacks`` column set as a challenge between two named players sets
    it); the server reads it when first asked for it."""
    tokens = [secrets.token_urlsafe(24) for _ in (0, 1)]
    players = (
        PairedPlayer("Ann", None, token_hash(tokens[0])),
        PairedPlayer("Bob", None, token_hash(tokens[1])),
    )
    data, seat = paired_game_data(Rules(), None, rated, players)
    data.takebacks = takebacks
    store = Store(server.db_url)
    try:
        store.write(
            [InsertGame(data), AddEvent(EventData(data.id, 1, "created", {"mode": "online"}))]
        )
    finally:
        store.close()
    ann, bob = tokens if seat == 0 else tokens[::-1]  # Ann got seat ``seat``
    return data.id, ann, bob


LATEST: dict[str, int] = {}  # per game, the latest version a request of a test made


def ack(reply: dict[str, Any], of: str = "takeback") -> int:
    assert reply["type"] == "ack" and reply["of"] == of, reply
    version: int = reply["version"]
    return version


def game_id(c: Client) -> str:
    assert c.welcome is not None
    gid: str = c.welcome["game_id"]
    return gid


def refused(reply: dict[str, Any], code: str, *words: str) -> str:
    assert reply["type"] == "error" and reply["code"] == code, reply
    message: str = reply["message"]
    for w in words:
        assert w in message, message
    return message


def takeback(c: Client, action: str) -> dict[str, Any]:
    reply = c.request({"type": "takeback", "action": action})
    if reply["type"] == "ack":
        LATEST[game_id(c)] = reply["version"]
    return reply


def events_seen(c: Client) -> list[dict[str, Any]]:
    """Every event ``c`` heard, in the order heard: a change as a ``state`` or ``update`` (on
    the process where it was made), or in a ``sync`` (one another process made)."""
    seen: list[dict[str, Any]] = []
    for m in c.messages:
        if m["type"] in ("state", "update") and m["event"] is not None:
            seen.append(m["event"])
        elif m["type"] == "sync":
            seen += m["events"]
    return seen


def event_at(c: Client, version: int) -> dict[str, Any]:
    """The event that brought ``c``'s game to ``version``, once heard."""
    c.state_at(version)
    (event,) = [e for e in events_seen(c) if e["version"] == version]
    return event


def assert_valid(*clients: Client) -> None:
    """Every message the clients got is one of the socket's closed set, field for field."""
    for c in clients:
        for text in c.received:
            message = game_socket.server_messages.validate_json(text)
            assert message.model_dump(mode="json") == json.loads(text)


def play(c: Client, move: str = "A") -> int:
    """Make a move once ``c`` has seen the game's latest change."""
    c.state_at(LATEST.get(game_id(c), 0))
    v = ack(c.move(move), "move")
    LATEST[game_id(c)] = v
    return v


def players(
    server: ServerProcess, game_id: str, ann_token: str, bob_token: str
) -> tuple[Client, Client]:
    ann, bob = server.client(game_id, ann_token), server.client(game_id, bob_token)
    assert ann.welcome is not None and bob.welcome is not None
    return ann, bob


# -- asking and answering ----------------------------------------------------------------------


def test_an_accepted_takeback_goes_back_and_the_asker_plays_again(server: ServerProcess) -> None:
    gid, a, b = online_game(server, clock={"kind": "fischer", "initial": 300, "increment": 2})
    ann, bob = players(server, gid, a, b)
    with ann, bob:
        assert ann.game is not None
        tb = ann.game["takeback"]
        assert tb == {
            "allowed": True,
            "offered_by": None,
            "declined": None,
            "can_ask": [False, False],
        }
        v = play(ann)  # Ann (seat 0) advances past Bob: his turn
        g = ann.state_at(v)
        assert g["to_move"] == 1 and g["takeback"]["can_ask"] == [True, False]
        v = ack(takeback(ann, "ask"))
        for c in (ann, bob):  # both hear the request, in version order
            assert event_at(c, v) == {"version": v, "kind": "takeback_offer", "seat": 0}
            assert c.state_at(v)["takeback"]["offered_by"] == 0
            assert c.game is not None and c.game["takeback"]["can_ask"] == [False, False]
        remaining_before = bob.state_at(v)["clock"]["remaining_ms"]
        v = ack(takeback(bob, "accept"))
        for c in (ann, bob):
            event = event_at(c, v)
            assert event == {
                "version": v,
                "kind": "undo",
                "removed": ["A"],
                "ply": 0,
                "asked_by": 0,
            }
            g = c.state_at(v)
            assert g["history"] == [] and g["to_move"] == 0
            assert g["takeback"] == {
                "allowed": True,
                "offered_by": None,
                "declined": None,
                "can_ask": [False, False],
            }
        # Clocks: Bob's running time was charged up to the acceptance, Ann's kept (with the
        # increment of the move taken back); Ann's turn starts again now.
        clock = ann.game["clock"] if ann.game else {}
        assert clock["running"] == 0 and clock["turn_started"] is not None
        assert clock["remaining_ms"][0] == remaining_before[0]
        assert 0 < remaining_before[1] - clock["remaining_ms"][1] < 15_000
        v = play(ann, "A")  # the asker plays again
        assert len(bob.state_at(v)["history"]) == 1
        assert_valid(ann, bob)


def test_a_declined_takeback_is_not_asked_again_until_a_move(server: ServerProcess) -> None:
    gid, a, b = online_game(server)
    ann, bob = players(server, gid, a, b)
    with ann, bob:
        play(ann)
        ack(takeback(ann, "ask"))
        v = ack(takeback(bob, "decline"))
        for c in (ann, bob):
            assert event_at(c, v) == {"version": v, "kind": "takeback_decline", "seat": 1}
            g = c.state_at(v)
            assert g["takeback"]["offered_by"] is None and g["takeback"]["declined"] == 0
            assert g["takeback"]["can_ask"] == [False, False]  # Bob has no move to take back
            assert len(g["history"]) == 1  # nothing was taken back
        refused(takeback(ann, "ask"), "takeback_declined", "declined", "next move")
        refused(takeback(bob, "accept"), "no_takeback_offer", "has not asked")
        v = play(bob)  # a move: Ann may ask again (and Bob now may too)
        g = ann.state_at(v)
        assert g["takeback"]["declined"] is None and g["takeback"]["can_ask"] == [True, True]
        ack(takeback(ann, "ask"))


def test_the_asker_cancels_and_a_move_closes_a_request(server: ServerProcess) -> None:
    gid, a, b = online_game(server)
    ann, bob = players(server, gid, a, b)
    with ann, bob:
        play(ann)
        refused(takeback(ann, "cancel"), "no_takeback_offer", "you have not asked")
        ack(takeback(ann, "ask"))
        refused(takeback(bob, "cancel"), "no_takeback_offer")  # not his to cancel
        v = ack(takeback(ann, "cancel"))
        assert event_at(bob, v) == {"version": v, "kind": "takeback_cancel", "seat": 0}
        assert bob.state_at(v)["takeback"]["offered_by"] is None
        refused(takeback(bob, "accept"), "no_takeback_offer")
        ack(takeback(ann, "ask"))  # cancelling is no decline: she may ask again
        v = play(bob)  # Bob answers with a move instead: the request is gone
        g = ann.state_at(v)
        assert g["takeback"]["offered_by"] is None and g["takeback"]["can_ask"] == [True, True]
        refused(takeback(bob, "accept"), "no_takeback_offer")
        refused(takeback(bob, "decline"), "no_takeback_offer")


def test_one_request_at_a_time(server: ServerProcess) -> None:
    gid, a, b = online_game(server)
    ann, bob = players(server, gid, a, b)
    with ann, bob:
        refused(takeback(ann, "ask"), "nothing_to_undo", "no move of yours")
        play(ann)
        play(bob)
        v = ack(takeback(ann, "ask"))
        refused(takeback(ann, "ask"), "takeback_pending", "asked already")
        refused(takeback(bob, "ask"), "takeback_pending", "accept or decline")
        refused(takeback(ann, "accept"), "no_takeback_offer")  # nobody accepts their own
        assert ann.game is not None and ann.game["version"] == v  # nothing changed
        # Accepted, Ann's move and Bob's answer since go back.
        v = ack(takeback(bob, "accept"))
        assert event_at(ann, v)["removed"] == ["A", "A"]
        assert ann.state_at(v)["history"] == []


def test_the_end_of_the_game_closes_a_request(server: ServerProcess) -> None:
    gid, a, b = online_game(server)
    ann, bob = players(server, gid, a, b)
    with ann, bob:
        play(ann)
        ack(takeback(ann, "ask"))
        v = ack(bob.request({"type": "resign"}), "resign")
        LATEST[gid] = v
        g = ann.state_at(v)
        assert g["status"] == "finished" and g["takeback"]["offered_by"] is None
        assert g["takeback"]["can_ask"] == [False, False]
        refused(takeback(bob, "accept"), "game_over")
        refused(takeback(ann, "ask"), "game_over")


# -- the rule ------------------------------------------------------------------------------------


def test_a_rated_game_allows_takebacks_only_when_both_agreed(server: ServerProcess) -> None:
    gid, a, b = stored_game(server, rated=True, takebacks=False)
    ann, bob = players(server, gid, a, b)
    with ann, bob:
        assert ann.game is not None and ann.game["rated"] is True
        assert ann.game["takeback"]["allowed"] is False
        first = ann if ann.game["to_move"] == ann.welcome["seats"][0] else bob  # type: ignore[index]
        v = play(first)
        assert first.state_at(v)["takeback"]["can_ask"] == [False, False]
        refused(takeback(first, "ask"), "not_allowed", "rated", "both players agreed")
        r = server.post(f"/api/games/{gid}/takeback", {"action": "ask"}, token=a)
        assert r.status_code == 403 and "both players agreed" in r.json()["error"]["message"]
    gid, a, b = stored_game(server, rated=True, takebacks=True)
    ann, bob = players(server, gid, a, b)
    with ann, bob:
        assert ann.game is not None and ann.game["takeback"]["allowed"] is True
        first, other = (ann, bob) if ann.game["to_move"] == ann.welcome["seats"][0] else (bob, ann)  # type: ignore[index]
        play(first)
        ack(takeback(first, "ask"))
        v = ack(takeback(other, "accept"))
        assert other.state_at(v)["history"] == []


def test_against_the_ai_and_at_one_screen_a_player_undoes(server: ServerProcess) -> None:
    for mode in ("ai", "local"):
        created = server.create(mode=mode, level=1)
        with server.client(created["game_id"], created["token"]) as c:
            assert c.game is not None and c.game["takeback"]["allowed"] is False
            v = play(c)
            refused(takeback(c, "ask"), "not_allowed", "online games between people", "undo")
            r = server.post(
                f"/api/games/{created['game_id']}/takeback",
                {"action": "ask"},
                token=created["token"],
            )
            assert r.status_code == 403, r.text
            # Undo is theirs, as before.
            c.state_at(v)
            assert ack(c.request({"type": "undo"}), "undo") > v


# -- the HTTP route, reconnecting, bad requests ------------------------------------------------


def test_over_http_and_a_reconnecting_client_catches_up(server: ServerProcess) -> None:
    gid, a, b = online_game(server)
    with server.client(gid, a) as ann:
        play(ann)
        assert ann.game is not None
        seen = ann.game["version"]
    r = server.post(f"/api/games/{gid}/takeback", {"action": "ask"}, token=a)
    assert r.status_code == 200, r.text
    assert r.json()["game"]["takeback"]["offered_by"] == 0
    r = server.post(f"/api/games/{gid}/takeback", {"action": "decline"}, token=b)
    assert r.status_code == 200 and r.json()["game"]["takeback"]["declined"] == 0
    again = server.post(f"/api/games/{gid}/takeback", {"action": "ask"}, token=a)
    assert again.status_code == 409 and again.json()["error"]["code"] == "takeback_declined"
    with server.client(gid, a, last_version=seen) as ann:  # back: what it missed, in order
        assert ann.first is not None and ann.first["type"] == "sync"
        kinds = [(e["kind"], e.get("seat")) for e in ann.first["events"]]
        assert kinds == [("takeback_offer", 0), ("takeback_decline", 1)]
        assert ann.first["game"]["takeback"]["declined"] == 0


def test_bad_takeback_requests_get_clear_errors(server: ServerProcess) -> None:
    gid, a, _ = online_game(server)
    with server.client(gid, a) as ann, server.client(gid) as watcher:
        refused(ann.request({"type": "takeback"}), "invalid_message", "action")
        refused(ann.request({"type": "takeback", "action": "steal"}), "invalid_message")
        refused(ann.request({"type": "takeback", "action": 1}), "invalid_message")
        refused(takeback(watcher, "ask"), "read_only")
        play(ann)
        refused(takeback(watcher, "accept"), "read_only")
        assert ann.game is not None and ann.game["takeback"]["offered_by"] is None
    r = server.post(f"/api/games/{gid}/takeback", {"action": "ask"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "missing_token"
    r = server.post(f"/api/games/{gid}/takeback", {"action": "please"}, token=a)
    assert r.status_code == 422
    r = server.post(f"/api/games/{gid}/takeback", {}, token=a)
    assert r.status_code == 422
    r = server.post(f"/api/games/{gid}/takeback", {"action": "ask"}, token="not-a-token")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    waiting = server.create(mode="online", name="Cat")
    r = server.post(
        f"/api/games/{waiting['game_id']}/takeback", {"action": "ask"}, token=waiting["token"]
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_started"


# -- two processes -----------------------------------------------------------------------------


def test_asked_on_one_process_answered_on_the_other(tmp_path: Path) -> None:
    """Two processes over PostgreSQL and Redis: Ann on A asks, Bob on B hears it and accepts,
    and both (and a spectator on A) hear every step in version order."""
    db, keys = PostgresDatabase(), RedisPrefix()
    try:
        with cluster(db.url, tmp_path, 2, "--ai-workers", "1", *keys.args()) as (pa, pb):
            gid, a, b = online_game(pa)
            with pa.client(gid, a) as ann, pb.client(gid, b) as bob, pa.client(gid) as watcher:
                v = play(ann)
                bob.state_at(v)
                v = ack(takeback(ann, "ask"))
                assert event_at(bob, v)["kind"] == "takeback_offer"
                assert bob.state_at(v)["takeback"]["offered_by"] == 0
                v2 = ack(takeback(bob, "decline"))
                assert event_at(ann, v2)["kind"] == "takeback_decline"
                refused(takeback(ann, "ask"), "takeback_declined")
                v3 = play(bob)
                ann.state_at(v3)
                v4 = ack(takeback(ann, "ask"))
                bob.state_at(v4)
                v5 = ack(takeback(bob, "accept"))
                assert event_at(ann, v5)["removed"] == ["A", "A"]
                assert ann.state_at(v5)["history"] == [] and ann.game is not None
                assert ann.game["to_move"] == 0
                watcher.state_at(v5)
                seen = [(e["version"], e["kind"]) for e in events_seen(watcher)]
                assert seen[-5:] == [
                    (v, "takeback_offer"),
                    (v2, "takeback_decline"),
                    (v3, "move"),
                    (v4, "takeback_offer"),
                    (v5, "undo"),
                ]
                assert_valid(ann, bob, watcher)
    finally:
        keys.clean()
        db.drop()
