"""The guided first game on the server, SQLite and PostgreSQL: every lesson driven to its end
through the API (a move that does not meet a lesson answered with its hint, nothing played),
the finished course stored once as a finished game whose review starts, bad input answered
in words, never a 500; and, in one process, the games a client address may store and a
signed-in learner's game bound to the account."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

pytest.register_assert_rewrite("server_fixtures")

from patchwork.i18n import translator  # noqa: E402
from patchwork.server.common.config import Settings  # noqa: E402
from patchwork.server.http.app import create_app  # noqa: E402
from patchwork.tutorial import LESSONS, Progress, attempt, begin, replay  # noqa: E402
from patchwork.tutorial.course import OPPONENT_LEVEL, meets  # noqa: E402
from patchwork.tutorial.lessons import COUNTING  # noqa: E402
from server_fixtures import ServerProcess, fetch  # noqa: E402

pytest_plugins = ["server_fixtures"]


def chosen(progress: dict[str, Any], meeting: bool = True, seed: int = 0) -> str | None:
    """A move at ``progress`` that meets its step (or, ``meeting`` False, one that does not),
    as the course judges: what a learner who read the task would make."""
    p = Progress.from_dict(progress)
    state = replay(p.moves).state
    legal = state.legal_moves()
    pool = [m for m in legal if p.free or meets(p.task, state, m) == meeting]
    return str(random.Random(seed).choice(pool)) if pool else None


def finished(seed: int) -> dict[str, Any]:
    """A course walked to its end in this process, with random moves that meet each step."""
    p = begin()
    while not p.finished:
        move = chosen(p.to_dict(), seed=seed + len(p.moves))
        assert move is not None
        p = attempt(p, move).progress
    return p.to_dict()


def post(server: ServerProcess, path: str, body: Any, lang: str = "en") -> dict[str, Any]:
    r = fetch(
        "POST",
        f"{server.url}/api/tutorial/{path}",
        json=body,
        headers={"accept-language": lang},
        timeout=15,
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def refused(server: ServerProcess, path: str, body: Any, status: int, code: str) -> str:
    r = server.post(f"/api/tutorial/{path}", body)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    return message


def test_every_lesson_driven_to_its_end_through_the_api(server: ServerProcess) -> None:
    view = post(server, "view", {"progress": None})
    assert (view["number"], view["count"], view["id"]) == (1, len(LESSONS), LESSONS[0].id)
    assert view["title"] == LESSONS[0].title and view["task"] == LESSONS[0].steps[0].task
    board = view["board"]
    assert board["id"] == "tutorial" and board["moves"] == [] and board["status"] == "active"
    assert [(s["kind"], s["level"]) for s in board["seats"]] == [
        ("human", None),
        ("ai", OPPONENT_LEVEL),
    ]
    # A legal move that does not meet the lesson: its hint, and nothing played.
    wrong = chosen(view["progress"], meeting=False)
    assert wrong is not None
    tried = post(server, "move", {"progress": view["progress"], "move": wrong})
    assert tried["met"] is False and tried["said"] == LESSONS[0].steps[0].hint
    assert tried["view"]["progress"] == view["progress"] and tried["view"]["board"]["moves"] == []
    seen, moves = [view["id"]], 0
    while not view["finished"]:
        move = chosen(view["progress"], seed=moves)
        assert move is not None
        tried = post(server, "move", {"progress": view["progress"], "move": move})
        assert tried["met"] is True and tried["move"] == move
        after = tried["view"]
        played = after["board"]["moves"]
        if played[: len(view["board"]["moves"])] == view["board"]["moves"]:  # the same game
            assert played == [*view["board"]["moves"], move, *tried["replies"]]
        if after["id"] != view["id"] or after["finished"]:  # the lesson's last step met
            assert tried["said"] == LESSONS[view["number"] - 1].steps[-1].done
        view, moves = after, moves + 1
        seen.append(view["id"])
    order = [x for i, x in enumerate(seen) if i == 0 or seen[i - 1] != x]
    assert order == [lesson.id for lesson in LESSONS]
    assert view["notes"] == [COUNTING] and view["task"] is None
    assert view["board"]["status"] == "finished" and len(view["board"]["score_parts"]) == 2
    # Coming back with the kept progress: the same place, checked again.
    again = post(server, "view", {"progress": view["progress"]})
    assert again["finished"] and again["board"]["moves"] == view["board"]["moves"]


def test_the_words_come_in_the_requests_language(server: ServerProcess) -> None:
    fa = translator("fa")
    view = post(server, "view", {"progress": None}, lang="fa")
    assert view["title"] == fa.gettext(LESSONS[0].title)
    assert view["task"] == fa.gettext(LESSONS[0].steps[0].task)


@pytest.mark.both_backends
def test_the_finished_course_is_stored_once_as_a_game_to_review(server: ServerProcess) -> None:
    progress = finished(seed=11)
    made = post(server, "review", {"progress": progress})
    gid = made["game_id"]
    assert made["review_url"] == f"/play/{gid}?replay=1&review=1"
    assert post(server, "review", {"progress": progress})["game_id"] == gid  # not a second game
    game = server.game(gid)
    moves = progress["moves"]
    assert (game["status"], game["mode"], game["rated"]) == ("finished", "ai", False)
    assert [(s["kind"], s["name"], s["account"]) for s in game["seats"]] == [
        ("human", "Player 1", False),
        ("ai", f"AI level {OPPONENT_LEVEL}", False),
    ]
    assert [e["move"] for e in game["history"]] == moves and game["version"] == len(moves) + 1
    end = replay(moves).state
    assert game["result"] == {
        "termination": "finished",
        "winner": end.winner(),
        "scores": list(end.scores()),
    }
    assert server.get(f"/api/games/{gid}/replay").status_code == 200
    r = server.post(f"/api/games/{gid}/review")  # any finished game: no token needed
    assert r.status_code in (200, 202), r.text


def test_bad_input_is_answered_in_words(server: ServerProcess) -> None:
    first = {"lesson": 0, "moves": []}
    for progress in ([], "lesson 1", {"lesson": "0"}, {"lesson": 0, "moves": "A A"}):
        refused(server, "view", {"progress": progress}, 422, "invalid_request")
    refused(server, "view", {"progress": {**first, "extra": 1}}, 422, "invalid_request")
    refused(
        server, "view", {"progress": {"lesson": 0, "moves": ["A"] * 201}}, 422, "invalid_request"
    )
    refused(
        server, "view", {"progress": {"lesson": 0, "moves": ["A" * 21]}}, 422, "invalid_request"
    )
    refused(server, "view", {"progress": {"lesson": 10**9}}, 422, "invalid_request")
    says = refused(
        server, "view", {"progress": {"lesson": 42, "moves": []}}, 400, "invalid_progress"
    )
    assert "lesson number" in says
    says = refused(
        server, "view", {"progress": {"lesson": 0, "moves": ["Z9"]}}, 400, "invalid_progress"
    )
    assert "Z9" in says
    refused(
        server, "view", {"progress": {"lesson": 0, "step": 5, "moves": []}}, 400, "invalid_progress"
    )
    refused(server, "move", {"progress": first, "move": "hello"}, 400, "invalid_move")
    absent = next(i for i in range(33) if i not in replay([]).state.offered)
    r = server.post("/api/tutorial/move", {"progress": first, "move": f"{absent}r0@a1"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "illegal_move"
    assert r.json()["error"]["plain"]
    refused(server, "move", {"progress": first, "move": "A" * 41}, 422, "invalid_request")
    refused(server, "move", {"progress": first}, 422, "invalid_request")
    refused(server, "move", {"progress": finished(seed=3), "move": "A"}, 409, "game_over")
    refused(server, "review", {"progress": first}, 409, "game_not_over")
    refused(server, "review", {}, 422, "invalid_request")
    r = server.post("/api/tutorial/view", None)
    assert r.status_code == 422


def test_a_client_stores_a_few_games_and_an_account_its_own(tmp_path: Path) -> None:
    """As many games as reviews it may start (--review-burst), the same course again being
    the same game; signed in, the game is bound to the account and carries its name."""
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'g.db'}", ai_workers=1, review_burst=1, http_rate=0
    )
    one, two = finished(seed=1), finished(seed=2)
    assert one["moves"] != two["moves"]
    with TestClient(create_app(settings)) as c:
        first = c.post("/api/tutorial/review", json={"progress": one})
        assert first.status_code == 200, first.text
        again = c.post("/api/tutorial/review", json={"progress": one})
        assert again.json()["game_id"] == first.json()["game_id"]
        r = c.post("/api/tutorial/review", json={"progress": two})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        signed = c.post(
            "/api/account/signup", json={"name": "Learner", "password": "a long password"}
        )
        assert signed.status_code == 201, signed.text
        csrf = {"x-csrf-token": signed.json()["csrf_token"]}
        view = c.post("/api/tutorial/view", json={"progress": None}, headers=csrf).json()
        assert view["board"]["seats"][0]["name"] == "Learner"
        mine = c.post("/api/tutorial/review", json={"progress": one}, headers=csrf)
        assert mine.status_code == 429  # the address's games, whoever asks
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'h.db'}", ai_workers=1, http_rate=0)
    with TestClient(create_app(settings)) as c:
        signed = c.post(
            "/api/account/signup", json={"name": "Learner", "password": "a long password"}
        )
        csrf = {"x-csrf-token": signed.json()["csrf_token"]}
        mine = c.post("/api/tutorial/review", json={"progress": one}, headers=csrf)
        assert mine.status_code == 200, mine.text
        game = c.get(f"/api/games/{mine.json()['game_id']}").json()
        assert game["seats"][0]["name"] == "Learner" and game["seats"][0]["account"] is True
        listed = c.get("/api/account/games?status=finished").json()
        assert mine.json()["game_id"] in str(listed)
