"""Puzzles on the server, SQLite and PostgreSQL: today's puzzle, one by number, the next of a
difficulty, and the verdict on an answer proved again (never the answers before it is
solved); bad ids and moves refused with their reason."""

from __future__ import annotations

from datetime import date

import pytest

pytest.register_assert_rewrite("server_fixtures")

import patchwork as pw  # noqa: E402
from patchwork.puzzles import daily, starter  # noqa: E402
from server_fixtures import ServerProcess  # noqa: E402

pytest_plugins = ["server_fixtures"]


def test_today_one_by_number_and_the_next(server: ServerProcess) -> None:
    today = server.get("/api/puzzles/daily").json()
    assert today["id"] == daily(date.today()).id and today["daily"] is True
    assert "answers" not in today and "line" not in today  # nothing gives it away
    p = starter()[5]
    asked = server.get(f"/api/puzzles/{p.id}").json()
    assert (asked["id"], asked["position"], asked["difficulty"]) == (p.id, p.position, p.difficulty)
    after = server.get(f"/api/puzzles/next?after={p.id}&difficulty={p.difficulty}").json()
    assert after["id"] > p.id and after["difficulty"] == p.difficulty
    themed = server.get("/api/puzzles/next?theme=bonus").json()
    assert "bonus" in themed["themes"]


def test_an_answer_gets_its_proof_and_the_answers_only_once_right(server: ServerProcess) -> None:
    p = starter()[0]
    wrong = next(str(m) for m in p.state().legal_moves() if str(m) not in p.answers)
    r = server.post(f"/api/puzzles/{p.id}/answer", {"move": wrong})
    assert r.status_code == 200, r.text
    verdict = r.json()
    assert verdict["right"] is False and verdict["answers"] == []
    assert verdict["proof"]["line"][0] == wrong and verdict["proof"]["margin"] <= p.margin - p.gap
    right = server.post(f"/api/puzzles/{p.id}/answer", {"move": p.answers[0]}).json()
    assert right["right"] is True and right["answers"] == list(p.answers)
    assert right["proof"]["margin"] == p.margin and right["proof"]["wins"] is True
    assert right["search"] is None  # proved exactly
    solution = server.get(f"/api/puzzles/{p.id}/solution").json()
    assert solution["answers"] == list(p.answers) and solution["line"] == list(p.line)


def test_bad_ids_and_answers_are_refused_with_their_reason(server: ServerProcess) -> None:
    p = starter()[0]
    r = server.post(f"/api/puzzles/{p.id}/answer", {"move": "hello"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_move"
    absent = next(i for i in range(33) if i not in p.state().offered)
    r = server.post(f"/api/puzzles/{p.id}/answer", {"move": f"{absent}r0@a1"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "illegal_move"
    assert server.post(f"/api/puzzles/{p.id}/answer", {"move": ""}).status_code == 422
    assert server.post(f"/api/puzzles/{p.id}/answer", {"move": 5}).status_code == 422
    assert server.post("/api/puzzles/9999/answer", {"move": "A"}).status_code == 404
    assert server.get("/api/puzzles/9999").status_code == 404
    assert server.get("/api/puzzles/next?difficulty=9").status_code == 422
    assert server.get("/api/puzzles/next?theme=%3Cb%3E").status_code == 422


def test_a_search_puzzle_is_judged_by_its_proofs_figures(server: ServerProcess) -> None:
    """A puzzle proved by a large search: the verdict gives that search's figures for the
    move (no new search), the best answer's and the most any other move got."""
    p = next(p for p in starter() if p.proof == "search" and p.answers[0] == p.line[0])
    assert p.search is not None
    best, rival = p.search.best(p.answers), p.search.rival(p.answers)
    rated = next(m for m in p.search.moves if m not in p.answers)
    wrong = server.post(f"/api/puzzles/{p.id}/answer", {"move": rated}).json()
    assert wrong["right"] is False and wrong["proof"] is None and wrong["answers"] == []
    e = p.search.moves[rated]
    assert wrong["search"] == {
        "estimate": {"win_probability": e.win, "margin": e.margin},
        "tried": True,
        "best": {"win_probability": best.win, "margin": best.margin},
        "rival": {"win_probability": rival.win, "margin": rival.margin},
        "iterations": p.search.iterations,
        "line": [rated],
        "squares": wrong["search"]["squares"],
    }
    assert len(wrong["search"]["squares"]) == len(pw.parse_move(rated).squares)
    right = server.post(f"/api/puzzles/{p.id}/answer", {"move": p.answers[0]}).json()
    assert right["right"] is True and right["answers"] == list(p.answers)
    assert right["search"]["line"] == list(p.line)
    assert right["search"]["estimate"]["win_probability"] == p.search.moves[p.answers[0]].win
