"""Game reviews on the server, SQLite and PostgreSQL: a finished game is reviewed once in the
AI pool (its progress over the websocket), stored and then served; a game in progress only
against the AI (up to its last move, not stored); never an online game in play."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

pytest.register_assert_rewrite("server_fixtures")

from patchwork.server.reviews.schemas import ReviewStatus  # noqa: E402
from patchwork.server.storage.store import Store  # noqa: E402
from server_fixtures import Client, ServerProcess, legal_moves  # noqa: E402

pytest_plugins = ["server_fixtures"]

CLASSES = {"best", "good", "inaccuracy", "mistake", "blunder"}


def finished_local_game(server: ServerProcess, seed: int) -> tuple[str, dict[str, Any]]:
    """A game at one screen played to its end with random legal moves: (id, final view)."""
    created = server.create(mode="local", seed=seed, name="Ann", opponent_name="Bob")
    rng = random.Random(seed)
    with server.client(created["game_id"], created["token"]) as c:
        while c.game is not None and c.game["status"] != "finished":
            reply = c.move(rng.choice(legal_moves(c.game)))
            assert reply["type"] == "ack", reply
            c.state_at(reply["version"])
        assert c.game is not None
        return created["game_id"], c.game


def stored_review(server: ServerProcess, game_id: str) -> Any:
    store = Store(server.db_url)
    try:
        return store.load_review(game_id)
    finally:
        store.close()


def wait_review(c: Client) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The progress messages, then the review, as they come over the websocket."""
    progress = []
    while True:
        m = c.recv_until(lambda m: m["type"] in ("review_progress", "review", "error"), 60)
        assert m["type"] != "error", m
        if m["type"] == "review":
            return progress, m["review"]
        progress.append(m)


def test_a_finished_game_is_reviewed_once_stored_and_served(server: ServerProcess) -> None:
    gid, game = finished_local_game(server, seed=21)
    plies = len(game["history"])
    assert server.get(f"/api/games/{gid}/review").json()["state"] == "none"
    assert stored_review(server, gid) is None
    with server.client(gid) as watcher:  # a spectator hears the progress too
        first = server.post(f"/api/games/{gid}/review")  # no token: the game is over
        assert first.status_code == 202, first.text
        started = ReviewStatus.model_validate(first.json())
        assert started.state == "running" and started.total == plies + 1
        joined = server.post(f"/api/games/{gid}/review")  # joins the one under way
        assert joined.status_code in (200, 202) and joined.json()["total"] == plies + 1
        progress, review = wait_review(watcher)
    done = [m["done"] for m in progress]
    assert done == sorted(done) and done[0] == 0 and done[-1] == plies + 1
    assert len(set(done)) == plies + 2, "one message a position, none twice"
    assert all(m["total"] == plies + 1 for m in progress)
    assert review["stored"] and review["finished"] and review["game_id"] == gid
    assert [p["ply"] for p in review["plies"]] == list(range(1, plies + 1))
    assert [p["move"] for p in review["plies"]] == [e["move"] for e in game["history"]]
    assert [p["squares"] for p in review["plies"]] == [e["squares"] for e in game["history"]]
    assert {p["class"] for p in review["plies"]} <= CLASSES
    assert [p["name"] for p in review["players"]] == ["Ann", "Bob"]
    assert review["iterations"] == 200 and review["limit"] == "200 iterations"
    # Stored, and served from then on: the same review, not a second search.
    row = stored_review(server, gid)
    assert row is not None and row.iterations == 200 and row.data == review
    again = server.post(f"/api/games/{gid}/review")
    assert again.status_code == 200
    served = ReviewStatus.model_validate(again.json())
    assert served.state == "done" and served.review is not None
    assert served.review.model_dump(mode="json") == review
    got = server.get(f"/api/games/{gid}/review").json()
    assert got["review"]["created_at"] == review["created_at"]
    with server.client(gid) as late:
        assert server.post(f"/api/games/{gid}/review").status_code == 200
        assert late.request({"type": "ping"})["type"] == "pong"
        assert not [m for m in late.messages if m["type"].startswith("review")]


def test_an_online_game_in_play_is_not_reviewed(server: ServerProcess) -> None:
    created = server.create(mode="online", name="Ann")
    gid = created["game_id"]
    waiting = server.post(f"/api/games/{gid}/review", token=created["token"])
    assert waiting.status_code == 403 and waiting.json()["error"]["code"] == "not_allowed"
    r = server.post(f"/api/games/{gid}/join", {"invite": created["invite_code"]})
    assert r.status_code == 200
    for token in (created["token"], r.json()["token"], None):
        refused = server.post(f"/api/games/{gid}/review", token=token)
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["code"] == "not_allowed"
    assert server.get(f"/api/games/{gid}/review").json()["state"] == "none"
    # Once it is over, anyone may have it reviewed.
    assert server.post(f"/api/games/{gid}/resign", token=created["token"]).status_code == 200
    assert server.post(f"/api/games/{gid}/review").status_code in (200, 202)


def test_an_ai_game_in_play_is_reviewed_to_its_last_move_and_not_stored(
    server: ServerProcess,
) -> None:
    created = server.create(mode="ai", level=1, seat=0, first_player=0, seed=5)
    gid, token = created["game_id"], created["token"]
    with server.client(gid, token) as c:
        rng = random.Random(5)
        for _ in range(2):
            g = c.wait_game(lambda g: g["to_move"] == 0)
            assert c.move(rng.choice(legal_moves(g)))["type"] == "ack"
        g = c.wait_game(lambda g: g["to_move"] == 0)
        plies = len(g["history"])
        anon = server.post(f"/api/games/{gid}/review")
        assert anon.status_code == 401 and anon.json()["error"]["code"] == "missing_token"
        bad = server.post(f"/api/games/{gid}/review", token="not-a-token")
        assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_token"
        r = server.post(f"/api/games/{gid}/review", token=token)
        assert r.status_code == 202, r.text
        progress, review = wait_review(c)
    assert progress[-1]["done"] == progress[-1]["total"] == plies + 1
    assert len(review["plies"]) == plies and not review["finished"] and not review["stored"]
    assert stored_review(server, gid) is None
    kept = server.post(f"/api/games/{gid}/review", token=token)  # same version: kept
    assert kept.status_code == 200 and kept.json()["review"] == review


def test_review_progress_keeps_a_worker_for_ai_moves(server: ServerProcess) -> None:
    """With one AI worker, an AI game's moves are still made while a review runs."""
    gid, _ = finished_local_game(server, seed=33)
    created = server.create(mode="ai", level=1, seat=0, first_player=1, seed=8)
    with server.client(gid) as watcher, server.client(created["game_id"], created["token"]) as c:
        assert server.post(f"/api/games/{gid}/review").status_code == 202
        g = c.wait_game(lambda g: g["to_move"] == 0)  # the AI moved first meanwhile
        assert len(g["history"]) >= 1
        wait_review(watcher)


@pytest.mark.both_backends
def test_the_store_reads_and_writes_reviews(backend: str, fresh_db: str) -> None:
    from patchwork.server.games.creation import new_game_data
    from patchwork.server.games.requests import CreateGame
    from patchwork.server.storage.models import EventData, ReviewData
    from patchwork.server.storage.store import AddEvent, AddReview, InsertGame

    store = Store(fresh_db)
    try:
        store.migrate()
        data = new_game_data(CreateGame(mode="local")).data

        async def write() -> None:
            await store.commit([InsertGame(data), AddEvent(EventData(data.id, 1, "created", {}))])
            await store.commit([AddReview(ReviewData(data.id, 1, 200, 0, {"plies": []}))])
            with pytest.raises(IntegrityError):  # one review per game
                await store.commit([AddReview(ReviewData(data.id, 2, 200, 0, {}))])

        asyncio.run(write())
        row = store.load_review(data.id)
        assert row is not None and row.version == 1 and row.data == {"plies": []}
        assert row.created_at.tzinfo is not None
        assert store.load_review("nope") is None
    finally:
        store.close()


def test_a_review_stored_before_the_values_were_made_consistent_is_judged_again() -> None:
    """A stored review whose value after a move is not the value before the next (as reviews
    were judged before) is served judged again from its own figures: every fall on a move."""
    import patchwork as pw
    from patchwork.ai import Limit, RandomAgent
    from patchwork.ai.review import review
    from patchwork.server.reviews.service import consistent, review_view

    game = pw.Game(pw.new_game(seed=2))
    agent = RandomAgent(seed=2)
    while not game.state.is_terminal():
        game.push(agent.choose(game.state))
    fresh = review_view("g", 1, game, review(game, Limit(iterations=200)), 200, True)
    assert consistent(fresh, game) is fresh  # already consistent: served as it is
    old = fresh.model_copy(deep=True)
    k = len(old.plies) // 2
    p = old.plies[k]
    jumped = round(min(1.0, p.win_probability_after + 0.3), 4)
    old.plies[k] = replace_ply(p, win_probability_after=jumped)
    served = consistent(old, game)
    assert served is not old and len(served.plies) == len(old.plies)
    for a, b in zip(served.plies, served.plies[1:], strict=False):
        after0 = a.win_probability_after if a.seat == 0 else 1 - a.win_probability_after
        before0 = b.win_probability_before if b.seat == 0 else 1 - b.win_probability_before
        assert abs(after0 - before0) < 1e-3
        assert a.loss == pytest.approx(a.win_probability_before - a.win_probability_after, abs=1e-4)
    assert [q.move for q in served.plies] == [q.move for q in old.plies]


def replace_ply(ply: Any, **changes: Any) -> Any:
    return ply.model_copy(update=changes)
