"""Puzzle ratings against a real server process and a real database, SQLite and PostgreSQL
(docs/puzzles.md, "Puzzle rating"): a signed-in player's first answer to a puzzle moves their
rating as Glicko-2 says (right up, wrong down), a second answer to it changes nothing, giving
up first is a wrong answer and the solution is not read before one of them; a guest gets no
rating; the next puzzle at the player's level is an unattempted one nearest their rating;
answers at once from one account lose no update; migration 0006 upgrades a database with
accounts. Players sign up as people do, each from an address of their own."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

import httpx  # noqa: E402
from sqlalchemy import insert, inspect  # noqa: E402

from patchwork.puzzles import Puzzle, starter  # noqa: E402
from patchwork.server.puzzles import store as puzzle_store  # noqa: E402
from patchwork.server.puzzles.rating import DIFFICULTY_RATINGS, after_attempt  # noqa: E402
from patchwork.server.ratings.glicko2 import Rating  # noqa: E402
from patchwork.server.storage.migrate import upgrade  # noqa: E402
from patchwork.server.storage.models import users  # noqa: E402
from patchwork.server.storage.store import make_engine  # noqa: E402
from server_fixtures import SHARED_ARGS, ServerProcess, http_client, running_server  # noqa: E402
from test_server_ratings import Player  # noqa: E402

pytest_plugins = ["server_fixtures"]

START = Rating()


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that believes the tests' X-Forwarded-For (sign-ups are limited per address)."""
    tmp = tmp_path_factory.mktemp(f"puzzle-rating-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, "--forwarded-allow-ips", "127.0.0.1") as p:
        yield p


@pytest.fixture
def player(server: ServerProcess) -> Iterator[Player]:
    p = Player(server)
    yield p
    p.close()


def wrong_move(p: Puzzle) -> str:
    return next(str(m) for m in p.state().legal_moves() if str(m) not in p.answers)


def answer(who: Player | httpx.Client, p: Puzzle, right: bool) -> dict[str, Any]:
    http = who.http if isinstance(who, Player) else who
    move = p.answers[0] if right else wrong_move(p)
    r = http.post(f"/api/puzzles/{p.id}/answer", json={"move": move})
    assert r.status_code == 200, r.text
    verdict: dict[str, Any] = r.json()
    assert verdict["right"] is right
    return verdict


def my_rating(who: Player) -> dict[str, Any]:
    r = who.http.get("/api/puzzles/rating")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def of_difficulty(d: int) -> list[Puzzle]:
    return [p for p in starter() if p.difficulty == d]


@pytest.mark.both_backends
def test_the_first_answer_counts_and_only_it(player: Player) -> None:
    a, b, c = of_difficulty(3)[:3]
    assert my_rating(player) | {"updated_at": None} == {
        "rating": 1500.0,
        "rd": 350.0,
        "provisional": True,
        "attempts": 0,
        "solved": 0,
        "updated_at": None,
    }
    # Wrong first: down, by one Glicko-2 period against the puzzle's rating.
    lost = answer(player, a, right=False)
    one = after_attempt(START, a, won=False)
    assert lost["rating"] == round(one.rating, 2) < 1500
    assert lost["rating_change"] == round(one.rating - 1500, 2) < 0
    # Right after that: solved, but only the first answer counts.
    again = answer(player, a, right=True)
    assert again["rating"] == lost["rating"] and again["rating_change"] is None
    # Right first: up.
    won = answer(player, b, right=True)
    two = after_attempt(one, b, won=True)
    assert won["rating"] == round(two.rating, 2) > lost["rating"]
    assert won["rating_change"] == pytest.approx(two.rating - one.rating, abs=0.01)
    # A change made with the cookie but without its CSRF token is refused: nothing counted.
    bare = http_client(base_url=player.http.base_url, cookies=player.http.cookies)
    r = bare.post(f"/api/puzzles/{c.id}/answer", json={"move": c.answers[0]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    bare.close()
    # The solution is not read before an answer; giving up first is a wrong answer.
    r = player.http.get(f"/api/puzzles/{c.id}/solution")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_allowed"
    gave_up = player.post(f"/api/puzzles/{c.id}/solution").json()
    three = after_attempt(two, c, won=False)
    assert gave_up["answers"] == list(c.answers)
    assert gave_up["rating"] == round(three.rating, 2) < won["rating"]
    assert answer(player, c, right=True)["rating_change"] is None
    assert player.http.get(f"/api/puzzles/{c.id}/solution").status_code == 200
    assert player.post(f"/api/puzzles/{c.id}/solution").json()["rating_change"] is None
    now = my_rating(player)
    assert (now["rating"], now["rd"]) == (round(three.rating, 2), round(three.rd, 2))
    assert (now["attempts"], now["solved"]) == (3, 1) and now["updated_at"] is not None


def test_a_guest_gets_no_rating(server: ServerProcess) -> None:
    p = of_difficulty(2)[0]
    with http_client(base_url=server.url) as guest:
        verdict = answer(guest, p, right=True)
        assert verdict["rating"] is None and verdict["rating_change"] is None
        r = guest.get("/api/puzzles/rating")
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
        assert guest.get(f"/api/puzzles/{p.id}/solution").json()["rating"] is None
        assert guest.post(f"/api/puzzles/{p.id}/solution").json()["answers"] == list(p.answers)
        plain = guest.get(f"/api/puzzles/next?after={p.id}&difficulty=2").json()
        mine = guest.get(f"/api/puzzles/next?after={p.id}&difficulty=2&level=mine").json()
        assert mine == plain
        assert guest.get("/api/puzzles/next?level=yours").status_code == 422


def test_the_next_puzzle_at_your_level(player: Player) -> None:
    """At 1500 the nearest puzzles are difficulty 3's (1420); each one attempted is skipped;
    three wrong answers bring the rating nearer difficulty 2's (951)."""
    assert DIFFICULTY_RATINGS[2] < 1185 < DIFFICULTY_RATINGS[3] < 1500 < 1702
    threes, twos = of_difficulty(3), of_difficulty(2)
    asked = []
    for _ in range(4):
        p = player.http.get("/api/puzzles/next?level=mine").json()
        asked.append(p["id"])
        answer(player, next(q for q in starter() if q.id == p["id"]), right=False)
    assert asked == [q.id for q in threes[:3]] + [twos[0].id]
    assert my_rating(player)["rating"] < 1185
    # After a puzzle: the first unattempted one of the nearest rating after it, round.
    after = player.http.get(f"/api/puzzles/next?level=mine&after={twos[5].id}").json()
    assert (after["id"], after["rating"]) == (twos[6].id, round(DIFFICULTY_RATINGS[2]))
    last = player.http.get(f"/api/puzzles/next?level=mine&after={twos[-1].id}").json()
    assert last["id"] == twos[1].id  # round to the start, past the one attempted


@pytest.mark.both_backends
def test_answers_at_once_from_one_account_lose_no_update(player: Player) -> None:
    """Five puzzles of one difficulty, each answered right twice at once (ten requests): five
    attempts count, each rated from the one before, whatever their order."""
    puzzles = of_difficulty(4)[:5]
    barrier = threading.Barrier(len(puzzles) * 2)
    verdicts: list[dict[str, Any]] = []

    def send(p: Puzzle) -> None:
        barrier.wait()
        verdicts.append(answer(player, p, right=True))

    threads = [threading.Thread(target=send, args=(p,)) for p in puzzles * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(verdicts) == 10
    assert sum(v["rating_change"] is not None for v in verdicts) == 5
    expected = START
    for p in puzzles:
        expected = after_attempt(expected, p, won=True)
    now = my_rating(player)
    assert now["rating"] == round(expected.rating, 2) and now["rd"] == round(expected.rd, 2)
    assert (now["attempts"], now["solved"]) == (5, 5)


@pytest.mark.both_backends
def test_migration_0006_upgrades_a_database_with_accounts(backend: str, fresh_db: str) -> None:
    engine = make_engine(fresh_db)
    try:
        upgrade(engine, "0005")
        with engine.begin() as conn:
            conn.execute(
                insert(users).values(
                    id="u1",
                    name="Ann",
                    name_key="ann",
                    password_hash="x",
                    created_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
                    rating=1612.0,
                    rd=80.0,
                    volatility=0.06,
                    people_games=3,
                )
            )
        assert "puzzle_ratings" not in inspect(engine).get_table_names()
        upgrade(engine)
        # An account from before starts at the start; its first attempt is rated and kept.
        assert puzzle_store.standing(engine, "u1").rating == START
        p = of_difficulty(1)[0]
        done = puzzle_store.attempt(engine, "u1", p, True)
        assert done.before == START and done.after == after_attempt(START, p, won=True)
        assert puzzle_store.attempt(engine, "u1", p, False).before is None
        standing = puzzle_store.standing(engine, "u1")
        assert (standing.rating, standing.attempts, standing.attempted) == (
            done.after,
            1,
            frozenset({p.id}),
        )
    finally:
        engine.dispose()
