"""The analysis board on the server, SQLite and PostgreSQL: a board set up from a position
text or a finished game, moves played on it checked by the engine, bad input answered in
plain words; and the searcher's view streamed over /ws/analysis, deeper at each step, one
search a connection, stopped on request."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

import patchwork as pw  # noqa: E402
from server_fixtures import Client, ServerProcess, legal_moves  # noqa: E402

pytest_plugins = ["server_fixtures"]

START = pw.new_game(seed=5)


def board(server: ServerProcess, **body: Any) -> dict[str, Any]:
    r = server.post("/api/analysis/board", body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def refused(server: ServerProcess, status: int, code: str, **body: Any) -> str:
    r = server.post("/api/analysis/board", body)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    return message


def test_a_position_text_opens_a_board_and_moves_play_on_it(server: ServerProcess) -> None:
    first = board(server, position=START.to_text())
    assert first["start"] == START.to_text() and first["moves"] == [] and first["version"] == 0
    assert first["status"] == "active" and first["mode"] == "local"
    assert [s["name"] for s in first["seats"]] == ["Player 1", "Player 2"]
    assert first["to_move"] == START.current_player
    rng = random.Random(4)
    moves: list[str] = []
    view = first
    for _ in range(12):
        moves.append(rng.choice(legal_moves(view)))
        view = board(server, position=first["start"], moves=moves)
    game = pw.Game(START)
    for m in moves:
        game.push(m)
    assert view["moves"] == moves and len(view["history"]) == 12
    assert view["position"] == game.state.to_text() and view["to_move"] == game.state.current_player
    assert [e["move"] for e in view["history"]] == moves


def test_bad_input_is_answered_in_plain_words(server: ServerProcess) -> None:
    text = START.to_text()
    assert "position text has 1 fields" in refused(server, 400, "invalid_position", position="x")
    r = server.post("/api/analysis/board", {"position": text, "moves": ["A", "99r0@a1"]})
    assert r.status_code in (400, 409) and r.json()["error"]["code"] in (
        "invalid_move",
        "illegal_move",
    )
    assert refused(server, 400, "invalid_move", position=text, moves=["hello"])
    refused(server, 422, "invalid_request", position=text, game_id="abc")
    refused(server, 422, "invalid_request")
    refused(server, 422, "invalid_request", position=text, ply=3)
    refused(server, 422, "invalid_request", position="x" * 5000)
    refused(server, 422, "invalid_request", position=text, moves=["A"] * 400)
    refused(server, 422, "invalid_request", position=text, moves=[3])
    refused(server, 404, "game_not_found", game_id="nosuchgame")


def test_a_finished_game_opens_at_any_ply_and_one_in_play_does_not(server: ServerProcess) -> None:
    created = server.create(mode="local", seed=8, name="Ann", opponent_name="Bob")
    gid = created["game_id"]
    assert "once it is over" in refused(server, 409, "game_in_progress", game_id=gid)
    rng = random.Random(8)
    with server.client(gid, created["token"]) as c:
        while c.game is not None and c.game["status"] != "finished":
            c.state_at(c.move(rng.choice(legal_moves(c.game)))["version"])
        assert c.game is not None
        played = [e["move"] for e in c.game["history"]]
    at = board(server, game_id=gid, ply=7)
    assert at["mainline"] == played and at["moves"] == played[:7]
    assert [s["name"] for s in at["seats"]] == ["Ann", "Bob"]
    # A branch: the game's first 7 moves, then one of the board's own.
    branch = [*played[:7], legal_moves(at)[0]]
    assert board(server, position=at["start"], moves=branch)["moves"] == branch
    assert board(server, game_id=gid)["status"] == "finished"
    assert "the game has" in refused(server, 404, "not_found", game_id=gid, ply=len(played) + 1)


def analysis_socket(server: ServerProcess) -> Client:
    c = Client.raw(f"{server.ws_url}/ws/analysis")
    c.send({"type": "hello", "id": "h"})
    assert c.expect("ack")["of"] == "hello"
    return c


def test_the_search_streams_deeper_steps_and_stops_when_asked(server: ServerProcess) -> None:
    legal = {str(m) for m in START.legal_moves()}
    with analysis_socket(server) as c:
        c.send({"type": "analyse", "position": START.to_text(), "id": "a1"})
        steps = [c.expect("analysis", 30)]
        while not steps[-1]["final"]:
            steps.append(c.expect("analysis", 30))
        assert [s["step"] for s in steps] == [1, 2, 3, 4, 5] and steps[-1]["steps"] == 5
        assert all(s["ref"] == "a1" and s["position"] == START.to_text() for s in steps)
        assert steps[-1]["iterations"] > steps[0]["iterations"]
        for s in steps:
            assert s["best_move"] in legal and s["principal_line"][0] == s["best_move"]
            assert {c["move"] for c in s["candidates"]} <= legal
        # A new position replaces the search under way; a stop ends it.
        after = START.apply(START.legal_moves()[0])
        c.send({"type": "analyse", "position": START.to_text(), "id": "old"})
        c.send({"type": "analyse", "position": after.to_text(), "id": "new"})
        reply = c.recv_until(lambda m: m["type"] == "analysis" and m["ref"] == "new", 30)
        assert reply["position"] == after.to_text()
        assert c.request({"type": "stop"})["type"] == "ack"
        with pytest.raises(TimeoutError):
            c.recv_until(lambda m: m["type"] == "analysis", 1.5)
        assert not [m for m in c.messages if m.get("ref") == "old" and m.get("step", 0) > 1]


def test_bad_analysis_requests_get_errors_and_the_socket_stays(server: ServerProcess) -> None:
    over = pw.Game(START)
    rng = random.Random(1)
    while not over.state.is_terminal():
        over.push(rng.choice(over.state.legal_moves()))
    with analysis_socket(server) as c:
        c.send({"type": "analyse", "position": "nonsense", "id": 1})
        assert "position text has" in c.error("invalid_position")["message"]
        c.send({"type": "analyse", "position": over.state.to_text(), "id": 2})
        c.error("game_over")
        c.send({"type": "analyse", "position": "x" * 3000, "id": 3})
        c.error("invalid_message")
        c.send({"type": "analyse", "id": 4})
        c.error("invalid_message")
        c.send("<b>not json</b>")
        c.error("bad_json")
        assert c.request({"type": "ping"})["type"] == "pong"


def test_one_address_has_at_most_two_searches_under_way(server: ServerProcess) -> None:
    sockets = [analysis_socket(server) for _ in range(3)]
    try:
        for i, c in enumerate(sockets):
            c.send({"type": "analyse", "position": START.to_text(), "id": i})
        busy = sockets[2].error("busy")
        assert "at most 2 analyses at a time" in busy["message"]
        for c in sockets[:2]:  # the first two search on to their last step
            c.recv_until(lambda m: m["type"] == "analysis" and m["final"], 30)
        sockets[2].send({"type": "analyse", "position": START.to_text(), "id": "again"})
        sockets[2].recv_until(lambda m: m["type"] == "analysis" and m["ref"] == "again", 30)
    finally:
        for c in sockets:
            c.close()
